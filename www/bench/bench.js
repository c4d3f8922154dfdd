// mcp-worker bench: our host <-> the Rust echo server, against a raw JS postMessage echo and against the official
// TypeScript SDK (its Client on the page, its McpServer in a worker, over a MessagePort on two wires: ts-sdk.js), on
// the same machine, in one page and one run. `runBench()` returns a JSON-able result (also stored as
// `window.__benchResults` by bench.html); `renderResults()` draws it as tables.
//
// Every time is taken with performance.now(). Its resolution is 100 us unless the page is cross-origin isolated
// (COOP + COEP headers; then 5 us): tests/bench/run.mjs serves the site through a proxy that adds them, and the
// result records `crossOriginIsolated` and the measured timer resolution.
//
// Rows:
//   figures        each figure for ours, raw and the TS SDK (per wire), with ratio = our cost / raw cost and
//                  vsSdk = our cost / the TS SDK's on its best wire (for rates: the inverse of the rates), so > 1
//                  always means "that many times slower"; where a target applies, whether it is met (reported, not
//                  asserted: machines are noisy).
//   decomposition  the same workloads with one side swapped, to separate host-side from worker-side cost:
//                    host -> JS echo server   our host, the worker a few lines of JS (host cost + JS floor)
//                    raw JS client -> Rust    a lean JS client posting JSON-RPC text to our Rust echo server
//                    raw JS client -> JS      both ends plain JS JSON-RPC: the floor for "JSON over a port"
//                  plus an instrumented breakdown of one host -> Rust echo call into segments.

import init, { McpClient, McpRuntime, compileModule } from "/pkg/host/mcp_worker_host.js";
import { connectWorker, waitForBoot } from "./handshake.js";
import { SDK_WIRES, SdkClient, loadSdk } from "./ts-sdk.js";

const ECHO_BUNDLE = "/bundles/echo/";
const ECHO_WORKER = ECHO_BUNDLE + "bootstrap.js";
const ECHO_WASM = ECHO_BUNDLE + "server_bg.wasm";
const HERE = new URL(".", import.meta.url);
const RAW_ECHO_WORKER = new URL("raw-echo-worker.js", HERE).href;
const JS_SERVER_WORKER = new URL("js-echo-server.js", HERE).href;
const TIMED_ECHO_WORKER = new URL("timed-bootstrap.js", HERE).href;
const PROTOCOL_VERSION = "2025-11-25";

export const DEFAULT_CONFIG = {
  seqN: 10_000, // sequential calls measured per workload
  seqWarm: 1_000, // sequential warm-up calls per workload
  seqRounds: 10, // the N calls run in this many rounds, interleaved across workloads
  pipeTotal: 20_000, // pipelined calls per round
  pipeWarm: 2_000, // pipelined warm-up calls
  pipeRounds: 3, // rounds of pipeTotal per workload, interleaved; the figure is the median round
  depth: 64, // calls in flight
  coldN: 10, // measured starts per variant (after one warm-up start)
  blobSizes: [1 << 20, 8 << 20],
  blobN: 5, // measured calls per size (after one warm-up)
  listExtra: 497, // ECHO_EXTRA_TOOLS: 3 + 497 = 500 tools
  listN: 20, // measured listings (after one warm-up)
  breakdownN: 5_000, // instrumented calls
  httpN: 500, // sequential tools/call over Streamable HTTP, per client (after httpWarm)
  httpWarm: 50,
  profile: false, // extra windows for the runner's CPU profiler (`?profile=1`)
  remoteUrl: null, // a Streamable HTTP MCP server with an `echo` tool (run.mjs starts one); no row without it
};

/** A scaled-down configuration for a quick check (`?quick=1`). */
export const QUICK_CONFIG = {
  ...DEFAULT_CONFIG,
  seqN: 1_000,
  seqWarm: 200,
  seqRounds: 2,
  pipeTotal: 2_000,
  pipeWarm: 500,
  pipeRounds: 1,
  coldN: 3,
  blobN: 2,
  listN: 3,
  breakdownN: 500,
  httpN: 100,
  httpWarm: 10,
};

const now = () => performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const tick = () => new Promise((r) => setTimeout(r, 0));

function log(message) {
  console.log(`[bench] ${message}`);
  const status = document.getElementById("status");
  if (status) status.textContent = message;
}

/** Asks the engine for a GC between measurements when the browser exposes one (`--js-flags=--expose-gc`). */
async function settle() {
  if (typeof globalThis.gc === "function") globalThis.gc();
  await sleep(30);
}

/**
 * Tells the runner (tests/bench/run.mjs exposes `__benchMark`) that a measured window begins or ends, so it can
 * count what the OS saw meanwhile (vCPU idle entries). A no-op in a plain browser.
 */
async function mark(label, phase, calls = 0) {
  if (typeof globalThis.__benchMark === "function") await globalThis.__benchMark(label, phase, calls);
}

// ---------------------------------------------------------------------------------------------------------------
// Statistics

/** Nearest-rank quantile of a sorted array. */
function quantile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil(p * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}

function summarize(samples) {
  const sorted = Float64Array.from(samples).sort();
  let sum = 0;
  for (const x of sorted) sum += x;
  // Mean of the middle 90%: additive across segments (medians are not), robust to the odd GC or preemption, and
  // finer than the timer's 5 us steps (Chrome jitters its clamping, so averages of clamped stamps are unbiased).
  const lo = Math.floor(sorted.length * 0.05);
  const hi = Math.max(lo + 1, Math.ceil(sorted.length * 0.95));
  let trimmed = 0;
  for (let i = lo; i < hi; i++) trimmed += sorted[i];
  return {
    trimmedMean: trimmed / (hi - lo),
    n: sorted.length,
    min: sorted[0],
    p50: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
    p99: quantile(sorted, 0.99),
    max: sorted[sorted.length - 1],
    mean: sum / sorted.length,
  };
}

const median = (samples) => summarize(samples).p50;

/** The smallest step performance.now() takes, in microseconds. */
function timerResolutionUs() {
  let smallest = Infinity;
  let last = now();
  const deadline = last + 50;
  while (true) {
    const t = now();
    if (t !== last) {
      smallest = Math.min(smallest, t - last);
      last = t;
    }
    if (t > deadline) break;
  }
  return Math.round(smallest * 1000 * 10) / 10;
}

// ---------------------------------------------------------------------------------------------------------------
// Drivers

/** Per-call times (ms) of `n` sequential awaited calls, written into `times` from `offset`; returns elapsed ms. */
async function sequentialRound(call, n, times, offset) {
  const start = now();
  for (let i = 0; i < n; i++) {
    const t = now();
    await call(offset + i);
    times[offset + i] = now() - t;
  }
  return now() - start;
}

function sequentialSummary(times, elapsedMs, roundP50s) {
  const s = summarize(times);
  return {
    n: times.length,
    p50Us: s.p50 * 1000,
    p90Us: s.p90 * 1000,
    p99Us: s.p99 * 1000,
    meanUs: s.mean * 1000,
    maxUs: s.max * 1000,
    callsPerSec: (times.length / elapsedMs) * 1000,
    roundP50Us: roundP50s,
  };
}

/** Pipelined calls: exactly `depth` outstanding until `total` have completed. Calls per second. */
function pipelinedOnce(call, total, depth, offset) {
  return new Promise((resolve, reject) => {
    let started = 0;
    let done = 0;
    const start = now();
    const launch = () => {
      const i = started++;
      call(offset + i).then(() => {
        done++;
        if (started < total) launch();
        else if (done === total) resolve(now() - start);
      }, reject);
    };
    for (let k = 0; k < Math.min(depth, total); k++) launch();
  });
}

/** The JSON-RPC frame our host posts for `echo {text: "ping"}`, as the raw baseline's payload. */
const echoFrame = (id) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":"ping"}}}`;

/** The baseline: a worker that echoes each port message back (or, with `reply`, answers every message with that
 * string); replies match requests in FIFO order. */
