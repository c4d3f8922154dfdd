// mcp-worker bootstrap, wire protocol v1 (docs/wire-protocol.md).
// The worker announces itself with `boot` once its handler is installed, waits for the host's `connect`
// (a MessagePort, the server's environment, optionally a precompiled WebAssembly.Module, and whether the host takes
// detached strings), instantiates the server and hands it the port. Failures are reported as `fatal` so the host never waits on a dead worker.
// A host may start this script as the worker's own (so the browser fetches it while the worker's thread starts); the
// worker guard then runs here, before any server code. The bundle's build puts it in place of the next line.
// mcp-worker: the worker guard
import init, { initSync, mcp_worker_connect } from "./server.js";

let connected = false;

function fatal(error) {
  self.postMessage({ mcpWorker: "fatal", error: String((error && error.stack) || error) });
}

// What the server instantiates: the module `connect` carries, or the one the host's prelude began to compile from
// the same URL when the worker started (its fetch and compile then went on while this script loaded and the
// handshake was made), or else its wasm's URL (`connect` names one, or the prelude does, or it is the wasm beside
// this script). The prelude's URL comes first: a worker may run this script from the text the page sent, at a blob:
// URL with nothing beside it.
async function wasmSource(given) {
  const early = self[Symbol.for("mcpWorker.wasm")];
  const beside = () => (early ? early.url : new URL("server_bg.wasm", import.meta.url).href);
  const url = typeof given === "string" ? given : given ? null : beside();
  if (url !== null && early && early.url === url) {
    const module = await early.module;
    if (module) return module;
  }
  return given ?? url;
}

self.addEventListener("message", async (event) => {
  const msg = event.data;
  if (!msg || msg.mcpWorker !== "connect" || connected) return;
  connected = true;
  if (msg.v !== 1 || !(msg.port instanceof MessagePort)) {
    fatal(`unsupported connect message (v=${msg.v}); expected v=1 with a MessagePort`);
    return;
  }
  try {
    // A compiled module is instantiated at once: a worker may, and the instance is ready 0.15 ms sooner than through
    // the promise of `init` (0.39 against 0.55 ms of an echo server's start in the bench).
    const source = await wasmSource(msg.module);
    if (source instanceof WebAssembly.Module) initSync({ module: source });
    else await init({ module_or_path: source });
    // A host that puts large strings back into their frames says so, and whether it takes them as UTF-8 bytes;
    // results then send them beside the frame.
    // A host that reads batches says how large they may be; the server's small frames then go in batches.
    mcp_worker_connect(msg.port, msg.env ?? {}, {
      detachStrings: msg.detachStrings === true,
      detachBytes: msg.detachBytes === true,
      batchFrames: msg.batchFrames,
      batchChars: msg.batchChars,
    });
  } catch (error) {
    fatal(error);
  }
});

// `batches`: the server reads frames that come in batches (arrays of frames). `buffers`: it takes back the buffers of
// the detached bytes it sends. `guard`: the worker guard runs in this worker (here, or in the host's prelude).
// `modern`: the server answers requests of that MCP version from its first frame, with no handshake before them.
self.postMessage({
  mcpWorker: "boot",
  v: 1,
  batches: true,
  buffers: true,
  guard: self[Symbol.for("mcpWorker.guard")] === true,
  modern: "2026-07-28",
});
