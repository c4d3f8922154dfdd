// Baseline for the mcp-worker bench: a worker that does the same boot/connect handshake as the mcp-worker
// bootstrap (docs/wire-protocol.md) and then echoes every message on its port back unchanged. No JSON, no MCP:
// what a round trip over a MessagePort costs on this machine.
self.addEventListener("message", (event) => {
  const msg = event.data;
  if (!msg || msg.mcpWorker !== "connect" || !(msg.port instanceof MessagePort)) return;
  const port = msg.port;
  port.onmessage = (e) => port.postMessage(e.data);
});
self.postMessage({ mcpWorker: "boot", v: 1 });
