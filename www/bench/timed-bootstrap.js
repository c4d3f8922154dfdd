// The echo bundle's bootstrap (worker-sdk/js/bootstrap.js) with timestamps: used only by the bench's instrumented
// breakdown. It wraps the server's MessagePort before handing it to the wasm, recording when each frame arrives,
// when the wasm's onmessage handler returns, and when the wasm posts each frame (or batch). The page reads the records over a
// BroadcastChannel ("mcp-bench-timing"): {cmd: "reset"} clears them, {cmd: "report"} returns them.
import init, { initSync, mcp_worker_connect } from "/bundles/echo/server.js";

const CAP = 1 << 15;
const recv = new Float64Array(CAP); // frame arrived (handler entered)
const hend = new Float64Array(CAP); // wasm handler returned
const post = new Float64Array(CAP); // wasm posted a frame
let nIn = 0;
let nOut = 0;

const channel = new BroadcastChannel("mcp-bench-timing");
channel.onmessage = (event) => {
  if (event.data?.cmd === "reset") {
    nIn = 0;
    nOut = 0;
    channel.postMessage({ ack: "reset" });
  } else if (event.data?.cmd === "report") {
    channel.postMessage({ ack: "report", nIn, nOut, recv: recv.slice(0, nIn), hend: hend.slice(0, nIn), post: post.slice(0, nOut) });
  }
};

function instrument(port) {
  const onmessage = Object.getOwnPropertyDescriptor(MessagePort.prototype, "onmessage");
  const realPost = MessagePort.prototype.postMessage;
  Object.defineProperty(port, "onmessage", {
    configurable: true,
    get() {
      return onmessage.get.call(port);
    },
    set(handler) {
      const wrapped = typeof handler === "function"
        ? (event) => {
            // Buffers the page gives back are not frames: not timed.
            if (event.data?.mcpWorker === "buffers") return handler(event);
            const i = nIn++;
            if (i < CAP) recv[i] = performance.now();
            handler(event);
            if (i < CAP) hend[i] = performance.now();
          }
        : handler;
      onmessage.set.call(port, wrapped);
    },
  });
  port.postMessage = function (...args) {
    const i = nOut++;
    if (i < CAP) post[i] = performance.now();
    return realPost.apply(port, args);
  };
  return port;
}

let connected = false;
self.addEventListener("message", async (event) => {
  const msg = event.data;
  if (!msg || msg.mcpWorker !== "connect" || connected) return;
  connected = true;
  try {
    if (msg.module instanceof WebAssembly.Module) initSync({ module: msg.module });
    else await init();
    mcp_worker_connect(instrument(msg.port), msg.env ?? {}, {
      detachStrings: msg.detachStrings === true,
      detachBytes: msg.detachBytes === true,
      batchFrames: msg.batchFrames,
      batchChars: msg.batchChars,
    });
  } catch (error) {
    self.postMessage({ mcpWorker: "fatal", error: String((error && error.stack) || error) });
  }
});

self.postMessage({ mcpWorker: "boot", v: 1, batches: true, buffers: true });
