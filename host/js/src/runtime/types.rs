//! The TypeScript shapes of the runtime's API, written next to the Rust that produces them (the field names are
//! serde's camelCase of the Rust types; `null` where Rust has `Option::None` without `skip_serializing_if`).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_RUNTIME: &'static str = r#"
/** Options of `McpRuntime.create`. Every field is optional. */
export interface RuntimeOptions {
  /** IndexedDB database of this runtime: its encrypted credentials, and its servers (with their enablement) and threads' enabled tools, restored now and saved on every change. A reloaded page that creates its runtime with the same `database` gets them back (credentials still locked); see `persistence()`. A restored server is already there: `addServer` with its name throws `INVALID_INPUT` (look with `server(name)` first). */
  database?: string;
  /** IndexedDB database holding only the encrypted credentials; nothing else is saved (default "mcp-worker" when neither this nor `database` is given). */
  databaseName?: string;
  /** How many status events are kept for late subscribers (default 256). */
  historySize?: number;
  /** Timeout of a tool call in ms when neither the call nor the server sets one (default 60000). */
  defaultTimeoutMs?: number;
  /** Time a worker gets to boot, and again to initialize, in ms (default 10000). */
  handshakeTimeoutMs?: number;
  /** After this many consecutive failures a server stays down until `connectServer` (default 3; null: never). */
  maxConsecutiveFailures?: number | null;
  /** Wait before each automatic restart: `initialMs × factor^(n-1)`, at most `maxMs` (default 1000, 2, 30000). */
  backoff?: { initialMs?: number; factor?: number; maxMs?: number };
  /** How long a server may keep working on a cancelled call before it is terminated (default 5000). */
  cancelGraceMs?: number;
  /** Bounds on each server's tool list; what goes past them is reported (`toolListLimited`, the server's `lastError`). */
  toolLimits?: {
    /** Tools registered per server; those listed after are dropped (default 1000). */
    maxToolsPerServer?: number;
    /** Characters of a tool's description, and of each description inside its schemas; longer ones are cut and end in "… (truncated)" (default 4096). */
    maxDescriptionChars?: number;
    /** Characters of a tool's title (default 256). */
    maxTitleChars?: number;
  };
  /** The most PBKDF2 iterations a stored passphrase record may ask for (default 10000000, never less than the 600000 written). A record asking for more is refused as altered (`CORRUPT`) before any iteration runs, so an edited count cannot hang the page. */
  maxPbkdf2Iterations?: number;
  /** Answer `elicitation/create`: `true` (through `elicitationRequested` events and `answerRequest`) or a handler, called for every request (it asks the user). Omitted: the capability is not declared. */
  elicitation?: boolean | ServerRequestHandler<ElicitRequestParams, ElicitResult> | { handler: ServerRequestHandler<ElicitRequestParams, ElicitResult>; autoApprove?: boolean };
  /** Answer `sampling/createMessage`: `true` (events and `answerRequest`) or a handler. Each request needs the application's approval by default: it is published as `samplingRequested`, and the handler runs only when the application calls `approveRequest(requestId)` (or it answers with `answerRequest` / refuses with `rejectRequest`), so that no server spends the user's model quota unasked. `{ handler, autoApprove: true }` calls the handler for every request. */
  sampling?: boolean | ServerRequestHandler<CreateMessageRequestParams, CreateMessageResult> | { handler: ServerRequestHandler<CreateMessageRequestParams, CreateMessageResult>; autoApprove?: boolean };
  /** How many notifications each server may send: a token bucket refilled at `perSecond` up to `burst` (default 1000 and 500; `perSecond: 0` turns it off). Over the rate, log messages and other notifications are dropped, progress and list changes coalesced (a call still gets its last progress), and a `serverThrottled` event says so at most once a second. A server that sends more than `maxDroppedPerSecond` (default 500; 0: never) over the rate within a second is disconnected (its calls fail with `PROTOCOL` naming it) and restarted with backoff: the browser spends page time on every message, so only closing the channel stops a flood. */
  notificationLimits?: { perSecond?: number; burst?: number; maxDroppedPerSecond?: number };
  /** How many requests (elicitation, sampling, roots) each server may have waiting, and for how long in ms (default 8 and 60000; `timeoutMs: 0`: for ever). One over the cap is refused at once (JSON-RPC error -32000) without reaching the application and counted in `serverThrottled`; one that waits too long is answered with an error (-32001) and settled as `timedOut`. */
  serverRequestLimits?: { maxPending?: number; timeoutMs?: number };
  /** OAuth 2.1 for remote servers that ask for it (a 401 with a Bearer challenge): the runtime finds the server's authorization server, registers (`clientId`/`clientSecret` given beforehand, the app's client ID metadata document at `clientMetadataUrl`, or dynamic registration), and calls `authorize(url)` for the user's part; it resolves with the URL the user was sent back to (`redirectUri`). `popupAuthorize` and `callbackUrl` from `oauth-popup.mjs` (beside this package) do that in a popup. Tokens are kept in the vault (when it is unlocked; else for the session), bound to the server's URL, and refreshed before they expire, so a reload signs in without the user. Before the user is asked, an `authorizationRequired` event says so; requests refused together lead to one sign-in. Without this option such servers fail with `UNAUTHORIZED` (and `authorizationRequired` has `canAuthorize: false`); a server whose sign-in failed waits in `needs_authorization`. */
  oauth?: {
    redirectUri: string;
    authorize: (url: string) => Promise<string>;
    clientId?: string;
    clientSecret?: string;
    clientMetadataUrl?: string;
    clientName?: string;
  };
  /** Roots answered to `roots/list` (`setRoots` changes them and tells running servers). Omitted: the capability is not declared; give `[]` to offer roots later. */
  roots?: { uri: string; name?: string }[];
}