class RawEcho {
  static async spawn(reply) {
    const { worker, port } = await connectWorker(RAW_ECHO_WORKER, { env: reply === undefined ? {} : { REPLY: reply } });
    return new RawEcho(worker, port);
  }

  constructor(worker, port) {
    this.worker = worker;
    this.port = port;
    this.waiting = [];
    this.head = 0;
    port.onmessage = (event) => {
      const resolve = this.waiting[this.head];
      this.waiting[this.head++] = undefined;
      if (this.head === this.waiting.length) {
        this.waiting.length = 0;
        this.head = 0;
      }
      resolve(event.data);
    };
  }

  /** Posts `data` and resolves with the echo. */
  echo(data) {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.port.postMessage(data);
    });
  }

  close() {
    this.port.close();
    this.worker.terminate();
  }
}

/** A lean JSON-RPC client written by hand: JSON text over the port, a Map of pending ids, nothing else. */
class RawMcpClient {
  static async spawn(url, options = {}) {
    const { worker, port } = await connectWorker(url, options);
    const client = new RawMcpClient(worker, port);
    await client.request("initialize", {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "bench-raw-client", version: "0.0.0" },
    });
    client.port.postMessage(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    return client;
  }

  constructor(worker, port) {
    this.worker = worker;
    this.port = port;
    this.nextId = 1;
    this.pending = new Map();
    port.onmessage = (event) => {
      const msg = JSON.parse(event.data);
      const waiter = this.pending.get(msg.id);
      if (!waiter) return;
      this.pending.delete(msg.id);
      if (msg.error) waiter.reject(new Error(`${msg.error.code}: ${msg.error.message}`));
      else waiter.resolve(msg.result);
    };
  }

  request(method, params) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.port.postMessage(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    });
  }

  callTool(name, args) {
    return this.request("tools/call", { name, arguments: args });
  }

  /** Every tool, following cursors; `pageSizes` keeps how many tools each page of the last listing held. */
  async listTools() {
    const tools = [];
    this.pageSizes = [];
    let cursor;
    do {
      const page = await this.request("tools/list", cursor === undefined ? {} : { cursor });
      tools.push(...page.tools);
      this.pageSizes.push(page.tools.length);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }

  close() {
    this.port.close();
    this.worker.terminate();
  }
}

/** The host's client. Servers run on the page's origin unless `isolation: "sandbox"`: the transport figures compare
 * with raw postMessage between the page and a worker, and the sandbox is measured on its own (cold start). */
function spawnHost(workerUrl, { module, env, isolation = "page" } = {}) {
  const options = { name: "bench", workerUrl, isolation };
  if (module) options.module = module;
  if (env) options.env = env;
  return McpClient.spawn(options);
}

function check(condition, message) {
  if (!condition) throw new Error(`bench self-check failed: ${message}`);
}

function checkEcho(result, text = "ping") {
  check(result?.content?.[0]?.text === text, `echo returned ${JSON.stringify(result).slice(0, 200)}`);
}

// ---------------------------------------------------------------------------------------------------------------
// Rows

const figures = [];
const decomposition = [];
const sdkFailures = []; // {phase, wire, error}: TS SDK clients that could not start; their figures are left out

const isRate = (unit) => unit === "calls/s" || unit === "msgs/s";
/** The cost of `a` relative to `b` (> 1: a is slower), for a time or a rate. */
const costRatio = (unit, a, b) => (isRate(unit) ? b / a : a / b);
const finite = (x) => typeof x === "number" && Number.isFinite(x);

/** Targets for ours against raw, as the highest cost ratio that meets them. */
const TARGETS = {
  seq_p50: { max: 1.3, text: "<= 1.3x raw" },
  pipe_rate: { max: 1 / 0.7, text: ">= 0.7x raw's rate" },
  cold_module: { max: 1.3, text: "<= 1.3x raw" },
  cold_fetch: { max: 1.3, text: "<= 1.3x raw" },
  [`blob_${1 << 20}`]: { max: 1.1, text: "<= 1.1x raw" },
  [`blob_${8 << 20}`]: { max: 1.1, text: "<= 1.1x raw" },
  list_500: { max: 2, text: "<= 2x raw" },
};

/**
 * A figure: ours, raw and the TS SDK per wire (`sdk`: {clone, json}; a wire that did not run is absent). `unit` says
 * which direction is better (times: lower; rates: higher).
 */
function figure(section, id, label, unit, { ours, raw, sdk = {} }, note) {
  const ratio = finite(raw) ? costRatio(unit, ours, raw) : undefined;
  const wires = Object.entries(sdk).filter(([, v]) => finite(v));
  const best = wires.reduce((b, w) => (b === null || costRatio(unit, w[1], b[1]) < 1 ? w : b), null);
  const vsSdk = best ? costRatio(unit, ours, best[1]) : undefined;
  const goal = TARGETS[id];
  figures.push({
    section, id, label, unit, ours, raw, sdk: Object.fromEntries(wires), ratio,
    sdkBestWire: best?.[0], vsSdk, aheadOfSdk: vsSdk === undefined ? undefined : vsSdk < 1,
    target: goal && ratio !== undefined ? { text: goal.text, met: ratio <= goal.max } : undefined,
    note,
  });
}

/** The workload key of the TS SDK on `wire`. */
const sdkKey = (wire) => `sdk_${wire}`;

/** The TS SDK's values of `byKey` (keyed by workload), per wire. */
const sdkValues = (byKey) => Object.fromEntries(SDK_WIRES.map((w) => [w, byKey[sdkKey(w)]]));

function sdkFailed(phase, wire, error) {
  const message = String((error && error.message) || error).trim();
  sdkFailures.push({ phase, wire, error: message });
  log(`TS SDK (${wire}) left out of ${phase}: ${message}`);
}

/**
 * One TS SDK client per wire, each checked with `probe`; a wire that cannot start or fails the probe is left out and
 * its error recorded. Resolves with {sdk_clone: client, sdk_json: client} (the started ones).
 */
async function sdkClients(phase, options, probe) {
  const clients = {};
  for (const wire of SDK_WIRES) {
    let client;
    try {
      client = await SdkClient.spawn(wire, options);
      await probe(client);
      clients[sdkKey(wire)] = client;
    } catch (error) {
      client?.close();
      sdkFailed(phase, wire, error);
    }
  }
  return clients;
}

/** A decomposition row: one value, and its cost ratio to the matching raw baseline when there is one. */
function part(section, id, label, unit, value, raw, note) {
  const ratio = raw === undefined || raw === 0 ? undefined : costRatio(unit, value, raw);
  decomposition.push({ section, id, label, unit, value, raw, ratio, note });
}

// ---------------------------------------------------------------------------------------------------------------
// Phases

/**
 * Milliseconds from `new Worker` to the worker's `boot` message. `source`: the text of a classic worker started
 * from a blob, or null for the echo bundle's bootstrap started as a module worker from its URL.
 */
async function bootTime(source) {
  const url = source === null ? null : URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  const t = now();
  const worker = url === null ? new Worker(ECHO_WORKER, { type: "module" }) : new Worker(url);
  await waitForBoot(worker);
  const ms = now() - t;
  worker.terminate();
  if (url !== null) URL.revokeObjectURL(url);
  return ms;
}

/** Milliseconds from the host's spawn of `worker` to its `expected` tools listed. */
async function hostStart(worker, expected, options) {
  const t = now();
  const client = await spawnHost(worker, options);
  const tools = await client.listTools();
  const ms = now() - t;
  check(tools.length === expected, `expected ${expected} tools, got ${tools.length}`);
  client.close();
  return ms;
}

/** The title of the sandboxed frame the host makes ahead of the next sandboxed start. */
const SPARE_FRAME_TITLE = "MCP server frame (spare)";

