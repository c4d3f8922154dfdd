// Sandboxed restarts over a slow link: what the page's HTTP cache saves a sandboxed server's starts.
//
//   cargo xtask build --release && node tests/bench/sandbox-downloads.mjs [--latency-ms 20] [--mbit 20] [--starts 24]
//
// Serves the release build (`target/`) twice on 127.0.0.1, each bundle file delayed as a link of that latency and
// bandwidth would deliver it: once cacheable (`Cache-Control: max-age=3600`, as a static host serves a release) and
// once `no-store`. A page with the `McpClient`-only package starts the echo bundle in its sandbox again and again
// (spawn to tools listed), alternating the two servers, and prints the medians. With `no-store` every start
// downloads the wasm, as every sandboxed start did whatever the caching, when the worker fetched its own wasm from
// its opaque origin (whose requests the browser never caches); the cacheable server shows what the page's cache saves
// now that the page fetches it (with its bootstrap). Figures, not assertions. `--latency-ms 40 --mbit 1000` shows a
// link whose latency, not bandwidth, is the cost: a cached start then makes no round trip.

import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "../support/chromium.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../target");
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };
const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const latencyMs = arg("latency-ms", 20);
const bytesPerMs = (arg("mbit", 20) * 1e6) / 8 / 1000;
const starts = arg("starts", 24);

const PAGE = `<!doctype html><script type=module>
import init, { McpClient } from "/pkg/host-client/mcp_worker_host.js";
await init();
window.startOnce = async (workerUrl) => {
  const t = performance.now();
  const client = await McpClient.spawn({ name: "echo", workerUrl });
  const listed = (await client.listTools()).length;
  const ms = performance.now() - t;
  client.close();
  return { ms, listed };
};
window.READY = true;
</script>`;

/** Serves `target/`, bundle files delayed as the link delivers them, with `cacheControl`. */
function serve(cacheControl) {
  const server = http.createServer(async (req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (urlPath === "/sandbox-downloads.html") return res.writeHead(200, { "content-type": "text/html" }).end(PAGE);
    const file = path.join(ROOT, path.normalize(urlPath));
    let body;
    try {
      body = fs.readFileSync(file);
    } catch {
      return res.writeHead(404).end();
    }
    if (urlPath.startsWith("/bundles/")) await new Promise((r) => setTimeout(r, latencyMs + body.length / bytesPerMs));
    res.writeHead(200, {
      "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
      "cache-control": cacheControl,
      "access-control-allow-origin": "*",
    });
    res.end(body);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const cached = await serve("max-age=3600");
const uncached = await serve("no-store");
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${cached.address().port}/sandbox-downloads.html`);
  await page.waitForFunction(() => window.READY);
  const bundle = (server) => `http://127.0.0.1:${server.address().port}/bundles/echo/bootstrap.js`;
  const times = { cached: [], uncached: [] };
  for (let i = 0; i < starts + 2; i++) {
    for (const [key, server] of i % 2 ? [["cached", cached], ["uncached", uncached]] : [["uncached", uncached], ["cached", cached]]) {
      const { ms, listed } = await page.evaluate((url) => window.startOnce(url), bundle(server));
      if (listed !== 3) throw new Error(`echo listed ${listed} tools`);
      if (i >= 2) times[key].push(ms);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  const wasm = fs.statSync(path.join(ROOT, "bundles/echo/server_bg.wasm")).size;
  console.log(`link: ${latencyMs} ms + ${((bytesPerMs * 8) / 1000).toFixed(0)} Mbit/s per bundle file; echo's wasm ${(wasm / 1024).toFixed(1)} KiB`);
  console.log(`sandboxed start -> tools listed, median of ${starts}: cacheable ${median(times.cached).toFixed(1)} ms, no-store ${median(times.uncached).toFixed(1)} ms`);
} finally {
  await browser.close();
  cached.close();
  uncached.close();
}