/** A server request waiting for the application. */
export interface PendingServerRequest<P = ElicitRequestParams | CreateMessageRequestParams> {
  requestId: number;
  server: string;
  method: "elicitation/create" | "sampling/createMessage";
  params: P;
}

/** Answers a server request; what it throws or rejects with is sent to the server as an error. */
export type ServerRequestHandler<P, R> = (request: PendingServerRequest<P>) => R | Promise<R>;

/** `elicitation/create` params (form mode). */
export interface ElicitRequestParams {
  message: string;
  mode?: "form";
  requestedSchema: { type: "object"; properties: Record<string, JsonSchema>; required?: string[] };
  _meta?: Record<string, unknown>;
}

/** What the user did with an elicitation. */
export interface ElicitResult {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, string | number | boolean | string[]>;
}

/** `sampling/createMessage` params. */
export interface CreateMessageRequestParams {
  messages: { role: "user" | "assistant"; content: SamplingContent | SamplingContent[] }[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: { hints?: { name?: string }[]; costPriority?: number; speedPriority?: number; intelligencePriority?: number };
  includeContext?: "none" | "thisServer" | "allServers";
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}

/** Content of a sampling message. */
export type SamplingContent =
  | { type: "text"; text: string }
  | { type: "image" | "audio"; data: string; mimeType: string }
  | { type: string; [key: string]: unknown };

/** The model's answer to a sampling request. */
export interface CreateMessageResult {
  role: "assistant";
  content: SamplingContent;
  model: string;
  stopReason?: string;
}

/** A JSON Schema (2020-12) object. */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  [keyword: string]: unknown;
}

/** A credential a server declares: its name (the env key the server reads), what it is for, whether it is needed to start. */
export interface CredentialDeclaration {
  name: string;
  description: string;
  required: boolean;
}