async function coldStarts(cfg, module, samples) {
  log("cold start");
  // A sandboxed frame of the bench's own keeps the browser's process for sandboxed frames alive, so that a start
  // without a frame made ahead measures the frame's load, not the start of a new process.
  const keepAlive = document.createElement("iframe");
  keepAlive.setAttribute("sandbox", "allow-scripts");
  keepAlive.style.display = "none";
  keepAlive.srcdoc = `<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src 'none'">`;
  document.body.append(keepAlive);
  const variants = {
    raw: async () => {
      const t = now();
      const raw = await RawEcho.spawn();
      await raw.echo(echoFrame(1));
      const ms = now() - t;
      raw.close();
      return ms;
    },
    hostModule: () => hostStart(ECHO_WORKER, 3, { module }),
    hostFetch: () => hostStart(ECHO_WORKER, 3),
    hostSandbox: () => hostStart(ECHO_WORKER, 3, { isolation: "sandbox" }),
    // The same start without a frame made ahead (a page's first sandboxed start, or one right after another).
    hostSandboxFresh: async () => {
      for (const frame of document.querySelectorAll("iframe")) if (frame.title === SPARE_FRAME_TITLE) frame.remove();
      await sleep(300); // the removed frame's teardown is not this start's
      return hostStart(ECHO_WORKER, 3, { isolation: "sandbox" });
    },
    hostJsServer: () => hostStart(JS_SERVER_WORKER, 2),
    rawClientRust: async () => {
      const t = now();
      const client = await RawMcpClient.spawn(ECHO_WORKER, { module });
      const tools = await client.listTools();
      const ms = now() - t;
      check(tools.length === 3, `expected 3 tools, got ${tools.length}`);
      client.close();
      return ms;
    },
    // Where a start's time goes before any MCP: new Worker -> its `boot` message, three ways (see bootTime).
    bootEmpty: () => bootTime(`self.postMessage({ mcpWorker: "boot", v: 1 });`),
    bootDirect: () => bootTime(null),
    bootImported: () => bootTime(`import(${JSON.stringify(new URL(ECHO_WORKER, location.href).href)});`),
    ...Object.fromEntries(
      SDK_WIRES.map((wire) => [
        sdkKey(wire),
        async () => {
          const t = now();
          const client = await SdkClient.spawn(wire);
          const tools = await client.listTools();
          const ms = now() - t;
          client.close();
          check(tools.length === 3, `expected 3 tools, got ${tools.length}`);
          return ms;
        },
      ]),
    ),
  };
  const first = {};
  const times = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  // Interleaved, so drift (thermal, other processes) spreads over every variant; one warm-up start each.
  for (let round = 0; round <= cfg.coldN; round++) {
    for (const [name, start] of Object.entries(variants)) {
      await settle();
      let ms;
      try {
        ms = await start();
      } catch (error) {
        const wire = SDK_WIRES.find((w) => sdkKey(w) === name);
        if (wire === undefined) throw error;
        sdkFailed("cold start", wire, error);
        delete variants[name];
        delete times[name];
        continue;
      }
      if (round === 0) first[name] = ms;
      else times[name].push(ms);
    }
  }
  const med = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
  samples.coldStart = { firstInPage: first, samples: times };
  keepAlive.remove();
  const base = `median of ${cfg.coldN}; raw: new Worker -> boot/connect -> first echo reply; TS SDK: new Worker (fetches its bundle) -> boot/connect -> initialize -> tools listed`;
  const sdk = sdkValues(med);
  figure("cold start", "cold_module", "new Worker -> tools listed, module passed in", "ms", { ours: med.hostModule, raw: med.raw, sdk }, base);
  figure("cold start", "cold_fetch", "new Worker -> tools listed, no module given (the page compiles one while the worker starts)", "ms", { ours: med.hostFetch, raw: med.raw, sdk }, base);
  figure("cold start", "cold_sandbox", "sandboxed frame + Worker -> tools listed, its files fetched by the page, compiled by the worker", "ms", { ours: med.hostSandbox, raw: med.raw }, "the server in its own opaque origin, the default; no other contender isolates it so");
  part("cold start", "cold_sandbox_fresh", "sandboxed frame + Worker -> tools listed, without a frame made ahead (the frame's load)", "ms", med.hostSandboxFresh, med.raw, "the process for sandboxed frames kept alive by a frame of the bench's own; with a frame made ahead: cold_sandbox");
  part("cold start", "cold_host_js", "host -> JS echo server: new Worker -> tools listed (no wasm in the worker)", "ms", med.hostJsServer, med.raw);
  part("cold start", "cold_raw_rust", "raw JS client -> Rust echo (module): new Worker -> tools listed (no host wasm)", "ms", med.rawClientRust, med.raw);
  const boot = "new Worker -> boot message, median; no MCP, no connect";
  part("cold start", "boot_empty", "a worker from a blob that only says boot (thread start)", "ms", med.bootEmpty, med.raw, boot);
  part("cold start", "boot_direct", "the echo bundle's bootstrap as the worker's own script (browser fetches it while the thread starts)", "ms", med.bootDirect, med.raw, boot);
  part("cold start", "boot_imported", "a blob worker whose first code imports the echo bootstrap, as the host's prelude does (fetch after thread start)", "ms", med.bootImported, med.raw, boot);
  part("cold start", "cold_first_module", "first start in the page, host, precompiled module (not a median)", "ms", first.hostModule, first.raw);
  part("cold start", "cold_first_fetch", "first start in the page, host, no module given (not a median)", "ms", first.hostFetch, first.raw);
}

