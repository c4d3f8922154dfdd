// Type-checked by `cargo xtask test` (tsc --noEmit -p tests/types) against the generated declarations of the host
// package: every call of the JavaScript API as an application writes it. `@ts-expect-error` lines prove that the
// types are real shapes: each would compile if the type there were `any`.
import init, {
  type ArtObservation,
  type AuthorizationRequiredEvent,
  type CallToolResult,
  type ReadResourceResult,
  type ResourceUpdatedEvent,
  type CredentialsRequiredEvent,
  type ElicitResult,
  McpRuntime,
  type RuntimeError,
  type ServerHealth,
  type StatusEvent,
  type ToolResult,
} from "mcp-worker-host/mcp_worker_host.js";

/** `true` only when `T` is not `any`. */
type NotAny<T> = 0 extends 1 & T ? false : true;
function real<T>(_value: T, _proof: NotAny<T>): void {}

export async function usage(): Promise<void> {
  await init();
  const runtime = await McpRuntime.create({
    databaseName: "app",
    historySize: 500,
    defaultTimeoutMs: 30_000,
    backoff: { initialMs: 500, maxMs: 10_000 },
    maxConsecutiveFailures: null,
    toolLimits: { maxToolsPerServer: 200, maxDescriptionChars: 2_000 },
    elicitation: true,
    sampling: async (request) => {
      real(request.params.maxTokens, true);
      return { role: "assistant", content: { type: "text", text: "hi" }, model: "m" };
    },
    roots: [{ uri: "file:///work", name: "work" }],
  });
  const fresh = await McpRuntime.create();
  fresh.close();

  // A runtime kept in its database: restored now, saved on every change.
  const kept = await McpRuntime.create({ database: "app-state" });
  const report = kept.persistence();
  if (report) {
    real(report.servers, true);
    const skipped: string | undefined = report.problems[0]?.reason;
    void skipped;
  }
  await kept.flushState();
  kept.close();

  // Servers.
  runtime.addServer({
    name: "everything",
    workerUrl: "/bundles/everything/bootstrap.js",
    credentials: ["TOKEN", { name: "API_KEY", description: "The API key", required: false }],
    autoStart: true,
  });
  const imported = await runtime.importMcpServers({ mcpServers: { echo: { workerUrl: "/bundles/echo/bootstrap.js" } } });
  const firstProblem: string | undefined = imported.errors[0]?.field;
  real(imported.added, true);
  await runtime.importMcpServers('{"mcpServers": {}}');
  runtime.enableServer("echo");
  runtime.disableServer("echo");
  await runtime.connectServer("echo");
  await runtime.restartServer("echo");
  runtime.disconnectServer("echo");
  const outcomes = await runtime.startAll();
  const failedCode = outcomes.find((o) => !o.ok)?.error?.code;
  runtime.removeServer("echo");
  const health: ServerHealth[] = runtime.servers();
  const one = runtime.server("everything");
  if (one) {
    real(one.status, true);
    // @ts-expect-error the status is a union of literals
    const wrong: "running" = one.status;
    void wrong;
  }
  const config = runtime.serverConfig("everything");
  const worker: string | undefined = config?.workerUrl;

  // Credentials.
  const vault = runtime.credentials;
  const mode = await vault.keyMode();
  if (mode === null) await vault.setup({ passphrase: "correct horse battery" });
  await vault.unlock({ appKey: new Uint8Array(32) });
  await vault.rotate({ device: true });
  // @ts-expect-error a vault key is a passphrase, an app key or the device key
  await vault.unlock({ password: "x" });
  vault.lock();
  const unlocked: boolean = vault.isUnlocked();
  await vault.set("everything", "TOKEN", "value");
  await vault.delete("everything", "TOKEN");
  const names: string[] = await vault.names("everything");
  const servers: string[] = await vault.servers();
  const missing = await vault.missing("everything");
  const description: string | undefined = missing[0]?.description;
  await vault.wipe();
  await runtime.confirmCredentialIdentity("everything");
  const errorCode: RuntimeError["code"] = "ORPHANED_CREDENTIALS";
  real(errorCode, true);

  // Tools in each export format.
  const openai = runtime.listTools("openai", { threadId: "t1" });
  const parameters = openai.tools[0]?.function.parameters;
  const anthropic = runtime.listTools("anthropic").tools[0]?.input_schema;
  const art = runtime.listTools("art", { server: "everything", includeHidden: true }).tools[0]?.inputSchema;
  const mcp = runtime.listTools("mcp").tools[0]?.inputSchema.type;
  const skipped = runtime.listTools().skipped[0]?.reason;
  // @ts-expect-error an OpenAI tool has no input_schema
  runtime.listTools("openai").tools[0]?.input_schema;
  const name: string = runtime.registerTool(
    { name: "clock", description: "Now", inputSchema: { type: "object", properties: {} }, annotations: { readOnlyHint: true } },
    async (args, context) => ({ now: Date.now(), args, thread: context.threadId, call: context.callId }),
  );
  const removed: boolean = runtime.unregisterTool(name);
  runtime.setThreadTools("t1", ["mcp__everything__*", "clock"]);
  runtime.enableTools("t1", ["mcp__echo__echo"]);
  runtime.disableTools("t1", ["clock"]);
  const threadTools: string[] | null = runtime.threadTools("t1");

  // Execution.
  const controller = new AbortController();
  const results: ToolResult[] = await runtime.executeTools(
    [{ callId: "call_1", toolName: "mcp__everything__echo", arguments: { message: "hi" } }],
    "t1",
    { traceId: "trace", timeoutMs: 5_000, includeRawResult: true, signal: controller.signal },
  );
  const status: "success" | "error" | undefined = results[0]?.status;
  const code = results[0]?.metadata.errorCode;
  const result: CallToolResult = await runtime.callTool("everything", "echo", { message: "hi" }, {
    timeoutMs: 1_000,
    signal: controller.signal,
    onProgress: (progress) => real(progress.progress, true),
  });
  await runtime.callTool("everything", "list_roots");
  try {
    await runtime.callTool("nobody", "x");
  } catch (error) {
    const failure = error as RuntimeError;
    if (failure.code === "ABORTED" || failure.code === "UNKNOWN_SERVER") real(failure.message, true);
    // @ts-expect-error codes are a closed union
    if (failure.code === "SOMETHING_ELSE") return;
  }

  // The status socket.
  const unsubscribe = runtime.subscribe(
    (event: StatusEvent) => {
      switch (event.type) {
        case "serverStatus":
          real(event.toolCount, true);
          break;
        case "credentialsRequired": {
          const needs: CredentialsRequiredEvent = event;
          real(needs.credentials[0]?.name, true);
          const storedFor: string | null | undefined = needs.identityChange?.storedFor;
          real(storedFor, true);
          if (needs.identityChange !== null) void runtime.confirmCredentialIdentity(needs.server);
          break;
        }
        case "toolExecutionFinished":
          real(event.durationMs, true);
          real(event.output.content[0]?.bytes, true);
          real(event.callId, true);
          break;
        case "serverRestarting":
          real(event.backoffMs, true);
          break;
        case "toolNamesClashed":
          real(event.tools[0]?.name, true);
          break;
        case "toolListLimited": {
          const first = event.violations[0];
          if (first?.kind === "truncated") real(first.max, true);
          real(event.message, true);
          break;
        }
        case "elicitationRequested": {
          const answer: ElicitResult = { action: "accept", content: { name: "ada" } };
          runtime.answerRequest(event.requestId, answer);
          break;
        }
        default:
          real(event.seq, true);
      }
    },
    { kinds: ["serverStatus", "toolExecutionFinished"], servers: ["everything"], threadId: "t1", replay: true },
  );
  unsubscribe();
  runtime.subscribe(
    (observation: ArtObservation) => real(observation.threadId, true),
    { format: "observation", replay: 12 },
  );
  // @ts-expect-error an unknown event kind
  runtime.subscribe(() => {}, { kinds: ["serverExploded"] });
  const history: StatusEvent[] = runtime.history({ limit: 10, kinds: ["progress"] });
  const observations: ArtObservation[] = runtime.observations({ threadId: "t1", types: ["TOOL_EXECUTION"], limit: 5 });
  runtime.historySize = 1_000;
  const size: number = runtime.historySize;
  const pending = runtime.pendingRequests();
  if (pending[0]) runtime.rejectRequest(pending[0].requestId, "declined", -32600);
  const page = await runtime.listResources("everything", { cursor: undefined });
  const next: string | undefined = page.nextCursor;
  const read: ReadResourceResult = await runtime.readResource("everything", page.resources[0]?.uri ?? "test://x");
  const first = read.contents[0];
  const body: string = !first ? "" : "text" in first ? first.text : first.blob;
  await runtime.subscribeResource("everything", "test://watched-resource");
  const subscribed: string[] = runtime.resourceSubscriptions("everything");
  const picked = await runtime.exportResources({ servers: ["everything"] });
  const pickedServer: string | undefined = picked.resources[0]?.server;
  const prompt = await runtime.getPrompt("everything", "test_prompt_with_arguments", { arg1: "a" });
  const role: "user" | "assistant" | undefined = prompt.messages[0]?.role;
  const values: string[] = (await runtime.complete("everything", { type: "ref/prompt", name: "p" }, { name: "a", value: "" }))
    .completion.values;
  await runtime.setLogLevel("everything", "warning");
  // @ts-expect-error not a log level
  await runtime.setLogLevel("everything", "loud");
  runtime.subscribe((event) => {
    if (event.type === "resourceUpdated") real<ResourceUpdatedEvent["uri"]>(event.uri, true);
    if (event.type === "authorizationRequired") real<AuthorizationRequiredEvent["reason"]>(event.reason, true);
  });
  runtime.addServer({ name: "docs", workerUrl: "/bundles/docs/bootstrap.js", resourceTool: true });
  runtime.addServer({ name: "pinned", url: "https://mcp.example.com/mcp", protocol: "2026-07-28" });
  // @ts-expect-error not a protocol revision the runtime speaks
  runtime.addServer({ name: "old", url: "https://mcp.example.com/mcp", protocol: "2024-11-05" });
  const era: string | null | undefined = runtime.server("pinned")?.protocolVersion;
  real(era, true);
  // A settings page: every tool with where it runs and whether agents see it; destructive tools allowed in place.
  const entry = runtime.toolEntries({ includeHidden: true })[0];
  const where: [string, "mcp" | "native", string | null, boolean, boolean] | undefined = entry && [entry.tool, entry.source, entry.server, entry.destructive, entry.hidden];
  real(where, true);
  runtime.setAllowDestructiveTools("docs", true);
  // A config file reloaded in place; one server changed; what is hidden from agents, and why; the registry's state.
  const reloaded = await runtime.importMcpServers({ echo: { workerUrl: "/bundles/echo/bootstrap.js" } }, { removeMissing: true });
  const reloadedLists: [string[], string[], string[], string[], string | undefined] = [reloaded.added, reloaded.changed, reloaded.unchanged, reloaded.removed, reloaded.ignored[0]?.field];
  real(reloadedLists, true);
  // @ts-expect-error not an import option
  await runtime.importMcpServers("{}", { removeMising: true });
  const change: "added" | "changed" | "unchanged" = runtime.updateServer({ name: "echo", workerUrl: "/bundles/echo/bootstrap.js", timeoutMs: 5_000 });
  real(change, true);
  const hidden = runtime.hiddenTools()[0];
  const hiddenWhy: [string, string, string, string] | undefined = hidden && [hidden.name, hidden.server, hidden.tool, hidden.reason];
  real(hiddenWhy, true);
  const registry: "idle" | "discovering" | "ready" | "partial" = runtime.registryStatus();
  real(registry, true);
  const lastSuccess: number | null | undefined = runtime.server("echo")?.lastSuccessMs;
  const failuresInARow: number | undefined = runtime.server("echo")?.consecutiveCallFailures;
  real([lastSuccess, failuresInARow], true);
  runtime.registerTool({ name: "save", inputSchema: { type: "object" } }, () => "saved", { allowDestructive: true });
  // @ts-expect-error not a registerTool option
  runtime.registerTool({ name: "save2", inputSchema: { type: "object" } }, () => "saved", { allowDestructiv: true });
  runtime.listTools("openai", { serverPrefix: true });
  runtime.subscribe((event) => {
    if (event.type === "toolsHidden") real<string | null>(event.server, true);
  });
  const appSecret: Promise<string | null> = runtime.credentials.get("@app", "MODEL_KEY");
  real(appSecret, true);
  runtime.close();

  real([next, body, subscribed, pickedServer, role, values], true);
  real([firstProblem, failedCode, health, worker, unlocked, names, servers, description], true);
  real([parameters, anthropic, art, mcp, skipped, removed, threadTools, status, code, result], true);
  real([history, observations, size], true);
}
