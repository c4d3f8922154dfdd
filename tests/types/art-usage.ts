// Type-checked by `cargo xtask test` with runtime-usage.ts: the ART adapter's declarations, used as an ART
// application uses them (ART's classes only need the methods the adapter calls).
import {
  type ArtToolExecutor,
  connectArt,
  createToolExecutor,
  forwardStatus,
  registerArtTools,
  STATUS_KINDS,
  trackCallIds,
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
  async executeTools(calls: { callId: string; toolName: string; arguments: unknown }[], threadId: string): Promise<ToolResult[]> {
    return Promise.all(calls.map((c) => this.run(c.toolName, threadId)));
  }
  private async run(name: string, threadId: string): Promise<ToolResult> {
    return { callId: "", toolName: name, status: "success", metadata: { threadId } };
  }
}

const socket = { notify: (observation: ArtObservation, options?: { targetThreadId?: string }) => void [observation, options] };

export async function art(runtime: McpRuntime): Promise<void> {
  const registry = new Registry();
  const toolSystem = new ToolSystem();
  const tracker = trackCallIds(toolSystem);
  const callId: string | undefined = tracker.take("t1", "mcp__echo__echo");
  tracker.restore();
  const schema = runtime.listTools("art").tools[0];
  if (schema) {
    const executor = createToolExecutor(runtime, schema, { timeoutMs: 5_000 });
    const result: ToolResult = await executor.execute({ text: "hi" }, { threadId: "t1", traceId: "trace" });
    // @ts-expect-error an ART status is success or error here
    const wrong: "pending" = result.status;
    void wrong;
  }
  const tools = await registerArtTools(runtime, registry, { toolSystem, filter: { server: "echo" } });
  const names: string[] = tools.names;
  await tools.settled();
  await tools.dispose();
  const stop: () => void = forwardStatus(runtime, socket, { kinds: STATUS_KINDS, servers: ["echo"], replay: true });
  stop();
  // @ts-expect-error forwarding takes event kinds
  forwardStatus(runtime, socket, { kinds: ["TOOL_EXECUTION"] });
  const connection = await connectArt(runtime, { toolRegistry: registry, toolSystem, observationSocket: socket });
  await connection.dispose();
  void [callId, names];
}
