const T = () => performance.timeOrigin + performance.now();
const st = { evalStart: T() };
globalThis.__st = (l) => { if (!(l in st)) st[l] = T(); };
Object.defineProperty(self, Symbol.for("mcpWorker.guard"), { value: true });
import init, { initSync, mcp_worker_connect } from "/bundles/echo/server.js";
let connected = false;
const bc = new BroadcastChannel("x-timed2");
self.addEventListener("message", async (event) => {
  const msg = event.data;
  if (!msg || msg.mcpWorker !== "connect" || connected) return;
  connected = true;
  st.connect = T();
  initSync({ module: msg.module });
  st.inited = T();
  const port = msg.port;
  const onmessage = Object.getOwnPropertyDescriptor(MessagePort.prototype, "onmessage");
  const realPost = MessagePort.prototype.postMessage;
  let nin = 0, nout = 0;
  Object.defineProperty(port, "onmessage", {
    configurable: true,
    get() { return onmessage.get.call(port); },
    set(handler) {
      onmessage.set.call(port, (e) => { st["in" + nin] = T(); handler(e); st["inEnd" + nin++] = T(); });
    },
  });
  port.postMessage = function (...args) {
    st["out" + nout++] = T();
    if (nout === 3) setTimeout(() => bc.postMessage({ stamps: st }), 5);
    return realPost.apply(port, args);
  };
  mcp_worker_connect(port, msg.env ?? {}, { batchFrames: msg.batchFrames, batchChars: msg.batchChars, detachStrings: msg.detachStrings === true, detachBytes: msg.detachBytes === true });
  st.connected = T();
});
self.postMessage({ mcpWorker: "boot", v: 1, batches: true, buffers: true, guard: true });
st.booted = T();