/** A server configuration, in this host's JSON form (also what `mcpServers` entries may carry). */
export interface ServerConfigInput {
  name: string;
  /** `wasm` (a worker bundle), `http` (a remote server over Streamable HTTP, or HTTP+SSE if it refuses Streamable HTTP) or `sse` (the older HTTP+SSE transport); `stdio` is kept but cannot run in a browser. Inferred from the fields when absent (`url` means `http`). */
  type?: "wasm" | "http" | "sse" | "stdio";
  /** The bundle's worker script (`…/bootstrap.js`). */
  workerUrl?: string;
  /** The bundle's wasm, compiled once and shared by every worker of the bundle (default: `server_bg.wasm` beside `bootstrap.js`). */
  wasmUrl?: string;
  /** A remote server's endpoint. The server must answer CORS for the page's origin and expose `Mcp-Session-Id`. */
  url?: string;
  /** Headers sent to a remote server with every request. `${NAME}` in a value is the server's credential `NAME`, from the vault. While a server has headers, redirects are not followed (they could carry the headers elsewhere). */
  headers?: Record<string, string>;
  /** A proxy a remote server's requests go through: a URL with `{url}` where the server's URL goes, percent-encoded (`http://127.0.0.1:8080/proxy?url={url}`, the development proxy of `cargo xtask demo`). It sees the headers, credentials included: only a proxy the user runs. */
  proxy?: string;
  command?: string;
  args?: string[];
  enabled?: boolean;
  /** Credentials the server needs beyond those its bundle's `manifest.json` declares (read before each start): names, or declarations with descriptions. A declaration without `required` is required. */
  credentials?: (string | { name: string; description?: string; required?: boolean })[];
  /** Environment values. `${NAME}` (or `${NAME:-fallback}`) in a value is the server's credential `NAME`, resolved from the vault at each start; an imported `mcpServers` entry declares the names it refers to. */
  env?: Record<string, string>;
  timeoutMs?: number;
  allowDestructiveTools?: boolean;
  /** Start when added (default: at first use). */
  autoStart?: boolean;
  /** Gives agents a `read_resource` tool (`mcp__<server>__read_resource`, read-only, argument `uri`) that reads the server's resources, when it offers any and has no tool of that name itself (default false). */
  resourceTool?: boolean;
  /** Which protocol era to speak: `auto` (the default) speaks MCP 2026-07-28 when the server does (probed with `server/discover`) and the `initialize` handshake otherwise; `"2026-07-28"` or `"2025-11-25"` pins one. `ServerHealth.protocolVersion` says which was chosen. */
  protocol?: "auto" | "2026-07-28" | "2025-11-25";
  /** Where the server's worker runs. `sandbox` (the default): its own opaque origin, with no access to the page's storage, cookies or DOM, nor to other servers', and network only to `network` and its manifest's `network`. `page`: the page's origin, with everything the page can reach: only for servers trusted like the app's own code. */
  isolation?: "sandbox" | "page";
  /** Origins a sandboxed server may reach (`https://api.example.com`, `https://*.example.com`, `http://127.0.0.1:8080`), besides those its bundle's manifest declares. Everything else is blocked by the browser and reported (`networkBlocked`). */
  network?: string[];
}

/** A server configuration as the runtime holds it. */
export interface ServerConfig {
  name: string;
  type: "wasm" | "http" | "sse" | "stdio";
  workerUrl?: string;
  wasmUrl?: string;
  url?: string;
  headers?: Record<string, string>;
  proxy?: string;
  command?: string;
  args?: string[];
  enabled: boolean;
  /** A required credential without description is written as its name. */
  credentials?: (string | CredentialDeclaration)[];
  env?: Record<string, string>;
  timeoutMs?: number;
  allowDestructiveTools: boolean;
  autoStart: boolean;
  resourceTool?: boolean;
  protocol?: "2026-07-28" | "2025-11-25";
  isolation: "sandbox" | "page";
  network?: string[];
}

/** An `mcpServers` document (Claude Desktop, Cursor), with this host's `wasm` entries; the map of servers may also be the whole document, or under `servers` (VS Code). */
export type McpServersDocument =
  | { mcpServers: Record<string, McpServersEntry> }
  | { servers: Record<string, McpServersEntry> }
  | Record<string, McpServersEntry>;

/** One entry of an `mcpServers` document: a server's config without its name (the key), and `metadata` as some hosts write it. */
export type McpServersEntry = Omit<ServerConfigInput, "name"> & {
  /** `metadata.allowDestructiveTools` is read as `allowDestructiveTools`; other keys are reported in `ignored`. */
  metadata?: { allowDestructiveTools?: boolean } & Record<string, unknown>;
};

/** One problem with one field of one entry. */
export interface ConfigProblem {
  entry: string;
  field: string;
  message: string;
}

/** Where the servers stand as a whole (`registryStatus()`): `discovering` while any starts, `partial` when any cannot be used now (error, credentials, sign-in), `ready` when the started ones are connected, `idle` when none has started. */
export type RegistryStatus = "idle" | "discovering" | "ready" | "partial";

/** What `updateServer` did to a server. */
export type ConfigChange = "added" | "changed" | "unchanged";

/** Options of `importMcpServers`. */
export interface ImportOptions {
  /** Remove the servers the document does not name, so that the runtime matches it (a reloaded config file). */
  removeMissing?: boolean;
}

/** What `importMcpServers` did. */
export interface ImportResult {
  /** Servers added, in name order. Their literal `env` values and headers were moved into the vault (see `importMcpServers`). */
  added: string[];
  /** Servers whose config changed (in place; see `updateServer`). */
  changed: string[];
  /** Servers whose config was already the document's. */
  unchanged: string[];
  /** Servers removed because the document does not name them (only with `removeMissing`). */
  removed: string[];
  /** Problems; an entry with any is not added or changed. */
  errors: ConfigProblem[];
  /** Fields of the entries this host does not use (`autoApprove`, `metadata.owner`, …): the entries imported without them. */
  ignored: ConfigProblem[];
}