async function sequentialAndPipelined(cfg, module, samples) {
  const raw = await RawEcho.spawn();
  const host = await spawnHost(ECHO_WORKER, { module });
  const hostJs = await spawnHost(JS_SERVER_WORKER);
  const rawRust = await RawMcpClient.spawn(ECHO_WORKER, { module });
  const rawJs = await RawMcpClient.spawn(JS_SERVER_WORKER);
  checkEcho(await host.callTool("echo", { text: "ping" }));
  checkEcho(await hostJs.callTool("echo", { text: "ping" }));
  checkEcho(await rawRust.callTool("echo", { text: "ping" }));
  checkEcho(await rawJs.callTool("echo", { text: "ping" }));
  check((await raw.echo(echoFrame(7))) === echoFrame(7), "raw echo changed the message");
  const sdk = await sdkClients("sequential and pipelined", {}, async (c) => checkEcho(await c.callTool("echo", { text: "ping" })));
  // What our host posts and what the server answers, to size the raw payload like a real frame.
  samples.frames = {
    request: echoFrame(1).length,
    response: JSON.stringify({ jsonrpc: "2.0", id: 1, result: await rawRust.callTool("echo", { text: "ping" }) }).length,
  };

  const args = { text: "ping" };
  const workloads = {
    raw: (i) => raw.echo(echoFrame(i)),
    host: () => host.callTool("echo", args),
    hostPing: () => host.ping(),
    hostJs: () => hostJs.callTool("echo", args),
    rawRust: () => rawRust.callTool("echo", args),
    rawJs: () => rawJs.callTool("echo", args),
    ...Object.fromEntries(Object.entries(sdk).map(([key, c]) => [key, () => c.callTool("echo", args)])),
  };

  const names = Object.keys(workloads);
  // Rotating the order each round spreads slow spells of the machine over every workload.
  const order = (round) => names.map((_, i) => names[(i + round) % names.length]);

  log(`sequential (${cfg.seqN} calls per workload in ${cfg.seqRounds} interleaved rounds, after ${cfg.seqWarm} warm-up)`);
  const perRound = Math.floor(cfg.seqN / cfg.seqRounds);
  const seqTimes = {};
  const seqElapsed = {};
  const seqRoundP50 = {};
  for (const name of names) {
    await settle();
    for (let i = 0; i < cfg.seqWarm; i++) await workloads[name](i);
    seqTimes[name] = new Float64Array(perRound * cfg.seqRounds);
    seqElapsed[name] = 0;
    seqRoundP50[name] = [];
  }
  for (let round = 0; round < cfg.seqRounds; round++) {
    for (const name of order(round)) {
      await settle();
      await mark(`seq ${name}`, "begin");
      const offset = round * perRound;
      seqElapsed[name] += await sequentialRound(workloads[name], perRound, seqTimes[name], offset);
      await mark(`seq ${name}`, "end", perRound);
      seqRoundP50[name].push(median(seqTimes[name].subarray(offset, offset + perRound)) * 1000);
    }
  }
  const seq = Object.fromEntries(names.map((k) => [k, sequentialSummary(seqTimes[k], seqElapsed[k], seqRoundP50[k])]));

  log(`pipelined (${cfg.pipeRounds} x ${cfg.pipeTotal} calls, ${cfg.depth} in flight, per workload)`);
  const pipeRates = Object.fromEntries(names.map((k) => [k, []]));
  for (const name of names) {
    await settle();
    await pipelinedOnce(workloads[name], cfg.pipeWarm, cfg.depth, 0);
  }
  for (let round = 0; round < cfg.pipeRounds; round++) {
    for (const name of order(round)) {
      await settle();
      await mark(`pipe ${name}`, "begin");
      const elapsed = await pipelinedOnce(workloads[name], cfg.pipeTotal, cfg.depth, cfg.pipeWarm + round * cfg.pipeTotal);
      await mark(`pipe ${name}`, "end", cfg.pipeTotal);
      pipeRates[name].push((cfg.pipeTotal / elapsed) * 1000);
    }
  }
  const pipe = Object.fromEntries(
    names.map((k) => [k, { total: cfg.pipeTotal, depth: cfg.depth, rounds: pipeRates[k], callsPerSec: median(pipeRates[k]) }]),
  );
  samples.sequential = seq;
  samples.pipelined = pipe;

  const range = (k) => `${Math.min(...seq[k].roundP50Us).toFixed(0)}-${Math.max(...seq[k].roundP50Us).toFixed(0)} us`;
  const seqNote =
    `N=${cfg.seqN} (${cfg.seqRounds} rounds of ${perRound}, interleaved) after ${cfg.seqWarm} warm-up; raw posts a ` +
    `${samples.frames.request}-char JSON-RPC string and awaits its echo. p50 per round: ` +
    ["host", "raw", ...Object.keys(sdk)].map((k) => `${k} ${range(k)}`).join(", ");
  const pipeRange = (k) => `${Math.round(Math.min(...pipe[k].rounds)).toLocaleString("en-US")}-${Math.round(Math.max(...pipe[k].rounds)).toLocaleString("en-US")}`;
  const pick = (field) => Object.fromEntries(Object.entries(seq).map(([k, v]) => [k, v[field]]));
  const values = (field) => {
    const byKey = pick(field);
    return { ours: byKey.host, raw: byKey.raw, sdk: sdkValues(byKey) };
  };
  figure("sequential", "seq_p50", `tools/call echo "ping" round trip, p50 (N=${seq.host.n.toLocaleString("en-US")})`, "us", values("p50Us"), seqNote);
  figure("sequential", "seq_p99", `tools/call echo "ping" round trip, p99`, "us", values("p99Us"));
  figure("sequential", "seq_rate", `tools/call echo "ping", one at a time`, "calls/s", values("callsPerSec"));
  const pipeRate = Object.fromEntries(Object.entries(pipe).map(([k, v]) => [k, v.callsPerSec]));
  figure("pipelined", "pipe_rate", `tools/call echo, ${cfg.depth} in flight until ${cfg.pipeTotal.toLocaleString("en-US")} done`, "calls/s",
    { ours: pipeRate.host, raw: pipeRate.raw, sdk: sdkValues(pipeRate) },
    `median of ${cfg.pipeRounds} rounds (calls/s per round: ${["host", "raw", ...Object.keys(sdk)].map((k) => `${k} ${pipeRange(k)}`).join(", ")}); raw: ${cfg.depth} echoes in flight`);

  const rows = [
    ["hostPing", "host -> Rust echo, ping() (no arguments, no tool dispatch, empty result)"],
    ["hostJs", "host -> JS echo server, callTool echo (host cost + trivial JS worker)"],
    ["rawRust", "raw JS client -> Rust echo, tools/call echo (worker cost + lean JS client)"],
    ["rawJs", "raw JS client -> JS echo server, tools/call echo (JSON-RPC in JS both ends)"],
  ];
  for (const [key, label] of rows) {
    part("sequential", `seq_p50_${key}`, `${label}: p50`, "us", seq[key].p50Us, seq.raw.p50Us, `p50 per round ${range(key)}`);
  }
  for (const [key, label] of rows) {
    part("sequential", `seq_rate_${key}`, `${label}: throughput`, "calls/s", seq[key].callsPerSec, seq.raw.callsPerSec);
  }
  for (const [key, label] of rows) {
    part("pipelined", `pipe_rate_${key}`, `${label}: ${cfg.depth} in flight`, "calls/s", pipe[key].callsPerSec, pipe.raw.callsPerSec, `rounds ${pipeRange(key)} calls/s`);
  }
  // Per-call cost attributed to each side, from the swaps above (mean time per call = 1e6 / calls per second).
  const perCall = (rate) => 1e6 / rate;
  const seqCost = (k) => perCall(seq[k].callsPerSec);
  const pipeCost = (k) => perCall(pipe[k].callsPerSec);
  part("attribution", "seq_host_side", "sequential: host-side extra per call = (host->JS) - (rawclient->JS), mean", "us", seqCost("hostJs") - seqCost("rawJs"));
  part("attribution", "seq_worker_side", "sequential: worker-side extra per call = (rawclient->Rust) - (rawclient->JS), mean", "us", seqCost("rawRust") - seqCost("rawJs"));
  part("attribution", "pipe_host_side", "pipelined: host-side extra per call = (host->JS) - (rawclient->JS)", "us", pipeCost("hostJs") - pipeCost("rawJs"));
  part("attribution", "pipe_worker_side", "pipelined: worker-side extra per call = (rawclient->Rust) - (rawclient->JS)", "us", pipeCost("rawRust") - pipeCost("rawJs"));
  part("attribution", "pipe_host_rust", "pipelined: per-call cost host->Rust echo (1e6 / calls/s)", "us", pipeCost("host"), pipeCost("raw"));

  for (const c of [raw, host, hostJs, rawRust, rawJs, ...Object.values(sdk)]) c.close();
}

