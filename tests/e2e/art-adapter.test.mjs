// End-to-end test of the ART adapter (pkg/host/art-adapter.mjs) in headless Chromium, against ART's own classes:
// the runtime's tools in ART's ToolRegistry, run by ART's ToolSystem (its enablement check and ajv validation) with
// the model's call ids, ART's StateManager as the authority on enablement, and the runtime's status in ART's
// observation repository and socket.
//
// ART (art-framework 0.4.16) is the bundle ../shared/vendor/art-framework/art-tools.mjs beside the repository
// (see its README): ART's real ToolRegistry, ToolSystem, StateManager, ObservationManager, UISystem, … Where that
// bundle is absent, the tests that need it are reported as skipped, with why.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, it as test } from "node:test";
import { openRuntimePage } from "./runtime-page.mjs";

const REPOSITORY = fileURLToPath(new URL("../..", import.meta.url));
const ART_TOOLS = resolve(REPOSITORY, "../shared/vendor/art-framework/art-tools.mjs");
const SKIP = existsSync(ART_TOOLS)
  ? false
  : `ART's classes are not here: ${ART_TOOLS} (art-framework 0.4.16, built from ART's source) is missing`;
const EVERYTHING = "/bundles/everything/bootstrap.js";
const ECHO = "/bundles/echo/bootstrap.js";

