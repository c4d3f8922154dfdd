// A hand-written MCP server in plain JavaScript that speaks the mcp-worker wire protocol (like
// tests/fixtures/js-server.js) and offers the echo server's `echo` and `blob` tools. Behind our host it isolates the
// host's cost (the worker side is a few lines of JS); behind the bench's raw JS client it is the all-JS floor.
// env TOOLS_JSON: a JSON array of tool definitions to list; PAGE_SIZE: tools per tools/list page (default 100).
let pageSize = 100;
let tools = [
  { name: "echo", description: "Returns its text", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
  { name: "blob", description: "Returns N bytes of text", inputSchema: { type: "object", properties: { bytes: { type: "integer" } }, required: ["bytes"] } },
];

function serve(port) {
  const reply = (id, result) => port.postMessage(JSON.stringify({ jsonrpc: "2.0", id, result }));
  const fail = (id, code, message) => port.postMessage(JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }));
  port.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.id === undefined) return; // notifications
    switch (msg.method) {
      case "initialize":
        return reply(msg.id, {
          protocolVersion: msg.params?.protocolVersion ?? "2025-11-25",
          capabilities: { tools: { listChanged: false } },
          serverInfo: { name: "js-echo", version: "1.0.0" },
        });
      case "ping":
        return reply(msg.id, {});
      case "tools/list": {
        const start = msg.params?.cursor ? Number(msg.params.cursor) : 0;
        const end = start + pageSize;
        const page = { tools: tools.slice(start, end) };
        if (end < tools.length) page.nextCursor = String(end);
        return reply(msg.id, page);
      }
      case "tools/call": {
        const { name, arguments: args } = msg.params;
        if (name === "echo") return reply(msg.id, { content: [{ type: "text", text: args.text }] });
        if (name === "blob") return reply(msg.id, { content: [{ type: "text", text: "x".repeat(args.bytes) }] });
        return fail(msg.id, -32602, `Unknown tool: ${name}`);
      }
      default:
        return fail(msg.id, -32601, "Method not found");
    }
  };
}

self.addEventListener("message", (event) => {
  const msg = event.data;
  if (!msg || msg.mcpWorker !== "connect" || !(msg.port instanceof MessagePort)) return;
  if (msg.env?.TOOLS_JSON) tools = JSON.parse(msg.env.TOOLS_JSON);
  if (Number(msg.env?.PAGE_SIZE) > 0) pageSize = Number(msg.env.PAGE_SIZE);
  serve(msg.port);
});
self.postMessage({ mcpWorker: "boot", v: 1 });