/** Where a server stands. */
/** `needs_authorization`: a remote server whose sign-in (OAuth) did not happen or failed; its next use or `connectServer` tries again (call it from a click, so the sign-in window may open). */
export type ServerStatus = "disconnected" | "connecting" | "connected" | "needs_credentials" | "needs_authorization" | "error" | "disabled";

/** A server's health. */
export interface ServerHealth {
  name: string;
  status: ServerStatus;
  transport: "wasm" | "http" | "stdio";
  /** Tools of it in the registry (what it listed, less what `toolLimits` dropped). */
  toolCount: number;
  lastError: string | null;
  lastConnectedMs: number | null;
  /** The protocol version of its session: `"2026-07-28"`, or a version of the `initialize` handshake such as `"2025-11-25"`. */
  protocolVersion: string | null;
  /** Failed starts, crashes and terminations since the last success. */
  consecutiveFailures: number;
  /** When a tool call to it last succeeded (ms since the epoch; a tool's own `isError` result counts: the server answered). */
  lastSuccessMs: number | null;
  /** Tool calls that failed in a row (an error, a timeout, a crash during the call), since the last that succeeded; an aborted call does not count. */
  consecutiveCallFailures: number;
  nextRetryMs: number | null;
  /** `sandbox` (its own origin), `page` (the page's origin), or `remote` (a server elsewhere, over HTTP). */
  isolation: "sandbox" | "page" | "remote";
  /** The origins a sandboxed server may reach: its config's, and its manifest's once it has started. */
  network: string[];
  /** Requests the browser blocked because the network policy does not allow them. */
  blockedRequests: number;
  lastBlockedOrigin: string | null;
}

/** The outcome of starting one server. */
export interface StartOutcome {
  server: string;
  ok: boolean;
  error?: RuntimeError;
}

/** Tool-list formats. */
export type ExportFormat = "openai" | "anthropic" | "art" | "mcp";

/** OpenAI Chat Completions function tool. */
export interface OpenAiTool {
  type: "function";
  function: { name: string; description: string; parameters: JsonSchema };
}

/** Anthropic Messages tool. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

/** ART `ToolSchema`. */
export interface ArtToolSchema {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
}

/** Each format's tool shape. */
export interface ExportedTools {
  openai: OpenAiTool;
  anthropic: AnthropicTool;
  art: ArtToolSchema;
  mcp: Tool;
}

/** An exported tool list. */
export interface ToolExport<T> {
  tools: T[];
  /** Tools left out because their schema cannot be made acceptable to the format, with why. */
  skipped: { name: string; reason: string }[];
}

/** A registered tool as a settings page shows it (`toolEntries`). */
export interface RegisteredTool {
  /** The registry name, what agents call it. */
  name: string;
  source: "mcp" | "native";
  /** The server, for an MCP tool. */
  server: string | null;
  /** Its own name: the server's name for it (what `callTool` takes), or the registry name of a native tool. */
  tool: string;
  /** Whether it counts as destructive: its annotations say so (a tool without annotations does, by the spec's defaults), or its name is a destructive verb. */
  destructive: boolean;
  /** Hidden from agents: destructive, and its server's config does not allow destructive tools (`setAllowDestructiveTools`). */
  hidden: boolean;
  definition: Tool;
}

/** Which tools a listing returns. */
export interface ToolListFilter {
  /** Only what an agent in this thread may call. */
  threadId?: string;
  /** Only this server's tools. */
  server?: string;
  /** Include tools hidden from agents (destructive, not allowed); ignored with `threadId`. */
  includeHidden?: boolean;
  /** `listTools` only: begin each MCP tool's description with its server's name in brackets (`[github] Search issues`). */
  serverPrefix?: boolean;
}

/** A native tool: a definition (an MCP tool definition, which the registry checks) and a JS function. */
export interface NativeToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: "object"; [keyword: string]: unknown };
  outputSchema?: { type: "object"; [keyword: string]: unknown };
  annotations?: { title?: string; readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
}

/** `registerTool`'s options. */
export interface NativeToolOptions {
  /** Offer the tool to agents even if it may be destructive (its annotations do not say `readOnlyHint: true` or `destructiveHint: false`, or its name has a destructive verb): for a native tool, what a server's `allowDestructiveTools` is for the server's tools. */
  allowDestructive?: boolean;
}

/** Who calls a native tool. */
export interface ToolCallContext {
  threadId: string;
  traceId: string | null;
  callId: string;
}

/** A native tool's implementation: returns the output (JSON), or throws an error the model reads. */
export type NativeToolFunction = (args: Record<string, unknown>, context: ToolCallContext) => unknown;

