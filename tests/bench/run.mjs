// Runs www/bench.html in headless Chromium (playwright-core, the system /usr/bin/chromium), prints the figures as
// aligned tables and writes the JSON to target/bench/results.json. `cargo xtask bench` runs this with
// MCP_WORKER_SITE_URL set to the assembled site.
//
// Three contenders in one page and run: our host + Rust echo server, a raw postMessage echo worker, and the official
// TypeScript SDK (Client on the page, McpServer in a worker, over a MessagePort; www/bench/ts-sdk.js). This runner
// bundles the SDK's sides with esbuild (in memory, minified) and serves them beside the site, and reports the gzip
// sizes of what ours and the SDK ship. A contender that fails to build or start is reported as failed, with why, and
// the others still run.
//
// The page is served through a small proxy that adds COOP/COEP headers, so it is cross-origin isolated and
// performance.now() has 5 us resolution instead of 100 us (per-call percentiles of ~25-100 us round trips are
// meaningless at 100 us). The proxy also answers repeated GETs from memory, so the dev server's own latency does not
// land in cold-start figures. `--direct` skips the proxy.
//
// The browser runs with no DevTools client attached, as a user's does: Chromium is started as a plain process and the
// page reports its window marks and results by POSTs to the proxy (www/bench/runner-link.js). Under a DevTools client
// (Playwright's, which enables the network domain on every page) each fetch() records its initiator's stack: a POST
// with Streamable HTTP's headers, answered with one event by a minimal local server, took 4.5 ms instead of 2.5, and
// a fetch() called 40 frames deep 0.3 ms longer than one called from the top (a page of its own, 1,000 calls of each,
// 10% trimmed means), which would charge the clients by their call depth rather than their work. `--attached` runs
// the page under Playwright as before; `--profile` and `--direct` need it.
//
// Exit status: 0 when the bench ran (whatever the figures: machines are noisy, figures are reported, not asserted),
// 1 when it could not run or failed, 2 on bad usage.
//
// Options: --quick (scaled-down counts), --direct (no isolation proxy), --attached (the page under Playwright, a
//          DevTools client), --timeout <seconds> (default 300),
//          --out <file> (default <target>/bench/results.json), --json (also print the JSON),
//          --profile (after the figures, extra windows under the DevTools CPU profiler, page and workers: top
//          functions by self time; wasm shows as wasm-function[N] unless the .wasm keeps its name section).
//          --set key=value (repeatable: override a numeric setting of www/bench/bench.js, e.g. --set seqRounds=1).

import { chromium } from "playwright-core";
import * as esbuild from "esbuild";
import { startRemoteServers } from "../fixtures/remote/servers.mjs";
import http from "node:http";
import fs from "node:fs";
import zlib from "node:zlib";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CHROMIUM, CHROMIUM_ARGS } from "../support/chromium.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// The tests' Chromium flags, and one more: lets the page collect garbage between measurements, so a GC from one phase
// does not land in the next.
// The page is also kept a foreground page, as Playwright keeps the pages it drives: no field-trial experiments, no
// throttling of background renderers, timers or IPC (a detached page runs with these flags and no DevTools client).
const BENCH_ARGS = [
  ...CHROMIUM_ARGS,
  "--js-flags=--expose-gc",
  "--disable-field-trial-config",
  "--disable-background-timer-throttling",
  "--disable-backgrounding-occluded-windows",
  "--disable-renderer-backgrounding",
  "--disable-ipc-flooding-protection",
];

function usage(message) {
  console.error(`run.mjs: ${message}`);
  console.error("usage: node tests/bench/run.mjs [--quick] [--direct] [--attached] [--profile] [--set key=value]... [--timeout <seconds>] [--out <file>] [--json]");
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { quick: false, direct: false, attached: false, profile: false, timeoutS: 300, out: null, json: false, set: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--quick") opts.quick = true;
    else if (a === "--direct") opts.direct = true;
    else if (a === "--attached") opts.attached = true;
    else if (a === "--json") opts.json = true;
    else if (a === "--profile") opts.profile = true;
    else if (a === "--set") {
      const kv = argv[++i] ?? "";
      if (!/^[A-Za-z]+=[0-9.]+$/.test(kv)) usage(`--set needs key=number, got \`${kv}\``);
      opts.set.push(kv);
    }
    else if (a === "--timeout") opts.timeoutS = Number(argv[++i]);
    else if (a === "--out") opts.out = argv[++i];
    else usage(`unknown argument \`${a}\``);
  }
  if (!Number.isFinite(opts.timeoutS) || opts.timeoutS <= 0) usage("--timeout needs a number of seconds");
  // The profiler is a DevTools client, and with --direct no proxy receives the page's reports.
  if (opts.profile || opts.direct) opts.attached = true;
  return opts;
}