describe("ART adapter", () => {
  let browser;
  let page;
  /** Each test is reported as skipped, with why, where ART's bundle is absent. */
  const it = (name, fn) => test(name, { skip: SKIP }, fn);

  before(async () => {
    ({ browser, page } = await openRuntimePage({ files: SKIP ? {} : { "/e2e/art-tools.mjs": ART_TOOLS } }));
    if (SKIP) return;
    await page.evaluate(async () => {
      const art = await import("/e2e/art-tools.mjs");
      art.Logger.configure({ level: art.LogLevel.ERROR });
      window.art = art;
      /** ART's parts, wired as ART's AgentFactory.initialize wires them, with `threads` configured. */
      window.wireArt = async (threads = {}) => {
        const storage = new art.InMemoryStorageAdapter();
        await storage.init();
        const observationRepository = new art.ObservationRepository(storage);
        const uiSystem = new art.UISystem(observationRepository, new art.ConversationRepository(storage));
        const stateManager = new art.StateManager(new art.StateRepository(storage), "explicit");
        const observationManager = new art.ObservationManager(observationRepository, uiSystem.getObservationSocket());
        const toolRegistry = new art.ToolRegistry(stateManager);
        const toolSystem = new art.ToolSystem(toolRegistry, stateManager, observationManager);
        for (const [threadId, tools] of Object.entries(threads)) {
          const providerConfig = { providerName: "none", modelId: "none", adapterOptions: {} };
          await stateManager.setThreadConfig(threadId, { providerConfig, enabledTools: [], historyLimit: 10 });
          if (tools.length) await stateManager.enableToolsForThread(threadId, tools);
        }
        return { storage, observationRepository, uiSystem, stateManager, observationManager, toolRegistry, toolSystem };
      };
      /** ART's TOOL_EXECUTION records of a thread (ART's ToolSystem records them without waiting). */
      window.recordedExecutions = async (parts, threadId, count) => {
        const read = () => parts.observationManager.getObservations(threadId, { types: ["TOOL_EXECUTION"] });
        await waitFor(`${count} TOOL_EXECUTION observations`, async () => (await read()).length >= count);
        return read();
      };
    });
  });

  after(async () => {
    await browser?.close();
  });

  it("ART's ToolSystem runs the runtime's tools through its own checks, with the model's call ids", async () => {
    const out = await page.evaluate(async ({ EVERYTHING, ECHO }) => {
      const { connectArt } = await import("/pkg/host/art-adapter.mjs");
      const rt = await host.McpRuntime.create({ databaseName: unique("art") });
      rt.addServer({ name: "everything", workerUrl: EVERYTHING, autoStart: true });
      rt.addServer({ name: "echo", workerUrl: ECHO, autoStart: true });
      await waitFor("both servers", () => rt.servers().every((s) => s.status === "connected"));
      rt.registerTool(
        { name: "page_clock", description: "The page's clock", inputSchema: { type: "object", properties: { offset: { type: "number" } }, required: ["offset"] }, annotations: { readOnlyHint: true } },
        async ({ offset }) => ({ now: 1000 + offset }),
      );
      const parts = await wireArt({
        t1: ["mcp__echo__echo", "mcp__everything__test_error_handling", "page_clock", "mcp__everything__structured_weather"],
      });
      const socket = parts.uiSystem.getObservationSocket();
      const observed = [];
      socket.subscribe((o) => observed.push(o));
      const connection = await connectArt(rt, { ...parts });
      const patched = Object.hasOwn(parts.toolSystem, "executeTools");

      const schemas = await parts.toolRegistry.getAvailableTools();
      const ours = rt.listTools("art").tools.map((t) => t.name);
      const uncompilable = schemas
        .map((s) => [s.name, art.validateJsonSchema(s.inputSchema, {})])
        .filter(([, v]) => v.errors?.some((e) => e.message.startsWith("Schema compilation failed")))
        .map(([name, v]) => `${name}: ${v.errors[0].message}`);
      const calls = [
        { callId: "call_1", toolName: "mcp__echo__echo", arguments: { text: "hi" } },
        { callId: "call_2", toolName: "mcp__everything__test_error_handling", arguments: {} },
        { callId: "call_3", toolName: "mcp__echo__echo", arguments: { text: 42 } },
        { callId: "call_4", toolName: "page_clock", arguments: { offset: 1 } },
        { callId: "call_5", toolName: "mcp__everything__structured_weather", arguments: { city: "Oslo" } },
        { callId: "call_6", toolName: "mcp__echo__add", arguments: { a: 1, b: 2 } },
        { callId: "call_7", toolName: "mcp__echo__echo", arguments: { text: "after a refused echo" } },
      ];
      const results = await connection.toolSystem.executeTools(calls, "t1", "trace_1");
      const executedByRuntime = rt
        .history({ kinds: ["toolExecutionFinished"] })
        .map((e) => [e.callId, e.toolName, e.threadId, e.traceId]);
      const recorded = await recordedExecutions(parts, "t1", calls.length);

      // The registry follows the runtime: a server removed and added again.
      rt.removeServer("echo");
      await connection.tools.settled();
      const withoutEcho = (await parts.toolRegistry.getAvailableTools()).map((s) => s.name);
      rt.addServer({ name: "echo", workerUrl: ECHO, autoStart: true });
      await waitFor("echo back", () => rt.server("echo")?.status === "connected");
      await connection.tools.settled();
      const withEcho = (await parts.toolRegistry.getAvailableTools()).map((s) => s.name);

      // A crash and restart reach ART's observation socket.
      const crash = rt.callTool("everything", "crash", {}).catch((e) => e.code);
      await waitFor("a restart observation", () => observed.some((o) => o.metadata?.event === "serverRestarting"), 20_000);
      await crash;

      const forwarded = observed.filter((o) => o.metadata?.source === "mcp-worker");
      // Events of no thread are in ART's history under "" (the runtime's own threadId for them).
      const history = await parts.observationManager.getObservations("");
      await connection.dispose();
      const afterDispose = (await parts.toolRegistry.getAvailableTools()).map((s) => s.name);
      rt.close();
      return {
        schemas,
        ours,
        uncompilable,
        results,
        executedByRuntime,
        withoutEcho,
        withEcho,
        recorded: recorded.map((o) => [o.metadata.callId, o.content.status, o.metadata.source ?? "art"]),
        forwarded: forwarded.map((o) => [o.type, o.metadata.event, o.threadId]),
        history: history.map((o) => [o.type, o.metadata.event, o.metadata.source]),
        patched: patched || Object.hasOwn(parts.toolSystem, "executeTools"),
        afterDispose,
      };
    }, { EVERYTHING, ECHO });

    assert.deepEqual(out.schemas.map((s) => s.name).sort(), [...out.ours].sort(), "one executor per registry entry");
    for (const schema of out.schemas) {
      assert.equal(typeof schema.description, "string");
      assert.equal(schema.inputSchema.type, "object");
    }
    assert.deepEqual(out.uncompilable, [], "every ToolSchema compiles in ART's ajv");

    const byId = Object.fromEntries(out.results.map((r) => [r.callId, r]));
    assert.deepEqual(out.results.map((r) => r.callId), ["call_1", "call_2", "call_3", "call_4", "call_5", "call_6", "call_7"]);
    assert.equal(byId.call_1.status, "success");
    assert.deepEqual(byId.call_1.output.content, [{ type: "text", text: "hi" }]);
    assert.equal(byId.call_1.metadata.server, "echo");
    assert.equal(byId.call_1.metadata.runtimeCallId, undefined, "the runtime had the model's id");
    assert.equal(byId.call_2.status, "error", "an MCP isError result is an ART error");
    assert.ok(byId.call_2.error.length > 0);
    assert.equal(byId.call_3.status, "error");
    assert.match(byId.call_3.error, /Invalid arguments for tool "mcp__echo__echo": \/text must be string/, "ART's ajv refused it");
    assert.deepEqual(byId.call_4.output, { now: 1001 });
    assert.equal(byId.call_5.output.structuredContent.city, "Oslo");
    assert.match(byId.call_6.error, /not enabled for thread/, "ART's enablement check");
    assert.deepEqual(byId.call_7.output.content, [{ type: "text", text: "after a refused echo" }]);

    assert.deepEqual(
      out.executedByRuntime,
      [
        ["call_1", "mcp__echo__echo", "t1", "trace_1"],
        ["call_2", "mcp__everything__test_error_handling", "t1", "trace_1"],
        ["call_4", "page_clock", "t1", "trace_1"],
        ["call_5", "mcp__everything__structured_weather", "t1", "trace_1"],
        ["call_7", "mcp__echo__echo", "t1", "trace_1"],
      ],
      "the runtime ran exactly the calls ART let through, each under its own call id (call_7 not under the refused call_3's)",
    );
    assert.deepEqual(
      out.recorded.map(([callId, , source]) => [callId, source]).sort(),
      ["call_1", "call_2", "call_3", "call_4", "call_5", "call_6", "call_7"].map((id) => [id, "art"]),
      "each call recorded once in ART's observations, by ART",
    );
    assert.ok(!out.withoutEcho.some((n) => n.startsWith("mcp__echo__")), out.withoutEcho.join(", "));
    assert.ok(out.withEcho.includes("mcp__echo__echo"));
    assert.ok(out.forwarded.some(([type, event]) => type === "STATE_UPDATE" && event === "serverStatus"));
    assert.ok(out.forwarded.some(([type, event]) => type === "ERROR" && event === "serverRestarting"));
    assert.ok(out.forwarded.every(([type]) => type !== "TOOL_EXECUTION"), "no duplicate TOOL_EXECUTION from the runtime");
    assert.ok(out.forwarded.every(([, , threadId]) => threadId === ""));
    assert.ok(out.history.some(([type, event]) => type === "ERROR" && event === "serverRestarting"), "in ART's history");
    assert.ok(out.history.some(([type, event]) => type === "STATE_UPDATE" && event === "serverStatus"));
    assert.ok(out.history.every(([, , source]) => source === "mcp-worker"));
    assert.equal(out.patched, false, "ART's ToolSystem is not changed");
    assert.deepEqual(out.afterDispose, []);
  });

  it("a call ART refuses before execution never lends its callId to the next call of that tool", async () => {
    const out = await page.evaluate(async ({ ECHO }) => {
      const { registerArtTools } = await import("/pkg/host/art-adapter.mjs");
      const rt = await host.McpRuntime.create({ databaseName: unique("art-refused") });
      rt.addServer({ name: "echo", workerUrl: ECHO, autoStart: true });
      await waitFor("echo", () => rt.server("echo")?.status === "connected");
      const parts = await wireArt({ t1: ["mcp__echo__echo"] });
      // Only the tools and the wrapped ToolSystem: no observation socket tells the adapter what ART recorded.
      const tools = await registerArtTools(rt, parts.toolRegistry);
      const toolSystem = tools.callIds.wrapToolSystem(parts.toolSystem);
      const echo = (callId, text) => ({ callId, toolName: "mcp__echo__echo", arguments: { text } });
      const results = await toolSystem.executeTools(
        [
          echo("invalid", 1),
          echo("first", "one"),
          { callId: "unknown", toolName: "mcp__echo__nope", arguments: {} },
          { callId: "disabled", toolName: "mcp__echo__add", arguments: { a: 1, b: 2 } },
          echo("invalid_again", false),
          echo("second", "two"),
        ],
        "t1",
      );
      // Refused in one batch (ART's thread t2 enables nothing), then run in the next.
      await parts.stateManager.setThreadConfig("t2", { providerConfig: { providerName: "none", modelId: "none", adapterOptions: {} }, enabledTools: [] });
      const notEnabled = await toolSystem.executeTools([echo("not_enabled", "x")], "t2");
      await parts.stateManager.enableToolsForThread("t2", ["mcp__echo__echo"]);
      const enabled = await toolSystem.executeTools([echo("enabled", "y")], "t2");
      const runtimeIds = rt.history({ kinds: ["toolExecutionFinished"] }).map((e) => [e.callId, e.threadId]);
      await tools.dispose();
      rt.close();
      return { results: [...results, ...notEnabled, ...enabled].map((r) => [r.callId, r.status]), runtimeIds };
    }, { ECHO });
    assert.deepEqual(out.results, [
      ["invalid", "error"],
      ["first", "success"],
      ["unknown", "error"],
      ["disabled", "error"],
      ["invalid_again", "error"],
      ["second", "success"],
      ["not_enabled", "error"],
      ["enabled", "success"],
    ]);
    assert.deepEqual(
      out.runtimeIds,
      [["first", "t1"], ["second", "t1"], ["enabled", "t2"]],
      "the runtime ran each call under its own id, none under a refused call's",
    );
  });

  it("forwarded events reach only subscribers whose type filter they match, and land in ART's observation history", async () => {
    const out = await page.evaluate(async ({ EVERYTHING }) => {
      const { forwardStatus, connectArt } = await import("/pkg/host/art-adapter.mjs");
      const rt = await host.McpRuntime.create({ databaseName: unique("art-forward") });
      const parts = await wireArt({ t1: [] });
      const socket = parts.uiSystem.getObservationSocket();
      const got = { all: [], errors: [], states: [], executions: [], ops: [], t2: [] };
      // ART's ObservationManager.record notifies without a type filter: what it forwards is left out here.
      const ours = (list) => (o) =>
        o.metadata?.source === "mcp-worker" && o.threadId !== "via-record" && list.push([o.type, o.metadata.event, o.threadId, o.id]);
      socket.subscribe(ours(got.all));
      socket.subscribe(ours(got.errors), art.ObservationType.ERROR);
      socket.subscribe(ours(got.states), [art.ObservationType.STATE_UPDATE]);
      socket.subscribe(ours(got.executions), art.ObservationType.TOOL_EXECUTION);
      socket.subscribe(ours(got.ops), undefined, { threadId: "ops" });
      socket.subscribe(ours(got.t2), undefined, { threadId: "t2" });

      // A whole ART app's parts, events of no thread filed under ART thread "ops".
      const connection = await connectArt(rt, { ...parts, threadId: "ops" });
      // And a bare socket: notified only, in ART's default thread for them ("").
      const bare = new art.ObservationSocket();
      const bareErrors = [];
      bare.subscribe(ours(bareErrors), art.ObservationType.ERROR);
      const stopBare = forwardStatus(rt, bare);
      // And an ObservationManager with only its public `record`: ART's own path (ART's ids, unfiltered notify).
      const manager = { record: (data) => parts.observationManager.record(data) };
      const stopRecord = forwardStatus(rt, { observationManager: manager }, { threadId: "via-record" });

      rt.addServer({ name: "everything", workerUrl: EVERYTHING, autoStart: true });
      await waitFor("everything", () => rt.server("everything")?.status === "connected");
      const crash = rt.callTool("everything", "crash", {}).catch((e) => e.code);
      await waitFor("a restart", () => got.all.some(([, event]) => event === "serverRestarting"), 20_000);
      await crash;
      await waitFor("connected again", () => rt.server("everything")?.status === "connected", 20_000);

      const stored = await parts.observationManager.getObservations("ops");
      const errorHistory = await socket.getHistory(art.ObservationType.ERROR, { threadId: "ops" });
      const recorded = await parts.observationManager.getObservations("via-record");
      await connection.dispose();
      stopBare();
      stopRecord();
      rt.close();
      return {
        got,
        bareErrors,
        stored: stored.map((o) => [o.type, o.metadata.event, o.id]),
        errorHistory: errorHistory.map((o) => o.metadata.event),
        recorded: recorded.map((o) => [o.type, o.metadata.event, o.metadata.title, o.id]),
      };
    }, { EVERYTHING });

    const types = (list) => [...new Set(list.map(([type]) => type))].sort();
    assert.deepEqual(types(out.got.all), ["ERROR", "STATE_UPDATE"], "an unfiltered subscriber gets every forwarded type");
    assert.deepEqual(types(out.got.errors), ["ERROR"], "a subscriber of ERROR gets only errors");
    assert.deepEqual(types(out.got.states), ["STATE_UPDATE"], "a subscriber of [STATE_UPDATE] gets only state updates");
    assert.deepEqual(out.got.executions, [], "a subscriber of TOOL_EXECUTION gets none of them");
    assert.ok(out.got.errors.some(([, event]) => event === "serverRestarting"));
    assert.deepEqual(types(out.bareErrors), ["ERROR"], "a bare socket honours the filter too");
    assert.ok(out.got.all.every(([, , threadId]) => threadId === "ops"), "events of no thread filed under the given thread");
    assert.equal(out.got.ops.length, out.got.all.length, "that thread's subscribers get them");
    assert.deepEqual(out.got.t2, [], "other threads' subscribers do not");

    const storedIds = out.stored.map(([, , id]) => id);
    assert.deepEqual(
      out.got.all.map(([, , , id]) => id).filter((id) => !storedIds.includes(id)),
      [],
      "every forwarded event is in ART's history (stored before it is notified)",
    );
    assert.equal(new Set(storedIds).size, storedIds.length, "once");
    assert.ok(out.stored.some(([type, event]) => type === "STATE_UPDATE" && event === "serverStatus"));
    assert.ok(out.stored.some(([type, event]) => type === "ERROR" && event === "serverRestarting"));
    assert.ok(out.errorHistory.includes("serverRestarting"), "ART's socket getHistory reads them");
    assert.ok(out.errorHistory.every((event) => event === "serverRestarting" || event === "serverStatus"));
    const restart = out.recorded.find(([type, event]) => type === "ERROR" && event === "serverRestarting");
    assert.ok(restart, "through ObservationManager.record when no repository is known");
    assert.match(restart[2], /^everything restarting/, "the runtime's title kept in metadata");
    assert.ok(!storedIds.includes(restart[3]), "with ART's own id");
  });

  it("without a ToolSystem object: callIds from TOOL_CALL observations, else the runtime's id is named in ART's record", async () => {
    const out = await page.evaluate(async ({ ECHO }) => {
      const { connectArt } = await import("/pkg/host/art-adapter.mjs");
      const rt = await host.McpRuntime.create({ databaseName: unique("art-no-toolsystem") });
      rt.addServer({ name: "echo", workerUrl: ECHO, autoStart: true });
      await waitFor("echo", () => rt.server("echo")?.status === "connected");
      const parts = await wireArt({ t1: ["mcp__echo__echo"] });
      // What an ArtInstance (createArtInstance) offers: no toolSystem. ART's agent holds the ToolSystem.
      const { toolSystem, storage: _s, observationRepository: _r, ...artInstance } = parts;
      const connection = await connectArt(rt, artInstance);
      const runAsAgent = async (calls, announce) => {
        if (announce) {
          await parts.observationManager.record({ threadId: "t1", traceId: "tr", type: art.ObservationType.TOOL_CALL, content: { toolCalls: calls }, metadata: {} });
        }
        return toolSystem.executeTools(calls, "t1", "tr");
      };
      // Announced: a refused call (invalid arguments) then, in the next batch, a call of the same tool.
      const refused = await runAsAgent([{ callId: "a_1", toolName: "mcp__echo__echo", arguments: { text: 1 } }], true);
      const announced = await runAsAgent([{ callId: "b_1", toolName: "mcp__echo__echo", arguments: { text: "b" } }], true);
      // Not announced: the runtime gets a generated id, which ART's TOOL_EXECUTION record names.
      const silent = await runAsAgent([{ callId: "c_1", toolName: "mcp__echo__echo", arguments: { text: "c" } }], false);
      const runtimeIds = rt.history({ kinds: ["toolExecutionFinished"] }).map((e) => e.callId);
      const recorded = await recordedExecutions(parts, "t1", 3);
      await connection.dispose();
      rt.close();
      return {
        results: [...refused, ...announced, ...silent],
        runtimeIds,
        recordedC1: recorded.find((o) => o.metadata.callId === "c_1")?.content,
      };
    }, { ECHO });

    assert.deepEqual(out.results.map((r) => [r.callId, r.status]), [["a_1", "error"], ["b_1", "success"], ["c_1", "success"]]);
    assert.equal(out.runtimeIds.length, 2);
    assert.equal(out.runtimeIds[0], "b_1", "the runtime ran the announced call under the model's id, not the refused a_1");
    assert.match(out.runtimeIds[1], /^mcp-worker-/, "an unannounced call gets a generated id in the runtime");
    assert.equal(out.recordedC1.callId, "c_1", "ART's record keeps the model's id");
    assert.equal(out.recordedC1.metadata.runtimeCallId, out.runtimeIds[1], "and names the runtime's");
  });

  it("ART's StateManager is the authority on enablement, and the runtime's thread lists are never written", async () => {
    const out = await page.evaluate(async ({ ECHO }) => {
      const { connectArt } = await import("/pkg/host/art-adapter.mjs");
      const rt = await host.McpRuntime.create({ databaseName: unique("art-enablement") });
      rt.addServer({ name: "echo", workerUrl: ECHO, autoStart: true });
      await waitFor("echo", () => rt.server("echo")?.status === "connected");
      rt.registerTool({ name: "page_time", description: "Now", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }, () => ({ now: 1 }));
      const writes = [];
      for (const method of ["enableTools", "setThreadTools", "disableTools"]) {
        const original = rt[method].bind(rt);
        rt[method] = (threadId, tools) => {
          writes.push([method, threadId, [...tools]]);
          return original(threadId, tools);
        };
      }
      const parts = await wireArt({ t1: ["mcp__echo__echo", "page_time"], t3: [] });
      const artExecuteTools = parts.toolSystem.executeTools;
      const connection = await connectArt(rt, { ...parts });
      const ts = connection.toolSystem;
      const before = rt.threadTools("t1");
      for (let i = 0; i < 3; i += 1) {
        await ts.executeTools([{ callId: `e${i}`, toolName: "mcp__echo__echo", arguments: { text: `${i}` } }], "t1");
        await ts.executeTools([{ callId: `p${i}`, toolName: "page_time", arguments: {} }], "t1");
      }
      const afterRuns = rt.threadTools("t1");
      const writesAfterRuns = writes.length;

      // ART disables echo: ART refuses it, and the runtime, asked directly, has no list for the thread at all.
      await parts.stateManager.disableToolsForThread("t1", ["mcp__echo__echo"]);
      const refused = await ts.executeTools([{ callId: "e9", toolName: "mcp__echo__echo", arguments: { text: "no" } }], "t1");
      const stillRuns = await ts.executeTools([{ callId: "p9", toolName: "page_time", arguments: {} }], "t1");
      const afterDisable = rt.threadTools("t1");
      const direct = await rt.executeTools([{ callId: "d1", toolName: "mcp__echo__echo", arguments: { text: "x" } }], "t1");

      // A thread ART enables nothing in: ART refuses, the runtime's list is untouched.
      const t3 = await ts.executeTools([{ callId: "t3", toolName: "page_time", arguments: {} }], "t3");
      const t3Runtime = rt.threadTools("t3");
      await connection.dispose();
      rt.close();
      return {
        before,
        afterRuns,
        writesAfterRuns,
        writes,
        refused: refused[0],
        stillRuns: stillRuns[0].status,
        afterDisable,
        direct: direct[0],
        t3: t3[0].error,
        t3Runtime,
        own: Object.hasOwn(parts.toolSystem, "executeTools"),
        prototype: artExecuteTools === art.ToolSystem.prototype.executeTools,
      };
    }, { ECHO });

    assert.equal(out.before, null, "connecting writes nothing");
    assert.equal(out.afterRuns, null, "six calls ran, and the runtime's list for the thread was never written");
    assert.equal(out.writesAfterRuns, 0);
    assert.equal(out.refused.status, "error");
    assert.match(out.refused.error, /not enabled for thread "t1"/, "ART refused the disabled tool");
    assert.equal(out.stillRuns, "success", "ART's list still allows page_time, and the runtime follows it");
    assert.equal(out.afterDisable, null);
    assert.equal(out.direct.status, "error", "asked directly, the runtime fails closed: the thread has no list of its own");
    assert.match(out.direct.error, /not enabled/);
    assert.deepEqual(out.writes, [], "never enableTools, setThreadTools or disableTools");
    assert.match(out.t3, /not enabled for thread "t3"/);
    assert.equal(out.t3Runtime, null);
    assert.equal(out.own, false, "ART's ToolSystem has no patched executeTools");
    assert.equal(out.prototype, true);
  });

  // Needs no ART class: runs with or without ART's bundle.
  test("an executor used without ART's ToolSystem returns ToolResults, failures as error results, the runtime deciding enablement", async () => {
    const out = await page.evaluate(async ({ ECHO }) => {
      const { createToolExecutor } = await import("/pkg/host/art-adapter.mjs");
      const rt = await host.McpRuntime.create({ databaseName: unique("art-direct") });
      rt.addServer({ name: "echo", workerUrl: ECHO, autoStart: true });
      await waitFor("echo", () => rt.server("echo").status === "connected");
      const schema = rt.listTools("art").tools.find((t) => t.name === "mcp__echo__echo");
      const executor = createToolExecutor(rt, schema);
      const notEnabled = await executor.execute({ text: "x" }, { threadId: "t9", callId: "refused_id" });
      rt.setThreadTools("t9", ["mcp__echo__*"]);
      const ok = await executor.execute({ text: "direct" }, { threadId: "t9", callId: "given_id" });
      const generated = await executor.execute({ text: "x" }, { threadId: "t9" });
      const runtimeIds = rt.history({ kinds: ["toolExecutionFinished"] }).map((e) => e.callId);
      const threadTools = rt.threadTools("t9");
      rt.close();
      const closed = await executor.execute({ text: "x" }, { threadId: "t9" });
      return { notEnabled, ok, generated, runtimeIds, threadTools, closed };
    }, { ECHO });
    assert.equal(out.notEnabled.status, "error", "the runtime fails closed");
    assert.match(out.notEnabled.error, /not enabled/);
    assert.equal(out.notEnabled.callId, "refused_id");
    assert.equal(out.ok.callId, "given_id");
    assert.equal(out.ok.status, "success");
    assert.match(out.generated.callId, /^mcp-worker-/);
    assert.equal(out.generated.metadata.runtimeCallId, out.generated.callId);
    assert.deepEqual(out.runtimeIds.filter((id) => id !== "refused_id"), ["given_id", out.generated.callId]);
    assert.deepEqual(out.threadTools, ["mcp__echo__*"], "the executor wrote no enablement");
    assert.equal(out.closed.status, "error");
    assert.equal(out.closed.metadata.errorCode, "RUNTIME_CLOSED");
  });
});