/** Waits for one reply on the BroadcastChannel the timed bootstrap listens on. */
function timingRequest(channel, cmd) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer to timing ${cmd}`)), 5000);
    channel.onmessage = (event) => {
      if (event.data?.ack !== cmd) return;
      clearTimeout(timer);
      resolve(event.data);
    };
    channel.postMessage({ cmd });
  });
}

/**
 * One host -> Rust echo call cut into segments, with timestamps on both sides of the port:
 *   page: callTool() entered | host calls port.postMessage | postMessage returns | host's onmessage entered |
 *         host's onmessage returns | the awaiting JS resumes
 *   worker (timed-bootstrap.js): onmessage entered | wasm handler returns | wasm posts the reply
 * Differences are only taken within one thread's clock. Timestamps cost ~0.1 us each; the totals here are a bit
 * above the uninstrumented figure for that reason.
 */
async function breakdown(cfg, module, samples) {
  log(`instrumented breakdown (${cfg.breakdownN} echo calls, ${cfg.blobN} blob calls)`);
  let rec = null; // the current measurement's timestamps
  let index = -1; // the call being timed; -1 while not recording
  let hostFrame; // the first frame the host posts for echo "ping", to check the raw payload's size

  const proto = MessagePort.prototype;
  const onmessageDesc = Object.getOwnPropertyDescriptor(proto, "onmessage");
  const realPost = proto.postMessage;
  const wrapHandler = (handler) =>
    typeof handler === "function"
      ? function (event) {
          const i = index;
          if (i >= 0) rec.recv[i] = now();
          handler.call(this, event);
          if (i >= 0) rec.hend[i] = now();
        }
      : handler;

  const channel = new BroadcastChannel("mcp-bench-timing");
  let client;
  let rawClient;
  try {
    // The host sets its port's onmessage during spawn: wrap whatever handler it installs.
    Object.defineProperty(proto, "onmessage", {
      configurable: true,
      enumerable: onmessageDesc.enumerable,
      get: onmessageDesc.get,
      set(handler) {
        onmessageDesc.set.call(this, wrapHandler(handler));
      },
    });
    try {
      client = await spawnHost(TIMED_ECHO_WORKER, { module });
      rawClient = await RawEcho.spawn();
    } finally {
      Object.defineProperty(proto, "onmessage", onmessageDesc);
    }
    proto.postMessage = function (...a) {
      const i = index;
      if (i === 0 && typeof a[0] === "string") hostFrame ??= a[0];
      if (i >= 0) rec.send[i] = now();
      const r = realPost.apply(this, a);
      if (i >= 0) rec.sent[i] = now();
      return r;
    };

    /** Times `n` sequential calls after `warm` untimed ones; returns the timestamps (ms). */
    const measure = async (call, label, n, warm) => {
      for (let i = 0; i < warm; i++) await call(i);
      await timingRequest(channel, "reset");
      rec = Object.fromEntries(["call", "send", "sent", "recv", "hend", "done"].map((k) => [k, new Float64Array(n)]));
      rec.n = n;
      await settle();
      await mark(label, "begin");
      for (let i = 0; i < n; i++) {
        index = i;
        rec.call[i] = now();
        await call(i);
        rec.done[i] = now();
        index = -1;
      }
      await mark(label, "end", n);
      return rec;
    };
    /** Per-call differences b - a, in `scale` units per ms. */
    const seg = (r, a, b, scale) => Float64Array.from({ length: r.n }, (_, i) => (r[b][i] - r[a][i]) * scale);

    /**
     * Segments of host -> timed Rust echo calls, from the page's stamps and the worker's. Each is averaged per call
     * (trimmed mean), so they add up: residue = total - every measured CPU segment = the two postMessage calls,
     * the port hops and the thread switches / wake-ups between page and worker.
     */
    const hostSegments = async (r, scale) => {
      const n = r.n;
      const w = await timingRequest(channel, "report");
      check(w.nIn === n && w.nOut === n, `timed worker saw ${w.nIn} frames in, ${w.nOut} out; expected ${n}`);
      const service = Float64Array.from({ length: n }, (_, i) => (w.post[i] - w.recv[i]) * scale);
      const sync = Float64Array.from({ length: n }, (_, i) => (w.hend[i] - w.recv[i]) * scale);
      const total = seg(r, "call", "done", scale);
      const out = seg(r, "call", "send", scale);
      const handler = seg(r, "recv", "hend", scale);
      const resume = seg(r, "hend", "done", scale);
      const residue = total.map((t, i) => t - out[i] - service[i] - handler[i] - resume[i]);
      return {
        total: summarize(total),
        hostOut: summarize(out),
        postCall: summarize(seg(r, "send", "sent", scale)),
        workerService: summarize(service),
        workerHandlerSync: summarize(sync),
        hostHandler: summarize(handler),
        hostResume: summarize(resume),
        residue: summarize(residue),
      };
    };

    const n = cfg.breakdownN;
    const args = { text: "ping" };
    const host = await hostSegments(await measure(() => client.callTool("echo", args), "breakdown host", n, Math.min(500, n)), 1000);

    // The same stamps around the raw echo: residue = two postMessage calls, two hops, a trivial JS echo, switches.
    const r = await measure((i) => rawClient.echo(echoFrame(i)), "breakdown raw", n, Math.min(500, n));
    const rawTotal = seg(r, "call", "done", 1000);
    const rawOut = seg(r, "call", "send", 1000);
    const rawIn = seg(r, "recv", "done", 1000);
    const raw = {
      total: summarize(rawTotal),
      pageOut: summarize(rawOut),
      postCall: summarize(seg(r, "send", "sent", 1000)),
      pageIn: summarize(rawIn),
      residue: summarize(rawTotal.map((t, i) => t - rawOut[i] - rawIn[i])),
    };

    // One large result, where copies and parses dominate instead of wake-ups.
    const bytes = cfg.blobSizes[cfg.blobSizes.length - 1];
    const blob = await hostSegments(await measure(() => client.callTool("blob", { bytes }), "breakdown blob", cfg.blobN, 1), 1);
    samples.breakdown = { n, host, raw, blob: { bytes, ...blob } };
    samples.frames.hostRequest = hostFrame;

    const m = (x) => x.trimmedMean;
    const label = "breakdown (instrumented, trimmed mean per call)";
    part(label, "bd_total", "host -> Rust echo call, total (instrumented; stamps add ~1 us)", "us", m(host.total), m(raw.total));
    part(label, "bd_host_out", "  page: callTool() -> host posts the frame (args stringify, JS->wasm, encode)", "us", m(host.hostOut), m(raw.pageOut), "raw column: building the string + promise");
    part(label, "bd_worker", "  worker: frame in -> reply posted (wasm session, spawn_local task, encode, to JS string)", "us", m(host.workerService));
    part(label, "bd_worker_sync", "    of which the wasm onmessage handler before the spawned task runs", "us", m(host.workerHandlerSync));
    part(label, "bd_host_in", "  page: host onmessage handler (JS string -> Rust, parse, wake the future)", "us", m(host.hostHandler));
    part(label, "bd_host_resume", "  page: handler return -> awaiting JS resumes (executor poll, JSON.parse, promise hops)", "us", m(host.hostResume), m(raw.pageIn), "raw column: raw handler entry -> awaiting JS resumes");
    part(label, "bd_residue", "  residue: 2 postMessage calls + 2 hops + thread switches/wake-ups", "us", m(host.residue), m(raw.residue), "raw column: the same residue around the raw echo (incl. its one-line JS echo)");
    part(label, "bd_post", "  (inside the residue) page's port.postMessage() call", "us", m(host.postCall), m(raw.postCall), "long when the woken worker preempts the page thread on the same vCPU and runs inside this call");
    const mib = `${bytes / (1 << 20)} MiB`;
    const bl = `breakdown of blob ${mib} (instrumented, trimmed mean of ${cfg.blobN})`;
    part(bl, "bdb_total", `host -> Rust echo blob ${mib}, total (instrumented)`, "ms", m(blob.total));
    part(bl, "bdb_host_out", "  page: callTool() -> host posts the request", "ms", m(blob.hostOut));
    part(bl, "bdb_worker", "  worker: request in -> reply posted (build text, serialize the frame, UTF-8 -> JS strings)", "ms", m(blob.workerService));
    part(bl, "bdb_host_in", "  page: host onmessage handler (parse the frame, put its detached text back, settle)", "ms", m(blob.hostHandler));
    part(bl, "bdb_host_resume", "  page: handler return -> JS resumes (promise hops)", "ms", m(blob.hostResume));
    part(bl, "bdb_residue", "  residue: postMessage calls, cloning the 8 MiB string across, hops", "ms", m(blob.residue));
  } finally {
    proto.postMessage = realPost;
    index = -1;
    channel.close();
    client?.close();
    rawClient?.close();
  }
}

async function largeResults(cfg, module, samples) {
  log("large results");
  const raw = await RawEcho.spawn();
  const host = await spawnHost(ECHO_WORKER, { module });
  const hostJs = await spawnHost(JS_SERVER_WORKER);
  const rawRust = await RawMcpClient.spawn(ECHO_WORKER, { module });
  const blobLen = (r) => r?.content?.[0]?.text?.length;
  const sdk = await sdkClients("large results", {}, async (c) => check(blobLen(await c.callTool("blob", { bytes: 16 })) === 16, "TS SDK blob has the wrong length"));
  samples.blob = {};
  const timeIt = async (fn) => {
    await fn(); // warm-up
    const times = [];
    for (let i = 0; i < cfg.blobN; i++) {
      await settle();
      const t = now();
      await fn();
      times.push(now() - t);
    }
    return times;
  };
  for (const bytes of cfg.blobSizes) {
    const mib = `${bytes / (1 << 20)} MiB`;
    const payload = "x".repeat(bytes);
    const rawReply = await RawEcho.spawn(payload);
    check(blobLen(await host.callTool("blob", { bytes })) === bytes, `host blob ${mib} has the wrong length`);
    check(blobLen(await hostJs.callTool("blob", { bytes })) === bytes, `JS server blob ${mib} has the wrong length`);
    check(blobLen(await rawRust.callTool("blob", { bytes })) === bytes, `raw client blob ${mib} has the wrong length`);
    for (const [key, c] of Object.entries(sdk)) check(blobLen(await c.callTool("blob", { bytes })) === bytes, `${key} blob ${mib} has the wrong length`);
    check((await raw.echo(payload)).length === bytes, `raw echo ${mib} has the wrong length`);
    check((await rawReply.echo("")).length === bytes, `raw reply ${mib} has the wrong length`);
    const t = {
      raw: await timeIt(() => raw.echo(payload)),
      host: await timeIt(() => host.callTool("blob", { bytes })),
      ...Object.fromEntries(await sequence(Object.entries(sdk), async ([key, c]) => [key, await timeIt(() => c.callTool("blob", { bytes }))])),
      rawReply: await timeIt(() => rawReply.echo("")),
      hostJs: await timeIt(() => hostJs.callTool("blob", { bytes })),
      rawRust: await timeIt(() => rawRust.callTool("blob", { bytes })),
    };
    rawReply.close();
    samples.blob[bytes] = t;
    const med = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, median(v)]));
    figure("large results", `blob_${bytes}`, `tools/call blob ${mib}`, "ms", { ours: med.host, raw: med.raw, sdk: sdkValues(med) },
      `median of ${cfg.blobN}, after 1 warm-up; raw: echo of a ${mib} string (both directions)`);
    part("large results", `blob_${bytes}_raw_reply`, `raw alternative: empty message answered with a ${mib} string made in advance`, "ms", med.rawReply, med.raw);
    part("large results", `blob_${bytes}_host_js`, `host -> JS echo server, blob ${mib} (host receive cost)`, "ms", med.hostJs, med.raw);
    part("large results", `blob_${bytes}_raw_rust`, `raw JS client -> Rust echo, blob ${mib} (worker produce cost)`, "ms", med.rawRust, med.raw);
  }
  for (const c of [raw, host, hostJs, rawRust, ...Object.values(sdk)]) c.close();
}

/** Runs `fn` over `items` one after the other (each measurement alone on the machine); resolves with the results. */
async function sequence(items, fn) {
  const out = [];
  for (const item of items) out.push(await fn(item));
  return out;
}

async function listTools(cfg, module, samples) {
  log("tools/list of 500 tools");
  const env = { ECHO_EXTRA_TOOLS: String(cfg.listExtra) };
  const host = await spawnHost(ECHO_WORKER, { module, env });
  const rawRust = await RawMcpClient.spawn(ECHO_WORKER, { module, env });
  const tools = await host.listTools();
  const expected = 3 + cfg.listExtra;
  check(tools.length === expected, `expected ${expected} tools, got ${tools.length}`);
  check((await rawRust.listTools()).length === expected, "raw client listed the wrong number of tools");
  // Our server's paging, which the raw baseline and the JS server mirror.
  const pages = rawRust.pageSizes.length;
  const pageSize = rawRust.pageSizes[0];
  let sdkListChars;
  const sdk = await sdkClients("tools/list", { extraTools: cfg.listExtra }, async (c) => {
    const listed = await c.listTools();
    check(listed.length === expected, `TS SDK listed ${listed.length} tools, expected ${expected}`);
    sdkListChars = JSON.stringify(listed).length;
  });
  const listJson = JSON.stringify(tools);
  const hostJs = await spawnHost(JS_SERVER_WORKER, { env: { TOOLS_JSON: listJson, PAGE_SIZE: String(pageSize) } });
  check((await hostJs.listTools()).length === expected, "JS server listed the wrong number of tools");
  const raw = await RawEcho.spawn();
  const whole = listJson;
  const slice = listJson.slice(0, Math.ceil(listJson.length / pages));
  const rawReply = await RawEcho.spawn(slice);

  const timeIt = async (fn) => {
    await fn();
    const times = [];
    for (let i = 0; i < cfg.listN; i++) {
      await tick();
      const t = now();
      await fn();
      times.push(now() - t);
    }
    return times;
  };
  await settle();
  const t = {
    host: await timeIt(() => host.listTools()),
    rawPaged: await timeIt(async () => {
      for (let p = 0; p < pages; p++) await raw.echo(slice);
    }),
    ...Object.fromEntries(await sequence(Object.entries(sdk), async ([key, c]) => [key, await timeIt(() => c.listTools())])),
    rawReplyPaged: await timeIt(async () => {
      for (let p = 0; p < pages; p++) await rawReply.echo("");
    }),
    rawWhole: await timeIt(() => raw.echo(whole)),
    hostJs: await timeIt(() => hostJs.listTools()),
    rawRust: await timeIt(() => rawRust.listTools()),
  };
  samples.list = { tools: expected, pages, pageSize, listJsonChars: listJson.length, sdkListJsonChars: sdkListChars, pageChars: slice.length, times: t };
  const med = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, median(v)]));
  figure("tools/list", "list_500", `listTools(), ${expected} tools`, "ms", { ours: med.host, raw: med.rawPaged, sdk: sdkValues(med) },
    `median of ${cfg.listN}; ours in ${pages} page(s) of up to ${pageSize}, the TS SDK's McpServer in 1 (it does not page); ` +
    `list JSON: ours ${listJson.length} chars, TS SDK ${sdkListChars ?? "-"} chars; ` +
    `raw: ${pages} sequential echoes of ${slice.length} chars (1/${pages} of our list JSON, both directions), matching our page count`);
  part("tools/list", "list_500_raw_reply", `raw alternative: ${pages} empty messages, each answered with a ${slice.length}-char string made in advance`, "ms", med.rawReplyPaged, med.rawPaged);
  part("tools/list", "list_500_raw_whole", `raw alternative: 1 echo of the whole ${listJson.length}-char list JSON`, "ms", med.rawWhole, med.rawPaged);
  part("tools/list", "list_500_host_js", `host -> JS server listing the same ${expected} tools (host cost)`, "ms", med.hostJs, med.rawPaged);
  part("tools/list", "list_500_raw_rust", `raw JS client -> Rust echo, ${pages} page(s) (worker cost)`, "ms", med.rawRust, med.rawPaged);
  for (const c of [raw, rawReply, host, hostJs, rawRust, ...Object.values(sdk)]) c.close();
}

