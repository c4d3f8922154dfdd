// The development proxy of `cargo xtask demo`: lets the console try remote MCP servers that send no CORS headers.
//
//   node xtask/dev-proxy.mjs --port 8081 --origin http://127.0.0.1:8080 [--allow https://mcp.example.com ...]
//
// A request to /proxy?url=<target> is forwarded to the target when the target's origin is on the allowlist, with
// its method, body and headers (credentials included: this proxy runs on the user's own machine, for them alone),
// and the answer streams back (event streams included) with CORS headers for the console's origin only. Anything
// else is refused with a message that says how to allow it. Only pages of `--origin` may use it, and only through
// 127.0.0.1 or localhost (a DNS-rebinding page is refused by its Host header).
import http from "node:http";

/** Headers that belong to one hop, or that the browser set for the page: not forwarded either way. */
const HOP = new Set([
  "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer", "host", "origin",
  "referer", "cookie", "content-length", "content-encoding", "access-control-request-method",
  "access-control-request-headers",
]);
const EXPOSED = "Mcp-Session-Id, WWW-Authenticate, Mcp-Protocol-Version";

function parseArgs(argv) {
  const options = { port: 8081, origin: "http://127.0.0.1:8080", allow: [] };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === "--port") options.port = Number(value);
    else if (flag === "--origin") options.origin = new URL(value).origin;
    else if (flag === "--allow") options.allow.push(new URL(value).origin);
    else throw new Error(`unknown option ${flag} (expected --port, --origin, --allow)`);
  }
  return options;
}

function refuse(res, corsHeaders, status, message) {
  res.writeHead(status, { ...corsHeaders, "content-type": "application/json" });
  res.end(JSON.stringify({ error: message }));
}

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return chunks.length ? Buffer.concat(chunks) : undefined;
}

/** Starts the proxy; resolves to the server once it listens. */
export function startDevProxy({ port, origin, allow }) {
  const allowed = new Set(allow);
  const server = http.createServer(async (req, res) => {
    const cors = { "access-control-allow-origin": origin, vary: "Origin", "access-control-expose-headers": EXPOSED };
    const host = (req.headers.host ?? "").replace(/:\d+$/, "");
    if (!["127.0.0.1", "localhost", "[::1]"].includes(host)) return refuse(res, {}, 403, "this proxy answers 127.0.0.1 and localhost only (DNS rebinding)");
    if (req.headers.origin && req.headers.origin !== origin) return refuse(res, {}, 403, `only pages of ${origin} may use this proxy`);
    if (req.method === "OPTIONS") {
      res.writeHead(204, {
        ...cors,
        "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
        "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "",
        "access-control-max-age": "600",
      });
      return res.end();
    }
    const url = new URL(req.url, "http://proxy");
    if (url.pathname !== "/proxy") return refuse(res, cors, 404, "the proxy is at /proxy?url=<target>");
    let target;
    try {
      target = new URL(url.searchParams.get("url") ?? "");
    } catch {
      return refuse(res, cors, 400, "url= must be an absolute http(s) URL");
    }
    if (!["http:", "https:"].includes(target.protocol)) return refuse(res, cors, 400, "url= must be an http(s) URL");
    if (!allowed.has(target.origin)) {
      return refuse(res, cors, 403, `${target.origin} is not on the development proxy's allowlist: run cargo xtask demo --proxy-allow ${target.origin}`);
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !HOP.has(name) && !name.startsWith("sec-")));
    const aborter = new AbortController();
    res.on("close", () => aborter.abort());
    let answer;
    try {
      const body = ["GET", "HEAD"].includes(req.method) ? undefined : await readBody(req);
      answer = await fetch(target, { method: req.method, headers, body, redirect: "manual", signal: aborter.signal });
    } catch (error) {
      return refuse(res, cors, 502, `${target.origin} could not be reached: ${error.cause?.message ?? error.message}`);
    }
    const out = { ...cors };
    answer.headers.forEach((value, name) => {
      if (!HOP.has(name) && !name.startsWith("access-control-")) out[name] = value;
    });
    res.writeHead(answer.status, out);
    try {
      for await (const chunk of answer.body ?? []) res.write(chunk);
    } catch {
      // The target or the page went away mid-stream: the page sees the stream end.
    }
    res.end();
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const options = parseArgs(process.argv.slice(2));
  const server = await startDevProxy(options);
  const { port } = server.address();
  const list = options.allow.length ? options.allow.join(", ") : "nothing yet (add --proxy-allow <origin>)";
  console.log(`development proxy: http://127.0.0.1:${port}/proxy?url={url} for pages of ${options.origin}; allows ${list}`);
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.close(() => process.exit(0)));
}