/** An LLM's tool call (ART's `ParsedToolCall`). `arguments` may be an object or a JSON text of one. */
export interface ParsedToolCall {
  callId: string;
  toolName: string;
  arguments?: Record<string, unknown> | string | null;
}

/** What an MCP tool's `output` is. */
export interface McpToolOutput {
  content: ContentBlock[];
  structuredContent?: { [key: string]: unknown };
}

/** The outcome of one call (ART's `ToolResult`). */
export interface ToolResult {
  callId: string;
  toolName: string;
  status: "success" | "error";
  /** For an MCP tool: `McpToolOutput`; for a native tool: what it returned. */
  output?: unknown;
  error?: string;
  metadata: {
    source?: "mcp" | "native";
    tool?: string;
    server?: string;
    durationMs?: number;
    errorCode?: RuntimeErrorCode;
    rawResult?: CallToolResult;
    [key: string]: unknown;
  };
}

/** Options of `executeTools`. */
export interface ExecuteToolsOptions {
  traceId?: string;
  /** Timeout of each MCP call in ms. */
  timeoutMs?: number;
  /** Put each server's `CallToolResult` in `metadata.rawResult`. */
  includeRawResult?: boolean;
  /**
   * The tools this batch may use (names, and prefixes ending in `*`), for an application that keeps thread
   * enablement itself (an ART `StateManager`): checked instead of the thread's list (`setThreadTools`), and stored
   * nowhere.
   */
  enabledTools?: string[];
  /**
   * Steps of work a check of a call's arguments (or of a result) against the tool's schema may take; past them the
   * check fails closed ("too costly to check"; the call is not sent). Default 1,000,000: under about 50 ms of the
   * page's main thread for the costliest schemas, while a typical call uses well under 1% of it.
   */
  schemaMaxSteps?: number;
  /** Aborting rejects with an `AbortError` (code `ABORTED`) and cancels the calls on their servers. */
  signal?: AbortSignal;
}

/** Options of `callTool`. */
export interface RuntimeCallOptions {
  timeoutMs?: number;
  /** Progress as the server reports it. */
  onProgress?: (progress: { progressToken: number | string; progress: number; total?: number; message?: string }) => void;
  /** Aborting rejects with an `AbortError` (code `ABORTED`) and sends `notifications/cancelled` to the server. */
  signal?: AbortSignal;
}

/** The codes of `RuntimeError`: every code of `McpWorkerError` (the client's), and the runtime's own. */
export type RuntimeErrorCode =
  | McpWorkerErrorCode
  | "UNKNOWN_SERVER" | "UNAVAILABLE" | "NEEDS_CREDENTIALS" | "INVALID_CONFIG"
  | "DUPLICATE_TOOL" | "INVALID_TOOL_NAME" | "UNKNOWN_REQUEST" | "RUNTIME_CLOSED"
  | "LOCKED" | "NOT_SET_UP" | "ALREADY_SET_UP" | "MODE_MISMATCH" | "WRONG_KEY" | "TAMPERED" | "KEY_CHANGED"
  | "ORPHANED_CREDENTIALS" | "IDENTITY_CHANGED" | "CORRUPT" | "MISSING_CREDENTIALS" | "CRYPTO" | "STORAGE"
  | "INVALID_MANIFEST" | "ENCODE"
  // A tool call refused before it ran, a tool's own failure, or output that does not match its schema
  // (`ToolResult.metadata.errorCode`).
  | "UNKNOWN_TOOL" | "TOOL_HIDDEN" | "TOOL_NOT_ENABLED" | "INVALID_ARGUMENTS" | "SCHEMA_TOO_COSTLY" | "TOOL_FAILED"
  | "INVALID_OUTPUT";

/** Every error `McpRuntime` throws or rejects with: an `Error` with a stable `code` (the client's codes, and the runtime's). */
export interface RuntimeError extends Error {
  code: RuntimeErrorCode;
  /** `INVALID_CONFIG`: every problem. */
  errors?: ConfigProblem[];
  /** `MISSING_CREDENTIALS`: what is missing. */
  missing?: CredentialDeclaration[];
  /** `RPC_ERROR`: the JSON-RPC error code. */
  rpcCode?: number;
}

/** A saved record that could not be restored, and why; the rest was restored without it. */
export interface UnreadableRecord {
  /** The object store: "servers" or "threads". */
  store: string;
  /** The record's key: a server name or a thread id. */
  key: string;
  reason: string;
}

/** What a runtime created with `database` restored and saved. */
export interface PersistenceReport {
  database: string;
  /** Servers restored at creation, in name order. */
  servers: string[];
  /** Threads whose enabled tools were restored, in id order. */
  threads: string[];
  /** Records skipped at creation. */
  problems: UnreadableRecord[];
  /** Saves that failed since (each names its record, never a value). */
  writeErrors: string[];
}

