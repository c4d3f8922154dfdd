// The end of the prelude of a worker the host starts from a script of its own, after the worker guard
// (`mcp_worker_protocol::worker_guard`; `entry`, the bundle's bootstrap URL, and `wasmUrl`, its wasm's URL or null,
// are defined above them). With a wasm URL, the page sends the wasm, fetched through its own HTTP cache (an opaque
// origin's requests are never cached, so a sandboxed worker's own fetch downloads the wasm at every start), as
// `{ body }` (the response's body, a stream) on the port of the control message `{ mcpWorker: "wasm", port }`: the
// prelude compiles it as it comes, while the bootstrap loads and the handshake is made, or fetches the URL itself
// when `body` is null (the page's fetch failed). The SDK's bootstrap takes the module from
// `self[Symbol.for("mcpWorker.wasm")]`. Then the prelude imports the server, whose code runs after the guard.
if (wasmUrl !== null) {
  const module = new Promise((resolve) => {
    const take = (event) => {
      const m = event.data;
      if (!m || m.mcpWorker !== "wasm" || !(m.port instanceof MessagePort)) return;
      event.stopImmediatePropagation();
      self.removeEventListener("message", take);
      m.port.onmessage = (sent) => {
        m.port.close();
        const body = sent.data && sent.data.body;
        const source =
          body instanceof ReadableStream ? new Response(body, { headers: { "Content-Type": "application/wasm" } }) : fetch(wasmUrl);
        resolve(WebAssembly.compileStreaming(source).catch(() => null));
      };
    };
    self.addEventListener("message", take);
  });
  Object.defineProperty(self, Symbol.for("mcpWorker.wasm"), { value: { url: wasmUrl, module } });
}
import(entry).catch((error) => self.postMessage({ mcpWorker: "loadError", error: String((error && error.message) || error) }));
