// Type-checked by `cargo xtask test` with runtime-usage.ts: the ART adapter's declarations, used as an ART
// application uses them (ART's classes only need the methods the adapter calls).
import {
  type ArtObservationLike,
  type ArtToolExecutor,
  connectArt,
  createCallIdTracker,
  createToolExecutor,
  forwardStatus,
  registerArtTools,
  STATUS_KINDS,
} from "mcp-worker-host/art-adapter.mjs";
import type { ArtObservation, McpRuntime, ToolResult } from "mcp-worker-host/mcp_worker_host.js";

class Registry {
  readonly executors = new Map<string, ArtToolExecutor>();
  async registerTool(executor: ArtToolExecutor): Promise<void> {
    this.executors.set(executor.schema.name, executor);
  }
  async unregisterTool(name: string): Promise<void> {
    this.executors.delete(name);
  }
}

class ToolSystem {
  readonly registry = new Registry();
  async executeTools(calls: { callId: string; toolName: string; arguments?: unknown }[], threadId: string): Promise<ToolResult[]> {
    return Promise.all(calls.map((c) => this.run(c.toolName, threadId)));
  }
  private async run(name: string, threadId: string): Promise<ToolResult> {
    return { callId: "", toolName: name, status: "success", metadata: { threadId } };
  }
}

class StateManager {
  async getEnabledToolsForThread(threadId: string): Promise<string[]> {
    return threadId === "t1" ? ["mcp__echo__echo"] : [];
  }
}

class Socket {
  readonly subscribers: ((observation: ArtObservationLike) => void)[] = [];
  notify(observation: ArtObservation, options?: { targetThreadId?: string }): void {
    void [observation, options];
  }
  notifyObservation(observation: ArtObservation): void {
    for (const subscriber of this.subscribers) subscriber(observation);
  }
  subscribe(callback: (observation: ArtObservationLike) => void, filter?: string | string[]): () => void {
    void filter;
    this.subscribers.push(callback);
    return () => {};
  }
}

class Repository {
  readonly stored: ArtObservation[] = [];
  async addObservation(observation: ArtObservation): Promise<void> {
    this.stored.push(observation);
  }
}

export async function art(runtime: McpRuntime): Promise<void> {
  const registry = new Registry();
  const stateManager = new StateManager();
  const socket = new Socket();
  const callIds = createCallIdTracker();
  callIds.note("t1", [{ callId: "call_1", toolName: "mcp__echo__echo", arguments: { text: "hi" } }]);
  const callId: string | undefined = callIds.take("t1", "mcp__echo__echo", { text: "hi" });
  callIds.settle("t1", ["call_1"]);
  const stopWatching: () => void = callIds.watch(socket);
  stopWatching();
  const wrapped: ToolSystem = callIds.wrapToolSystem(new ToolSystem());
  await wrapped.executeTools([{ callId: "call_2", toolName: "mcp__echo__echo", arguments: {} }], "t1");
  const schema = runtime.listTools("art").tools[0];
  if (schema) {
    const executor = createToolExecutor(runtime, schema, { callIds, stateManager, timeoutMs: 5_000 });
    const result = await executor.execute({ text: "hi" }, { threadId: "t1", traceId: "trace" });
    const runtimeCallId: string | undefined = result.metadata.runtimeCallId;
    // @ts-expect-error an ART status is success or error here
    const wrong: "pending" = result.status;
    void [wrong, runtimeCallId];
  }
  const tools = await registerArtTools(runtime, registry, { stateManager, callIds, filter: { server: "echo" } });
  const names: string[] = tools.names;
  const same: typeof callIds = tools.callIds;
  await tools.settled();
  await tools.dispose();
  const stop: () => void = forwardStatus(runtime, socket, { kinds: STATUS_KINDS, servers: ["echo"], replay: true });
  stop();
  const repository = new Repository();
  forwardStatus(runtime, { observationSocket: socket, observationRepository: repository }, { threadId: "ops" })();
  forwardStatus(runtime, { uiSystem: { getObservationSocket: () => socket } })();
  // @ts-expect-error forwarding takes event kinds
  forwardStatus(runtime, socket, { kinds: ["TOOL_EXECUTION"] });

  // An ART app's parts (an ArtInstance has all but the ToolSystem).
  const instance = { toolRegistry: registry, stateManager, uiSystem: { getObservationSocket: () => socket } };
  const connection = await connectArt(runtime, instance);
  const none: undefined = connection.toolSystem;
  await connection.dispose();
  const withToolSystem = await connectArt(runtime, { ...instance, toolSystem: new ToolSystem(), observationRepository: repository });
  const toolSystem: ToolSystem = withToolSystem.toolSystem;
  await toolSystem.executeTools([], "t1");
  await withToolSystem.dispose();
  void [callId, names, same, none];
}
