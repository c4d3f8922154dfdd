// End-to-end tests of what the JavaScript runtime (`McpRuntime` in pkg/host) asks for and keeps, in headless
// Chromium: a bundle's manifest.json decides which credentials a server is given and what the user is asked for;
// `${NAME}` references of an imported mcpServers config resolve from the vault; a runtime created with `database`
// comes back after a page reload with the same servers, enablement and thread tools, its credentials locked.
// Run by `cargo xtask test`; by hand: MCP_WORKER_SITE_URL=http://127.0.0.1:8080/ node --test tests/e2e/runtime-state.test.mjs
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { loadHost, openRuntimePage } from "./runtime-page.mjs";

const ECHO = "/bundles/echo/bootstrap.js";
const fixture = (path) => new URL(`../fixtures/${path}`, import.meta.url).pathname;

describe("McpRuntime: declared credentials and saved state", () => {
  let browser;
  let page;

  before(async () => {
    // A hand-written server (it answers the env it received) served by the site as a bundle with a manifest
    // (`/e2e-fixtures/env-reporter/`), and without one (`/e2e-fixtures/env-reporter.js`).
    ({ browser, page } = await openRuntimePage());
  });

  after(async () => {
    await browser?.close();
  });

  it("asks for a manifest's required credential by name and description, then gives the worker exactly it", async () => {
    const out = await page.evaluate(async () => {
      const rt = await host.McpRuntime.create({ database: unique("manifest") });
      const asked = [];
      rt.subscribe((e) => asked.push(e), { kinds: ["credentialsRequired"] });
      await rt.credentials.setup({ passphrase: "correct horse battery" });
      await rt.credentials.set("other", "WEATHER_API_KEY", "another-servers-key");
      rt.credentials.lock();
      rt.addServer({ name: "weather", workerUrl: "/e2e-fixtures/env-reporter/server.js", env: { UNITS: "metric" } });
      const refused = await failure(rt.connectServer("weather"));
      const status = rt.server("weather").status;
      const missing = await rt.credentials.missing("weather");
      await rt.credentials.unlock({ passphrase: "correct horse battery" });
      await waitFor("the second credentialsRequired", () => asked.length === 2);
      await rt.credentials.set("weather", "WEATHER_API_KEY", "wk-e2e-0123456789");
      await rt.credentials.set("weather", "UNDECLARED", "never-sent-0123");
      await waitFor("weather connected", () => rt.server("weather").status === "connected");
      const env = JSON.parse((await rt.callTool("weather", "env", {})).content[0].text);

      rt.addServer({ name: "plain", workerUrl: "/e2e-fixtures/env-reporter.js", env: { MODE: "fast" } });
      const plainEnv = JSON.parse((await rt.callTool("plain", "env", {})).content[0].text);
      const history = JSON.stringify(rt.history());
      rt.close();
      return { refused, status, missing, asked, env, plainEnv, history };
    });
    const key = {
      name: "WEATHER_API_KEY",
      description: "Your API key from weather.example (Settings → API keys)",
      required: true,
    };
    assert.equal(out.refused.code, "NEEDS_CREDENTIALS");
    assert.equal(out.status, "needs_credentials");
    assert.deepEqual(out.missing, [key], "what to ask for is known while locked");
    assert.deepEqual(
      out.asked.map((e) => [e.server, e.locked, e.credentials]),
      [
        ["weather", true, [key]],
        ["weather", false, [key]],
      ],
    );
    assert.deepEqual(out.env, { WEATHER_API_KEY: "wk-e2e-0123456789", UNITS: "metric" });
    assert.deepEqual(out.plainEnv, { MODE: "fast" }, "no manifest (404): nothing declared, nothing given");
    assert.ok(!out.history.includes("wk-e2e") && !out.history.includes("never-sent"), "no value in any event");
  });

  it("resolves ${API_KEY} in an imported mcpServers config from the vault", async () => {
    const out = await page.evaluate(async () => {
      const rt = await host.McpRuntime.create({ database: unique("import") });
      await rt.credentials.setup({ device: true });
      const imported = await rt.importMcpServers({
        mcpServers: {
          search: { workerUrl: "/e2e-fixtures/env-reporter.js", env: { API_KEY: "${API_KEY}", AUTH: "Key ${API_KEY}", MODE: "fast" } },
          broken: { workerUrl: "/e2e-fixtures/env-reporter.js", env: { API_KEY: "${API_KEY" } },
        },
      });
      const config = rt.serverConfig("search");
      const refused = await failure(rt.callTool("search", "env", {}));
      await rt.credentials.set("search", "API_KEY", "sk-search-0123456789");
      await waitFor("search connected", () => rt.server("search").status === "connected");
      const env = JSON.parse((await rt.callTool("search", "env", {})).content[0].text);
      const history = JSON.stringify(rt.history());
      rt.close();
      return { imported, config, refused, env, history };
    });
    assert.deepEqual(out.imported.added, ["search"]);
    assert.deepEqual(out.imported.errors.map((e) => [e.entry, e.field]), [["broken", "env.API_KEY"]]);
    assert.deepEqual(out.config.credentials, [{ name: "API_KEY", description: "referenced by env API_KEY", required: true }]);
    assert.equal(out.config.env.API_KEY, "${API_KEY}", "kept as written; resolved only for the worker");
    assert.equal(out.refused.code, "NEEDS_CREDENTIALS");
    assert.deepEqual(out.env, { API_KEY: "sk-search-0123456789", AUTH: "Key sk-search-0123456789", MODE: "fast" });
    assert.ok(!out.history.includes("sk-search"), "no resolved secret in any event");
  });

  it("holds back a credential stored before its server was configured until the application confirms", async () => {
    const out = await page.evaluate(async () => {
      const rt = await host.McpRuntime.create({ databaseName: unique("confirm") });
      const asked = [];
      rt.subscribe((e) => asked.push(e), { kinds: ["credentialsRequired"] });
      await rt.credentials.setup({ device: true });
      // Stored before "weather" exists: bound to no bundle yet.
      await rt.credentials.set("weather", "WEATHER_API_KEY", "wk-unbound-0123456789");
      rt.addServer({ name: "weather", workerUrl: "/e2e-fixtures/env-reporter/server.js" });
      const refused = await failure(rt.connectServer("weather"));
      const lastError = rt.server("weather").lastError;
      await rt.confirmCredentialIdentity("weather");
      await waitFor("weather connected", () => rt.server("weather").status === "connected");
      const env = JSON.parse((await rt.callTool("weather", "env", {})).content[0].text);
      rt.removeServer("weather");
      await waitFor("its credentials deleted", async () => (await rt.credentials.names("weather")).length === 0);
      const unknown = await failure(rt.confirmCredentialIdentity("weather"));
      rt.close();
      return { refused, lastError, asked, env, unknown };
    });
    assert.equal(out.refused.code, "NEEDS_CREDENTIALS");
    assert.deepEqual(out.asked[0].identityChange, {
      server: "weather",
      credentials: ["WEATHER_API_KEY"],
      storedFor: null,
      current: "bundle /e2e-fixtures/env-reporter/server.js",
    });
    assert.match(out.lastError, /held back until the application confirms/);
    assert.deepEqual(out.env, { WEATHER_API_KEY: "wk-unbound-0123456789" });
    assert.equal(out.unknown.code, "UNKNOWN_SERVER");
  });

  it("comes back after a page reload with the same servers, enablement and thread tools, credentials locked", async () => {
    const database = await page.evaluate(async (ECHO) => {
      const database = unique("reload");
      const rt = await host.McpRuntime.create({ database });
      rt.addServer({ name: "echo", workerUrl: ECHO, timeoutMs: 5000 });
      rt.addServer({ name: "off", workerUrl: ECHO });
      rt.addServer({ name: "gone", workerUrl: ECHO });
      // The fixture's `env` tool has no annotations, so it counts as destructive: this server allows it.
      const search = { workerUrl: "/e2e-fixtures/env-reporter.js", env: { API_KEY: "${API_KEY}" }, allowDestructiveTools: true };
      await rt.importMcpServers({ mcpServers: { search } });
      await rt.credentials.setup({ passphrase: "correct horse battery" });
      await rt.credentials.set("search", "API_KEY", "sk-kept-0123456789");
      await rt.callTool("echo", "echo", { text: "before the reload" });
      rt.disableServer("off");
      rt.removeServer("gone");
      rt.setThreadTools("thread-1", ["mcp__echo__*", "mcp__search__env"]);
      rt.enableTools("thread-2", ["mcp__echo__echo", "mcp__echo__add"]);
      rt.disableTools("thread-2", ["mcp__echo__add"]);
      await rt.flushState();
      rt.close();
      return database;
    }, ECHO);

    await page.reload();
    await loadHost(page);
    // A record damaged behind the runtime's back: reported and skipped.
    await page.evaluate(async (database) => {
      const db = await new Promise((resolve, reject) => {
        const request = indexedDB.open(database);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      await new Promise((resolve, reject) => {
        const tx = db.transaction("servers", "readwrite");
        tx.objectStore("servers").put("not a server record", "damaged");
        tx.oncomplete = resolve;
        tx.onabort = () => reject(tx.error);
      });
      db.close();
    }, database);

    const out = await page.evaluate(async (database) => {
      const rt = await host.McpRuntime.create({ database });
      const report = rt.persistence();
      const servers = rt.servers().map((s) => [s.name, s.status]);
      const timeout = rt.serverConfig("echo").timeoutMs;
      const threads = [rt.threadTools("thread-1"), rt.threadTools("thread-2"), rt.threadTools("thread-3")];
      const unlocked = rt.credentials.isUnlocked();
      const refused = await failure(rt.callTool("search", "env", {}));
      await rt.credentials.unlock({ passphrase: "correct horse battery" });
      await waitFor("search connected", () => rt.server("search").status === "connected");
      await rt.connectServer("echo");
      const calls = await rt.executeTools(
        [
          { callId: "c1", toolName: "mcp__echo__echo", arguments: { text: "after the reload" } },
          { callId: "c2", toolName: "mcp__search__env", arguments: {} },
        ],
        "thread-1",
      );
      const thread2 = rt.listTools("mcp", { threadId: "thread-2" }).tools.map((t) => t.name);
      rt.close();
      const plain = await host.McpRuntime.create({ databaseName: database });
      const withoutPersistence = [plain.persistence(), plain.servers().length];
      plain.close();
      return { report, servers, timeout, threads, unlocked, refused, calls, thread2, withoutPersistence };
    }, database);

    assert.equal(out.report.database, database);
    assert.deepEqual(out.report.servers, ["echo", "off", "search"]);
    assert.deepEqual(out.report.threads, ["thread-1", "thread-2"]);
    assert.deepEqual(out.report.problems.map((p) => [p.store, p.key]), [["servers", "damaged"]]);
    assert.deepEqual(out.report.writeErrors, []);
    assert.deepEqual(out.servers, [
      ["echo", "disconnected"],
      ["off", "disabled"],
      ["search", "disconnected"],
    ]);
    assert.equal(out.timeout, 5000);
    assert.deepEqual(out.threads, [["mcp__echo__*", "mcp__search__env"], ["mcp__echo__echo"], null]);
    assert.equal(out.unlocked, false, "credentials come back locked");
    assert.equal(out.refused.code, "NEEDS_CREDENTIALS");
    assert.deepEqual(out.calls.map((r) => r.status), ["success", "success"], JSON.stringify(out.calls));
    assert.equal(out.calls[0].output.content[0].text, "after the reload");
    assert.deepEqual(JSON.parse(out.calls[1].output.content[0].text), { API_KEY: "sk-kept-0123456789" });
    assert.deepEqual(out.thread2, ["mcp__echo__echo"]);
    assert.deepEqual(out.withoutPersistence, [null, 0], "databaseName alone keeps credentials only");
  });

  it("lets a settings page list every tool, allow destructive ones for good, and keep its own secret", async () => {
    const database = await page.evaluate(async () => {
      const database = unique("settings");
      const rt = await host.McpRuntime.create({ database });
      // The fixture's `env` tool has no annotations: destructive by the spec's defaults, so hidden at first.
      rt.addServer({ name: "search", workerUrl: "/e2e-fixtures/env-reporter.js" });
      await rt.connectServer("search");
      await rt.credentials.setup({ passphrase: "correct horse battery" });
      await rt.credentials.set("@app", "MODEL_KEY", "sk-app-secret");
      await rt.flushState();
      rt.close();
      return database;
    });
    const out = await page.evaluate(async (database) => {
      const rt = await host.McpRuntime.create({ database });
      await rt.connectServer("search");
      const entry = () => rt.toolEntries({ includeHidden: true }).find((e) => e.server === "search");
      const before = { entry: entry(), visible: rt.toolEntries().filter((e) => e.server === "search").length };
      const locked = await failure(rt.credentials.get("@app", "MODEL_KEY"));
      await rt.credentials.unlock({ passphrase: "correct horse battery" });
      const secret = await rt.credentials.get("@app", "MODEL_KEY");
      const none = await rt.credentials.get("@app", "OTHER");
      rt.setAllowDestructiveTools("search", true);
      const after = { entry: entry(), agents: rt.listTools("mcp").tools.map((t) => t.name) };
      const unknown = (() => {
        try {
          rt.setAllowDestructiveTools("nobody", true);
          return null;
        } catch (error) {
          return error.code;
        }
      })();
      await rt.flushState();
      rt.close();
      const again = await host.McpRuntime.create({ database });
      const kept = again.serverConfig("search").allowDestructiveTools;
      again.close();
      return { before, locked, secret, none, after, unknown, kept };
    }, database);
    const { entry } = out.before;
    assert.deepEqual(
      [entry.name, entry.source, entry.server, entry.tool, entry.destructive, entry.hidden],
      ["mcp__search__env", "mcp", "search", "env", true, true],
    );
    assert.equal(entry.definition.name, "env", "the definition as the server listed it");
    assert.equal(out.before.visible, 0, "without includeHidden, only what agents may see");
    assert.equal(out.locked.code, "LOCKED");
    assert.equal(out.secret, "sk-app-secret");
    assert.equal(out.none, null);
    assert.equal(out.after.entry.hidden, false);
    assert.ok(out.after.agents.includes("mcp__search__env"), "agents see it once allowed, without a restart");
    assert.equal(out.unknown, "UNKNOWN_SERVER");
    assert.equal(out.kept, true, "saved with the server's config");
  });
});
