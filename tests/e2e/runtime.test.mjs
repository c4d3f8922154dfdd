// End-to-end tests of the JavaScript API (`McpRuntime` in pkg/host) in headless Chromium, against the sample
// servers' bundles in real workers: every API call, errors as Error objects with codes, the status socket.
// Run by `cargo xtask test`; by hand: MCP_WORKER_SITE_URL=http://127.0.0.1:8080/ node --test tests/e2e/runtime.test.mjs
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { openRuntimePage } from "./runtime-page.mjs";

const EVERYTHING = "/bundles/everything/bootstrap.js";
const ECHO = "/bundles/echo/bootstrap.js";

describe("McpRuntime (JavaScript API)", () => {
  let browser;
  let page;
  let pageErrors;
  let consoleMessages;

  before(async () => {
    ({ browser, page, pageErrors, consoleMessages } = await openRuntimePage());
  });

  after(async () => {
    await browser?.close();
  });

  it("runs the README example: starts a server, subscribes to status and calls a tool", async () => {
    const readme = await readFile(new URL("../../README.md", import.meta.url), "utf8");
    const section = readme.split("## Use it from JavaScript")[1];
    assert.ok(section, "README.md has a 'Use it from JavaScript' section");
    const example = section.match(/```js\n([\s\S]*?)```/)?.[1];
    assert.ok(example, "the section has a ```js example");
    const lines = example.trim().split("\n").length;
    assert.ok(lines <= 25, `the example is short (${lines} lines)`);
    const before = consoleMessages.length;
    // The example runs as a module script of a page at the site root, as it would in an application, with the
    // package where a page without a bundler finds it.
    const module = example.replace('from "mcp-worker"', 'from "/pkg/host/mcp_worker_host.js"');
    assert.notEqual(module, example, "the example imports the package");
    await page.addScriptTag({ type: "module", content: `${module}\nwindow.readmeDone = true;` });
    await page.waitForFunction(() => window.readmeDone === true);
    const printed = consoleMessages.slice(before).map((m) => m.text).join("\n");
    assert.match(printed, /serverStatus echo connected/, printed);
    assert.match(printed, /hello from the README/, printed);
  });

  it("passes a server's numbers through every path exactly as JSON.parse reads what the server wrote", async () => {
    const out = await page.evaluate(async () => {
      const rt = await host.McpRuntime.create({ databaseName: unique("numbers") });
      rt.addServer({ name: "js", workerUrl: "/e2e-fixtures/js-server.js" });
      const called = await rt.callTool("js", "numbers", {});
      const [executed] = await rt.executeTools(
        [{ callId: "c1", toolName: "mcp__js__numbers", arguments: {} }],
        "t",
        { enabledTools: ["mcp__js__numbers"] },
      );
      rt.close();
      return { called: called.structuredContent, executed: executed.output.structuredContent };
    });
    const written = {
      yard: 0.9144,
      tiny: 1e-7,
      huge: 1e300,
      big: 9007199254740993,
      negative: -0.30000000000000004,
      long: 117.63331139400017,
      pixel: 0.9215686321258545,
    };
    assert.deepEqual(out.called, written, "callTool");
    assert.deepEqual(out.executed, written, "executeTools");
    for (const [key, value] of Object.entries(written)) {
      assert.equal(JSON.stringify(out.executed[key]), JSON.stringify(value), `${key} as text`);
    }
  });

  it("says to call init() when the API is used before it, and works once it has run", async () => {
    const out = await page.evaluate(async () => {
      // A second instance of the module, not initialized yet.
      const fresh = await import("/pkg/host/mcp_worker_host.js?before-init");
      const create = await failure(() => fresh.McpRuntime.create());
      const spawn = await failure(() => fresh.McpClient.spawn({ name: "echo", workerUrl: "/bundles/echo/bootstrap.js" }));
      await fresh.default();
      const rt = await fresh.McpRuntime.create();
      const works = rt.servers().length === 0;
      rt.close();
      return { create, spawn, works };
    });
    for (const error of [out.create, out.spawn]) {
      assert.equal(error.code, "NOT_INITIALIZED");
      assert.match(error.message, /not initialized: `await init\(\)`/);
    }
    assert.ok(out.works, "init() still initializes");
  });

  it("says a manifest that is an HTML page comes from a wrong workerUrl, and where it was fetched", async () => {
    // A dev server that answers every path with its index.html.
    await page.route("**/spa-app/**", (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>App</title><div id=app>" }),
    );
    const error = await page.evaluate(async () => {
      const rt = await host.McpRuntime.create({ databaseName: unique("spa") });
      rt.addServer({ name: "typo", workerUrl: "./spa-app/bundles/ech0/bootstrap.js" });
      const failed = await failure(rt.callTool("typo", "echo", { text: "x" }));
      rt.close();
      return failed;
    });
    await page.unroute("**/spa-app/**");
    assert.equal(error.code, "INVALID_MANIFEST");
    assert.match(error.message, /^server typo: invalid manifest http:\/\/127\.0\.0\.1:\d+\/spa-app\/bundles\/ech0\/manifest\.json: this is an HTML page, not a manifest: is `workerUrl` right\?/);
  });

  it("hides native tools by the same rule unless their registration allows them, and says so", async () => {
    const out = await page.evaluate(async () => {
      const rt = await host.McpRuntime.create({ databaseName: unique("native-hidden") });
      const events = [];
      rt.subscribe((event) => events.push(event), { kinds: ["toolsHidden"] });
      const schema = { type: "object" };
      rt.registerTool({ name: "page_title", inputSchema: schema, annotations: { readOnlyHint: true } }, () => document.title);
      rt.registerTool({ name: "clear_notes", inputSchema: schema, annotations: { destructiveHint: true } }, () => "cleared");
      rt.registerTool({ name: "save_note", inputSchema: schema }, () => "saved", { allowDestructive: true });
      const offered = rt.listTools("mcp").tools.map((tool) => tool.name);
      const hidden = rt.hiddenTools();
      const refused = await rt.executeTools(
        [{ callId: "c1", toolName: "clear_notes", arguments: {} }],
        "t",
        { enabledTools: ["clear_notes", "save_note"] },
      );
      const allowed = await rt.executeTools(
        [{ callId: "c2", toolName: "save_note", arguments: {} }],
        "t",
        { enabledTools: ["clear_notes", "save_note"] },
      );
      const badOption = await failure(() => rt.registerTool({ name: "x", inputSchema: schema }, () => 1, { allowDestructiv: true }));
      rt.close();
      return { offered, hidden, events, refused: refused[0].metadata.errorCode, allowed: allowed[0].output, badOption };
    });
    assert.deepEqual(out.offered, ["page_title", "save_note"]);
    assert.deepEqual(out.hidden.map((t) => [t.name, t.server]), [["clear_notes", ""]]);
    assert.match(out.hidden[0].reason, /destructiveHint: true/);
    assert.equal(out.events.length, 1, JSON.stringify(out.events));
    assert.equal(out.events[0].server, null);
    assert.deepEqual(out.events[0].tools.map((t) => t.name), ["clear_notes"]);
    assert.equal(out.refused, "TOOL_HIDDEN");
    assert.equal(out.allowed, "saved");
    assert.equal(out.badOption.code, "INVALID_INPUT", JSON.stringify(out.badOption));
  });

  it("lists the tools hidden from agents with why, announces them, and reports the registry's status", async () => {
    const out = await page.evaluate(async ({ EVERYTHING }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("hidden") });
      const events = [];
      rt.subscribe((event) => events.push(event));
      const before = rt.registryStatus();
      let during = null;
      rt.subscribe((event) => {
        if (event.type === "serverStatus" && event.status === "connecting") during ??= rt.registryStatus();
      });
      rt.addServer({ name: "everything", workerUrl: EVERYTHING });
      await rt.connectServer("everything");
      const hidden = rt.hiddenTools();
      const announced = events.filter((e) => e.type === "toolsHidden");
      const shown = rt.listTools("openai", { serverPrefix: true }).tools.map((t) => t.function.description);
      const plain = rt.listTools("anthropic").tools[0].description;
      await rt.callTool("everything", "test_simple_text", {});
      const health = rt.server("everything");
      const status = rt.registryStatus();
      rt.close();
      return { before, during, hidden, announced, shown, plain, health, status };
    }, { EVERYTHING });
    assert.deepEqual([out.before, out.during, out.status], ["idle", "discovering", "ready"]);
    assert.ok(out.hidden.length > 0, "the everything server has tools that may be destructive");
    for (const tool of out.hidden) {
      assert.equal(tool.server, "everything");
      assert.match(tool.reason, /annotations|destructive/, JSON.stringify(tool));
    }
    assert.equal(out.announced.length, 1, "one toolsHidden event when the tools were registered");
    assert.deepEqual(out.announced[0].tools.map((t) => t.name), out.hidden.map((t) => t.name));
    assert.ok(out.shown.length > 0 && out.shown.every((d) => d.startsWith("[everything] ")), out.shown[0]);
    assert.ok(!out.plain.startsWith("["), "no prefix unless asked");
    assert.equal(typeof out.health.lastSuccessMs, "number");
    assert.equal(out.health.consecutiveCallFailures, 0);
  });

  it("lists a lazy server's tools from its manifest before it starts, and starts it when one is called", async () => {
    const out = await page.evaluate(async ({ ECHO }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("lazy") });
      const listed = new Promise((resolve) =>
        rt.subscribe((event) => event.type === "toolsChanged" && event.server === "echo" && resolve(event.added)),
      );
      rt.addServer({ name: "echo", workerUrl: ECHO });
      const added = await listed;
      const before = { status: rt.server("echo").status, tools: rt.listTools("mcp").tools.map((t) => t.name) };
      const [result] = await rt.executeTools(
        [{ callId: "c1", toolName: "mcp__echo__echo", arguments: { text: "woken" } }],
        "t",
        { enabledTools: ["mcp__echo__*"] },
      );
      const after = rt.server("echo").status;
      rt.close();
      return { added, before, text: result.output?.content?.[0]?.text, status: result.status, after };
    }, { ECHO });
    assert.ok(out.added.includes("mcp__echo__echo"), JSON.stringify(out.added));
    assert.equal(out.before.status, "disconnected", "listed, not started");
    assert.ok(out.before.tools.includes("mcp__echo__echo"));
    assert.deepEqual([out.status, out.text, out.after], ["success", "woken", "connected"]);
  });

  it("imports a bare map of servers, then a changed copy of it in place, reporting what changed", async () => {
    const out = await page.evaluate(async ({ ECHO, EVERYTHING }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("reimport") });
      const flat = {
        echo: { workerUrl: ECHO, autoApprove: ["echo"], metadata: { allowDestructiveTools: true, owner: "ops" } },
        everything: { workerUrl: EVERYTHING },
      };
      const first = await rt.importMcpServers(flat);
      const allowed = rt.serverConfig("echo").allowDestructiveTools;
      const called = (await rt.callTool("echo", "echo", { text: "before" })).content[0].text;
      const again = await rt.importMcpServers(JSON.stringify({ mcpServers: flat }));
      const stillConnected = rt.server("echo").status;
      const changedDoc = { echo: { workerUrl: ECHO, timeoutMs: 5000 }, extra: { workerUrl: ECHO } };
      const second = await rt.importMcpServers({ servers: changedDoc }, { removeMissing: true });
      const afterChange = { status: rt.server("echo").status, timeoutMs: rt.serverConfig("echo").timeoutMs };
      const calledAgain = (await rt.callTool("echo", "echo", { text: "after" })).content[0].text;
      const update = [
        rt.updateServer({ name: "extra", workerUrl: ECHO }),
        rt.updateServer({ name: "extra", workerUrl: ECHO, enabled: false }),
        rt.updateServer({ name: "fresh", workerUrl: ECHO }),
      ];
      const invalid = await failure(() => rt.updateServer({ name: "fresh", type: "wasm" }));
      const names = rt.servers().map((s) => s.name);
      rt.close();
      return { first, allowed, called, again, stillConnected, second, afterChange, calledAgain, update, invalid, names };
    }, { ECHO, EVERYTHING });
    assert.deepEqual(out.first.added, ["echo", "everything"]);
    assert.deepEqual(
      out.first.ignored.map((p) => `${p.entry}.${p.field}`),
      ["echo.autoApprove", "echo.metadata.owner"],
      "fields the host does not use are reported",
    );
    assert.equal(out.allowed, true, "metadata.allowDestructiveTools is honoured");
    assert.equal(out.called, "before");
    assert.deepEqual([out.again.added, out.again.changed, out.again.unchanged], [[], [], ["echo", "everything"]]);
    assert.equal(out.stillConnected, "connected", "an unchanged server is left running");
    assert.deepEqual(
      [out.second.added, out.second.changed, out.second.unchanged, out.second.removed],
      [["extra"], ["echo"], [], ["everything"]],
    );
    assert.deepEqual(out.afterChange, { status: "disconnected", timeoutMs: 5000 });
    assert.equal(out.calledAgain, "after", "the changed server starts again at its next use");
    assert.deepEqual(out.update, ["unchanged", "changed", "added"]);
    assert.equal(out.invalid.code, "INVALID_CONFIG");
    assert.deepEqual(out.names.sort(), ["echo", "extra", "fresh"]);
  });

  it("adds, imports, enables, disables, connects, restarts and removes servers", async () => {
    const out = await page.evaluate(async ({ EVERYTHING, ECHO }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("servers") });
      const invalid = await failure(() => rt.addServer({ name: "bad", type: "wasm" }));
      rt.addServer({ name: "echo", workerUrl: ECHO });
      const duplicate = await failure(() => rt.addServer({ name: "echo", workerUrl: ECHO }));
      const imported = await rt.importMcpServers(
        JSON.stringify({
          mcpServers: {
            everything: { type: "wasm", workerUrl: EVERYTHING, credentials: [{ name: "EVERYTHING_API_KEY", required: false }] },
            files: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] },
            broken: { type: "wasm" },
          },
        }),
      );
      const notJson = await failure(() => rt.importMcpServers("{ nope"));
      const initial = rt.servers().map((s) => [s.name, s.status]);
      await rt.connectServer("echo");
      const connected = rt.server("echo");
      rt.disableServer("echo");
      const disabled = rt.server("echo").status;
      const whileDisabled = await failure(rt.callTool("echo", "echo", { text: "x" }));
      rt.enableServer("echo");
      const started = await rt.startAll();
      await rt.restartServer("echo");
      const restarted = rt.server("echo").status;
      rt.disconnectServer("echo");
      const disconnected = rt.server("echo").status;
      const config = rt.serverConfig("everything");
      rt.removeServer("everything");
      const unknown = await failure(() => rt.removeServer("everything"));
      const unknownConnect = await failure(rt.connectServer("nobody"));
      const stdio = await failure(rt.connectServer("files"));
      const names = rt.servers().map((s) => s.name);
      rt.close();
      const closed = await failure(() => rt.addServer({ name: "late", workerUrl: ECHO }));
      return {
        invalid, duplicate, imported, notJson, initial, connected, disabled, whileDisabled, started, restarted,
        disconnected, config, unknown, unknownConnect, stdio, names, closed,
      };
    }, { EVERYTHING, ECHO });
    assert.equal(out.invalid.isError, true);
    assert.equal(out.invalid.code, "INVALID_CONFIG");
    assert.deepEqual(out.invalid.errors, [{ entry: "bad", field: "workerUrl", message: "is required for a wasm server" }]);
    assert.equal(out.duplicate.code, "INVALID_INPUT");
    assert.deepEqual(out.imported.added, ["everything", "files"]);
    assert.equal(out.imported.errors.length, 1);
    assert.equal(out.imported.errors[0].entry, "broken");
    assert.equal(out.notJson.code, "INVALID_CONFIG");
    assert.deepEqual(out.initial, [["echo", "disconnected"], ["everything", "disconnected"], ["files", "error"]]);
    assert.equal(out.connected.status, "connected");
    assert.equal(out.connected.toolCount, 3);
    assert.equal(out.disabled, "disabled");
    assert.equal(out.whileDisabled.code, "UNAVAILABLE");
    const started = Object.fromEntries(out.started.map((s) => [s.server, s.ok]));
    assert.deepEqual(started, { echo: true, everything: true });
    assert.equal(out.restarted, "connected");
    assert.equal(out.disconnected, "disconnected");
    assert.deepEqual(out.config.credentials, [{ name: "EVERYTHING_API_KEY", description: "", required: false }]);
    assert.equal(out.config.workerUrl, EVERYTHING);
    assert.equal(out.unknown.code, "UNKNOWN_SERVER");
    assert.equal(out.unknownConnect.code, "UNKNOWN_SERVER");
    assert.equal(out.stdio.code, "UNAVAILABLE");
    assert.deepEqual(out.names, ["echo", "files"]);
    assert.equal(out.closed.code, "RUNTIME_CLOSED");
  });

  it("lists tools in every export format, runs native JS tools beside MCP tools, and checks calls per thread", async () => {
    const out = await page.evaluate(async ({ ECHO }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("tools") });
      rt.addServer({ name: "echo", workerUrl: ECHO, autoStart: true });
      await waitFor("echo connected", () => rt.server("echo").status === "connected");
      const seenContext = [];
      const name = rt.registerTool(
        {
          name: "page_clock",
          description: "The page's clock",
          inputSchema: { type: "object", properties: { offset: { type: "number" } }, required: ["offset"] },
          annotations: { readOnlyHint: true },
        },
        async (args, context) => {
          seenContext.push(context);
          if (args.offset < 0) throw new Error("no time travel");
          return { now: 1000 + args.offset };
        },
      );
      const duplicate = await failure(() => rt.registerTool({ name: "page_clock", inputSchema: { type: "object" } }, () => 1));
      const badName = await failure(() => rt.registerTool({ name: "mcp__x__y", inputSchema: { type: "object" } }, () => 1));
      const notAFunction = await failure(() => rt.registerTool({ name: "x", inputSchema: { type: "object" } }, 42));
      const formats = {};
      for (const format of ["openai", "anthropic", "art", "mcp"]) formats[format] = rt.listTools(format);
      const byDefault = rt.listTools();
      const onlyEcho = rt.listTools("mcp", { server: "echo" }).tools.map((t) => t.name);
      const noThread = rt.listTools("art", { threadId: "t1" }).tools.length;
      rt.setThreadTools("t1", ["mcp__echo__*"]);
      rt.enableTools("t1", ["page_clock"]);
      const forThread = rt.listTools("art", { threadId: "t1" }).tools.map((t) => t.name);
      const results = await rt.executeTools(
        [
          { callId: "call_a", toolName: "mcp__echo__echo", arguments: { text: "hi" } },
          { callId: "call_b", toolName: "page_clock", arguments: '{"offset": 5}' },
          { callId: "call_c", toolName: "page_clock", arguments: { offset: -1 } },
          { callId: "call_d", toolName: "page_clock", arguments: { offset: "soon" } },
          { callId: "call_e", toolName: "mcp__echo__nope", arguments: {} },
        ],
        "t1",
        { traceId: "trace_1", includeRawResult: true },
      );
      rt.disableTools("t1", ["page_clock"]);
      const afterDisable = await rt.executeTools([{ callId: "call_f", toolName: "page_clock", arguments: { offset: 1 } }], "t1");
      const threadTools = rt.threadTools("t1");
      const unknownThread = rt.threadTools("t9");
      const removed = rt.unregisterTool("page_clock");
      const removeMcp = await failure(() => rt.unregisterTool("mcp__echo__echo"));
      const progress = [];
      const direct = await rt.callTool("echo", "add", { a: 2, b: 3 }, { onProgress: (p) => progress.push(p) });
      const badFormat = await failure(() => rt.listTools("yaml"));
      const badCalls = await failure(rt.executeTools("nope", "t1"));
      rt.close();
      return {
        name, duplicate, badName, notAFunction, formats, byDefault, onlyEcho, noThread, forThread, results, afterDisable,
        threadTools, unknownThread, removed, removeMcp, direct, seenContext, badFormat, badCalls,
      };
    }, { ECHO });
    assert.equal(out.name, "page_clock");
    assert.equal(out.duplicate.code, "DUPLICATE_TOOL");
    assert.equal(out.badName.code, "INVALID_TOOL_NAME");
    assert.equal(out.notAFunction.code, "INVALID_INPUT");
    const openai = out.formats.openai.tools.find((t) => t.function.name === "mcp__echo__echo");
    assert.equal(openai.type, "function");
    assert.equal(openai.function.parameters.type, "object");
    const anthropic = out.formats.anthropic.tools.find((t) => t.name === "page_clock");
    assert.deepEqual(anthropic.input_schema.required, ["offset"]);
    const art = out.formats.art.tools.find((t) => t.name === "mcp__echo__add");
    assert.ok(art.description && art.inputSchema.properties.a);
    assert.ok(out.formats.mcp.tools.some((t) => t.name === "mcp__echo__blob"));
    assert.deepEqual(out.byDefault.tools.map((t) => t.name), out.formats.mcp.tools.map((t) => t.name));
    assert.deepEqual(out.onlyEcho, ["mcp__echo__add", "mcp__echo__blob", "mcp__echo__echo"]);
    assert.equal(out.noThread, 0, "a thread nobody configured has no tools");
    assert.deepEqual(out.forThread, ["mcp__echo__add", "mcp__echo__blob", "mcp__echo__echo", "page_clock"]);
    const [a, b, c, d, e] = out.results;
    assert.deepEqual(out.results.map((r) => r.callId), ["call_a", "call_b", "call_c", "call_d", "call_e"]);
    assert.equal(a.status, "success");
    assert.deepEqual(a.output.content, [{ type: "text", text: "hi" }]);
    assert.equal(a.metadata.server, "echo");
    assert.equal(a.metadata.rawResult.content[0].text, "hi");
    assert.deepEqual(b.output, { now: 1005 });
    assert.equal(b.metadata.source, "native");
    assert.equal(c.status, "error");
    assert.equal(c.error, "no time travel");
    assert.equal(c.metadata.errorCode, "TOOL_FAILED");
    assert.equal(d.status, "error");
    assert.match(d.error, /Invalid arguments for tool page_clock/);
    assert.equal(d.metadata.errorCode, "INVALID_ARGUMENTS");
    assert.match(e.error, /Unknown tool mcp__echo__nope/);
    assert.equal(e.metadata.errorCode, "UNKNOWN_TOOL");
    assert.deepEqual(out.seenContext[0], { threadId: "t1", traceId: "trace_1", callId: "call_b" });
    assert.match(out.afterDisable[0].error, /not enabled/);
    assert.equal(out.afterDisable[0].metadata.errorCode, "TOOL_NOT_ENABLED");
    assert.deepEqual(out.threadTools, ["mcp__echo__*"]);
    assert.equal(out.unknownThread, null);
    assert.equal(out.removed, true);
    assert.equal(out.removeMcp.code, "INVALID_INPUT");
    assert.equal(JSON.parse(out.direct.content[0].text).sum, 5);
    assert.equal(out.badFormat.code, "INVALID_INPUT");
    assert.equal(out.badCalls.code, "INVALID_INPUT");
  });

  it("aborts a call with an AbortSignal and the server learns it was cancelled", async () => {
    const out = await page.evaluate(async ({ EVERYTHING }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("abort") });
      rt.addServer({ name: "everything", workerUrl: EVERYTHING, autoStart: true });
      await waitFor("everything connected", () => rt.server("everything").status === "connected");
      const controller = new AbortController();
      const progress = [];
      const slow = rt.callTool("everything", "slow_operation", { steps: 100, step_ms: 50 }, {
        signal: controller.signal,
        onProgress: (p) => progress.push(p.progress),
      });
      await waitFor("some progress", () => progress.length >= 2);
      const started = performance.now();
      controller.abort();
      const aborted = await failure(slow);
      const abortMs = performance.now() - started;
      const already = await failure(rt.callTool("everything", "slow_operation", { steps: 1, step_ms: 1 }, { signal: AbortSignal.abort() }));
      rt.setThreadTools("t", ["mcp__everything__*"]);
      const batch = new AbortController();
      const execution = rt.executeTools(
        [{ callId: "c1", toolName: "mcp__everything__slow_operation", arguments: { steps: 100, step_ms: 50 } }],
        "t",
        { signal: batch.signal },
      );
      setTimeout(() => batch.abort(), 200);
      const batchAborted = await failure(execution);
      let stats;
      await waitFor("both cancellations reach the server", async () => {
        const result = await rt.callTool("everything", "slow_operation_stats", {});
        stats = result.structuredContent;
        return stats.cancelled >= 2;
      });
      const badSignal = await failure(rt.callTool("everything", "slow_operation_stats", {}, { signal: {} }));
      rt.close();
      return { aborted, abortMs, already, batchAborted, stats, badSignal };
    }, { EVERYTHING });
    assert.equal(out.aborted.isError, true);
    assert.equal(out.aborted.name, "AbortError");
    assert.equal(out.aborted.code, "ABORTED");
    assert.ok(out.abortMs < 1000, `the promise settles at once (${out.abortMs} ms)`);
    assert.equal(out.already.code, "ABORTED");
    assert.equal(out.batchAborted.code, "ABORTED");
    assert.equal(out.stats.completed, 0);
    assert.ok(out.stats.cancelled >= 2, JSON.stringify(out.stats));
    assert.equal(out.badSignal.code, "INVALID_INPUT");
  });

  it("sets up, locks, unlocks, rotates and wipes the credential vault; values never leave it", async () => {
    const out = await page.evaluate(async ({ EVERYTHING }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("vault") });
      const vault = rt.credentials;
      const before = { mode: await vault.keyMode(), unlocked: vault.isUnlocked() };
      const notSetUp = await failure(vault.set("everything", "EVERYTHING_API_KEY", "x"));
      await vault.setup({ passphrase: "correct horse battery" });
      const again = await failure(vault.setup({ passphrase: "other" }));
      // Configured first: a credential is bound to the bundle its server's config names when it is stored.
      rt.addServer({ name: "everything", workerUrl: EVERYTHING, credentials: [{ name: "EVERYTHING_API_KEY", description: "An example secret" }] });
      await vault.set("everything", "EVERYTHING_API_KEY", "sk-test-0123456789");
      await vault.set("other", "TOKEN", "tok-zzzzzzzz");
      vault.lock();
      const whileLocked = { unlocked: vault.isUnlocked(), names: await vault.names("everything"), servers: await vault.servers() };
      const wrong = await failure(vault.unlock({ passphrase: "wrong" }));
      const wrongMode = await failure(vault.unlock({ device: true }));
      const badKey = await failure(vault.unlock({ appKey: new Uint8Array(5) }));
      const noKey = await failure(vault.unlock({}));
      await vault.unlock({ passphrase: "correct horse battery" });
      const missingNone = await vault.missing("everything");
      const status = await rt.callTool("everything", "credential_status", {});
      await vault.rotate({ appKey: new Uint8Array(32).fill(7) });
      const mode = await vault.keyMode();
      vault.lock();
      await vault.unlock({ appKey: new Uint8Array(32).fill(7) });
      await vault.delete("everything", "EVERYTHING_API_KEY");
      const missing = await vault.missing("everything");
      const events = JSON.stringify(rt.history());
      await vault.wipe();
      const wiped = { mode: await vault.keyMode(), unlocked: vault.isUnlocked(), servers: await vault.servers() };
      rt.close();
      return { before, notSetUp, again, whileLocked, wrong, wrongMode, badKey, noKey, missingNone, status, mode, missing, events, wiped };
    }, { EVERYTHING });
    assert.deepEqual(out.before, { mode: null, unlocked: false });
    assert.equal(out.notSetUp.code, "NOT_SET_UP");
    assert.match(out.notSetUp.message, /set one up first/);
    assert.equal(out.again.code, "ALREADY_SET_UP");
    assert.deepEqual(out.whileLocked, { unlocked: false, names: ["EVERYTHING_API_KEY"], servers: ["everything", "other"] });
    assert.equal(out.wrong.code, "WRONG_KEY");
    assert.equal(out.wrongMode.code, "MODE_MISMATCH");
    assert.equal(out.badKey.code, "INVALID_INPUT");
    assert.equal(out.noKey.code, "INVALID_INPUT");
    assert.deepEqual(out.missingNone, []);
    assert.equal(out.status.content[0].text, "EVERYTHING_API_KEY is set (18 characters)");
    assert.equal(out.mode, "app_key");
    assert.deepEqual(out.missing, [{ name: "EVERYTHING_API_KEY", description: "An example secret", required: true }]);
    assert.ok(!out.events.includes("sk-test-0123456789"), "no event carries a credential value");
    assert.deepEqual(out.wiped, { mode: null, unlocked: false, servers: [] });
  });

  it("tells, in order, the story of a server that starts, needs credentials, connects, crashes and restarts", async () => {
    const out = await page.evaluate(async ({ EVERYTHING }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("story"), backoff: { initialMs: 100 } });
      const story = [];
      const kinds = ["serverStatus", "credentialsRequired", "toolsChanged", "serverRestarting"];
      rt.subscribe((e) => story.push(e), { servers: ["everything"], kinds });
      await rt.credentials.setup({ passphrase: "correct horse battery" });
      rt.credentials.lock();
      rt.addServer({
        name: "everything",
        workerUrl: EVERYTHING,
        credentials: [{ name: "EVERYTHING_API_KEY", description: "An example secret", required: true }],
      });
      const refused = await failure(rt.connectServer("everything"));
      await rt.credentials.unlock({ passphrase: "correct horse battery" });
      const required = () => story.filter((e) => e.type === "credentialsRequired").length;
      await waitFor("a second credentialsRequired", () => required() === 2);
      await rt.credentials.set("everything", "EVERYTHING_API_KEY", "sk-test-0123456789");
      await waitFor("connected", () => rt.server("everything").status === "connected");
      const crash = await failure(rt.callTool("everything", "crash", {}));
      await waitFor("restarted", () => story.some((e) => e.type === "serverRestarting") && rt.server("everything").status === "connected");
      const late = [];
      rt.subscribe((e) => late.push(e.seq), { servers: ["everything"], kinds, replay: true });
      const observations = rt.observations({ types: ["ERROR"] });
      const told = [...story];
      const replayed = [...late];
      rt.close();
      return { story: told, refused, crash, late: replayed, observations };
    }, { EVERYTHING });
    const told = out.story.map((e) => (e.type === "serverStatus" ? `status ${e.status}` : e.type));
    assert.deepEqual(told, [
      "status disconnected",
      "status connecting",
      "status needs_credentials",
      "credentialsRequired",
      "status connecting",
      "status needs_credentials",
      "credentialsRequired",
      "status connecting",
      "toolsChanged",
      "status connected",
      "status connecting",
      "serverRestarting",
      "status connecting",
      "toolsChanged",
      "status connected",
    ]);
    const seqs = out.story.map((e) => e.seq);
    assert.deepEqual(seqs, [...seqs].sort((x, y) => x - y), "in seq order");
    const [locked, missing] = out.story.filter((e) => e.type === "credentialsRequired");
    const declaration = [{ name: "EVERYTHING_API_KEY", description: "An example secret", required: true }];
    assert.deepEqual([locked.locked, locked.credentials], [true, declaration]);
    assert.deepEqual([missing.locked, missing.credentials], [false, declaration]);
    assert.equal(out.refused.code, "NEEDS_CREDENTIALS");
    assert.equal(out.crash.code, "WORKER_CRASHED");
    const restart = out.story.find((e) => e.type === "serverRestarting");
    assert.deepEqual([restart.attempt, restart.backoffMs], [1, 100]);
    assert.match(restart.reason, /crash/);
    const connected = out.story.filter((e) => e.type === "serverStatus" && e.status === "connected");
    assert.ok(connected.every((e) => e.toolCount > 20), "the tool count comes with the status");
    assert.equal(connected[1].lastError.includes("crash"), true, "the last error is kept after recovery");
    assert.deepEqual(out.late, seqs, "a late subscriber replays the same events");
    assert.ok(out.observations.some((o) => o.metadata.event === "serverRestarting" && o.type === "ERROR"));
  });

  it("filters subscriptions, survives subscribers that throw or never finish, and keeps a bounded history", async () => {
    const consoleBefore = consoleMessages.length;
    const out = await page.evaluate(async ({ ECHO }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("socket"), historySize: 8 });
      const all = [];
      const finishedT1 = [];
      const observations = [];
      rt.subscribe(() => {
        throw new Error("a broken subscriber");
      });
      rt.subscribe(() => new Promise(() => {}));
      rt.subscribe(async () => {
        throw new Error("a rejecting subscriber");
      });
      rt.subscribe((e) => all.push(e));
      rt.subscribe((e) => finishedT1.push(e), { kinds: ["toolExecutionFinished"], threadId: "t1" });
      rt.subscribe((o) => observations.push(o), { kinds: ["toolExecutionFinished", "toolExecutionStarted"], format: "observation" });
      const stopped = [];
      const unsubscribe = rt.subscribe((e) => stopped.push(e));
      unsubscribe();
      rt.addServer({ name: "echo", workerUrl: ECHO });
      rt.setThreadTools("t1", ["mcp__echo__*"]);
      rt.setThreadTools("t2", ["mcp__echo__*"]);
      await rt.connectServer("echo");
      const t1 = await rt.executeTools([{ callId: "one", toolName: "mcp__echo__echo", arguments: { text: "1" } }], "t1", { traceId: "tr" });
      const t2 = await rt.executeTools([{ callId: "two", toolName: "mcp__echo__echo", arguments: { text: "2" } }], "t2");
      const kept = rt.history();
      const limited = rt.history({ limit: 2, kinds: ["toolExecutionFinished"] });
      const t1Observations = rt.observations({ threadId: "t1", types: ["TOOL_EXECUTION"] });
      rt.historySize = 3;
      const size = rt.historySize;
      const trimmed = rt.history().length;
      const badKind = await failure(() => rt.subscribe(() => {}, { kinds: ["nope"] }));
      const notAFunction = await failure(() => rt.subscribe("nope"));
      const seen = [...all];
      rt.close();
      return { all: seen, finishedT1, observations, stopped, t1, t2, kept, limited, t1Observations, size, trimmed, badKind, notAFunction };
    }, { ECHO });
    const reported = consoleMessages.slice(consoleBefore).filter((m) => m.type === "error").map((m) => m.text);
    assert.ok(reported.some((t) => t.includes("a status subscriber threw") && t.includes("a broken subscriber")), reported.join("\n"));
    assert.ok(reported.some((t) => t.includes("a status subscriber rejected") && t.includes("a rejecting subscriber")));
    assert.equal(out.t1[0].status, "success", "the runtime kept working");
    assert.equal(out.t2[0].status, "success");
    const seqs = out.all.map((e) => e.seq);
    assert.deepEqual(seqs, seqs.map((_, i) => i + 1), "every event, in order, without gaps");
    assert.deepEqual(out.stopped, [], "unsubscribed before anything happened");
    assert.deepEqual(out.finishedT1.map((e) => e.callId), ["one"], "only thread t1's executions");
    const finished = out.finishedT1[0];
    assert.deepEqual(
      [finished.toolName, finished.tool, finished.server, finished.threadId, finished.traceId, finished.status],
      ["mcp__echo__echo", "echo", "echo", "t1", "tr", "success"],
    );
    assert.ok(finished.durationMs >= 0);
    assert.equal(finished.callId, "one");
    assert.equal(finished.result, undefined, "the event keeps no output");
    assert.deepEqual(finished.output, { content: [{ kind: "text", bytes: 1 }], structuredBytes: null }, "but says what it was");
    const started = out.all.find((e) => e.type === "toolExecutionStarted");
    assert.deepEqual([started.callId, started.server, started.threadId], ["one", "echo", "t1"]);
    assert.deepEqual(out.observations.map((o) => o.type), ["TOOL_CALL", "TOOL_EXECUTION", "TOOL_CALL", "TOOL_EXECUTION"]);
    const execution = out.observations[1];
    assert.deepEqual(
      Object.keys(execution).sort(),
      ["content", "id", "metadata", "threadId", "timestamp", "title", "traceId", "type"],
      "ART's Observation shape",
    );
    assert.equal(execution.content.callId, "one");
    assert.equal(execution.metadata.callId, "one");
    assert.equal(execution.threadId, "t1");
    assert.equal(out.kept.length, 8, "the history is bounded");
    assert.deepEqual(out.kept.map((e) => e.seq), seqs.slice(-8));
    assert.deepEqual(out.limited.map((e) => e.callId), ["one", "two"]);
    assert.deepEqual(out.t1Observations.map((o) => o.metadata.callId), ["one"]);
    assert.equal(out.size, 3);
    assert.equal(out.trimmed, 3);
    assert.equal(out.badKind.code, "INVALID_INPUT");
    assert.equal(out.notAFunction.code, "INVALID_INPUT");
  });

  it("answers elicitation and sampling requests by event and by handler, sampling only once approved", async () => {
    const out = await page.evaluate(async ({ EVERYTHING }) => {
      const rt = await host.McpRuntime.create({
        databaseName: unique("requests"),
        elicitation: true,
        sampling: async (request) => ({
          role: "assistant",
          content: { type: "text", text: `echo of ${request.params.messages[0].content.text}` },
          model: "test-model",
        }),
        roots: [{ uri: "file:///work", name: "work" }],
      });
      const asked = [];
      rt.subscribe((e) => asked.push(e), { kinds: ["elicitationRequested", "samplingRequested", "serverRequestSettled"] });
      rt.addServer({ name: "everything", workerUrl: EVERYTHING });
      const elicitation = rt.callTool("everything", "test_elicitation", { message: "Who are you?" });
      await waitFor("the elicitation", () => rt.pendingRequests().length === 1);
      const pending = rt.pendingRequests();
      rt.answerRequest(pending[0].requestId, { action: "accept", content: { username: "ada", email: "ada@example.com" } });
      const answered = await elicitation;
      const twice = await failure(() => rt.answerRequest(pending[0].requestId, { action: "decline" }));
      const second = rt.callTool("everything", "test_elicitation", { message: "Again?" });
      await waitFor("the second elicitation", () => rt.pendingRequests().length === 1);
      rt.rejectRequest(rt.pendingRequests()[0].requestId, "the user closed the dialog");
      const rejected = await second;
      const sampling = rt.callTool("everything", "test_sampling", { prompt: "hello" });
      // The handler does not run until the application approves the request.
      await waitFor("the sampling request", () => rt.pendingRequests().length === 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const waitingForApproval = rt.pendingRequests().map((r) => r.method);
      rt.approveRequest(rt.pendingRequests()[0].requestId);
      const sampled = await sampling;
      const roots = await rt.callTool("everything", "list_roots", {});
      const unknown = await failure(() => rt.rejectRequest(999, "x"));
      rt.close();
      return { asked, pending, answered, twice, rejected, waitingForApproval, sampled, roots, unknown };
    }, { EVERYTHING });
    assert.equal(out.pending[0].server, "everything");
    assert.equal(out.pending[0].method, "elicitation/create");
    assert.equal(out.pending[0].params.message, "Who are you?");
    assert.match(out.answered.content[0].text, /action=accept, content=\{"email":"ada@example.com","username":"ada"\}/);
    assert.equal(out.twice.code, "UNKNOWN_REQUEST");
    // MCP 2026-07-28 (what the runtime speaks to everything): a question comes back in the call's result and the
    // host answers it; a dialog the user closed is a cancelled elicitation (the reason stays on the page).
    assert.match(out.rejected.content[0].text, /action=cancel/);
    assert.deepEqual(out.waitingForApproval, ["sampling/createMessage"]);
    assert.equal(out.sampled.content[0].text, "LLM response: echo of hello");
    assert.equal(out.roots.content[0].text, "file:///work");
    assert.equal(out.unknown.code, "UNKNOWN_REQUEST");
    assert.deepEqual(
      out.asked.map((e) => (e.type === "serverRequestSettled" ? `${e.outcome}` : e.type)),
      ["elicitationRequested", "answered", "elicitationRequested", "rejected", "samplingRequested", "answered"],
    );
  });

  it("lets a replaying subscriber disable and add servers from its callback, and tells it and everyone what followed", async () => {
    const errorsBefore = pageErrors.length;
    const consoleBefore = consoleMessages.length;
    const out = await page.evaluate(async ({ ECHO }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("replay-reentry") });
      rt.addServer({ name: "echo", workerUrl: ECHO });
      rt.addServer({ name: "other", workerUrl: ECHO });
      await rt.connectServer("other");
      // echo starts at first use: its tools are listed from its manifest meanwhile.
      await waitFor("echo's tools listed from its manifest", () => rt.server("echo").toolCount > 0);
      const earlier = [];
      rt.subscribe((e) => earlier.push(e));
      const kept = rt.history().map((e) => e.seq);
      const seen = [];
      const thrown = [];
      let acted = false;
      // A UI catching up: on the first event it replays, it disables a server and adds another.
      const unsubscribe = rt.subscribe(
        (e) => {
          seen.push(e);
          if (acted) return;
          acted = true;
          try {
            rt.disableServer("echo");
            rt.addServer({ name: "added", workerUrl: ECHO });
          } catch (error) {
            thrown.push(String(error?.stack ?? error));
          }
        },
        { replay: true },
      );
      const subscribed = { seen: seen.map((e) => e.seq), earlier: earlier.map((e) => e.seq) };
      const servers = rt.servers().map((s) => [s.name, s.status]).sort();
      const call = await rt.callTool("other", "echo", { text: "still working" });
      rt.disableServer("other");
      unsubscribe();
      const all = rt.history().map((e) => e.seq);
      const summary = (e) => ({ seq: e.seq, type: e.type, server: e.server, status: e.status });
      const result = { kept, subscribed, thrown, servers, call, all, seen: seen.map(summary), earlier: earlier.map(summary) };
      rt.close();
      return result;
    }, { ECHO });
    assert.deepEqual(pageErrors.slice(errorsBefore), [], "no page error");
    const reported = consoleMessages.slice(consoleBefore).filter((m) => m.type === "error").map((m) => m.text);
    assert.deepEqual(reported, [], "nothing reported on the console");
    assert.deepEqual(out.thrown, [], "disableServer and addServer worked inside the callback");
    assert.ok(out.kept.length >= 3, `there was history to replay (${out.kept})`);
    assert.deepEqual(
      out.servers,
      [["added", "disconnected"], ["echo", "disabled"], ["other", "connected"]],
      "the changes made in the callback took effect",
    );
    assert.equal(out.call.content[0].text, "still working", "the runtime still works");
    const caused = [
      { seq: out.kept.length + 1, type: "toolsChanged", server: "echo", status: undefined },
      { seq: out.kept.length + 2, type: "serverStatus", server: "echo", status: "disabled" },
      { seq: out.kept.length + 3, type: "serverStatus", server: "added", status: "disconnected" },
    ];
    // The replaying subscriber: the kept events, then what its callback caused (echo's listed tools removed, echo
    // disabled, a server added), then what followed; each once.
    const next = [1, 2, 3].map((n) => out.kept.length + n);
    assert.deepEqual(out.subscribed.seen, [...out.kept, ...next]);
    assert.deepEqual(out.seen.slice(out.kept.length, out.kept.length + 3), caused);
    assert.deepEqual(out.seen.map((e) => e.seq), out.all, "every event, in order, without gap or duplicate");
    assert.ok(
      out.seen.some((e) => e.server === "other" && e.status === "disabled"),
      "and it follows what comes after the replay",
    );
    // A subscriber that was there before got the caused events too, once, in order.
    assert.deepEqual(out.subscribed.earlier, next);
    assert.deepEqual(out.earlier.slice(0, 3), caused);
    assert.deepEqual(out.earlier.map((e) => e.seq), out.all.slice(out.kept.length));
  });
});