/** How a vault key is given. */
export type VaultKey = { passphrase: string } | { appKey: Uint8Array } | { device: true };

/** How the vault key is kept. */
export type KeyMode = "passphrase" | "app_key" | "device";

interface EventBase {
  /** Unique id (also the id of the event's ART observation). */
  id: string;
  /** 1, 2, 3, … without gaps. */
  seq: number;
  /** ms since the epoch. */
  timestamp: number;
}

export interface ServerStatusEvent extends EventBase {
  type: "serverStatus";
  server: string;
  status: ServerStatus;
  transport: "wasm" | "http" | "stdio";
  /** Tools of it in the registry (what it listed, less what `toolLimits` dropped). */
  toolCount: number;
  lastError: string | null;
  lastConnectedMs: number | null;
  /** The protocol version of its session: `"2026-07-28"`, or a version of the `initialize` handshake such as `"2025-11-25"`. */
  protocolVersion: string | null;
  /** Failed starts, crashes and terminations since the last success. */
  consecutiveFailures: number;
  /** When a tool call to it last succeeded (ms since the epoch; a tool's own `isError` result counts: the server answered). */
  lastSuccessMs: number | null;
  /** Tool calls that failed in a row (an error, a timeout, a crash during the call), since the last that succeeded; an aborted call does not count. */
  consecutiveCallFailures: number;
  nextRetryMs: number | null;
  isolation: "sandbox" | "page" | "remote";
  network: string[];
  blockedRequests: number;
  lastBlockedOrigin: string | null;
}

export interface ServerRemovedEvent extends EventBase {
  type: "serverRemoved";
  server: string;
}

export interface CredentialsRequiredEvent extends EventBase {
  type: "credentialsRequired";
  server: string;
  /** What to ask the user for. Never a value. */
  credentials: CredentialDeclaration[];
  /** True when unlocking the vault is what helps. */
  locked: boolean;
  reason: string;
  /** Set when stored credentials are held back because the server's code changed since they were stored (its config now names another bundle): what changed. Ask the user, then answer with `runtime.confirmCredentialIdentity(server)` (or remove the server). */
  identityChange: IdentityChange | null;
}

export interface AuthorizationRequiredEvent extends EventBase {
  type: "authorizationRequired";
  server: string;
  /** The server's URL. */
  url: string;
  /** `signIn`: no authorization is kept for it; `expired`: the kept one stopped working (expired and could not be refreshed, or was revoked); `insufficientScope`: the server needs more than was granted. */
  reason: "signIn" | "expired" | "insufficientScope";
  /** The authorization server the user signs in with, when known. */
  authorizationServer: string | null;
  /** The scope asked for. */
  scope: string | null;
  /** True: the runtime is calling `oauth.authorize` now (a sign-in window opens). False: no `oauth` option is configured, and the server stays unusable until one is. */
  canAuthorize: boolean;
}

/** Stored credentials held back from a server whose code is not the code they were stored for. */
export interface IdentityChange {
  server: string;
  /** The credentials held back, by name. */
  credentials: string[];
  /** What they were stored for, as people read it ("bundle /bundles/weather/bootstrap.js"); `null` when they were stored before they were bound to a server's code (by an earlier version, or before the server was configured). */
  storedFor: string | null;
  /** What the server's config names now. */
  current: string;
}

export interface ToolsChangedEvent extends EventBase {
  type: "toolsChanged";
  /** null for native tools. */
  server: string | null;
  added: string[];
  removed: string[];
}

/** A tool agents do not see, and why (`hiddenTools()`, the `toolsHidden` event). */
export interface HiddenTool {
  /** Its registry name. */
  name: string;
  /** Its server; empty for a native tool. */
  server: string;
  /** Its name on the server. */
  tool: string;
  /** Why it counts as destructive: no annotations, annotations that do not say it is safe, or a destructive verb in its name. */
  reason: string;
}

/** A server's tools were registered (at each start, and when its list changes), and these are hidden from agents: they may be destructive and the server's config does not say `allowDestructiveTools`. For native tools (`server: null`), a hidden one was registered without `allowDestructive`. */
export interface ToolsHiddenEvent extends EventBase {
  type: "toolsHidden";
  server: string | null;
  tools: HiddenTool[];
}

