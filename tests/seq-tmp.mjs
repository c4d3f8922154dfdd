import { chromium } from "playwright-core";
import http from "node:http"; import fs from "node:fs";
const site = "/work/main/target/site";
const srv = http.createServer((q, r) => { const u = q.url.split("?")[0]; const f = u === "/page.html" ? "/tmp/seq/page.html" : site + u; let body; try { body = fs.readFileSync(f); } catch { r.writeHead(404); return r.end(); } r.writeHead(200, { "content-type": f.endsWith(".js") ? "text/javascript" : f.endsWith(".wasm") ? "application/wasm" : "text/html", "cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp" }); r.end(body); }).listen(0, "127.0.0.1");
await new Promise((r) => srv.on("listening", r));
const b = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
const p = await b.newPage(); await p.goto(`http://127.0.0.1:${srv.address().port}/page.html`);
console.log(JSON.stringify(await p.evaluate(() => window.run())));
await b.close(); srv.close();
