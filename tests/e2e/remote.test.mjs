// End-to-end tests of remote servers over Streamable HTTP: real MCP servers built with the official TypeScript SDK
// on 127.0.0.1 (tests/fixtures/remote/servers.mjs, each on its own port: another origin than the page's), reached by
// the runtime in headless Chromium through the public JavaScript API.
// Run by `cargo xtask test`; by hand: MCP_WORKER_SITE_URL=http://127.0.0.1:8080/ node --test tests/e2e/remote.test.mjs
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startDevProxy } from "../../xtask/dev-proxy.mjs";
import { startOAuthServers } from "../fixtures/remote/oauth-server.mjs";
import { startRemoteServers } from "../fixtures/remote/servers.mjs";
import { SITE_URL, openRuntimePage } from "./runtime-page.mjs";

describe("remote servers over Streamable HTTP", () => {
  let browser;
  let page;
  let remote;

  before(async () => {
    remote = await startRemoteServers();
    ({ browser, page } = await openRuntimePage());
  });

  after(async () => {
    await browser?.close();
    await remote?.close();
  });

  it("lists and calls tools, with progress and logs from the answer's stream, and shows the server as remote", async () => {
    const out = await page.evaluate(async ({ url }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("remote") });
      const logs = [];
      rt.subscribe((e) => logs.push(e.data ?? e.message?.data), { kinds: ["serverLog"] });
      rt.addServer({ name: "remote", type: "http", url });
      await rt.connectServer("remote");
      const tools = rt.listTools(undefined, { server: "remote", includeHidden: true }).tools.map((t) => t.name);
      const echo = await rt.callTool("remote", "echo", { text: "over http" });
      const progress = [];
      const slow = await rt.callTool("remote", "slow", { steps: 3, delayMs: 20 }, { onProgress: (p) => progress.push(p.progress) });
      const status = rt.server("remote");
      rt.close();
      return { tools, echo: echo.content[0].text, slow: slow.content[0].text, progress, logs, status };
    }, { url: remote.urls.stateful });
    assert.ok(out.tools.includes("mcp__remote__echo") && out.tools.includes("mcp__remote__slow"), JSON.stringify(out.tools));
    assert.equal(out.echo, "over http");
    assert.equal(out.slow, "done after 3 steps");
    assert.deepEqual(out.progress, [1, 2, 3]);
    assert.equal(out.logs.length, 3, JSON.stringify(out.logs));
    assert.equal(out.status.transport, "http");
    assert.equal(out.status.isolation, "remote");
    assert.equal(out.status.status, "connected");
  });

  it("sends a tool call's request before callTool returns, and still settles each call with its own answer", async () => {
    const out = await page.evaluate(async ({ url }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("started") });
      rt.addServer({ name: "remote", type: "http", url });
      await rt.connectServer("remote");
      const posted = [];
      const realFetch = window.fetch;
      window.fetch = function (input, init) {
        if (init?.method === "POST" && typeof init.body === "string") posted.push(JSON.parse(init.body));
        return realFetch.call(this, input, init);
      };
      try {
        const first = rt.callTool("remote", "echo", { text: "one" });
        const second = rt.callTool("remote", "echo", { text: "two" });
        // Nothing awaited yet: both requests must already be in fetch()'s hands.
        const sentAtOnce = posted.map((m) => `${m.method}:${m.params?.arguments?.text}`);
        const texts = (await Promise.all([first, second])).map((r) => r.content[0].text);
        const refused = await rt.callTool("remote", "echo", [1, 2]).then(() => null, (e) => e.code);
        return { sentAtOnce, texts, refused };
      } finally {
        window.fetch = realFetch;
        rt.close();
      }
    }, { url: remote.urls.stateful });
    assert.deepEqual(out.sentAtOnce, ["tools/call:one", "tools/call:two"]);
    assert.deepEqual(out.texts, ["one", "two"]);
    assert.equal(out.refused, "INVALID_INPUT", "arguments that are not an object still reject the call's promise");
  });

  it("works with servers that answer in JSON, and with stateless servers that have no stream of their own", async () => {
    const out = await page.evaluate(async ({ json, stateless }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("modes") });
      rt.addServer({ name: "json", type: "http", url: json });
      rt.addServer({ name: "stateless", type: "http", url: stateless });
      const a = await rt.callTool("json", "echo", { text: "json" });
      const b = await rt.callTool("stateless", "echo", { text: "stateless" });
      const c = await rt.callTool("stateless", "echo", { text: "again" });
      rt.close();
      return [a, b, c].map((r) => r.content[0].text);
    }, remote.urls);
    assert.deepEqual(out, ["json", "stateless", "again"]);
  });

  it("hears the server's own stream: a tool added mid-session reaches the registry", async () => {
    const out = await page.evaluate(async ({ url }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("listen") });
      rt.addServer({ name: "grows", type: "http", url });
      await rt.connectServer("grows");
      await rt.callTool("grows", "add_tool", { name: "late_tool" });
      const names = () => rt.listTools(undefined, { server: "grows", includeHidden: true }).tools.map((t) => t.name);
      await waitFor("the new tool", () => names().includes("mcp__grows__late_tool"));
      const late = await rt.callTool("grows", "late_tool", {});
      rt.close();
      return late.content[0].text;
    }, { url: remote.urls.stateful });
    assert.equal(out, "i am late_tool");
  });

  it("answers the server's requests mid-call (elicitation) through the same events as worker servers", async () => {
    const out = await page.evaluate(async ({ url }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("ask"), elicitation: true });
      rt.addServer({ name: "asker", type: "http", url });
      const call = rt.callTool("asker", "ask", {});
      await waitFor("the elicitation", () => rt.pendingRequests().length === 1);
      const pending = rt.pendingRequests()[0];
      rt.answerRequest(pending.requestId, { action: "accept", content: { approve: true } });
      const result = await call;
      rt.close();
      return { server: pending.server, text: result.content[0].text };
    }, { url: remote.urls.stateful });
    assert.deepEqual(out, { server: "asker", text: "approved: true" });
  });

  it("sends headers with credentials from the vault, and says who refused when they are missing", async () => {
    const out = await page.evaluate(async ({ url }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("bearer") });
      await rt.credentials.setup({ passphrase: "correct horse battery" });
      rt.addServer({ name: "guarded", type: "http", url, headers: { Authorization: "Bearer ${TOKEN}" } });
      await rt.credentials.set("guarded", "TOKEN", "s3cret-token");
      const who = await rt.callTool("guarded", "whoami", {});
      rt.addServer({ name: "stranger", type: "http", url });
      const refused = await failure(rt.connectServer("stranger"));
      const health = rt.server("stranger");
      rt.close();
      return { who: JSON.parse(who.content[0].text), refused, lastError: health.lastError };
    }, { url: remote.urls.bearer });
    assert.equal(out.who.authorization, "Bearer s3cret-token");
    assert.equal(out.refused.code, "UNAUTHORIZED", JSON.stringify(out.refused));
    assert.match(out.refused.message, /stranger/);
    assert.match(out.refused.message, /401/);
    assert.doesNotMatch(JSON.stringify(out), /s3cret-token.*s3cret-token/, "the token appears only where the server echoed it");
  });

  it("names a configured header the browser refuses, and what it was sent to", async () => {
    const out = await page.evaluate(async ({ url }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("bad-header") });
      rt.addServer({ name: "spaced", type: "http", url, headers: { "X Api Key": "k-1" } });
      rt.addServer({ name: "nul", type: "http", url, headers: { "X-Api-Key": "k\u0000-1" } });
      const spaced = await failure(rt.connectServer("spaced"));
      const nul = await failure(rt.connectServer("nul"));
      rt.addServer({ name: "fine", type: "http", url, headers: { "X-Api-Key": "k-1" } });
      const echoed = await rt.callTool("fine", "echo", { text: "still here" });
      rt.close();
      return { spaced, nul, echoed: echoed.content[0].text };
    }, { url: remote.urls.stateful });
    for (const [server, header, failed] of [["spaced", "X Api Key", out.spaced], ["nul", "X-Api-Key", out.nul]]) {
      assert.ok(failed, `${server}: the connection should fail`);
      assert.match(failed.message, new RegExp(server), JSON.stringify(failed));
      assert.match(failed.message, new RegExp(`the header "${header}" is not a valid HTTP header`), JSON.stringify(failed));
    }
    assert.equal(out.echoed, "still here", "a server with valid headers on the same runtime still works");
  });

  it("starts a new session when the server ends one, failing only what was in flight", async () => {
    const out = await page.evaluate(async ({ url }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("expiry"), backoff: { initialMs: 50 } });
      rt.addServer({ name: "expiring", type: "http", url });
      await rt.callTool("expiring", "expire", {});
      await new Promise((resolve) => setTimeout(resolve, 100));
      const expired = await failure(rt.callTool("expiring", "echo", { text: "lost" }));
      await waitFor("a new session", () => rt.server("expiring").status === "connected");
      const again = await rt.callTool("expiring", "echo", { text: "back" });
      rt.close();
      return { expired, again: again.content[0].text };
    }, { url: remote.urls.expiring });
    assert.equal(out.expired.code, "CLOSED", JSON.stringify(out.expired));
    assert.match(out.expired.message, /expiring/);
    assert.match(out.expired.message, /ended the session/);
    assert.equal(out.again, "back");
    const stats = await (await fetch(new URL("/stats", remote.urls.expiring))).json();
    assert.equal(stats.sessions, 2, "one session, then one more after the server ended the first");
  });

  it("resumes a stream that dropped mid-call from the last event it received", async () => {
    const out = await page.evaluate(async ({ url }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("resume") });
      rt.addServer({ name: "dropper", type: "http", url });
      const progress = [];
      const result = await rt.callTool("dropper", "slow", { steps: 4, delayMs: 50, drop: true }, {
        onProgress: (p) => progress.push(p.progress),
      });
      rt.close();
      return { text: result.content[0].text, progress };
    }, { url: remote.urls.dropper });
    assert.equal(out.text, "done after 4 steps");
    assert.deepEqual(out.progress, [1, 2, 3, 4], "nothing lost across the drop");
  });

  it("reports a server that refuses CORS, or cannot be reached, naming it, both origins and what to check", async () => {
    const out = await page.evaluate(async ({ url }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("cors") });
      rt.addServer({ name: "closed", type: "http", url });
      rt.addServer({ name: "gone", type: "http", url: "http://127.0.0.1:9/mcp" });
      const refused = await failure(rt.connectServer("closed"));
      const unreachable = await failure(rt.connectServer("gone"));
      rt.close();
      return { refused, unreachable, page: location.origin };
    }, { url: remote.urls.nocors });
    // The browser does not tell the page which of the two it was: both say what to check for each.
    for (const [error, name, url] of [[out.refused, "closed", remote.urls.nocors], [out.unreachable, "gone", "http://127.0.0.1:9/mcp"]]) {
      assert.equal(error.code, "UNREACHABLE", JSON.stringify(error));
      assert.ok(error.message.startsWith(`server ${name}: no answer from ${new URL(url).origin}`), error.message);
      assert.ok(error.message.includes(`a page of ${out.page}`), error.message);
      assert.match(error.message, /check the URL and that it runs/);
      assert.match(error.message, /CORS: its operator can send Access-Control-Allow-Origin/);
    }
  });

  it("reaches a server without CORS through the development proxy, for allowlisted origins only", async () => {
    const proxy = await startDevProxy({ port: 0, origin: new URL(SITE_URL).origin, allow: [new URL(remote.urls.nocors).origin] });
    const template = `http://127.0.0.1:${proxy.address().port}/proxy?url={url}`;
    try {
      const out = await page.evaluate(async ({ nocors, stateful, template }) => {
        const rt = await host.McpRuntime.create({ databaseName: unique("proxy") });
        rt.addServer({ name: "proxied", url: nocors, proxy: template, headers: { "X-Api-Key": "k-123" } });
        rt.addServer({ name: "elsewhere", url: stateful, proxy: template });
        const progress = [];
        const slow = await rt.callTool("proxied", "slow", { steps: 2, delayMs: 10 }, { onProgress: (p) => progress.push(p.progress) });
        const who = await rt.callTool("proxied", "whoami", {});
        const refused = await failure(rt.connectServer("elsewhere"));
        rt.close();
        return { slow: slow.content[0].text, progress, who: JSON.parse(who.content[0].text), refused };
      }, { nocors: remote.urls.nocors, stateful: remote.urls.stateful, template });
      assert.equal(out.slow, "done after 2 steps");
      assert.deepEqual(out.progress, [1, 2], "the event stream passes through the proxy as it comes");
      assert.equal(out.who.xApiKey, "k-123", "headers pass through");
      assert.equal(out.refused.code, "UNAUTHORIZED", JSON.stringify(out.refused));
      assert.match(out.refused.message, /^server elsewhere: .*403.*not on the development proxy's allowlist: run cargo xtask demo --proxy-allow/);
    } finally {
      proxy.close();
    }
  });

  it("signs in with OAuth in a popup that comes back through the redirect page shipped with the package, and ends its session with the token", async () => {
    const oauth = await startOAuthServers({ stateful: true });
    try {
      await page.evaluate(async (url) => {
        const { popupAuthorize, callbackUrl } = await import("/pkg/host/oauth-popup.mjs");
        const opened = [];
        window.__oauthRuntime = await host.McpRuntime.create({
          databaseName: unique("oauth"),
          oauth: { redirectUri: callbackUrl, clientName: "e2e", authorize: (u) => (opened.push(u), popupAuthorize(u)) },
        });
        window.__oauthOpened = opened;
        window.__oauthRuntime.addServer({ name: "guarded", url });
        // A sign-in window opens from a click, as the browser wants it.
        const button = document.createElement("button");
        button.id = "sign-in";
        button.onclick = () => {
          window.__oauthCall = window.__oauthRuntime.callTool("guarded", "whoami", {}).then(
            (r) => ({ ok: JSON.parse(r.content[0].text) }),
            (e) => ({ error: e.message, code: e.code }),
          );
        };
        document.body.append(button);
      }, oauth.url);
      const popup = page.waitForEvent("popup");
      await page.click("#sign-in");
      await popup;
      const out = await page.evaluate(async () => {
        const whoami = await window.__oauthCall;
        const again = await window.__oauthRuntime.callTool("guarded", "echo", { text: "still signed in" });
        const opened = window.__oauthOpened.map((u) => new URL(u));
        window.__oauthRuntime.close();
        return { whoami, again: again.content[0].text, opened: opened.map((u) => Object.fromEntries(u.searchParams)) };
      });
      assert.ok(out.whoami.ok, JSON.stringify(out.whoami));
      assert.ok(out.whoami.ok.clientId, "a client registered dynamically");
      assert.deepEqual(out.whoami.ok.scopes, ["mcp:tools"], "the scope the resource metadata offers");
      assert.equal(out.again, "still signed in");
      assert.equal(out.opened.length, 1, "one sign-in for the session");
      assert.equal(out.opened[0].code_challenge_method, "S256");
      assert.equal(out.opened[0].resource, oauth.url);
      // Closing ends the session on the server: its DELETE carries the token, as every request must.
      const refusedBefore = oauth.refused();
      for (let i = 0; i < 50 && oauth.ended() === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(oauth.ended(), 1, "the DELETE ended the session");
      assert.equal(oauth.refused(), refusedBefore, "the DELETE was not refused for want of a token");
    } finally {
      await oauth.close();
    }
  });

  it("keeps a sign-in in the vault for its URL: a reload needs no sign-in, a refresh none, and calls refused together one", async () => {
    const oauth = await startOAuthServers();
    try {
      await page.evaluate(async (url) => {
        const { popupAuthorize, callbackUrl } = await import("/pkg/host/oauth-popup.mjs");
        const v = { database: unique("oauth-vault"), opened: [], events: [] };
        v.create = async () => {
          const rt = await host.McpRuntime.create({
            database: v.database,
            oauth: { redirectUri: callbackUrl, clientName: "e2e", authorize: (u) => (v.opened.push(u), popupAuthorize(u)) },
          });
          rt.subscribe((e) => v.events.push({ ...e, id: undefined, seq: undefined, timestamp: undefined }), { kinds: ["authorizationRequired"] });
          return rt;
        };
        v.rt = await v.create();
        await v.rt.credentials.setup({ device: true });
        v.rt.addServer({ name: "guarded", url });
        v.three = () => Promise.all([1, 2, 3].map((i) =>
          v.rt.callTool("guarded", "echo", { text: `call ${i}` }).then((r) => r.content[0].text, (e) => `${e.code}: ${e.message}`)));
        const button = document.createElement("button");
        button.id = "vault-sign-in";
        button.onclick = () => { v.clicked = v.three(); };
        document.body.append(button);
        window.__vault = v;
      }, oauth.url);
      const signIn = async () => {
        const popup = page.waitForEvent("popup");
        await page.click("#vault-sign-in");
        await popup;
        return page.evaluate(() => window.__vault.clicked);
      };
      const state = () => page.evaluate(() => ({ opened: window.__vault.opened.length, events: window.__vault.events }));
      const calls = ["call 1", "call 2", "call 3"];

      assert.deepEqual(await signIn(), calls, "the first sign-in");
      const first = await state();
      assert.equal(first.opened, 1);
      assert.deepEqual(first.events.map(({ server, url, reason, canAuthorize }) => ({ server, url, reason, canAuthorize })),
        [{ server: "guarded", url: oauth.url, reason: "signIn", canAuthorize: true }]);
      assert.match(first.events[0].authorizationServer, /^http:\/\/127\.0\.0\.1:\d+\/$/);
      assert.deepEqual(oauth.grants(), { authorization_code: 1, refresh_token: 0 });

      // A reload: the same database, the vault unlocked, and no one at the keyboard.
      const reloaded = await page.evaluate(async () => {
        const v = window.__vault;
        v.rt.close();
        v.rt = await v.create();
        await v.rt.credentials.unlock({ device: true });
        return { answers: await v.three(), status: v.rt.server("guarded").status, names: await v.rt.credentials.names("guarded") };
      });
      assert.deepEqual(reloaded.answers, calls, "signed in from the vault");
      assert.equal(reloaded.status, "connected");
      assert.deepEqual(reloaded.names, ["oauth:authorization"], "the sign-in is a record of the server's in the vault");
      assert.deepEqual(oauth.grants(), { authorization_code: 1, refresh_token: 0 });
      assert.equal((await state()).opened, 1);

      // The access tokens are revoked: three calls refused together make one refresh, and no one is asked.
      oauth.revoke();
      assert.deepEqual(await page.evaluate(() => window.__vault.three()), calls);
      assert.deepEqual(oauth.grants(), { authorization_code: 1, refresh_token: 1 });
      assert.equal((await state()).opened, 1);

      // Everything is revoked: the user is asked again, once for the three calls.
      oauth.revoke({ everything: true });
      assert.deepEqual(await signIn(), calls);
      const last = await state();
      assert.equal(last.opened, 2);
      assert.deepEqual(last.events.map((e) => e.reason), ["signIn", "expired"]);
      assert.deepEqual(oauth.grants(), { authorization_code: 2, refresh_token: 1 }, "one sign-in, no more refreshes");

      // Without an oauth option the server waits for one, and says so.
      const unconfigured = await page.evaluate(async (url) => {
        const rt = await host.McpRuntime.create({ databaseName: unique("no-oauth") });
        const events = [];
        rt.subscribe((e) => events.push(e), { kinds: ["authorizationRequired"] });
        rt.addServer({ name: "guarded", url });
        const error = await rt.callTool("guarded", "echo", { text: "x" }).then(() => null, (e) => ({ code: e.code, message: e.message }));
        const status = rt.server("guarded").status;
        window.__vault.rt.close();
        rt.close();
        return { error, status, events: events.map(({ server, reason, canAuthorize }) => ({ server, reason, canAuthorize })) };
      }, oauth.url);
      assert.equal(unconfigured.error.code, "UNAUTHORIZED");
      assert.equal(unconfigured.status, "needs_authorization");
      assert.deepEqual(unconfigured.events, [{ server: "guarded", reason: "signIn", canAuthorize: false }]);
    } finally {
      await oauth.close();
    }
  });

  it("refreshes tokens before they expire, so the server never has to refuse one", async () => {
    // Tokens of 31 s are due for refresh (30 s ahead) a second after they are issued.
    const oauth = await startOAuthServers({ lifetimeSeconds: 31 });
    try {
      await page.evaluate(async (url) => {
        const { popupAuthorize, callbackUrl } = await import("/pkg/host/oauth-popup.mjs");
        const rt = await host.McpRuntime.create({
          databaseName: unique("oauth-refresh"),
          oauth: { redirectUri: callbackUrl, clientName: "e2e", authorize: popupAuthorize },
        });
        rt.addServer({ name: "guarded", url });
        const button = document.createElement("button");
        button.id = "refresh-sign-in";
        button.onclick = () => { window.__refresh = { rt, first: rt.callTool("guarded", "echo", { text: "first" }) }; };
        document.body.append(button);
      }, oauth.url);
      const popup = page.waitForEvent("popup");
      await page.click("#refresh-sign-in");
      await popup;
      const out = await page.evaluate(async () => {
        const { rt, first } = window.__refresh;
        await first;
        await new Promise((resolve) => setTimeout(resolve, 1200));
        const later = await rt.callTool("guarded", "echo", { text: "later" });
        rt.close();
        return { later: later.content[0].text };
      });
      assert.equal(out.later, "later");
      const grants = oauth.grants();
      assert.equal(grants.authorization_code, 1);
      assert.ok(grants.refresh_token >= 1, "refreshed ahead of expiry");
      assert.equal(oauth.refused(), 1, "only the first request, before the sign-in, was refused");
    } finally {
      await oauth.close();
    }
  });

  it("speaks the older HTTP+SSE transport when configured, and falls back to it when Streamable HTTP is refused", async () => {
    const out = await page.evaluate(async ({ url }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("legacy") });
      rt.addServer({ name: "old", type: "sse", url });
      rt.addServer({ name: "guessed", type: "http", url });
      const progress = [];
      const slow = await rt.callTool("old", "slow", { steps: 2, delayMs: 10 }, { onProgress: (p) => progress.push(p.progress) });
      const echo = await rt.callTool("guessed", "echo", { text: "fell back" });
      const status = rt.server("old");
      rt.close();
      return { slow: slow.content[0].text, progress, echo: echo.content[0].text, transport: status.transport };
    }, { url: remote.urls.legacy });
    assert.deepEqual(out, { slow: "done after 2 steps", progress: [1, 2], echo: "fell back", transport: "http" });
  });
});