/** Tools whose registry names would have been the same (a server's crafted names, or a hash collision). Each got a name of its own; none keeps the contested one, whichever server came first. */
export interface ToolNamesClashedEvent extends EventBase {
  type: "toolNamesClashed";
  /** The name each would have had. */
  name: string;
  /** By server name, then as each server listed them. `name`: the registry name it got (null: none, it is not registered). */
  tools: { server: string; tool: string; name: string | null }[];
}

/** Which text of a tool a limit applied to (`inputSchema`, `outputSchema`: a title or description inside). */
export type ToolTextField = "name" | "title" | "description" | "inputSchema" | "outputSchema";

/** A bound a server's tool list went past, and what was done. */
export type ToolListViolation =
  | { kind: "tooManyTools"; listed: number; kept: number }
  | { kind: "truncated"; tool: string; field: ToolTextField; chars: number; max: number }
  | { kind: "controlCharacters"; tool: string; field: ToolTextField };

/** A server's tool list went past the runtime's `toolLimits`; its `lastError` says the same. */
export interface ToolListLimitedEvent extends EventBase {
  type: "toolListLimited";
  server: string;
  violations: ToolListViolation[];
  /** The violations in a sentence naming the server. */
  message: string;
}

export interface ListChangedEvent extends EventBase {
  type: "listChanged";
  server: string;
  list: "resources" | "prompts";
}

export interface ToolExecutionStartedEvent extends EventBase {
  type: "toolExecutionStarted";
  callId: string;
  toolName: string;
  tool: string | null;
  server: string | null;
  source: "mcp" | "native" | null;
  threadId: string;
  traceId: string | null;
}

export interface ToolExecutionFinishedEvent extends EventBase {
  type: "toolExecutionFinished";
  callId: string;
  toolName: string;
  tool: string | null;
  server: string | null;
  source: "mcp" | "native" | null;
  threadId: string;
  traceId: string | null;
  durationMs: number;
  status: "success" | "error";
  error: string | null;
  errorCode: RuntimeErrorCode | null;
  /** What the output was: each content block's kind and size in bytes (never the output: `executeTools` returns it). */
  output: OutputSummary;
}

/** A tool output without the output: each content block's `type` (`json` for a native tool's value) and size. */
export interface OutputSummary {
  content: { kind: string; bytes: number }[];
  /** The size of `structuredContent` as JSON text, when there is one. */
  structuredBytes: number | null;
}

export interface ServerLogEvent extends EventBase {
  type: "serverLog";
  server: string;
  level: LoggingLevel;
  logger: string | null;
  data: unknown;
}

export interface ProgressEvent extends EventBase {
  type: "progress";
  server: string;
  progressToken: number | string;
  progress: number;
  total: number | null;
  message: string | null;
}

export interface ServerRestartingEvent extends EventBase {
  type: "serverRestarting";
  server: string;
  /** 1 for the first restart since the last success. */
  attempt: number;
  backoffMs: number;
  reason: string;
}

/** The browser blocked a request of a sandboxed server: its network policy does not allow the origin. */
export interface NetworkBlockedEvent extends EventBase {
  type: "networkBlocked";
  server: string;
  /** The origin it tried to reach (never the path). */
  origin: string;
  /** The CSP directive that blocked it: `connect-src` for fetch, XHR and WebSockets. */
  directive: string;
}

export interface ElicitationRequestedEvent extends EventBase, PendingServerRequest<ElicitRequestParams> {
  type: "elicitationRequested";
}

export interface SamplingRequestedEvent extends EventBase, PendingServerRequest<CreateMessageRequestParams> {
  type: "samplingRequested";
}

export interface ServerRequestSettledEvent extends EventBase {
  type: "serverRequestSettled";
  requestId: number;
  server: string;
  method: string;
  outcome: "answered" | "rejected" | "cancelled" | "timedOut";
}

/** A server sent more than `notificationLimits` or `serverRequestLimits` allow: what happened to the excess since the last such event (at most one a second per server). */
export interface ServerThrottledEvent extends EventBase {
  type: "serverThrottled";
  server: string;
  /** `notifications/message` dropped. */
  logDropped: number;
  /** `notifications/progress` replaced by a later value for the same call before delivery. */
  progressCoalesced: number;
  /** `list_changed` notifications merged into one already waiting for the same list. */
  listChangedCoalesced: number;
  /** Other notifications dropped. */
  otherDropped: number;
  /** Requests refused because too many of the server's requests were waiting. */
  requestsRefused: number;
}

