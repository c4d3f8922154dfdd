// The mcp-worker runtime in an ART application (ART, "Agent Runtime": https://github.com/InferQ/ART, npm
// `art-framework`; written for ART 0.4.16 and tested against its own ToolRegistry, ToolSystem, StateManager,
// ObservationManager and ObservationSocket).
//
// - Tools. `registerArtTools` puts one ART `IToolExecutor` per entry of the runtime's union registry (every MCP tool
//   of every server, and the native tools) into ART's `ToolRegistry`, with its schema as ART's `ToolSchema`
//   (prepared for the ajv validation ART runs before it executes a tool), and keeps the registry in step as servers
//   start, change their tools and stop. An executor runs its call through `runtime.executeTools` and returns ART's
//   `ToolResult`; an MCP tool's error (`isError`) is `status: "error"` with the tool's text.
//
// - Enablement. ART's ToolSystem calls an executor only for a tool enabled in the thread's `ThreadConfig`. The
//   runtime, which fails closed, checks a list of enabled tools when it runs the call; with ART's `StateManager`,
//   an executor hands it ART's list for the thread (`getEnabledToolsForThread`) as the call's `enabledTools`, which
//   the runtime checks and stores nowhere: ART's enabling and disabling decide, and the runtime's own thread lists
//   (`setThreadTools`) are never written. Without ART's StateManager the runtime's own list for the thread decides.
//
// - Call ids. ART's `ToolSystem.executeTools(toolCalls, threadId, traceId)` calls `execute(call.arguments,
//   { threadId, traceId })`: the model's `callId` is not passed, only the call's own `arguments` object. A
//   `CallIdTracker` learns calls before they run and gives an executor the callId of the pending call whose
//   `arguments` is the very object it got (else one of the same tool with equal arguments), so that a call ART
//   refused before execution (not enabled, unknown tool, invalid arguments) never lends its id to another. It
//   learns them from `tracker.wrapToolSystem(toolSystem)`, an object whose `executeTools` notes each batch and
//   runs it on ART's ToolSystem (which stays untouched), or from `TOOL_CALL` observations with
//   `content: { toolCalls }` (ART's documented shape) recorded on ART's observation socket before the calls run.
//   An app built with `createArtInstance` has no ToolSystem object (ArtInstance has no `toolSystem`) and ART
//   0.4.16's PESAgent records no TOOL_CALL observation before it executes, so nothing the adapter can see carries
//   the model's callIds. Such an app loses only the runtime's side of the correlation: the runtime records the
//   call (its history and status events, the `callId` a native tool gets) under a generated `mcp-worker-…` id;
//   ART's own ToolResult, TOOL_EXECUTION observation and conversation keep the model's id, and that observation's
//   `content.metadata.runtimeCallId` names the runtime's id. To give the runtime the model's ids, let ART's agent
//   run its calls through the tracker, with ART's `agentCore` option:
//     agentCore: class extends PESAgent {
//       constructor(deps) { super({ ...deps, toolSystem: callIds.wrapToolSystem(deps.toolSystem) }); } }
//
// - Observations. `forwardStatus` forwards the runtime's status events to ART as `Observation`s: it stores each in
//   ART's `ObservationRepository` (what ART's ObservationManager.getObservations and the socket's getHistory read)
//   and notifies ART's `ObservationSocket` with `notifyObservation`, which honours subscribers' type filters, as
//   ART's ObservationManager.record does (whose `notify` does not filter). Tool executions are left out by default:
//   ART's ToolSystem records a TOOL_EXECUTION for every call it runs.
//
// It has no dependency: ART's objects are used through the methods ART's classes have, and the runtime is the
// host package's `McpRuntime`. Where ART keeps a part private, the adapter uses what the public object was built
// with: a ToolRegistry's `stateManager`, an ObservationSocket's `observationRepository` (ART's factory gives both the
// app's own); an explicit option always wins.

