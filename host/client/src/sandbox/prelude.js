// The end of the prelude of a worker the host starts from a script of its own, after the worker guard
// (`mcp_worker_protocol::worker_guard`; `entry`, the bundle's bootstrap URL, and `wasmUrl`, its wasm's URL or null,
// are defined above them). It starts fetching and compiling the wasm, so that this goes on while the bootstrap loads
// and the handshake is made (the SDK's bootstrap takes the module from `self[Symbol.for("mcpWorker.wasm")]`), then
// imports the server, whose code runs after the guard.
if (wasmUrl !== null) {
  const module = WebAssembly.compileStreaming(fetch(wasmUrl)).catch(() => null);
  Object.defineProperty(self, Symbol.for("mcpWorker.wasm"), { value: { url: wasmUrl, module } });
}
import(entry).catch((error) => self.postMessage({ mcpWorker: "loadError", error: String((error && error.message) || error) }));