/** The HTTP baseline: `fetch()` and nothing else. Opens a session (initialize, notifications/initialized) and POSTs
 * each request with the headers Streamable HTTP asks for, reading the answer's body (an event stream or JSON) as
 * text: what any client must do, without parsing, validating or dispatching what comes back. */
class RawHttp {
  static async connect(url) {
    const raw = new RawHttp(url);
    const init = await raw.post({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
    raw.session = init.headers.get("Mcp-Session-Id");
    check(raw.session, "raw fetch: the server gave no Mcp-Session-Id (or did not expose it)");
    const text = await init.text();
    const version = /"protocolVersion":"([^"]+)"/.exec(text)?.[1];
    check(version, `raw fetch: no protocolVersion in the initialize answer: ${text.slice(0, 200)}`);
    raw.version = version;
    await (await raw.post({ jsonrpc: "2.0", method: "notifications/initialized" })).text();
    return raw;
  }

  constructor(url) {
    this.url = url;
    this.nextId = 1;
    this.session = null;
    this.version = null;
  }

  post(message) {
    const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    if (this.session) headers["Mcp-Session-Id"] = this.session;
    if (this.version) headers["Mcp-Protocol-Version"] = this.version;
    return fetch(this.url, { method: "POST", headers, body: JSON.stringify(message) });
  }

