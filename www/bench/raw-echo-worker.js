// Baseline for the mcp-worker bench: a worker that does the same boot/connect handshake as the mcp-worker
// bootstrap (docs/wire-protocol.md) and then echoes every message on its port back unchanged. No JSON, no MCP:
// what a round trip over a MessagePort costs on this machine. With env REPLY it answers every message with that
// string instead: a reply made in advance, for "small request, large answer" baselines.
self.addEventListener("message", (event) => {
  const msg = event.data;
  if (!msg || msg.mcpWorker !== "connect" || !(msg.port instanceof MessagePort)) return;
  const port = msg.port;
  const reply = msg.env?.REPLY;
  port.onmessage = reply === undefined ? (e) => port.postMessage(e.data) : () => port.postMessage(reply);
});
self.postMessage({ mcpWorker: "boot", v: 1 });
