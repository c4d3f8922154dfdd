// End-to-end test of what a sandboxed server's starts download. A sandboxed worker lives in an opaque origin, whose
// requests the browser never caches: had it fetched its own wasm, every start (a restart, a start after a stop)
// would download the whole module again, however the site caches it. The page fetches it instead, through its own
// HTTP cache, and hands the response's body to the worker (and to the frame that keeps compiled code between
// starts).
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import http from "node:http";
import { after, before, describe, it } from "node:test";
import { SITE_URL, openRuntimePage } from "./runtime-page.mjs";

/**
 * The site's files on another port of 127.0.0.1, served as a static host serves a release (cacheable for ten
 * minutes, with CORS), each request noted with the origin that made it ("null" for an opaque origin's).
 */
function cachingHost() {
  const requests = [];
  // Pages served from this host itself, by path: [their Content-Security-Policy, their HTML].
  const pages = new Map();
  const server = http.createServer(async (req, res) => {
    const path = new URL(req.url, "http://host").pathname;
    const page = pages.get(path);
    if (page) {
      return res.writeHead(200, { "content-type": "text/html", "content-security-policy": page[0] }).end(page[1]);
    }
    requests.push({ path, origin: req.headers.origin ?? "(none)" });
    try {
      const upstream = await fetch(new URL(path, SITE_URL));
      const body = Buffer.from(await upstream.arrayBuffer());
      res.writeHead(upstream.status, {
        "content-type": upstream.headers.get("content-type") ?? "application/octet-stream",
        "cache-control": "public, max-age=600",
        "access-control-allow-origin": "*",
        "cross-origin-resource-policy": "cross-origin",
      });
      res.end(body);
    } catch (error) {
      res.writeHead(502).end(String(error));
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, requests, pages })));
}

describe("a sandboxed server's downloads", () => {
  let browser;
  let page;
  let staticHost;

  before(async () => {
    ({ browser, page } = await openRuntimePage());
    staticHost = await cachingHost();
  });

  after(async () => {
    await browser?.close();
    staticHost?.server.close();
  });

  it("its wasm and bootstrap are downloaded once for all its starts, not again by each start's worker", async () => {
    const workerUrl = `http://127.0.0.1:${staticHost.server.address().port}/bundles/echo/bootstrap.js`;
    const texts = await page.evaluate(async (workerUrl) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("cached") });
      rt.addServer({ name: "cached", workerUrl });
      const texts = [];
      for (let run = 0; run < 4; run++) {
        if (run === 0) await rt.connectServer("cached");
        else await rt.restartServer("cached");
        texts.push((await rt.callTool("cached", "echo", { text: `run ${run}` })).content[0].text);
      }
      rt.close();
      return texts;
    }, workerUrl);
    assert.deepEqual(texts, ["run 0", "run 1", "run 2", "run 3"], "each start answers");
    // The frame that keeps compiled code between starts is handed the wasm a while after a start (once the server
    // has settled and the page is idle, within 250 ms and then 1 s).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const wasm = staticHost.requests.filter((r) => r.path === "/bundles/echo/server_bg.wasm").map((r) => r.origin);
    const pageOrigin = new URL(SITE_URL).origin;
    assert.deepEqual(wasm, [pageOrigin], "the page downloads it once, and no sandboxed worker or frame does");
    const bootstraps = staticHost.requests.filter((r) => r.path === "/bundles/echo/bootstrap.js").map((r) => r.origin);
    assert.deepEqual(bootstraps, [pageOrigin], "its bootstrap too: the page downloads it once, no worker does");
  });

  it("under a page policy without blob: scripts, each worker loads its bootstrap itself and still starts", async () => {
    // A page with a Content-Security-Policy of its own, which its sandboxed frames inherit: it allows what the sandbox
    // asks of it (the frame script's hash, `worker-src blob:`), but not `script-src blob:`, so the worker cannot run
    // the bootstrap's text the page hands it, and imports its URL.
    const origin = `http://127.0.0.1:${staticHost.server.address().port}`;
    const source = await readFile(new URL("../../host/client/src/sandbox.rs", import.meta.url), "utf8");
    const hash = source.match(/FRAME_SCRIPT_HASH: &str = "([^"]+)"/)[1];
    staticHost.pages.set("/strict.html", [
      `default-src 'none'; script-src ${origin} '${hash}' 'wasm-unsafe-eval'; worker-src blob:; connect-src ${origin}`,
      "<!doctype html><title>strict</title>",
    ]);
    const strict = await browser.newPage();
    const violations = [];
    strict.on("console", (message) => message.type() === "error" && violations.push(message.text()));
    try {
      await strict.goto(`${origin}/strict.html`);
      staticHost.requests.length = 0;
      const texts = await strict.evaluate(async (workerUrl) => {
        const { default: init, McpClient } = await import("/pkg/host-client/mcp_worker_host.js");
        await init();
        const texts = [];
        for (let run = 0; run < 2; run++) {
          const client = await McpClient.spawn({ name: "strict", workerUrl });
          texts.push((await client.callTool("echo", { text: `strict ${run}` })).content[0].text);
          client.close();
        }
        return texts;
      }, `${origin}/bundles/echo/bootstrap.js`);
      assert.deepEqual(texts, ["strict 0", "strict 1"], "each start answers");
      // The page's own fetches are same-origin here (and may come from its cache): only the workers' are counted.
      const fromWorkers = staticHost.requests.filter(
        (r) => r.path === "/bundles/echo/bootstrap.js" && r.origin === "null",
      );
      assert.equal(fromWorkers.length, 2, "each worker fetched its bootstrap itself");
    } finally {
      await strict.close();
    }
  });
});