/** Everything the status socket delivers. */
export type StatusEvent =
  | ServerStatusEvent | ServerRemovedEvent | CredentialsRequiredEvent | AuthorizationRequiredEvent | ToolsChangedEvent
  | ToolNamesClashedEvent | ToolsHiddenEvent
  | ToolListLimitedEvent | ListChangedEvent | ResourceUpdatedEvent
  | ToolExecutionStartedEvent | ToolExecutionFinishedEvent | ServerLogEvent | ProgressEvent | ServerRestartingEvent
  | NetworkBlockedEvent | ElicitationRequestedEvent | SamplingRequestedEvent | ServerRequestSettledEvent
  | ServerThrottledEvent;

/** The kinds of status events. */
export type StatusEventKind = StatusEvent["type"];

/** An event as an ART `Observation`. */
export interface ArtObservation {
  id: string;
  /** Empty for events of no thread. */
  threadId: string;
  traceId?: string;
  timestamp: number;
  type: "TOOL_EXECUTION" | "TOOL_CALL" | "STATE_UPDATE" | "ERROR";
  title: string;
  /** `TOOL_EXECUTION`: the `ToolResult`; otherwise the event. */
  content: ToolResult | StatusEvent | { callId: string; toolName: string; tool: string | null; server: string | null; source: string | null };
  metadata: { source: "mcp-worker"; event: StatusEventKind; seq: number; server?: string; callId?: string; toolName?: string; [key: string]: unknown };
}

/** Which events a subscription gets. */
export interface EventFilter {
  kinds?: StatusEventKind[];
  servers?: string[];
  /** Leaves out other threads' tool executions (events of no thread still arrive). */
  threadId?: string;
}

/** Options of `subscribe`. */
export interface SubscribeOptions extends EventFilter {
  /** First deliver the kept events (`true`), or those after this `seq`. */
  replay?: boolean | number;
  /** `"event"` (default): `StatusEvent`s. */
  format?: "event";
}

/** Options of `subscribe` for ART `Observation`s instead of events. */
export interface ObservationSubscribeOptions extends EventFilter {
  replay?: boolean | number;
  format: "observation";
}

/** Options of `history`. */
export interface HistoryOptions extends EventFilter {
  /** At most the newest `limit`. */
  limit?: number;
}

/** Options of `observations`. */
export interface ObservationQuery {
  threadId?: string;
  types?: ArtObservation["type"][];
  limit?: number;
}

/** A resource a server offers (`resources/list`). */
export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: { audience?: ("user" | "assistant")[]; priority?: number; lastModified?: string };
  _meta?: { [key: string]: unknown };
}

/** A family of resources named by an RFC 6570 URI template (`resources/templates/list`). */
export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  _meta?: { [key: string]: unknown };
}

export interface ListResourcesResult {
  resources: Resource[];
  /** Pass it as `{ cursor }` for the next page; absent on the last. */
  nextCursor?: string;
}

export interface ListResourceTemplatesResult {
  resourceTemplates: ResourceTemplate[];
  nextCursor?: string;
}

/** One resource's contents: text, or binary as base64 `blob`. */
export type ResourceContents =
  | { uri: string; mimeType?: string; text: string; _meta?: { [key: string]: unknown } }
  | { uri: string; mimeType?: string; blob: string; _meta?: { [key: string]: unknown } };

export interface ReadResourceResult {
  contents: ResourceContents[];
}

/** Resources of several servers, for a picker (`exportResources`). */
export interface ResourceExport {
  resources: (Resource & { server: string })[];
  /** Servers whose resources could not be listed. */
  errors: { server: string; code: RuntimeErrorCode; message: string }[];
}

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

/** A prompt a server offers (`prompts/list`). */
export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  _meta?: { [key: string]: unknown };
}

export interface ListPromptsResult {
  prompts: Prompt[];
  nextCursor?: string;
}

export interface PromptMessage {
  role: "user" | "assistant";
  content: ContentBlock;
}

export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
}

/** What `complete` completes an argument of. */
export type CompletionReference = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };

export interface CompleteResult {
  completion: { values: string[]; total?: number; hasMore?: boolean };
}

/** MCP log levels, least severe first. */
export type LoggingLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

export interface ResourceUpdatedEvent extends EventBase {
  type: "resourceUpdated";
  server: string;
  /** The resource subscribed to (`subscribeResource`): read it again. */
  uri: string;
}

/** Signatures that need generics or overloads, merged into the class. */
export interface McpRuntime {
  /** The registry's tools in `format`, typed by format (see the class's `listTools`). */
  listTools<F extends ExportFormat>(format: F, filter?: ToolListFilter): ToolExport<ExportedTools[F]>;
  /** Subscribes to ART `Observation`s (see the class's `subscribe`). */
  subscribe(callback: (observation: ArtObservation) => unknown, options: ObservationSubscribeOptions): () => void;
}
"#;
