// Types of art-adapter.mjs. ART's objects are described by the parts of ART's interfaces the adapter uses, so
// that ART's own classes (ToolRegistry, ToolSystem, ObservationSocket) fit them without importing ART here.
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
  /** Not in ART's context today; used when a future ART passes it. */
  callId?: string;
}

/** ART's `IToolExecutor`. */
export interface ArtToolExecutor {
  readonly schema: ArtToolSchema;
  execute(input: Record<string, unknown>, context: ArtExecutionContext): Promise<ToolResult>;
}

/** The part of ART's `ToolRegistry` the adapter uses. */
export interface ArtToolRegistryLike {
  registerTool(executor: ArtToolExecutor): Promise<void>;
  unregisterTool?(toolName: string): Promise<void>;
}

/** The part of ART's `ToolSystem` the adapter uses. */
export interface ArtToolSystemLike {
  executeTools(
    toolCalls: { callId: string; toolName: string; arguments: unknown }[],
    threadId: string,
    traceId?: string,
  ): Promise<unknown[]>;
}

/** The part of ART's `ObservationSocket` the adapter uses. */
export interface ArtObservationSocketLike {
  notify(observation: ArtObservation, options?: { targetThreadId?: string; targetSessionId?: string }): void;
}

/** Each call's real `callId`, for executors (see `trackCallIds`). */
export interface CallIdTracker {
  take(threadId: string, toolName: string): string | undefined;
  restore(): void;
}

/** The runtime's tools in ART's registry. */
export interface RegisteredArtTools {
  /** The names registered now. */
  readonly names: string[];
  /** Resolves once every registry change seen so far is applied. */
  settled(): Promise<void>;
  /** Stops following the runtime and unregisters the tools. */
  dispose(): Promise<void>;
}

export function trackCallIds(toolSystem: ArtToolSystemLike): CallIdTracker;

export function createToolExecutor(
  runtime: McpRuntime,
  schema: ArtToolSchema,
  options?: { callIds?: CallIdTracker; timeoutMs?: number },
): ArtToolExecutor;

export function registerArtTools(
  runtime: McpRuntime,
  toolRegistry: ArtToolRegistryLike,
  options?: { toolSystem?: ArtToolSystemLike; filter?: ToolListFilter; timeoutMs?: number },
): Promise<RegisteredArtTools>;

export const STATUS_KINDS: StatusEventKind[];

export function forwardStatus(
  runtime: McpRuntime,
  observationSocket: ArtObservationSocketLike,
  options?: { kinds?: StatusEventKind[]; servers?: string[]; replay?: boolean | number },
): () => void;

export function connectArt(
  runtime: McpRuntime,
  parts: {
    toolRegistry: ArtToolRegistryLike;
    toolSystem?: ArtToolSystemLike;
    observationSocket?: ArtObservationSocketLike;
    filter?: ToolListFilter;
    timeoutMs?: number;
  },
): Promise<{ tools: RegisteredArtTools; dispose(): Promise<void> }>;
