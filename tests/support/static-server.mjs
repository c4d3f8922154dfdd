// A static file server on 127.0.0.1 for the tests that build an app or a bundle outside the site: CORS on every file,
// because sandboxed servers (opaque origins) load their bundles cross-origin.
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";

const TYPES = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".wasm": "application/wasm",
  ".json": "application/json",
};

/** Serves the files under `root` on a free port; `close()` stops it. */
export async function serveStatic(root) {
  const server = createServer(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url, "http://x").pathname));
    try {
      const body = await readFile(join(root, path));
      const type = TYPES[extname(path)] ?? "application/octet-stream";
      response.writeHead(200, { "Content-Type": type, "Access-Control-Allow-Origin": "*" }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}