/**
 * Serves `upstream` on a free 127.0.0.1 port, adding the headers that make the page cross-origin isolated.
 * Successful GETs are fetched from upstream once and then answered from memory (the browser still fetches every
 * time: upstream's `Cache-Control: no-store` is kept), so the dev server's own latency (see `probeKeepAlive`) stays
 * out of the cold-start figures. `extra` maps paths to entries served as they are; `reports` maps paths to functions
 * that take a POSTed JSON body (answered with 204 once the function has settled).
 *
 * The bench page's Content-Security-Policy also gets 'unsafe-eval' in script-src: the TS SDK's Client validates tool
 * results with Ajv by default, which compiles schemas with `new Function` (the SDK's eval-free validator needs
 * @cfworker/json-schema, an optional dependency), and the SDK is measured as it ships. Nothing of ours evaluates
 * strings.
 */
function isolationProxy(upstream, extra = {}, reports = {}) {
  const prefix = upstream.pathname.replace(/\/$/, "");
  const cache = new Map(Object.entries(extra));
  const allowEval = (headers) => {
    const csp = headers["content-security-policy"];
    if (!csp) return headers;
    return { ...headers, "content-security-policy": csp.replace(/script-src ([^;]*)/, "script-src $1 'unsafe-eval'") };
  };
  const isolation = {
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-embedder-policy": "require-corp",
    "cross-origin-resource-policy": "same-origin",
  };
  const send = (res, entry) => {
    res.writeHead(entry.status, { ...entry.headers, ...isolation, "content-length": entry.body.length });
    res.end(entry.body);
  };
  const fetchUpstream = (req) =>
    new Promise((resolve, reject) => {
      const headers = { ...req.headers, host: upstream.host, connection: "close" };
      delete headers["if-none-match"];
      delete headers["if-modified-since"];
      const forward = http.request(
        { host: upstream.hostname, port: upstream.port, path: prefix + req.url, method: req.method, headers, agent: false },
        (up) => {
          const chunks = [];
          up.on("data", (c) => chunks.push(c));
          up.on("end", () => {
            const { connection, "keep-alive": _k, "transfer-encoding": _t, "content-length": _l, ...rest } = up.headers;
            resolve({ status: up.statusCode ?? 502, headers: rest, body: Buffer.concat(chunks) });
          });
          up.on("error", reject);
        },
      );
      forward.on("error", reject);
      req.pipe(forward);
    });
  const server = http.createServer({ noDelay: true }, async (req, res) => {
    const key = req.method === "GET" ? req.url : null;
    const report = req.method === "POST" ? reports[new URL(req.url, "http://x").pathname] : undefined;
    try {
      if (report) {
        const chunks = [];
        for await (const chunk of req) chunks.push(chunk);
        await report(JSON.parse(Buffer.concat(chunks).toString("utf8")));
        res.writeHead(204, isolation);
        return res.end();
      }
      if (key !== null && cache.has(key)) return send(res, cache.get(key));
      const entry = await fetchUpstream(req);
      if (new URL(req.url, "http://x").pathname === "/bench.html") entry.headers = allowEval(entry.headers);
      if (key !== null && entry.status === 200) cache.set(key, entry);
      if (entry.status >= 400) console.log(`[page] HTTP ${entry.status} ${req.url}`);
      send(res, entry);
    } catch (error) {
      res.writeHead(502, { "content-type": "text/plain" });
      res.end(`proxy: ${error.message}`);
    }
  });
  return new Promise((resolve, reject) => {
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}/`, close: () => server.close() });
    });
  });
}

/**
 * Times two GETs of the same file (bench/bench.js, ~30 KB) on one kept-alive connection. Some static servers answer
 * the second request on a connection ~40 ms late (headers and body in separate writes: Nagle vs delayed ACK), which
 * would land in every cold-start figure that fetches more than one file. Returns the two times in ms.
 */
async function probeKeepAlive(site) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = () =>
    new Promise((resolve, reject) => {
      const t = performance.now();
      http
        .get(new URL("bench/bench.js", site), { agent }, (res) => {
          res.on("data", () => {});
          res.on("end", () => resolve(performance.now() - t));
        })
        .on("error", reject);
    });
  try {
    return [await get(), await get()];
  } catch {
    return null;
  } finally {
    agent.destroy();
  }
}

/** The total count of cpuidle state entries (other than busy-polling) over all CPUs, or null when unreadable. */
function idleEntries() {
  try {
    let total = 0;
    const cpus = fs.readdirSync("/sys/devices/system/cpu").filter((d) => /^cpu\d+$/.test(d));
    for (const cpu of cpus) {
      const dir = `/sys/devices/system/cpu/${cpu}/cpuidle`;
      if (!fs.existsSync(dir)) continue;
      for (const state of fs.readdirSync(dir).filter((d) => d.startsWith("state"))) {
        if (fs.readFileSync(`${dir}/${state}/name`, "utf8").trim() === "POLL") continue;
        total += Number(fs.readFileSync(`${dir}/${state}/usage`, "utf8"));
      }
    }
    return total;
  } catch {
    return null;
  }
}

const loadavg = () => {
  try {
    return fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  } catch {
    return "?";
  }
};

/**
 * The DevTools CPU profiler on the page's main thread and on every dedicated worker (auto-attached through the
 * page's CDP session, messages relayed with Target.sendMessageToTarget).
 */
async function cpuProfiler(page) {
  const cdp = await page.context().newCDPSession(page);
  const workers = new Map(); // sessionId -> url
  const waiting = new Map(); // `${sessionId}:${id}` -> resolve
  let nextId = 1;
  cdp.on("Target.attachedToTarget", ({ sessionId, targetInfo }) => {
    if (targetInfo.type === "worker") workers.set(sessionId, targetInfo.url);
  });
  cdp.on("Target.detachedFromTarget", ({ sessionId }) => workers.delete(sessionId));
  cdp.on("Target.receivedMessageFromTarget", ({ sessionId, message }) => {
    const msg = JSON.parse(message);
    const key = `${sessionId}:${msg.id}`;
    if (waiting.has(key)) {
      waiting.get(key)(msg.result ?? { error: msg.error });
      waiting.delete(key);
    }
  });
  const toWorker = (sessionId, method, params = {}) =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(`${sessionId}:${id}`, resolve);
      cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id, method, params }) }).catch(() => resolve({}));
      setTimeout(() => resolve({}), 5000);
    });
  await cdp.send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 50 });
  let active = [];
  return {
    async start() {
      await cdp.send("Profiler.start");
      active = [...workers.entries()];
      for (const [sessionId] of active) {
        await toWorker(sessionId, "Profiler.enable");
        await toWorker(sessionId, "Profiler.setSamplingInterval", { interval: 50 });
        await toWorker(sessionId, "Profiler.start");
      }
    },
    async stop() {
      const out = [{ thread: "page main thread", profile: (await cdp.send("Profiler.stop")).profile }];
      for (const [sessionId, url] of active) {
        const r = await toWorker(sessionId, "Profiler.stop");
        if (r.profile) out.push({ thread: `worker ${new URL(url).pathname}`, profile: r.profile });
      }
      return out;
    },
  };
}

/** Self time per function (ms, share of the window) of a CPU profile, biggest first. */
function selfTimes(profile) {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let total = 0;
  profile.samples.forEach((nodeId, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    total += dt;
    const f = byNode.get(nodeId).callFrame;
    const file = f.url ? f.url.split("/").pop() : "";
    const key = `${f.functionName || "(anonymous)"}${file ? ` ${file}${f.lineNumber >= 0 ? `:${f.lineNumber + 1}` : ""}` : ""}`;
    self.set(key, (self.get(key) ?? 0) + dt);
  });
  return { total, rows: [...self.entries()].sort((a, b) => b[1] - a[1]) };
}

/** A coarse split of a profile: wasm, our JS glue, other JS, GC, engine/browser work, idle. */
function categories(profile) {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const cats = {};
  let total = 0;
  profile.samples.forEach((nodeId, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    total += dt;
    const f = byNode.get(nodeId).callFrame;
    let cat;
    if (f.functionName === "(idle)") cat = "idle";
    else if (f.functionName === "(garbage collector)") cat = "GC";
    else if (f.functionName === "(program)") cat = "(program): browser/engine outside JS (task dispatch, message delivery)";
    else if (f.url.includes(".wasm") || /^(\$|wasm-function)/.test(f.functionName)) cat = "wasm (Rust code)";
    else if (/mcp_worker_host\.js|\/server\.js|bootstrap\.js/.test(f.url)) cat = "wasm-bindgen glue JS (incl. JSON.parse/stringify it calls)";
    else if (f.url) cat = "other JS (bench driver, baseline)";
    else if (f.functionName === "postMessage") cat = "postMessage (serialize + signal the other thread)";
    else if (f.functionName === "decode") cat = "TextDecoder.decode (Rust str -> JS string)";
    else if (f.functionName === "encodeInto" || f.functionName === "encode") cat = "TextEncoder (JS string -> Rust)";
    else cat = `native: ${f.functionName || "(anonymous)"}`;
    cats[cat] = (cats[cat] ?? 0) + dt;
  });
  return { total, rows: Object.entries(cats).sort((a, b) => b[1] - a[1]) };
}

// ---------------------------------------------------------------------------------------------------------------
// Formatting (kept in step with www/bench/bench.js formatValue)

function fmt(value, unit) {
  if (value === undefined || value === null || Number.isNaN(value)) return "-";
  if (unit === "calls/s" || unit === "msgs/s") return `${Math.round(value).toLocaleString("en-US")} ${unit}`;
  if (unit === "us") return `${value.toFixed(1)} us`;
  if (unit === "ms") return `${value.toFixed(2)} ms`;
  return `${value} ${unit}`;
}

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

const ratio = (r) => (r === undefined || r === null || Number.isNaN(r) ? "" : `${r.toFixed(2)}x`);

/** An aligned text table; numeric columns (all but the first) are right-aligned. */
function textTable(headers, rows) {
  const widths = headers.map((h, c) => Math.max(h.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells) =>
    cells.map((cell, c) => (c === 0 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]))).join(" | ");
  return [line(headers), widths.map((w) => "-".repeat(w)).join("-|-"), ...rows.map(line)].join("\n");
}

function report(result, meta) {
  const out = [];
  const e = result.env;
  out.push(`userAgent:           ${e.userAgent}`);
  out.push(`hardwareConcurrency: ${e.hardwareConcurrency}`);
  out.push(`crossOriginIsolated: ${e.crossOriginIsolated} (performance.now() resolution ${e.timerResolutionUs} us)${e.crossOriginIsolated ? "" : "  <- per-call percentiles are quantized to 100 us"}`);
  out.push(`page:                ${meta.pageUrl}${meta.direct ? "" : ` (isolating, caching proxy in front of ${meta.siteUrl})`}`);
  out.push(`browser:             ${meta.attached ? "under Playwright, a DevTools client (its network domain records every fetch's initiator: HTTP rows run slower)" : "no DevTools client attached, as a user's"}`);
  out.push(`config:              ${meta.quick ? "QUICK (scaled down) " : ""}${JSON.stringify(result.config)}`);
  out.push(`bench time:          ${(result.durationMs / 1000).toFixed(1)} s`);
  out.push(`load average:        ${meta.loadBefore} before, ${meta.loadAfter} after (other work on the machine skews every figure)`);
  if (meta.keepAlive) {
    const [first, second] = meta.keepAlive;
    const stalled = second > 20 && second > 5 * first;
    out.push(`site server:         GET ${first.toFixed(1)} ms, same file again on the kept-alive connection ${second.toFixed(1)} ms${stalled ? "  <- stalls on reused connections (Nagle/delayed ACK)" : ""}`);
    if (stalled) {
      out.push(meta.direct
        ? "                     --direct: cold-start figures include this stall for every extra file a worker fetches"
        : "                     the isolation proxy answers from memory after the first fetch, so figures avoid it");
    }
  }
  out.push("");
  out.push("== Figures: raw postMessage, mcp-worker (ours) and the official TS SDK over a MessagePort (clone: message objects");
  out.push("   posted as they are; JSON: JSON text), same page and run. Ratios are costs (for rates the inverse): > 1 = ours slower.");
  out.push("   Targets are reported, not asserted.");
  const met = (x) => (x === undefined ? "" : x ? "met" : "NOT MET");
  out.push(
    textTable(
      ["figure", "raw", "mcp-worker", "TS SDK clone", "TS SDK JSON", "ours/raw", "ours/TS SDK", "target vs raw", "ahead of TS SDK"],
      result.figures.map((f) => [
        `${f.section}: ${f.label}`,
        fmt(f.raw, f.unit),
        fmt(f.ours, f.unit),
        fmt(f.sdk?.clone, f.unit),
        fmt(f.sdk?.json, f.unit),
        ratio(f.ratio),
        f.vsSdk === undefined ? "" : `${ratio(f.vsSdk)} (${f.sdkBestWire})`,
        f.target ? `${f.target.text}: ${met(f.target.met)}` : "",
        met(f.aheadOfSdk),
      ]),
    ),
  );
  const notes = [...new Set(result.figures.filter((f) => f.note).map((f) => `  ${f.section}: ${f.note}`))];
  if (notes.length) out.push("baselines:", ...notes);
  for (const failure of [...meta.sdkBuildErrors, ...(result.sdkFailures ?? [])]) {
    out.push(`TS SDK (${failure.wire}) FAILED in ${failure.phase}: ${failure.error}`);
  }
  out.push("");
  out.push("== Sizes: what each side ships (gzip -9 of each file, summed; ours as served, the TS SDK minified by esbuild;");
  out.push("   the files are listed in the JSON results)");
  out.push(
    textTable(
      ["package", "files", "bytes", "gzip"],
      meta.sizes.map((z) => (z.error ? [z.label, `FAILED: ${z.error}`, "", ""] : [z.label, z.files.length, kib(z.bytes), kib(z.gzip)])),
    ),
  );
  out.push("");
  out.push("== Decomposition: where the time goes (same workloads with one side swapped; instrumented breakdown)");
  out.push("   host = our host wasm on the page (JS API); Rust echo = our echo server; JS echo server = www/bench/js-echo-server.js;");
  out.push("   raw JS client = a lean hand-written JSON-RPC client in the page doing the handshake itself");
  out.push(
    textTable(
      ["row", "value", "raw postMessage", "ratio"],
      result.decomposition.map((d) => [`${d.section}: ${d.label}`, fmt(d.value, d.unit), fmt(d.raw, d.unit), ratio(d.ratio)]),
    ),
  );
  const dnotes = result.decomposition.filter((d) => d.note);
  if (dnotes.length) {
    out.push("notes:");
    for (const d of dnotes) out.push(`  ${d.label.trim()}: ${d.note}`);
  }
  if (meta.idle && Object.keys(meta.idle).length) {
    out.push("");
    out.push("== vCPU idle entries per call (Linux cpuidle, all CPUs; ~0 = the threads hand off on one busy CPU,");
    out.push("   ~1-2 = each round trip wakes a halted vCPU, which costs tens of us in a VM)");
    const rows = Object.entries(meta.idle).map(([label, v]) => [label, v.calls.toLocaleString("en-US"), (v.entries / v.calls).toFixed(2)]);
    out.push(textTable(["window", "calls", "idle entries / call"], rows));
  }
  return out.join("\n");
}

function profileReport(profiles) {
  const out = ["", "== CPU profiles (DevTools sampling profiler, 50 us; profiled windows are extra, not the ones measured above;"];
  out.push("   the profiler slows everything down, so compare shares and per-call costs between windows, not with the figures)");
  for (const [label, { calls, threads }] of Object.entries(profiles)) {
    for (const { thread, profile } of threads) {
      const cats = categories(profile);
      const busy = cats.rows.filter(([c]) => c !== "idle").reduce((a, [, v]) => a + v, 0);
      if (busy < 1) continue;
      const perCall = (ms) => ((ms * 1000) / calls).toFixed(2);
      out.push("");
      out.push(`-- ${label} (${calls.toLocaleString("en-US")} calls): ${thread}: ${cats.total.toFixed(0)} ms sampled, ${busy.toFixed(0)} ms busy = ${perCall(busy)} us/call`);
      out.push(textTable(["category", "ms", "us/call", "% of busy"], cats.rows.filter(([c]) => c !== "idle").map(([c, v]) => [c, v.toFixed(1), perCall(v), `${((100 * v) / busy).toFixed(1)}%`])));
      const top = selfTimes(profile).rows.filter(([k]) => !k.startsWith("(idle)")).slice(0, 12);
      out.push(textTable(["top self time", "ms", "us/call", "% of busy"], top.map(([k, v]) => [k.slice(0, 100), v.toFixed(1), perCall(v), `${((100 * v) / busy).toFixed(1)}%`])));
    }
  }
  return out.join("\n");
}

/** The official TS SDK's pieces the page loads, by the path they are served at: their esbuild entries. */
const TS_SDK_BUNDLES = {
  // The SDK's Client and Streamable HTTP transport, for the Streamable HTTP row.
  "/bench/ts-sdk-client.js": "www/bench/ts-sdk-entry.js",
  // The MessagePort contender: the page side (Client + PortTransport) and the worker (McpServer + zod + tools).
  "/bench/ts-sdk-port-client.js": "www/bench/ts-sdk-port-client-entry.js",
  "/bench/ts-sdk-server.js": "www/bench/ts-sdk-server-entry.js",
};

/**
 * Bundles each of TS_SDK_BUNDLES as one minified ES module (esbuild, in memory). Resolves with `routes` (path ->
 * proxy entry) for the ones that built and `errors` (path -> message) for the others.
 */
async function tsSdkBundles() {
  const routes = {};
  const errors = {};
  for (const [route, entry] of Object.entries(TS_SDK_BUNDLES)) {
    try {
      const built = await esbuild.build({
        entryPoints: [path.join(ROOT, entry)],
        bundle: true,
        format: "esm",
        platform: "browser",
        minify: true,
        write: false,
        logLevel: "silent",
      });
      const body = Buffer.from(built.outputFiles[0].contents);
      routes[route] = { status: 200, headers: { "content-type": "text/javascript", "cache-control": "no-store" }, body };
    } catch (error) {
      errors[route] = error.errors?.length ? error.errors.map((e) => e.text).join("; ") : error.message;
    }
  }
  return { routes, errors };
}

const gzipSize = (body) => zlib.gzipSync(body, { level: 9 }).length;

/** One size row: `load` resolves with [{path, body}]; a failure is kept as the row's error. */
async function sizeRow(label, load) {
  try {
    const files = (await load()).map(({ path: p, body }) => ({ path: p, bytes: body.length, gzip: gzipSize(body) }));
    const sum = (k) => files.reduce((a, f) => a + f[k], 0);
    return { label, files: files.map((f) => f.path), perFile: files, bytes: sum("bytes"), gzip: sum("gzip") };
  } catch (error) {
    return { label, error: error.message };
  }
}

async function siteFile(site, rel) {
  const response = await fetch(new URL(rel, site));
  if (!response.ok) throw new Error(`GET ${rel}: HTTP ${response.status}`);
  return { path: rel, body: Buffer.from(await response.arrayBuffer()) };
}

/** A wasm-bindgen package as served: its JS glue, its .wasm and the snippets the glue imports. */
async function wasmPackage(site, dir) {
  const glue = await siteFile(site, `${dir}/mcp_worker_host.js`);
  const snippets = new Set([...glue.body.toString().matchAll(/from\s*["']\.\/(snippets\/[^"']+)["']/g)].map((m) => m[1]));
  const rest = await Promise.all([`${dir}/mcp_worker_host_bg.wasm`, ...[...snippets].map((s) => `${dir}/${s}`)].map((f) => siteFile(site, f)));
  return [glue, ...rest];
}

/** The gzip sizes of our packages (as the site serves them) and of the TS SDK's bundles (as built here). */
function sizes(site, sdk) {
  const built = (route) => async () => {
    if (!sdk.routes[route]) throw new Error(`not built: ${sdk.errors[route]}`);
    return [{ path: `${route.slice(1)} (${TS_SDK_BUNDLES[route]})`, body: sdk.routes[route].body }];
  };
  return Promise.all([
    sizeRow("ours, page: pkg/host (full host: wasm + JS glue)", () => wasmPackage(site, "pkg/host")),
    sizeRow("ours, page: pkg/host-client (McpClient only: wasm + JS glue)", () => wasmPackage(site, "pkg/host-client")),
    sizeRow("ours, worker: echo bundle (server_bg.wasm + bootstrap.js, which holds the glue)", () =>
      Promise.all(["server_bg.wasm", "bootstrap.js"].map((f) => siteFile(site, `bundles/echo/${f}`)))),
    sizeRow("TS SDK, page: Client + PortTransport (minified)", built("/bench/ts-sdk-port-client.js")),
    sizeRow("TS SDK, worker: McpServer + zod + PortTransport + echo tools (minified)", built("/bench/ts-sdk-server.js")),
  ]);
}

// ---------------------------------------------------------------------------------------------------------------

/** Where the detached page POSTs, on the proxy's origin (`mark`, `done`). */
const DETACHED_REPORTS = "/__bench/";

/** A line the page logged: the bench's own progress as it is, its errors and warnings marked, the rest dropped. */
function printPageLine({ level, text }) {
  if (text.startsWith("[bench]")) console.log(text);
  else if (text.startsWith("Failed to load resource")) return; // reported with its URL by whoever saw the response
  else if (level === "pageerror") console.log(`[page error] ${text}`);
  else if (level === "error" || level === "warning" || level === "warn") console.log(`[page ${level}] ${text}`);
}

/**
 * The page in a Chromium of its own with no DevTools client: `reports(onMark)` gives the proxy's POST routes, `run`
 * starts the browser on the page and resolves with its result (or rejects when the browser exits first or the time
 * runs out), `close` ends the browser.
 */
function detachedPage() {
  let child = null;
  let profileDir = null;
  let settle = null;
  return {
    reports(onMark) {
      const printLines = (lines) => (lines ?? []).forEach(printPageLine);
      return {
        [`${DETACHED_REPORTS}mark`]: async ({ label, phase, calls, lines }) => {
          printLines(lines);
          await onMark(String(label), String(phase), Number(calls) || 0);
        },
        [`${DETACHED_REPORTS}done`]: async ({ result, lines }) => {
          printLines(lines);
          settle?.resolve(result);
        },
      };
    },
    async run(pageUrl, timeoutS) {
      const { spawn } = await import("node:child_process");
      const os = await import("node:os");
      profileDir = fs.mkdtempSync(path.join(os.tmpdir(), "mcp-worker-bench-"));
      const done = new Promise((resolve, reject) => (settle = { resolve, reject }));
      // A process group of its own, so that closing ends every process Chromium started (its renderers and
      // utilities outlive the browser process for a moment, writing to the profile directory meanwhile).
      child = spawn(CHROMIUM, [...BENCH_ARGS, `--user-data-dir=${profileDir}`, pageUrl], { stdio: "ignore", detached: true });
      child.on("error", (error) => settle.reject(new Error(`cannot start ${CHROMIUM}: ${error.message}`)));
      child.on("exit", (code, signal) =>
        settle.reject(new Error(`Chromium exited (${signal ?? `code ${code}`}) before the bench reported its results`)));
      const timer = setTimeout(() => settle.reject(new Error(`no results within ${timeoutS} s`)), timeoutS * 1000);
      try {
        return await done;
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      if (child && child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          child.kill("SIGKILL");
        }
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      }
      // The figures are in by now: a profile directory that cannot be removed is reported, not a failed bench.
      try {
        if (profileDir) fs.rmSync(profileDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
      } catch (error) {
        console.log(`note: could not remove Chromium's profile directory ${profileDir}: ${error.message}`);
      }
    },
  };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const siteUrl = process.env.MCP_WORKER_SITE_URL;
  if (!siteUrl) usage("MCP_WORKER_SITE_URL is not set (run `cargo xtask bench`, which builds and serves the site)");
  const site = new URL(siteUrl.endsWith("/") ? siteUrl : `${siteUrl}/`);
  const targetDir = process.env.CARGO_TARGET_DIR ? path.resolve(process.env.CARGO_TARGET_DIR) : path.join(ROOT, "target");
  const outFile = opts.out ? path.resolve(opts.out) : path.join(targetDir, "bench", "results.json");

  const keepAlive = await probeKeepAlive(site);
  const loadBefore = loadavg();
  // The TS SDK's bundles (the MessagePort contender, and the Client for the Streamable HTTP row against a server built
  // with the SDK on 127.0.0.1), served by the proxy; with --direct they are only sized, and the page reports the SDK
  // failed.
  const sdk = await tsSdkBundles();
  const sdkBuildErrors = Object.entries(sdk.errors).map(([route, error]) => ({ wire: "all", phase: `bundling ${route}`, error }));
  const remote = !opts.direct && sdk.routes["/bench/ts-sdk-client.js"] ? await startRemoteServers() : null;
  // Idle entries per measured window, keyed by the page's label (summed over rounds).
  const idle = {};
  const open = new Map();
  const profiles = {}; // label -> {calls, threads: [{thread, profile}]}
  const canCount = idleEntries() !== null;
  let profiler = null;
  /** A measured window begins or ends: the vCPU idle entries meanwhile, or the profiler's window. */
  const onMark = async (label, phase, calls) => {
    if (label.startsWith("profile")) {
      if (!profiler) return;
      if (phase === "begin") await profiler.start();
      else profiles[label] = { calls, threads: await profiler.stop() };
      return;
    }
    if (!canCount) return;
    const count = idleEntries();
    if (phase === "begin") open.set(label, count);
    else if (open.has(label)) {
      const entry = (idle[label] ??= { entries: 0, calls: 0 });
      entry.entries += count - open.get(label);
      entry.calls += calls;
      open.delete(label);
    }
  };
  const detached = detachedPage();
  const reports = opts.attached ? {} : detached.reports(onMark);
  const proxy = opts.direct ? null : await isolationProxy(site, sdk.routes, reports);
  const packageSizes = await sizes(site, sdk);
  const base = proxy ? proxy.url : site.href;
  const remoteParam = remote ? `&remoteUrl=${encodeURIComponent(remote.urls.stateful)}` : "";
  const reportParam = opts.attached ? "" : `&report=${encodeURIComponent(DETACHED_REPORTS)}`;
  const pageUrl = `${base}bench.html?auto=1${opts.quick ? "&quick=1" : ""}${opts.profile ? "&profile=1" : ""}${remoteParam}${reportParam}${opts.set.map((kv) => `&${kv}`).join("")}`;
  let browser;
  let failure = null;
  let result = null;
  try {
    console.log(`== opening ${pageUrl}${opts.attached ? " under Playwright (a DevTools client)" : " (no DevTools client attached)"}`);
    if (opts.attached) {
      browser = await chromium.launch({ executablePath: CHROMIUM, args: BENCH_ARGS });
      const page = await browser.newPage();
      page.on("console", (msg) => printPageLine({ level: msg.type(), text: msg.text() }));
      page.on("pageerror", (error) => printPageLine({ level: "pageerror", text: error.message }));
      // Through the proxy, the proxy reports failed responses.
      if (!proxy) {
        page.on("response", (r) => {
          if (r.status() >= 400) console.log(`[page] HTTP ${r.status()} ${r.url()}`);
        });
      }
      profiler = opts.profile ? await cpuProfiler(page) : null;
      if (canCount || profiler) await page.exposeFunction("__benchMark", onMark);
      const response = await page.goto(pageUrl);
      if (!response || !response.ok()) throw new Error(`bench.html: HTTP ${response ? response.status() : "no response"}`);
      await page.waitForFunction(() => window.__benchResults !== undefined, null, {
        timeout: opts.timeoutS * 1000,
        polling: 500,
      });
      result = await page.evaluate(() => window.__benchResults);
    } else {
      result = await detached.run(pageUrl, opts.timeoutS);
    }
    if (!result || !result.ok) failure = `the bench failed in the page: ${result?.error ?? "no result"}`;
  } catch (error) {
    failure = error.message;
  } finally {
    await browser?.close().catch(() => {});
    await detached.close();
    proxy?.close();
    await remote?.close();
  }

  const loadAfter = loadavg();
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  const record = {
    ...(result ?? { ok: false }),
    ok: failure === null,
    error: failure ?? undefined,
    runner: {
      pageUrl,
      siteUrl: site.href,
      isolationProxy: !opts.direct,
      devtoolsAttached: opts.attached,
      quick: opts.quick,
      date: new Date().toISOString(),
      loadBefore,
      loadAfter,
      keepAliveProbeMs: keepAlive,
      idleEntries: idle,
      sdkBuildErrors,
    },
    sizes: packageSizes,
  };
  fs.writeFileSync(outFile, `${JSON.stringify(record, null, 2)}\n`);

  if (failure) {
    console.error(`bench failed: ${failure}`);
    console.error(`(partial record written to ${path.relative(process.cwd(), outFile)})`);
    process.exit(1);
  }
  console.log("");
  console.log(report(result, { pageUrl, siteUrl: site.href, direct: opts.direct, attached: opts.attached, quick: opts.quick, loadBefore, loadAfter, keepAlive, idle, sdkBuildErrors, sizes: packageSizes }));
  if (opts.profile) console.log(profileReport(profiles));
  if (opts.json) console.log(JSON.stringify(result, null, 2));
  console.log("");
  console.log(`results: ${path.relative(process.cwd(), outFile) || outFile}`);
}

main().catch((error) => {
  console.error(`bench failed: ${error.stack ?? error}`);
  process.exit(1);
});