  /** Resolves with the body of the answer to `method(params)`, as text. */
  async call(method, params) {
    const response = await this.post({ jsonrpc: "2.0", id: this.nextId++, method, params });
    return response.text();
  }

  async close() {
    const headers = { "Mcp-Session-Id": this.session, "Mcp-Protocol-Version": this.version };
    await fetch(this.url, { method: "DELETE", headers }).catch(() => {});
  }
}

/**
 * tools/call over Streamable HTTP to a server built with the official TS SDK (stateful, answers as event streams),
 * sequentially: ours (the runtime) against the SDK's own Client, bundled into this page, on the same server.
 */
async function streamableHttp(cfg, samples) {
  if (!cfg.remoteUrl) return;
  log("tools/call over Streamable HTTP");
  const { ours, theirs, theirsPlain, bare, close } = await httpClients(cfg.remoteUrl);
  // Each call is split where it meets the network: when the client calls fetch() and when fetch()'s promise
  // settles (the response's headers are in). The page's fetch is wrapped for the measured calls only; all three
  // clients call the global fetch when they send.
  const realFetch = globalThis.fetch;
  let fetchedAt = 0;
  let headersAt = 0;
  const stampedFetch = function (...args) {
    const at = now();
    const promise = realFetch.apply(this, args);
    if (fetchedAt === 0) {
      fetchedAt = at;
      promise.then(() => { headersAt = now(); }, () => {});
    }
    return promise;
  };
  // One call of each client in turn, the order rotated every call (ours, theirs, raw; theirs, raw, ours; ...). The
  // server keeps getting faster over a run (its JIT warms), so clients timed in blocks, one after the other, hand
  // that drift to whichever goes first: in blocks of 200 (ours, theirs, ours, theirs), our second block ran 7%
  // faster than our first.
  // Each measured call is followed at once by a second call of the same client (timed apart, as `again`): the first
  // runs after the other clients' calls and the network's wait, as an agent's calls do; the second right after its
  // own client's previous call. What the two take before fetch() differs by what the first pays for code and data
  // that the page's other work pushed out of the processor's caches.
  const t = { ours: [], sdk: [], raw: [], sdkPlain: [] };
  const split = { ours: [[], [], []], sdk: [[], [], []], raw: [[], [], []], sdkPlain: [[], [], []] };
  const again = { ours: [[], [], []], sdk: [[], [], []], raw: [[], [], []], sdkPlain: [[], [], []] };
  const timed = async (call, key, into = split) => {
    fetchedAt = 0;
    headersAt = 0;
    const start = now();
    await call();
    const end = now();
    if (key === undefined) return;
    if (into === split) t[key].push(end - start);
    if (fetchedAt > 0 && headersAt > 0) {
      into[key][0].push(fetchedAt - start);
      into[key][1].push(headersAt - fetchedAt);
      into[key][2].push(end - headersAt);
    }
  };
  for (let i = 0; i < cfg.httpWarm; i++) {
    await timed(ours);
    await timed(theirs);
    await timed(bare);
    await timed(theirsPlain);
  }
  await settle();
  const clients = [[ours, "ours"], [theirs, "sdk"], [bare, "raw"], [theirsPlain, "sdkPlain"]];
  globalThis.fetch = stampedFetch;
  try {
    for (let i = 0; i < cfg.httpN; i++) {
      for (let k = 0; k < clients.length; k++) {
        const [call, key] = clients[(i + k) % clients.length];
        await timed(call, key);
        await timed(call, key, again);
      }
    }
  } finally {
    globalThis.fetch = realFetch;
  }
  samples.http = { ...t, split, again };
  const ms = (times) => summarize(times).p50;
  figure("streamable http", "http_call_p50", `tools/call echo over Streamable HTTP, sequential p50 (${t.ours.length} calls)`, "ms", { ours: ms(t.ours), raw: ms(t.raw), sdk: { json: ms(t.sdk) } },
    "all three ask for progress, as ours does on every call. raw: fetch() POSTs the same tools/call (with a progressToken) with the session's headers and reads the answer's body as text; TS SDK: its Client (with an onprogress handler) with its StreamableHTTPClientTransport (JSON text over HTTP) in the same page, same server (a TS SDK StreamableHTTPServerTransport on 127.0.0.1)");
  part("streamable http", "http_call_p50_sdk_plain", "TS SDK: its Client called without onprogress (no progress token), sequential p50", "ms", ms(t.sdkPlain), ms(t.raw),
    "the request the SDK's examples make; raw column: fetch() alone, with a progress token");
  const mean = (times) => summarize(times).trimmedMean;
  const phases = [
    ["before", "call -> the client calls fetch() (building the request)"],
    ["headers", "fetch() -> response headers in (network and server)"],
    ["after", "response headers -> result in the caller's hands (reading the body, parsing, settling)"],
  ];
  phases.forEach(([id, label], at) => {
    for (const [key, who] of [["ours", "ours"], ["sdk", "TS SDK"], ["sdkPlain", "TS SDK without a progress token"]]) {
      part("streamable http", `http_${id}_${key}`, `${who}: ${label}, trimmed mean`, "ms", mean(split[key][at]), mean(split.raw[at]),
        "raw column: fetch() alone, the same part of its calls");
    }
  });
  for (const [key, who] of [["ours", "ours"], ["sdk", "TS SDK"]]) {
    part("streamable http", `http_before_${key}_again`, `${who}: call -> fetch(), a call made as soon as its client's previous call settled, trimmed mean`, "ms",
      mean(again[key][0]), mean(again.raw[0]), "raw column: fetch() alone, the same part of its second calls");
  }
  await close();
}

/** The clients of the Streamable HTTP row, each connected to the server at `url` and checked with one call: `ours`
 * (the runtime), `theirs` (the TS SDK's Client) and `bare` (fetch() alone), each a function that makes one `echo`
 * call; `close` ends their sessions. Each asks for progress, as the runtime does on every call (it reports progress on
 * its status socket): the SDK's Client with an `onprogress` handler, `bare` with a `progressToken`, so that the server
 * gets the same request from each. `theirsPlain` is the SDK's Client called as its examples do, without one. */
async function httpClients(url) {
  const rt = await McpRuntime.create({ databaseName: `bench-${Date.now()}` });
  rt.addServer({ name: "remote", url });
  await rt.connectServer("remote");
  const { Client, StreamableHTTPClientTransport } = await import(new URL("ts-sdk-client.js", HERE).href);
  const sdk = new Client({ name: "bench", version: "1.0.0" });
  await sdk.connect(new StreamableHTTPClientTransport(new URL(url)));
  const raw = await RawHttp.connect(url);
  const args = { text: "ping" };
  const ours = () => rt.callTool("remote", "echo", args);
  const theirs = () => sdk.callTool({ name: "echo", arguments: args }, undefined, { onprogress: () => {} });
  const theirsPlain = () => sdk.callTool({ name: "echo", arguments: args });
  let token = 0;
  const bare = () => raw.call("tools/call", { name: "echo", arguments: args, _meta: { progressToken: `raw-${++token}` } });
  checkEcho(await ours());
  checkEcho(await theirs());
  checkEcho(await theirsPlain());
  check((await bare()).includes('"ping"'), "raw fetch: the echo answer does not hold the text");
  const close = async () => {
    await raw.close();
    await sdk.close();
    rt.close();
  };
  return { ours, theirs, theirsPlain, bare, close };
}

/**
 * Only with `?profile=1` (run.mjs --profile): extra windows, after every figure is taken, that the runner wraps in
 * the DevTools CPU profiler (labels starting with "profile"). Profiling slows what it watches, so no figure comes
 * from these windows.
 */
