// A small static file server for the built site (target/site or a copy of it), on 127.0.0.1.
//
// Used by run.mjs (once for the whole run) and by client-driver.mjs when it is started without
// MCP_WORKER_SITE_URL. Serves `.js`/`.mjs` as text/javascript and `.wasm` as application/wasm (needed by
// WebAssembly.instantiateStreaming), and a blank page at /e2e-blank.html when the site has none.
//
//   node static-server.mjs <site-dir> [port]     (prints the URL, serves until killed)

import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json",
};

export const BLANK_PAGE = "<!doctype html><meta charset=utf-8><title>e2e</title>";

/** Starts serving `root`; resolves with `{ url, close }` (url ends in "/"). */
export function startStaticServer(root, port = 0) {
  const base = path.resolve(root);
  const server = http.createServer((req, res) => {
    let rel;
    try {
      rel = decodeURIComponent(new URL(req.url, "http://x").pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (rel.endsWith("/")) rel += "index.html";
    const file = path.join(base, rel);
    if (file !== base && !file.startsWith(base + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    fs.readFile(file, (err, body) => {
      if (err) {
        if (rel === "/e2e-blank.html") {
          res.writeHead(200, { "content-type": TYPES[".html"], "cache-control": "no-store" });
          res.end(BLANK_PAGE);
          return;
        }
        res.writeHead(404, { "content-type": "text/plain" }).end("not found");
        return;
      }
      res.writeHead(200, {
        "content-type": TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream",
        "cache-control": "no-store",
        // Lets sandboxed workers (opaque origin) load bundles; harmless otherwise.
        "access-control-allow-origin": "*",
      });
      res.end(body);
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const { port: p } = server.address();
      resolve({
        url: `http://127.0.0.1:${p}/`,
        close: () =>
          new Promise((r) => {
            server.close(() => r());
            server.closeAllConnections?.();
          }),
        server,
      });
    });
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    console.error("usage: node static-server.mjs <site-dir> [port]");
    process.exit(2);
  }
  const { url } = await startStaticServer(dir, Number(process.argv[3] ?? 0));
  console.log(url);
}
