// End-to-end tests of MCP 2026-07-28 (no handshake: `server/discover`, a `_meta` envelope on every request,
// `input_required` results, `subscriptions/listen`) beside the 2025-11-25 handshake, through the public JavaScript
// API in headless Chromium: against real servers built with the official TypeScript SDK v2 over HTTP
// (tests/fixtures/remote/v2-servers.mjs), a v1 SDK server that knows only the handshake
// (tests/fixtures/remote/servers.mjs), and the `everything` sample bundle in its sandboxed worker.
// Run by `cargo xtask test`; by hand: MCP_WORKER_SITE_URL=http://127.0.0.1:8080/ node --test tests/e2e/modern.test.mjs
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startRemoteServers } from "../fixtures/remote/servers.mjs";
import { startV2Servers } from "../fixtures/remote/v2-servers.mjs";
import { openRuntimePage } from "./runtime-page.mjs";

const EVERYTHING = "/bundles/everything/bootstrap.js";

describe("MCP 2026-07-28 beside the 2025-11-25 handshake", () => {
  let browser;
  let page;
  let v2;
  let v1;

  before(async () => {
    [v2, v1] = await Promise.all([startV2Servers(), startRemoteServers()]);
    ({ browser, page } = await openRuntimePage());
  });

  after(async () => {
    await browser?.close();
    await Promise.all([v2?.close(), v1?.close()]);
  });

  it("speaks 2026-07-28 to a server that does: tools, input_required answered by the app's handler, progress and logs", async () => {
    const out = await page.evaluate(async ({ url }) => {
      const asked = [];
      const rt = await host.McpRuntime.create({
        databaseName: unique("modern"),
        elicitation: (request) => {
          asked.push(request);
          return { action: "accept", content: { name: "Grace Hopper" } };
        },
      });
      const logs = [];
      rt.subscribe((e) => logs.push(e), { kinds: ["serverLog"] });
      rt.addServer({ name: "dual", type: "http", url });
      const before = rt.server("dual").protocolVersion ?? null;
      const connecting = performance.now();
      await rt.connectServer("dual");
      const connectMs = performance.now() - connecting;
      const health = rt.server("dual");
      const tools = rt.listTools(undefined, { server: "dual", includeHidden: true }).tools.map((t) => t.name);
      const echo = await rt.callTool("dual", "echo", { text: "über 2026 ✓" });
      const named = await rt.callTool("dual", "ask_name", { greeting: "Hi" });
      const progress = [];
      const work = await rt.callTool("dual", "work", { steps: 3 }, {
        onProgress: (p) => progress.push([p.progress, p.total, p.message]),
      });
      await waitFor("three log messages", () => logs.length >= 3, 3000).catch(() => {});
      rt.close();
      return {
        before,
        connectMs,
        protocolVersion: health.protocolVersion,
        status: health.status,
        tools,
        echo: echo.content[0].text,
        named: named.content[0].text,
        asked: asked.map(({ server, method, params }) => ({
          server,
          method,
          message: params.message,
          fields: Object.keys(params.requestedSchema.properties),
        })),
        work: work.content[0].text,
        progress,
        logs: logs.map(({ server, level, logger, data }) => ({ server, level, logger, data })),
      };
    }, { url: v2.urls.dual });
    assert.equal(out.before, null, "no protocol before the first connection");
    assert.equal(out.protocolVersion, "2026-07-28");
    assert.equal(out.status, "connected");
    for (const tool of ["echo", "ask_name", "work", "add_tool", "bump", "sleep"]) {
      assert.ok(out.tools.includes(`mcp__dual__${tool}`), `${tool} in ${JSON.stringify(out.tools)}`);
    }
    assert.equal(out.echo, "über 2026 ✓", "the argument mirrored in Mcp-Param-Text (base64) matched the body");
    assert.deepEqual(out.asked, [{ server: "dual", method: "elicitation/create", message: "What is your name?", fields: ["name"] }]);
    assert.equal(out.named, "Hi, Grace Hopper!", "the call was retried with the handler's answer");
    assert.equal(out.work, "did 3 steps");
    assert.deepEqual(out.progress, [[1, 3, "step 1"], [2, 3, "step 2"], [3, 3, "step 3"]]);
    assert.deepEqual(out.logs, [1, 2, 3].map((step) => ({ server: "dual", level: "info", logger: "work", data: { step } })));
    assert.ok(out.connectMs < 1000, `connected in ${Math.round(out.connectMs)} ms: a probe and a listen stream, no more`);
  });

  it("hears list changes and resource updates on its subscriptions/listen stream", async () => {
    const out = await page.evaluate(async ({ url }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("listen") });
      const updates = [];
      rt.subscribe((e) => updates.push(e), { kinds: ["resourceUpdated"] });
      rt.addServer({ name: "dual", type: "http", url });
      await rt.connectServer("dual");
      const names = () => rt.listTools(undefined, { server: "dual", includeHidden: true }).tools.map((t) => t.name);
      await rt.callTool("dual", "add_tool", { name: "late_tool" });
      const appeared = await failure(waitFor("the new tool", () => names().includes("mcp__dual__late_tool"), 3000));
      const late = appeared ? null : (await rt.callTool("dual", "late_tool", {})).content[0].text;

      await rt.subscribeResource("dual", "mem://counter");
      const bumped = (await rt.callTool("dual", "bump", {})).content[0].text;
      const updated = await failure(waitFor("the resource update", () => updates.length >= 1, 3000));
      const read = await rt.readResource("dual", "mem://counter");
      const protocolVersion = rt.server("dual").protocolVersion;
      rt.close();
      return {
        protocolVersion,
        appeared,
        late,
        bumped,
        updated,
        updates: updates.map(({ server, uri }) => ({ server, uri })),
        read: read.contents[0].text,
      };
    }, { url: v2.urls.dual });
    assert.equal(out.protocolVersion, "2026-07-28");
    assert.equal(out.appeared, null, "the tool added mid-session reaches the registry");
    assert.equal(out.late, "i am late_tool");
    assert.equal(out.updated, null, "a resourceUpdated event came");
    assert.deepEqual(out.updates, [{ server: "dual", uri: "mem://counter" }]);
    assert.equal(`counter=${out.read}`, out.bumped, "reading it again gives the new value");
  });

  it("cancels a call: the promise rejects at once, and the server's handler stops", async () => {
    const stats = new URL("/stats", v2.urls.dual).href;
    const out = await page.evaluate(async ({ url, stats }) => {
      const sleeps = async () => (await (await fetch(stats)).json()).sleeps;
      const rt = await host.McpRuntime.create({ databaseName: unique("cancel") });
      rt.addServer({ name: "dual", type: "http", url });
      await rt.connectServer("dual");
      const first = await sleeps();
      const controller = new AbortController();
      const call = rt.callTool("dual", "sleep", { ms: 8000 }, { signal: controller.signal });
      await waitFor("the sleep to start", async () => (await sleeps()).started > first.started, 3000);
      const started = performance.now();
      controller.abort();
      const aborted = await failure(call);
      const abortMs = performance.now() - started;
      await waitFor("the server to stop sleeping", async () => (await sleeps()).aborted > first.aborted, 2000).catch(() => {});
      const last = await sleeps();
      const after = await rt.callTool("dual", "echo", { text: "still here" });
      rt.close();
      return { aborted, abortMs, stopped: last.aborted - first.aborted, after: after.content[0].text };
    }, { url: v2.urls.dual, stats });
    assert.equal(out.aborted.name, "AbortError", JSON.stringify(out.aborted));
    assert.equal(out.aborted.code, "ABORTED");
    assert.ok(out.abortMs < 1000, `the promise settles at once (${out.abortMs} ms)`);
    assert.equal(out.after, "still here");
    // Over HTTP, 2026-07-28 cancels by closing the request's stream: the host aborts that POST.
    assert.equal(out.stopped, 1, "the server's handler saw its request's signal abort within 2 s");
  });

  it("pinned to 2025-11-25, speaks the handshake to the same server, whose elicitation is then a real request", async () => {
    const sessions = async () => (await (await fetch(new URL("/stats", v2.urls.dual))).json()).legacySessions;
    const sessionsBefore = await sessions();
    const out = await page.evaluate(async ({ url }) => {
      const asked = [];
      const rt = await host.McpRuntime.create({
        databaseName: unique("pinned-legacy"),
        elicitation: (request) => {
          asked.push(request);
          return { action: "accept", content: { name: "Ada" } };
        },
      });
      rt.addServer({ name: "dual", type: "http", url, protocol: "2025-11-25" });
      await rt.connectServer("dual");
      const protocolVersion = rt.server("dual").protocolVersion;
      const echo = await rt.callTool("dual", "echo", { text: "handshake" });
      const named = await rt.callTool("dual", "ask_name", {});
      rt.close();
      return {
        protocolVersion,
        echo: echo.content[0].text,
        named: named.content[0].text,
        asked: asked.map(({ server, method, params }) => ({ server, method, message: params.message })),
      };
    }, { url: v2.urls.dual });
    assert.equal(out.protocolVersion, "2025-11-25");
    assert.equal(out.echo, "handshake");
    assert.deepEqual(out.asked, [{ server: "dual", method: "elicitation/create", message: "What is your name?" }]);
    assert.equal(out.named, "Hello, Ada!");
    assert.equal(await sessions(), sessionsBefore + 1, "one session of the handshake, on the server's legacy leg");
  });

  it("falls back to the handshake with servers that do not speak 2026-07-28, and refuses them when pinned to it", async () => {
    const out = await page.evaluate(async ({ v1, v2 }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("fallback") });
      rt.addServer({ name: "old", type: "http", url: v1 });
      rt.addServer({ name: "v2-legacy", type: "http", url: v2 });
      rt.addServer({ name: "old-pinned", type: "http", url: v1, protocol: "2026-07-28" });
      rt.addServer({ name: "v2-legacy-pinned", type: "http", url: v2, protocol: "2026-07-28" });
      const results = {};
      for (const name of ["old", "v2-legacy"]) {
        await rt.connectServer(name);
        const echo = await rt.callTool(name, "echo", { text: `fell back: ${name}` });
        results[name] = { protocolVersion: rt.server(name).protocolVersion, echo: echo.content[0].text };
      }
      for (const name of ["old-pinned", "v2-legacy-pinned"]) {
        const refused = await failure(rt.connectServer(name));
        const health = rt.server(name);
        const { status, lastError, protocolVersion = null } = health;
        results[name] = { refused, status, lastError, protocolVersion };
      }
      rt.close();
      return results;
    }, { v1: v1.urls.stateful, v2: v2.urls.legacy });
    assert.deepEqual(out.old, { protocolVersion: "2025-11-25", echo: "fell back: old" });
    assert.deepEqual(out["v2-legacy"], { protocolVersion: "2025-11-25", echo: "fell back: v2-legacy" });
    for (const name of ["old-pinned", "v2-legacy-pinned"]) {
      const { refused, status, lastError, protocolVersion } = out[name];
      assert.ok(refused, `${name} connected`);
      assert.match(refused.message, new RegExp(`^server ${name}: `), refused.message);
      assert.match(refused.message, /does not speak MCP 2026-07-28/, refused.message);
      assert.notEqual(status, "connected");
      assert.match(lastError, /does not speak MCP 2026-07-28/);
      assert.equal(protocolVersion, null);
    }
  });

  it("the everything bundle in its worker speaks 2026-07-28 by default, the handshake when pinned; elicitation works in both", async () => {
    const out = await page.evaluate(async ({ EVERYTHING }) => {
      const asked = [];
      const rt = await host.McpRuntime.create({
        databaseName: unique("everything-eras"),
        elicitation: (request) => {
          asked.push({ server: request.server, method: request.method, message: request.params.message });
          return { action: "accept", content: { name: request.server === "every" ? "Ada" : "Alan" } };
        },
      });
      rt.addServer({ name: "every", type: "wasm", workerUrl: EVERYTHING });
      rt.addServer({ name: "every-old", type: "wasm", workerUrl: EVERYTHING, protocol: "2025-11-25" });
      const results = {};
      for (const name of ["every", "every-old"]) {
        await rt.connectServer(name);
        const greeted = await rt.callTool(name, "test_input_required_result_elicitation", {});
        const { protocolVersion } = rt.server(name);
        results[name] = { protocolVersion, text: greeted.content[0].text, isError: greeted.isError ?? false };
      }
      rt.close();
      return { results, asked };
    }, { EVERYTHING });
    assert.deepEqual(out.results.every, { protocolVersion: "2026-07-28", text: "Hello, Ada!", isError: false });
    assert.deepEqual(out.results["every-old"], { protocolVersion: "2025-11-25", text: "Hello, Alan!", isError: false });
    assert.deepEqual(out.asked, [
      { server: "every", method: "elicitation/create", message: "What is your name?" },
      { server: "every-old", method: "elicitation/create", message: "What is your name?" },
    ]);
  });

  it("McpClient speaks 2026-07-28 by default, the handshake when pinned, and refuses an unknown era", async () => {
    const out = await page.evaluate(async ({ EVERYTHING }) => {
      const spawn = (protocol) => host.McpClient.spawn({ name: "every", workerUrl: EVERYTHING, isolation: "page", ...(protocol ? { protocol } : {}) });
      const versions = [];
      for (const protocol of [undefined, "2025-11-25", "2026-07-28"]) {
        const client = await spawn(protocol);
        const echoed = await client.callTool("test_simple_text", {});
        versions.push([client.serverInfo.protocolVersion, echoed.content[0].type]);
        client.close();
      }
      const refused = await failure(spawn("2024-11-05"));
      return { versions, refused };
    }, { EVERYTHING });
    assert.deepEqual(out.versions, [["2026-07-28", "text"], ["2025-11-25", "text"], ["2026-07-28", "text"]]);
    assert.equal(out.refused.code, "INVALID_INPUT");
    assert.match(out.refused.message, /`protocol` must be "auto", "2026-07-28" or "2025-11-25"/);
  });
});
