// The mcp-worker runtime in an ART application (https://github.com/InferQ/ART, npm `art-framework`).
//
// - `registerArtTools` puts one ART `IToolExecutor` per entry of the runtime's union registry (every MCP tool of
//   every server, and the native tools) into an ART `ToolRegistry`, with its schema as ART's `ToolSchema` (prepared
//   for the ajv validation ART runs before it executes a tool), and keeps the registry in step as servers start,
//   change their tools and stop.
// - An executor's `execute(input, context)` runs the call through the runtime and returns ART's `ToolResult` with
//   the call's real `callId`; an MCP tool's error (`isError`) is `status: "error"` with the tool's text.
// - `forwardStatus` forwards the runtime's status events to an ART observation socket, as ART `Observation`s.
//
// It has no dependency: ART's objects are used through the interfaces ART documents (registerTool, unregisterTool,
// executeTools, notify), and the runtime is the host package's `McpRuntime`.

/** A call id when nothing better is known (ART overwrites it with the LLM's own afterwards). */
function generatedCallId() {
  const random = globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(16).slice(2)}`;
  return `mcp-worker-${random}`;
}

/**
 * Tells executors the LLM's `callId` of the call they run. ART's `ExecutionContext` has no `callId`, but its
 * `ToolSystem.executeTools(toolCalls, threadId)` runs a batch's calls one after another in order, so the executor
 * of a tool in a thread takes the first pending call of that tool in that thread. Wraps `toolSystem.executeTools`
 * (on that instance only); `restore()` undoes it.
 */
export function trackCallIds(toolSystem) {
  const pending = new Map();
  const original = toolSystem.executeTools;
  toolSystem.executeTools = async function executeTools(toolCalls, threadId, traceId) {
    const entries = (Array.isArray(toolCalls) ? toolCalls : []).map((c) => ({ toolName: c?.toolName, callId: c?.callId }));
    const queue = pending.get(threadId) ?? [];
    queue.push(...entries);
    pending.set(threadId, queue);
    try {
      return await original.call(this, toolCalls, threadId, traceId);
    } finally {
      // Calls that were never executed (refused, or after a suspension) are forgotten with their batch.
      const left = (pending.get(threadId) ?? []).filter((entry) => !entries.includes(entry));
      if (left.length) pending.set(threadId, left);
      else pending.delete(threadId);
    }
  };
  return {
    take(threadId, toolName) {
      const queue = pending.get(threadId);
      const index = queue?.findIndex((entry) => entry.toolName === toolName) ?? -1;
      if (index < 0) return undefined;
      const [entry] = queue.splice(index, 1);
      return entry.callId;
    },
    restore() {
      toolSystem.executeTools = original;
    },
  };
}

/**
 * An ART `IToolExecutor` for the runtime's tool `schema` (an entry of `runtime.listTools("art")`).
 *
 * ART's ToolSystem checks that the tool is enabled for the thread before it calls `execute`; the runtime, which
 * fails closed, is then told the same (`enableTools`), so that ART stays the authority on enablement.
 */
export function createToolExecutor(runtime, schema, { callIds, timeoutMs } = {}) {
  return {
    schema,
    async execute(input, context) {
      const threadId = context?.threadId ?? "";
      const callId = context?.callId ?? callIds?.take(threadId, schema.name) ?? generatedCallId();
      try {
        runtime.enableTools(threadId, [schema.name]);
        const options = { traceId: context?.traceId ?? undefined, timeoutMs };
        const [result] = await runtime.executeTools([{ callId, toolName: schema.name, arguments: input ?? {} }], threadId, options);
        return result;
      } catch (error) {
        return {
          callId,
          toolName: schema.name,
          status: "error",
          error: String(error?.message ?? error),
          metadata: { errorCode: error?.code },
        };
      }
    },
  };
}

/**
 * Registers an executor for every tool of the runtime (those `filter` selects, see `listTools`) into ART's
 * `toolRegistry`, and keeps it in step with the runtime's registry. With `toolSystem` (ART's), executors learn each
 * call's real `callId` (see `trackCallIds`). Resolves once the current tools are registered; `dispose()` stops
 * following the runtime and unregisters them.
 */
export async function registerArtTools(runtime, toolRegistry, { toolSystem, filter, timeoutMs } = {}) {
  const callIds = toolSystem ? trackCallIds(toolSystem) : undefined;
  const registered = new Map();
  const sync = async () => {
    const { tools } = runtime.listTools("art", filter);
    const current = new Set(tools.map((schema) => schema.name));
    for (const schema of tools) {
      const shape = JSON.stringify(schema);
      if (registered.get(schema.name) === shape) continue;
      await toolRegistry.registerTool(createToolExecutor(runtime, schema, { callIds, timeoutMs }));
      registered.set(schema.name, shape);
    }
    for (const name of [...registered.keys()]) {
      if (current.has(name)) continue;
      await toolRegistry.unregisterTool?.(name);
      registered.delete(name);
    }
  };
  // One sync at a time, in order: registry changes may come in bursts.
  let chain = sync();
  await chain;
  const unsubscribe = runtime.subscribe(() => {
    chain = chain.then(sync, sync);
  }, { kinds: ["toolsChanged"] });
  return {
    get names() {
      return [...registered.keys()];
    },
    /** Resolves once every change seen so far is applied to ART's registry. */
    settled() {
      return chain;
    },
    async dispose() {
      unsubscribe();
      await chain.catch(() => {});
      for (const name of registered.keys()) await toolRegistry.unregisterTool?.(name);
      registered.clear();
      callIds?.restore();
    },
  };
}

/** Every event kind except tool executions, which ART's own ToolSystem records when it runs our tools. */
export const STATUS_KINDS = [
  "serverStatus",
  "serverRemoved",
  "credentialsRequired",
  "toolsChanged",
  "listChanged",
  "serverLog",
  "progress",
  "serverRestarting",
  "elicitationRequested",
  "samplingRequested",
  "serverRequestSettled",
];

/**
 * Forwards the runtime's status events to an ART observation socket (`uiSystem.getObservationSocket()`), as ART
 * `Observation`s: tool executions to their thread, everything else to every subscriber. Returns the function that
 * stops forwarding.
 */
export function forwardStatus(runtime, observationSocket, { kinds = STATUS_KINDS, servers, replay = false } = {}) {
  return runtime.subscribe(
    (observation) => {
      const options = observation.threadId ? { targetThreadId: observation.threadId } : undefined;
      observationSocket.notify(observation, options);
    },
    { format: "observation", kinds, servers, replay },
  );
}

/**
 * Both at once: the runtime's tools in ART's registry (executed with real call ids through `toolSystem`, if given)
 * and its status on ART's observation socket (if given). `dispose()` undoes both.
 */
export async function connectArt(runtime, { toolRegistry, toolSystem, observationSocket, filter, timeoutMs } = {}) {
  const tools = await registerArtTools(runtime, toolRegistry, { toolSystem, filter, timeoutMs });
  const stopForwarding = observationSocket ? forwardStatus(runtime, observationSocket) : () => {};
  return {
    tools,
    async dispose() {
      stopForwarding();
      await tools.dispose();
    },
  };
}
