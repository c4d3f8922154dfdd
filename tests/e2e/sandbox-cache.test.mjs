// End-to-end test of what a sandboxed server's starts download. A sandboxed worker lives in an opaque origin, whose
// requests the browser never caches: had it fetched its own wasm, every start (a restart, a start after a stop)
// would download the whole module again, however the site caches it. The page fetches it instead, through its own
// HTTP cache, and hands the response's body to the worker (and to the frame that keeps compiled code between
// starts).
import assert from "node:assert/strict";
import http from "node:http";
import { after, before, describe, it } from "node:test";
import { SITE_URL, openRuntimePage } from "./runtime-page.mjs";

/**
 * The site's files on another port of 127.0.0.1, served as a static host serves a release (cacheable for ten
 * minutes, with CORS), each request noted with the origin that made it ("null" for an opaque origin's).
 */
function cachingHost() {
  const requests = [];
  const server = http.createServer(async (req, res) => {
    const path = new URL(req.url, "http://host").pathname;
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
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, requests })));
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

  it("its wasm is downloaded once for all its starts, not again by each start's worker", async () => {
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
    const bootstraps = staticHost.requests.filter((r) => r.path === "/bundles/echo/bootstrap.js").length;
    assert.equal(bootstraps, 4, "each worker loads its bootstrap (a small script) itself");
  });
});