async function profileWindows(cfg, module) {
  log("profile windows");
  const raw = await RawEcho.spawn();
  const host = await spawnHost(ECHO_WORKER, { module });
  const args = { text: "ping" };
  const windows = [
    ["profile seq host", 5_000, (n) => sequentialRound(() => host.callTool("echo", args), n, new Float64Array(n), 0)],
    ["profile seq raw", 5_000, (n) => sequentialRound((i) => raw.echo(echoFrame(i)), n, new Float64Array(n), 0)],
    ["profile pipe host", 20_000, (n) => pipelinedOnce(() => host.callTool("echo", args), n, cfg.depth, 0)],
    ["profile pipe raw", 20_000, (n) => pipelinedOnce((i) => raw.echo(echoFrame(i)), n, cfg.depth, 0)],
  ];
  // tools/list of 500 tools: ours (the host and the Rust echo server) against raw echoes of the same JSON text.
  const listEnv = { ECHO_EXTRA_TOOLS: String(cfg.listExtra) };
  const lister = await spawnHost(ECHO_WORKER, { module, env: listEnv });
  const listJson = JSON.stringify(await lister.listTools());
  const listRaw = await RawEcho.spawn();
  windows.push(
    ["profile list host", 300, async (n) => { for (let i = 0; i < n; i++) await lister.listTools(); }],
    ["profile list raw", 300, async (n) => { for (let i = 0; i < n; i++) await listRaw.echo(listJson); }],
  );
  const http = cfg.remoteUrl ? await httpClients(cfg.remoteUrl) : null;
  if (http) {
    const calls = (call) => async (n) => {
      for (let i = 0; i < n; i++) await call();
    };
    windows.push(
      ["profile http ours", 300, calls(http.ours)],
      ["profile http sdk", 300, calls(http.theirs)],
      ["profile http raw", 300, calls(http.bare)],
    );
  }
  for (const [label, n, run] of windows) {
    await run(n); // warm-up
    await settle();
    await mark(label, "begin");
    await run(n);
    await mark(label, "end", n);
  }
  await http?.close();
  lister.close();
  listRaw.close();
  raw.close();
  host.close();
}

// ---------------------------------------------------------------------------------------------------------------

/** Runs every phase; resolves with the JSON-able result. */
export async function runBench(config = DEFAULT_CONFIG) {
  const cfg = { ...DEFAULT_CONFIG, ...config };
  figures.length = 0;
  decomposition.length = 0;
  sdkFailures.length = 0;
  const samples = {};
  const started = now();
  const env = {
    userAgent: navigator.userAgent,
    hardwareConcurrency: navigator.hardwareConcurrency,
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
    timerResolutionUs: timerResolutionUs(),
    gcExposed: typeof globalThis.gc === "function",
    location: location.href,
  };
  log(`timer resolution ${env.timerResolutionUs} us, crossOriginIsolated=${env.crossOriginIsolated}`);

  let t = now();
  await init();
  const hostInitMs = now() - t;
  t = now();
  const module = await compileModule(ECHO_WASM);
  const compileMs = now() - t;
  part("setup", "host_init", "host wasm init (fetch + instantiate mcp_worker_host_bg.wasm), once", "ms", hostInitMs);
  part("setup", "compile_module", "compileModule(echo server_bg.wasm) on the page, once", "ms", compileMs);
  const fetchTimes = [];
  for (let i = 0; i < 5; i++) {
    t = now();
    await (await fetch(ECHO_BUNDLE + "bootstrap.js", { cache: "no-store" })).arrayBuffer();
    fetchTimes.push(now() - t);
  }
  // The TS SDK's page-side bundle is imported once here, so no figure includes it (as our host's init above).
  t = now();
  try {
    await loadSdk();
    part("setup", "sdk_import", "import of the TS SDK's page-side bundle (Client + PortTransport), once", "ms", now() - t);
  } catch (error) {
    for (const wire of SDK_WIRES) sdkFailed("setup", wire, `the page-side bundle did not load: ${error.message ?? error}`);
  }
  part("setup", "fetch_file", "fetch() of the echo bundle's bootstrap.js from the page (median of 5; each worker start pays such a fetch)", "ms", median(fetchTimes));

  await coldStarts(cfg, module, samples);
  await sequentialAndPipelined(cfg, module, samples);
  await breakdown(cfg, module, samples);
  await largeResults(cfg, module, samples);
  await listTools(cfg, module, samples);
  await streamableHttp(cfg, samples);
  if (cfg.profile) await profileWindows(cfg, module);

  const result = {
    ok: true,
    version: 1,
    env,
    config: cfg,
    figures: [...figures],
    decomposition: [...decomposition],
    sdkFailures: [...sdkFailures],
    samples,
    durationMs: now() - started,
  };
  log(`done in ${(result.durationMs / 1000).toFixed(1)} s`);
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// Rendering

export function formatValue(value, unit) {
  if (value === undefined || value === null || Number.isNaN(value)) return "-";
  if (unit === "calls/s" || unit === "msgs/s") return `${Math.round(value).toLocaleString("en-US")} ${unit}`;
  if (unit === "us") return `${value.toFixed(1)} us`;
  if (unit === "ms") return `${value.toFixed(2)} ms`;
  return `${value} ${unit}`;
}

export function formatRatio(ratio) {
  return ratio === undefined || !Number.isFinite(ratio) ? "" : `${ratio.toFixed(2)}x`;
}

function table(headers, rows) {
  const t = document.createElement("table");
  const head = t.createTHead().insertRow();
  for (const h of headers) {
    const th = document.createElement("th");
    th.textContent = h;
    head.appendChild(th);
  }
  const body = t.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    for (const cell of row) tr.insertCell().textContent = cell;
  }
  return t;
}

export function renderResults(result, container) {
  container.replaceChildren();
  const h = (tag, text) => {
    const el = document.createElement(tag);
    el.textContent = text;
    container.appendChild(el);
  };
  if (!result.ok) {
    h("p", `bench failed: ${result.error}`);
    return;
  }
  const e = result.env;
  h("p", `${e.userAgent} | hardwareConcurrency ${e.hardwareConcurrency} | crossOriginIsolated ${e.crossOriginIsolated} | timer resolution ${e.timerResolutionUs} us`);
  if (!e.crossOriginIsolated) {
    h("p", `warning: this page is not cross-origin isolated, so performance.now() moves in ${e.timerResolutionUs} us steps and per-call percentiles are meaningless; run it through tests/bench/run.mjs (cargo xtask bench) for 5 us timers`);
  }
  h("h2", "Figures (ratio = mcp-worker cost / the other's cost; > 1 = mcp-worker slower)");
  const met = (x) => (x === undefined ? "" : x ? "met" : "not met");
  container.appendChild(
    table(
      ["figure", "raw postMessage", "mcp-worker", "TS SDK clone", "TS SDK JSON", "ours/raw", "ours/TS SDK (best)", "target vs raw", "ahead of TS SDK", "baseline"],
      result.figures.map((f) => [
        `[${f.section}] ${f.label}`,
        formatValue(f.raw, f.unit),
        formatValue(f.ours, f.unit),
        formatValue(f.sdk.clone, f.unit),
        formatValue(f.sdk.json, f.unit),
        formatRatio(f.ratio),
        formatRatio(f.vsSdk),
        f.target ? `${f.target.text}: ${met(f.target.met)}` : "",
        met(f.aheadOfSdk),
        f.note ?? "",
      ]),
    ),
  );
  // One line per distinct error: a bundle that did not load leaves every wire out of every phase for one reason.
  const byError = new Map();
  for (const { wire, phase, error } of result.sdkFailures ?? []) {
    const seen = byError.get(error) ?? { wires: new Set(), phases: new Set() };
    seen.wires.add(wire);
    seen.phases.add(phase);
    byError.set(error, seen);
  }
  for (const [error, { wires, phases }] of byError) {
    h("p", `TS SDK (${[...wires].join(", ")}) left out of ${[...phases].join(", ")}: ${error}`);
  }
  h("h2", "Decomposition: where the time goes");
  container.appendChild(
    table(
      ["row", "value", "raw postMessage", "ratio", "note"],
      result.decomposition.map((d) => [`[${d.section}] ${d.label}`, formatValue(d.value, d.unit), formatValue(d.raw, d.unit), formatRatio(d.ratio), d.note ?? ""]),
    ),
  );
}
