// Types of art-adapter.mjs. ART's objects are described by the parts of ART's classes the adapter uses, so that
// ART's own classes (ToolRegistry, ToolSystem, StateManager, ObservationManager, ObservationRepository,
// ObservationSocket, UISystem) and an `ArtInstance` fit them without importing ART here.
import type {
  ArtObservation,
  ArtToolSchema,
  McpRuntime,
  StatusEventKind,
  ToolListFilter,
  ToolResult,
} from "./mcp_worker_host.js";

/** ART's `ExecutionContext`. */
export interface ArtExecutionContext {
  threadId: string;
  traceId?: string;
  userId?: string;
  /** Not in ART's context (0.4.16); used when a future ART passes it. */
  callId?: string;
}

/** ART's `ParsedToolCall`: a tool call of the model. */
export interface ArtParsedToolCall {
  callId: string;
  toolName: string;
  arguments?: unknown;
}

/** The `ToolResult` of one of the adapter's executors. */
export interface ArtToolResult extends ToolResult {
  metadata: ToolResult["metadata"] & {
    /** The id the runtime recorded the call under, when the model's callId was not known (see `CallIdTracker`). */
    runtimeCallId?: string;
  };
}

/** ART's `IToolExecutor`. */
export interface ArtToolExecutor {
  readonly schema: ArtToolSchema;
  execute(input: Record<string, unknown>, context: ArtExecutionContext): Promise<ArtToolResult>;
}

/** The part of ART's `ToolRegistry` the adapter uses. */
export interface ArtToolRegistryLike {
  registerTool(executor: ArtToolExecutor): Promise<void>;
  unregisterTool?(toolName: string): Promise<void>;
}

/** The part of ART's `ToolSystem` the adapter uses. */
export interface ArtToolSystemLike {
  executeTools(toolCalls: ArtParsedToolCall[], threadId: string, traceId?: string): Promise<unknown[]>;
}

/** The part of ART's `StateManager` the adapter uses: the tools ART enables in a thread. */
export interface ArtStateManagerLike {
  getEnabledToolsForThread(threadId: string): Promise<string[]>;
}

/** An observation as ART's socket delivers it (ART's `Observation`). */
export interface ArtObservationLike {
  id?: string;
  threadId: string;
  type: string;
  content?: unknown;
  metadata?: Record<string, unknown>;
}

/** The part of ART's `ObservationSocket` the adapter uses. */
export interface ArtObservationSocketLike {
  /** ART's ObservationSocket: notifies the subscribers whose type filter (and thread) the observation matches. */
  notifyObservation?(observation: ArtObservation): void;
  /** ART's TypedSocket: without `filterCheck` every subscriber of the thread gets the data. */
  notify(
    observation: ArtObservation,
    options?: { targetThreadId?: string; targetSessionId?: string },
    filterCheck?: (data: ArtObservation, filter: string | string[]) => boolean,
  ): void;
  /** Needed to learn callIds from TOOL_CALL observations (`CallIdTracker.watch`). */
  subscribe?(
    callback: (observation: ArtObservationLike) => void,
    filter?: string | string[],
    options?: { threadId?: string },
  ): () => void;
}

/** The part of ART's `ObservationRepository` the adapter uses. */
export interface ArtObservationRepositoryLike {
  addObservation(observation: ArtObservation): Promise<void>;
}

/** The part of ART's `ObservationManager` the adapter uses (when no repository is known). */
export interface ArtObservationManagerLike {
  record(observation: Omit<ArtObservation, "id" | "timestamp" | "title">): Promise<void>;
}

/** The part of ART's `UISystem` the adapter uses. */
export interface ArtUiSystemLike {
  getObservationSocket(): ArtObservationSocketLike;
}

/** Where `forwardStatus` puts observations: ART's observation socket, or ART's parts. */
export type ArtObservationTarget =
  | ArtObservationSocketLike
  | {
      observationSocket?: ArtObservationSocketLike;
      uiSystem?: ArtUiSystemLike;
      observationRepository?: ArtObservationRepositoryLike;
      observationManager?: ArtObservationManagerLike;
    };

/** Learns the model's calls before ART runs them and tells executors each call's `callId`. */
export interface CallIdTracker {
  /** Calls about to run in a thread. */
  note(threadId: string, toolCalls: ArtParsedToolCall[]): void;
  /** The callId of the pending call of `toolName` whose arguments are `input` (the same object first), taken. */
  take(threadId: string, toolName: string, input?: unknown): string | undefined;
  /** Forgets calls (run, or refused by ART). */
  settle(threadId: string, callIds: string[]): void;
  /** An object that notes each batch, then runs it on `toolSystem` (not changed); give it to ART's agent. */
  wrapToolSystem<T extends ArtToolSystemLike>(toolSystem: T): T;
  /** Notes TOOL_CALL observations' `content.toolCalls` and settles recorded executions; returns the stop function. */
  watch(observationSocket: ArtObservationSocketLike & Required<Pick<ArtObservationSocketLike, "subscribe">>): () => void;
}

/** The runtime's tools in ART's registry. */
export interface RegisteredArtTools {
  /** Where the executors take callIds from. */
  readonly callIds: CallIdTracker;
  /** The names registered now. */
  readonly names: string[];
  /** Resolves once every registry change seen so far is applied. */
  settled(): Promise<void>;
  /** Stops following the runtime and unregisters the tools. */
  dispose(): Promise<void>;
}

/** The runtime connected to ART by `connectArt`. */
export interface ArtConnection<S extends ArtToolSystemLike | undefined = undefined> {
  tools: RegisteredArtTools;
  callIds: CallIdTracker;
  /** ART's ToolSystem wrapped by `callIds.wrapToolSystem`, when one was given: run ART's calls through it. */
  toolSystem: S;
  dispose(): Promise<void>;
}

export const STATUS_KINDS: StatusEventKind[];

export function createCallIdTracker(): CallIdTracker;

export function createToolExecutor(
  runtime: McpRuntime,
  schema: ArtToolSchema,
  options?: { callIds?: CallIdTracker; stateManager?: ArtStateManagerLike; timeoutMs?: number },
): ArtToolExecutor;

export function registerArtTools(
  runtime: McpRuntime,
  toolRegistry: ArtToolRegistryLike,
  options?: { stateManager?: ArtStateManagerLike; callIds?: CallIdTracker; filter?: ToolListFilter; timeoutMs?: number },
): Promise<RegisteredArtTools>;

export function forwardStatus(
  runtime: McpRuntime,
  target: ArtObservationTarget,
  options?: { kinds?: StatusEventKind[]; servers?: string[]; replay?: boolean | number; threadId?: string },
): () => void;

export function connectArt<S extends ArtToolSystemLike | undefined = undefined>(
  runtime: McpRuntime,
  parts: {
    toolRegistry: ArtToolRegistryLike;
    toolSystem?: S;
    stateManager?: ArtStateManagerLike;
    observationSocket?: ArtObservationSocketLike;
    uiSystem?: ArtUiSystemLike;
    observationRepository?: ArtObservationRepositoryLike;
    observationManager?: ArtObservationManagerLike;
    callIds?: CallIdTracker;
    filter?: ToolListFilter;
    timeoutMs?: number;
    /** The ART thread of forwarded events of no thread (see `forwardStatus`). */
    threadId?: string;
  },
): Promise<ArtConnection<S>>;
