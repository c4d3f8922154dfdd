// End-to-end test of the ART adapter (pkg/host/art-adapter.mjs) in headless Chromium: the runtime's tools in an
// ART ToolRegistry, executed by ART's ToolSystem through its own ajv validation, with real call ids, MCP errors as
// `status: "error"`, and the runtime's status on ART's observation socket.
//
// ART's classes come from tests/fixtures/src/art-contract.mjs (bundled with ajv by `cargo xtask test`): the npm
// registry used here has no `art-framework` package (see that file).
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import { openRuntimePage } from "./runtime-page.mjs";

const ART_BUNDLE = fileURLToPath(new URL("../fixtures/dist/art-contract.js", import.meta.url));
const EVERYTHING = "/bundles/everything/bootstrap.js";
const ECHO = "/bundles/echo/bootstrap.js";

describe("ART adapter", () => {
  let browser;
  let page;

  before(async () => {
    ({ browser, page } = await openRuntimePage({ files: { "/e2e/art-contract.js": ART_BUNDLE } }));
  });

  after(async () => {
    await browser?.close();
  });

  it("ART's ToolSystem runs the runtime's tools through its own validation, with real call ids", async () => {
    const out = await page.evaluate(async ({ EVERYTHING, ECHO }) => {
      const art = await import("/e2e/art-contract.js");
      const { connectArt } = await import("/pkg/host/art-adapter.mjs");
      const rt = await host.McpRuntime.create({ databaseName: unique("art") });
      rt.addServer({ name: "everything", workerUrl: EVERYTHING, autoStart: true });
      rt.addServer({ name: "echo", workerUrl: ECHO, autoStart: true });
      await waitFor("both servers", () => rt.servers().every((s) => s.status === "connected"));
      rt.registerTool(
        { name: "page_clock", description: "The page's clock", inputSchema: { type: "object", properties: { offset: { type: "number" } }, required: ["offset"] } },
        async ({ offset }) => ({ now: 1000 + offset }),
      );
      const socket = new art.ObservationSocket();
      const observed = [];
      socket.subscribe((o) => observed.push(o));
      const registry = new art.ToolRegistry();
      const state = new art.StateManager();
      const toolSystem = new art.ToolSystem(registry, state, new art.ObservationManager(socket));
      const originalExecuteTools = toolSystem.executeTools;
      const connection = await connectArt(rt, { toolRegistry: registry, toolSystem, observationSocket: socket });

      const schemas = await registry.getAvailableTools();
      const ours = rt.listTools("art").tools.map((t) => t.name);
      const uncompilable = schemas
        .map((s) => [s.name, art.validateJsonSchema(s.inputSchema, {})])
        .filter(([, v]) => v.errors?.some((e) => e.message.startsWith("Schema compilation failed")))
        .map(([name, v]) => `${name}: ${v.errors[0].message}`);
      await state.enableToolsForThread("t1", [
        "mcp__echo__echo",
        "mcp__everything__test_error_handling",
        "page_clock",
        "mcp__everything__structured_weather",
      ]);
      const results = await toolSystem.executeTools(
        [
          { callId: "call_1", toolName: "mcp__echo__echo", arguments: { text: "hi" } },
          { callId: "call_2", toolName: "mcp__everything__test_error_handling", arguments: {} },
          { callId: "call_3", toolName: "mcp__echo__echo", arguments: { text: 42 } },
          { callId: "call_4", toolName: "page_clock", arguments: { offset: 1 } },
          { callId: "call_5", toolName: "mcp__everything__structured_weather", arguments: { city: "Oslo" } },
          { callId: "call_6", toolName: "mcp__echo__add", arguments: { a: 1, b: 2 } },
        ],
        "t1",
        "trace_1",
      );
      const executedByRuntime = rt
        .history({ kinds: ["toolExecutionFinished"] })
        .map((e) => [e.callId, e.toolName, e.threadId, e.traceId]);

      // The registry follows the runtime: a server removed and added again.
      rt.removeServer("echo");
      await connection.tools.settled();
      const withoutEcho = (await registry.getAvailableTools()).map((s) => s.name);
      rt.addServer({ name: "echo", workerUrl: ECHO, autoStart: true });
      await waitFor("echo back", () => rt.server("echo")?.status === "connected");
      await connection.tools.settled();
      const withEcho = (await registry.getAvailableTools()).map((s) => s.name);

      // A crash and restart reach ART's observation socket.
      const crash = rt.callTool("everything", "crash", {}).catch((e) => e.code);
      await waitFor("a restart observation", () => observed.some((o) => o.metadata?.event === "serverRestarting"), 20_000);
      await crash;

      const forwarded = observed.filter((o) => o.metadata?.source === "mcp-worker");
      await connection.dispose();
      const afterDispose = (await registry.getAvailableTools()).map((s) => s.name);
      rt.close();
      return {
        schemas,
        ours,
        uncompilable,
        results,
        executedByRuntime,
        withoutEcho,
        withEcho,
        toolExecutions: observed.filter((o) => o.type === "TOOL_EXECUTION").map((o) => o.content.callId),
        forwarded: forwarded.map((o) => [o.type, o.metadata.event, o.threadId]),
        afterDispose,
        restored: toolSystem.executeTools === originalExecuteTools,
      };
    }, { EVERYTHING, ECHO });

    assert.deepEqual(out.schemas.map((s) => s.name).sort(), [...out.ours].sort(), "one executor per registry entry");
    for (const schema of out.schemas) {
      assert.equal(typeof schema.description, "string");
      assert.equal(schema.inputSchema.type, "object");
    }
    assert.deepEqual(out.uncompilable, [], "every ToolSchema compiles in ART's ajv");

    const byId = Object.fromEntries(out.results.map((r) => [r.callId, r]));
    assert.deepEqual(out.results.map((r) => r.callId), ["call_1", "call_2", "call_3", "call_4", "call_5", "call_6"]);
    assert.equal(byId.call_1.status, "success");
    assert.deepEqual(byId.call_1.output.content, [{ type: "text", text: "hi" }]);
    assert.equal(byId.call_1.metadata.server, "echo");
    assert.equal(byId.call_2.status, "error", "an MCP isError result is an ART error");
    assert.ok(byId.call_2.error.length > 0);
    assert.equal(byId.call_3.status, "error");
    assert.match(byId.call_3.error, /Invalid arguments for tool "mcp__echo__echo": \/text must be string/, "ART's ajv refused it");
    assert.deepEqual(byId.call_4.output, { now: 1001 });
    assert.equal(byId.call_5.output.structuredContent.city, "Oslo");
    assert.match(byId.call_6.error, /not enabled for thread/, "ART's enablement check");

    assert.deepEqual(
      out.executedByRuntime,
      [
        ["call_1", "mcp__echo__echo", "t1", "trace_1"],
        ["call_2", "mcp__everything__test_error_handling", "t1", "trace_1"],
        ["call_4", "page_clock", "t1", "trace_1"],
        ["call_5", "mcp__everything__structured_weather", "t1", "trace_1"],
      ],
      "the runtime ran exactly the calls ART let through, under the LLM's call ids",
    );
    assert.ok(!out.withoutEcho.some((n) => n.startsWith("mcp__echo__")), out.withoutEcho.join(", "));
    assert.ok(out.withEcho.includes("mcp__echo__echo"));
    assert.deepEqual(out.toolExecutions, ["call_1", "call_2", "call_3", "call_4", "call_5", "call_6"], "recorded once, by ART");
    assert.ok(out.forwarded.some(([type, event]) => type === "STATE_UPDATE" && event === "serverStatus"));
    assert.ok(out.forwarded.some(([type, event]) => type === "ERROR" && event === "serverRestarting"));
    assert.ok(out.forwarded.every(([type]) => type !== "TOOL_EXECUTION"), "no duplicate TOOL_EXECUTION from the runtime");
    assert.deepEqual(out.afterDispose, []);
    assert.equal(out.restored, true);
  });

  it("an executor used without ART's ToolSystem still returns a ToolResult, and failures as error results", async () => {
    const out = await page.evaluate(async ({ ECHO }) => {
      const { createToolExecutor } = await import("/pkg/host/art-adapter.mjs");
      const rt = await host.McpRuntime.create({ databaseName: unique("art-direct") });
      rt.addServer({ name: "echo", workerUrl: ECHO, autoStart: true });
      await waitFor("echo", () => rt.server("echo").status === "connected");
      const schema = rt.listTools("art").tools.find((t) => t.name === "mcp__echo__echo");
      const executor = createToolExecutor(rt, schema);
      const ok = await executor.execute({ text: "direct" }, { threadId: "t9", callId: "given_id" });
      const generated = await executor.execute({ text: "x" }, { threadId: "t9" });
      rt.close();
      const closed = await executor.execute({ text: "x" }, { threadId: "t9" });
      return { ok, generated, closed };
    }, { ECHO });
    assert.equal(out.ok.callId, "given_id");
    assert.equal(out.ok.status, "success");
    assert.match(out.generated.callId, /^mcp-worker-/);
    assert.equal(out.closed.status, "error");
    assert.equal(out.closed.metadata.errorCode, "RUNTIME_CLOSED");
  });
});
