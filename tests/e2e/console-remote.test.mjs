// End-to-end test of remote servers in the console: real MCP servers of the official TypeScript SDK on 127.0.0.1
// (another origin than the page's), added with the console's form, one with a header that takes its key from the
// vault, one that asks for an OAuth sign-in in a popup.
// Run by `cargo xtask test`; by hand: MCP_WORKER_SITE_URL=http://127.0.0.1:8080/ node --test tests/e2e/console-remote.test.mjs
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startOAuthServers } from "../fixtures/remote/oauth-server.mjs";
import { startRemoteServers } from "../fixtures/remote/servers.mjs";
import {
  assertNoPageErrors,
  callFromWorkbench,
  openConsole,
  sel,
  serverCard,
  setUpVault,
  showView,
  text,
  waitForServerStatus,
} from "./console-page.mjs";

const KEY = "k-remote-5150";

/** Fills the add form for a Streamable HTTP server and submits it. */
async function addRemote(page, { name, url, headers = "", credentials = "", autoStart = true }) {
  await showView(page, "add");
  await page.fill(sel("server-form-name"), name);
  await page.check(sel("server-form-type-http"));
  await page.fill(sel("server-form-url"), url);
  await page.fill(sel("server-form-headers"), headers);
  if (credentials || !autoStart) await page.click(sel("server-form-advanced"));
  if (credentials) await page.fill(sel("server-form-credentials"), credentials);
  if (!autoStart) await page.uncheck(sel("server-form-autoStart"));
  await page.click(sel("server-form-submit"));
  await page.waitForSelector(serverCard(name));
}

describe("console: remote servers", () => {
  let c;
  let page;
  let remote;
  let oauth;

  before(async () => {
    [remote, oauth] = await Promise.all([startRemoteServers(), startOAuthServers()]);
    c = await openConsole();
    page = c.page;
  });

  after(async () => {
    await c?.close();
    await Promise.all([remote?.close(), oauth?.close()]);
  });

  it("adds a Streamable HTTP server whose header takes its key from the vault, asked for by name", async () => {
    await setUpVault(page);
    await addRemote(page, {
      name: "remote",
      url: remote.urls.stateful,
      headers: "X-Api-Key: ${API_KEY}",
      credentials: "API_KEY: The key of your account at the remote service",
    });
    // The form declared a credential: its dialog opens, with the description written there.
    await page.waitForSelector(sel("credentials-dialog"));
    const row = sel("credential-row", '[data-name="API_KEY"]');
    assert.match(await text(page, row), /The key of your account/);
    await page.fill(`${row} ${sel("credential-value")}`, KEY);
    await page.click(`${row} ${sel("credential-save")}`);
    await page.waitForSelector(sel("credential-row", '[data-name="API_KEY"][data-stored="true"]'));
    await page.click(sel("credentials-done"));

    await waitForServerStatus(page, "remote", "connected");
    const card = serverCard("remote");
    assert.equal(await text(page, `${card} ${sel("server-transport")}`), "Streamable HTTP");
    assert.equal(await text(page, `${card} ${sel("server-isolation")}`), "A remote server");
    const result = await callFromWorkbench(page, "remote", "whoami");
    assert.equal(result.state, "ok", result.text);
    assert.match(await text(page, sel("result-text")), new RegExp(`"xApiKey":"${KEY}"`), "the header carried the key");
    await c.screenshot("remote");
  });

  it("signs in to a server that asks for OAuth, in a popup opened from the card's button", async () => {
    await addRemote(page, { name: "guarded", url: oauth.url, autoStart: false });
    const popup = page.waitForEvent("popup");
    await page.click(`${serverCard("guarded")} ${sel("server-connect")}`);
    await popup;
    await waitForServerStatus(page, "guarded", "connected");
    const result = await callFromWorkbench(page, "guarded", "whoami");
    assert.equal(result.state, "ok", result.text);
    assert.match(await text(page, sel("result-text")), /"scopes":\["mcp:tools"\]/);
    await showView(page, "events");
    await page.waitForSelector(sel("event-row", '[data-kind="authorizationRequired"][data-server="guarded"]'));
    await c.screenshot("remote-oauth");
  });

  it("reported no page errors", () => {
    // The browser logs every HTTP error status as a failed load: the sign-in's first request (401), the probe for
    // the 2026-07-28 era that these servers of the handshake era refuse (400), and the GET stream a stateless server
    // does not offer (405). All are expected answers, not faults of the page.
    assertNoPageErrors(c.errors.filter((e) => !/^Failed to load resource: the server responded with a status of (400|401|405)\b/.test(e)));
  });
});