/** Every event kind except tool executions, which ART's own ToolSystem records when it runs our tools. */
export const STATUS_KINDS = [
  "serverStatus",
  "serverRemoved",
  "credentialsRequired",
  "authorizationRequired",
  "toolsChanged",
  "toolsHidden",
  "listChanged",
  "resourceUpdated",
  "serverLog",
  "progress",
  "serverRestarting",
  "elicitationRequested",
  "samplingRequested",
  "serverRequestSettled",
];

/** Pending calls kept per thread; older ones (never run nor settled) are dropped first. */
const MAX_PENDING = 512;

/** A call id when the model's is not known. */
function generatedCallId() {
  const random = globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(16).slice(2)}`;
  return `mcp-worker-${random}`;
}

function sameJson(a, b) {
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

/** Learns the model's calls before ART runs them, and tells each executor the `callId` of the call it runs. */
export function createCallIdTracker() {
  const pending = new Map();

  const note = (threadId, toolCalls) => {
    if (!Array.isArray(toolCalls)) return;
    const queue = pending.get(threadId) ?? [];
    for (const call of toolCalls) {
      if (typeof call?.callId !== "string" || typeof call?.toolName !== "string") continue;
      // A batch may be noted twice (its TOOL_CALL observation and the wrapped ToolSystem).
      if (queue.some((entry) => entry.callId === call.callId && entry.toolName === call.toolName)) continue;
      queue.push({ callId: call.callId, toolName: call.toolName, arguments: call.arguments });
    }
    queue.splice(0, Math.max(0, queue.length - MAX_PENDING));
    if (queue.length) pending.set(threadId, queue);
  };

  const settle = (threadId, callIds) => {
    const queue = pending.get(threadId);
    if (!queue) return;
    const done = new Set(callIds);
    const left = queue.filter((entry) => !done.has(entry.callId));
    if (left.length) pending.set(threadId, left);
    else pending.delete(threadId);
  };

  const take = (threadId, toolName, input) => {
    const queue = pending.get(threadId);
    if (!queue) return undefined;
    const isObject = input !== null && typeof input === "object";
    let index = isObject ? queue.findIndex((entry) => entry.toolName === toolName && entry.arguments === input) : -1;
    if (index < 0) index = queue.findIndex((entry) => entry.toolName === toolName && sameJson(entry.arguments, input));
    if (index < 0) return undefined;
    const [entry] = queue.splice(index, 1);
    if (!queue.length) pending.delete(threadId);
    return entry.callId;
  };

  return {
    note,
    take,
    settle,
    /**
     * An object that runs ART's tool calls on `toolSystem` (inheriting everything else from it), noting each
     * batch first. `toolSystem` itself is not changed.
     */
    wrapToolSystem(toolSystem) {
      const wrapped = Object.create(toolSystem);
      wrapped.executeTools = async function executeTools(toolCalls, threadId, traceId) {
        note(threadId, toolCalls);
        try {
          return await toolSystem.executeTools(toolCalls, threadId, traceId);
        } finally {
          // Calls never executed (refused, or after a suspension) are forgotten with their batch.
          settle(threadId, (Array.isArray(toolCalls) ? toolCalls : []).map((call) => call?.callId));
        }
      };
      return wrapped;
    },
    /**
     * Follows ART's observation socket: a `TOOL_CALL` observation's `content.toolCalls` are noted; a call that
     * ART's ToolSystem recorded (TOOL_EXECUTION) is settled. Returns the function that stops following.
     */
    watch(observationSocket) {
      return observationSocket.subscribe(
        (observation) => {
          if (observation?.metadata?.source === "mcp-worker") return;
          const threadId = observation?.threadId;
          if (observation?.type === "TOOL_CALL") {
            note(threadId, observation.content?.toolCalls);
          } else if (observation?.type === "TOOL_EXECUTION") {
            const results = observation.content?.toolResults;
            const ids = Array.isArray(results) ? results.map((r) => r?.callId) : [observation.metadata?.callId ?? observation.content?.callId];
            settle(threadId, ids);
          }
        },
        ["TOOL_CALL", "TOOL_EXECUTION"],
      );
    },
  };
}

/** The tools ART enables in the thread (`undefined` when ART has no config for it). */
async function artEnabledTools(stateManager, threadId) {
  try {
    if (typeof stateManager.getEnabledToolsForThread === "function") {
      return await stateManager.getEnabledToolsForThread(threadId);
    }
    return (await stateManager.loadThreadContext(threadId))?.config?.enabledTools ?? [];
  } catch {
    return undefined;
  }
}

/** ART's enabled tools of the thread, as the runtime's `enabledTools` (exact names), or `undefined`. */
async function artToolList(stateManager, threadId) {
  const enabled = await artEnabledTools(stateManager, threadId);
  if (!Array.isArray(enabled)) return undefined;
  // ART compares names exactly; in the runtime an entry ending in `*` would enable a prefix.
  return [...new Set(enabled.filter((name) => typeof name === "string" && !name.endsWith("*")))];
}

/**
 * An ART `IToolExecutor` for the runtime's tool `schema` (an entry of `runtime.listTools("art")`). `callIds` gives
 * it the model's callId of each call (see `createCallIdTracker`); `stateManager` (ART's) is the authority on
 * enablement (see the header).
 */
export function createToolExecutor(runtime, schema, { callIds, stateManager, timeoutMs } = {}) {
  return {
    schema,
    async execute(input, context) {
      const threadId = context?.threadId ?? "";
      const modelCallId = context?.callId ?? callIds?.take(threadId, schema.name, input);
      const callId = modelCallId ?? generatedCallId();
      const runtimeCallId = modelCallId ? {} : { runtimeCallId: callId };
      try {
        const enabledTools = stateManager ? await artToolList(stateManager, threadId) : undefined;
        const options = { traceId: context?.traceId ?? undefined, timeoutMs, enabledTools };
        const [result] = await runtime.executeTools([{ callId, toolName: schema.name, arguments: input ?? {} }], threadId, options);
        return { ...result, metadata: { ...result.metadata, ...runtimeCallId } };
      } catch (error) {
        return {
          callId,
          toolName: schema.name,
          status: "error",
          error: String(error?.message ?? error),
          metadata: { errorCode: error?.code, ...runtimeCallId },
        };
      }
    },
  };
}

/**
 * Registers an executor for every tool of the runtime (those `filter` selects, see `listTools`) into ART's
 * `toolRegistry`, and keeps it in step with the runtime's registry. Executors take callIds from `callIds` (a new
 * tracker if none is given; it is `callIds` of the result) and follow the enablement of `stateManager` (default: the
 * one ART's ToolRegistry was built with). Resolves once the current tools are registered; `dispose()` stops
 * following the runtime and unregisters them.
 */
export async function registerArtTools(runtime, toolRegistry, { stateManager, callIds, filter, timeoutMs } = {}) {
  const tracker = callIds ?? createCallIdTracker();
  const state = stateManager ?? toolRegistry.stateManager;
  const registered = new Map();
  const sync = async () => {
    const { tools } = runtime.listTools("art", filter);
    const current = new Set(tools.map((schema) => schema.name));
    for (const schema of tools) {
      const shape = JSON.stringify(schema);
      if (registered.get(schema.name) === shape) continue;
      await toolRegistry.registerTool(createToolExecutor(runtime, schema, { callIds: tracker, stateManager: state, timeoutMs }));
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
    callIds: tracker,
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
    },
  };
}

/** ART's observation type filter (`ObservationSocket.notifyObservation`): no filter, one type or a list. */
function typeMatches(observation, filter) {
  if (!filter) return true;
  return Array.isArray(filter) ? filter.includes(observation.type) : observation.type === filter;
}

/** Notifies subscribers whose type filter (and thread) the observation matches. */
function notifyObservation(socket, observation) {
  if (typeof socket.notifyObservation === "function") socket.notifyObservation(observation);
  else socket.notify(observation, { targetThreadId: observation.threadId }, typeMatches);
}

/** A bare observation socket, or the ART parts named in an object. */
function artParts(target) {
  const isSocket = typeof target?.notify === "function" || typeof target?.notifyObservation === "function";
  const parts = isSocket ? { observationSocket: target } : (target ?? {});
  const observationSocket = parts.observationSocket ?? parts.uiSystem?.getObservationSocket?.();
  const observationRepository =
    parts.observationRepository ?? observationSocket?.observationRepository ?? parts.observationManager?.observationRepository;
  return { observationSocket, observationRepository, observationManager: parts.observationManager };
}

/**
 * Forwards the runtime's status events to ART as `Observation`s (see the header): stored in ART's observation
 * repository and notified on ART's observation socket, type filters honoured. `target` is ART's ObservationSocket,
 * or `{ observationSocket | uiSystem, observationRepository?, observationManager? }`. Events of no thread are filed
 * under `threadId` (default `""`: every subscriber of the socket gets them; `getObservations("")` reads them).
 * Returns the function that stops forwarding.
 */
export function forwardStatus(runtime, target, { kinds = STATUS_KINDS, servers, replay = false, threadId = "" } = {}) {
  const { observationSocket, observationRepository, observationManager } = artParts(target);
  const deliver = async (observation) => {
    if (observationRepository) {
      try {
        await observationRepository.addObservation(observation);
      } catch (error) {
        console.warn(`mcp-worker: ART could not store observation ${observation.id}:`, error);
      }
      if (observationSocket) notifyObservation(observationSocket, observation);
    } else if (observationManager) {
      // ART's own path: stored and notified, with ART's id, time and title (ART's notify has no type filter).
      const { id: _id, timestamp: _timestamp, title, ...data } = observation;
      await observationManager.record({ ...data, metadata: { ...data.metadata, title } });
    } else if (observationSocket) {
      notifyObservation(observationSocket, observation);
    }
  };
  // In order: each is stored before it is notified, as ART's ObservationManager.record does.
  let queue = Promise.resolve();
  return runtime.subscribe(
    (observation) => {
      const filed = observation.threadId ? observation : { ...observation, threadId };
      queue = queue.then(() => deliver(filed)).catch((error) => console.warn("mcp-worker: forwarding to ART failed:", error));
    },
    { format: "observation", kinds, servers, replay },
  );
}

/**
 * Everything at once, from ART's parts (an `ArtInstance` has them all but `toolSystem`): the runtime's tools in
 * ART's registry following ART's enablement, callIds learnt from the observation socket's TOOL_CALL observations
 * and, with `toolSystem`, from the calls run through `connection.toolSystem`, and the runtime's status forwarded to
 * ART's observations. `dispose()` undoes it all.
 */
export async function connectArt(
  runtime,
  {
    toolRegistry,
    toolSystem,
    stateManager,
    observationSocket,
    uiSystem,
    observationManager,
    observationRepository,
    callIds,
    filter,
    timeoutMs,
    threadId,
  } = {},
) {
  const socket = observationSocket ?? uiSystem?.getObservationSocket?.();
  const tools = await registerArtTools(runtime, toolRegistry, { stateManager, callIds, filter, timeoutMs });
  const stopWatching = typeof socket?.subscribe === "function" ? tools.callIds.watch(socket) : () => {};
  const forwarding = socket || observationManager || observationRepository;
  const stopForwarding = forwarding
    ? forwardStatus(runtime, { observationSocket: socket, observationManager, observationRepository }, { threadId })
    : () => {};
  return {
    tools,
    callIds: tools.callIds,
    toolSystem: toolSystem ? tools.callIds.wrapToolSystem(toolSystem) : undefined,
    async dispose() {
      stopForwarding();
      stopWatching();
      await tools.dispose();
    },
  };
}
