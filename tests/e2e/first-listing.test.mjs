// The first listing after a start needs no round trip of its own: a worker that says in `boot` that it answers MCP
// 2026-07-28 from its first frame (the Rust SDK's bootstrap does) is asked for its first page of tools with
// `server/discover`, in the same batch, and `McpClient.listTools()` right after `spawn` serves from that answer
// (docs/wire-protocol.md, "boot"). A later listing asks again; a worker that does not say so is asked nothing before
// the handshake is done. Through the public JavaScript API in headless Chromium.
// Run by `cargo xtask test`; by hand: MCP_WORKER_SITE_URL=http://127.0.0.1:8080/ node --test tests/e2e/first-listing.test.mjs
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { openRuntimePage } from "./runtime-page.mjs";

const ECHO = "/bundles/echo/bootstrap.js";
const JS_SERVER = "/e2e-fixtures/js-server.js";

/** Starts `workerUrl`, lists its tools twice, and counts the `tools/list` requests the page sent at each step. */
async function listTwice(page, workerUrl, isolation) {
  return page.evaluate(
    async ({ workerUrl, isolation }) => {
      let lists = 0;
      const countLists = (message) => {
        for (const frame of Array.isArray(message) ? message : [message]) {
          if (typeof frame === "string" && frame.includes('"method":"tools/list"')) lists += 1;
        }
      };
      const watch = watchChannels({ onPost: countLists });
      const client = await host.McpClient.spawn({ name: "listed", workerUrl, isolation });
      watch.stop();
      const afterStart = lists;
      const first = (await client.listTools()).map((t) => t.name);
      const afterFirst = lists;
      const second = (await client.listTools()).map((t) => t.name);
      const afterSecond = lists;
      client.close();
      return { afterStart, afterFirst, afterSecond, first, second };
    },
    { workerUrl, isolation },
  );
}

describe("the first listing after a start", () => {
  for (const isolation of ["page", "sandbox"]) {
    it(`is answered by the tools/list sent with server/discover; the next one asks again (${isolation})`, async () => {
      const { browser, page, pageErrors } = await openRuntimePage();
      try {
        const out = await listTwice(page, ECHO, isolation);
        assert.deepEqual(out.first, ["echo", "add", "blob"]);
        assert.deepEqual(out.second, out.first);
        assert.equal(out.afterStart, 1, "one tools/list went with the start");
        assert.equal(out.afterFirst, 1, "the first listing sent nothing");
        assert.equal(out.afterSecond, 2, "the second listing asked the server");
        assert.deepEqual(pageErrors, []);
      } finally {
        await browser.close();
      }
    });
  }

  it("is not asked of a worker that does not say it answers 2026-07-28 from its first frame", async () => {
    const { browser, page, pageErrors } = await openRuntimePage();
    try {
      const out = await listTwice(page, JS_SERVER, "page");
      assert.ok(out.first.length > 0, "the server lists tools");
      assert.equal(out.afterStart, 0, "nothing but the handshake went with the start");
      assert.equal(out.afterFirst, 1);
      assert.equal(out.afterSecond, 2);
      assert.deepEqual(pageErrors, []);
    } finally {
      await browser.close();
    }
  });
});

describe("a runtime's start", () => {
  it("asks for the server's tools in the same message as server/discover, and lists them once", async () => {
    const { browser, page, pageErrors } = await openRuntimePage();
    try {
      const out = await page.evaluate(async ({ echo }) => {
        const messages = [];
        const watch = watchChannels({ onPost: (m) => (typeof m === "string" || Array.isArray(m)) && messages.push(m) });
        const rt = await host.McpRuntime.create({ databaseName: unique("first-listing") });
        rt.addServer({ name: "echo", workerUrl: echo, isolation: "page" });
        await rt.connectServer("echo");
        watch.stop();
        const tools = rt.listTools(undefined, { server: "echo", includeHidden: true }).tools.map((t) => t.name);
        rt.close();
        const frames = (m) => (Array.isArray(m) ? m : [m]);
        const has = (m, method) => frames(m).some((f) => f.includes(`"method":"${method}"`));
        return {
          tools,
          lists: messages.filter((m) => has(m, "tools/list")).length,
          together: messages.some((m) => has(m, "server/discover") && has(m, "tools/list")),
        };
      }, { echo: ECHO });
      assert.equal(out.tools.length, 3, `the echo server's tools: ${out.tools}`);
      for (const name of ["echo", "add", "blob"]) assert.ok(out.tools.some((t) => t.endsWith(name)), `${name} is listed`);
      assert.equal(out.lists, 1, "the tools were asked for once");
      assert.ok(out.together, "tools/list went in the message that held server/discover");
      assert.deepEqual(pageErrors, []);
    } finally {
      await browser.close();
    }
  });
});
