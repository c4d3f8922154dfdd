// The end of the prelude of a worker the host starts from a script of its own, after the worker guard
// (`mcp_worker_protocol::worker_guard`; `entry`, the bundle's bootstrap URL, and `wasmUrl`, its wasm's URL or null,
// are defined above them). An opaque origin's requests are never cached, so a sandboxed worker's own fetches download
// its files at every start: with a wasm URL, the page fetches the wasm and the bootstrap through its own HTTP cache
// and sends them on the port of the control message `{ mcpWorker: "bundle", port }`, as `{ body }` and `{ script }`
// (each its response's body, a stream), each null when the page's fetch failed. The
// prelude compiles the wasm as it comes, while the bootstrap loads and the handshake is made, or fetches the URL
// itself when `body` is null. The SDK's bootstrap takes the module from `self[Symbol.for("mcpWorker.wasm")]`. Then
// the prelude runs the server, whose code runs after the guard: the page's text when it is a bundle's one-module
// entry (it imports nothing, and takes its wasm's URL from here), or else the module at `entry`.
const failed = (error) =>
  self.postMessage({ mcpWorker: "loadError", error: String((error && error.message) || error) });
const load = (url) => import(url).catch(failed);
if (wasmUrl !== null) {
  let script;
  const scripted = new Promise((resolve) => (script = resolve));
  const module = new Promise((resolve) => {
    const take = (event) => {
      const m = event.data;
      if (!m || m.mcpWorker !== "bundle" || !(m.port instanceof MessagePort)) return;
      event.stopImmediatePropagation();
      self.removeEventListener("message", take);
      let pending = 2;
      m.port.onmessage = (sent) => {
        const data = sent.data;
        if (!data || typeof data !== "object") return;
        if ("body" in data) {
          const body = data.body;
          const source =
            body instanceof ReadableStream ? new Response(body, { headers: { "Content-Type": "application/wasm" } }) : fetch(wasmUrl);
          resolve(WebAssembly.compileStreaming(source).catch(() => null));
        } else if ("script" in data) {
          script(data.script);
        } else {
          return;
        }
        if (--pending === 0) m.port.close();
      };
    };
    self.addEventListener("message", take);
  });
  Object.defineProperty(self, Symbol.for("mcpWorker.wasm"), { value: { url: wasmUrl, module } });
  scripted
    .then((body) => (body instanceof ReadableStream ? new Response(body).text() : null))
    .catch(() => null)
    .then((text) => {
      if (typeof text !== "string" || !text.startsWith(ONE_MODULE_ENTRY)) return load(entry);
      const url = URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
      // Refused before it ran (a policy without `script-src blob:`, the page's or the frame's): the script's own URL.
      return import(url)
        .catch((error) => (self[Symbol.for("mcpWorker.entry")] === true ? Promise.reject(error) : import(entry)))
        .catch(failed)
        .finally(() => URL.revokeObjectURL(url));
    });
} else {
  load(entry);
}
