// The official TypeScript SDK's McpServer in a module worker, offering the tools of our echo server
// (sample-servers/echo/src/lib.rs) with the same names, arguments, descriptions and results, so the bench compares
// like with like. Bundled by tests/bench/run.mjs (esbuild, minified, served as /bench/ts-sdk-server.js; its gzip size
// is reported). It does the boot/connect handshake of our wire protocol (docs/wire-protocol.md) to receive its
// MessagePort, as the raw baseline does, then serves MCP on that port.
// env: WIRE ("clone" or "json", see ts-sdk-port-transport.js); ECHO_EXTRA_TOOLS=N also lists N synthetic tools
// `synthetic_0 … synthetic_{N-1}`, like our echo server.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { PortTransport } from "./ts-sdk-port-transport.js";

const MAX_BLOB_BYTES = 64 << 20;
const MAX_EXTRA_TOOLS = 100_000;
const text = (value) => ({ content: [{ type: "text", text: value }] });
const readOnly = { readOnlyHint: true };

function echoServer(env) {
  const server = new McpServer(
    { name: "echo", title: "Echo", version: "1.0.0" },
    { instructions: "Test server: `echo` returns its text, `add` adds two numbers, `blob` returns N bytes." },
  );
  server.registerTool(
    "echo",
    { description: "Returns its text", inputSchema: { text: z.string().describe("The text to return.") }, annotations: readOnly },
    ({ text: value }) => text(value),
  );
  server.registerTool(
    "add",
    {
      description: "Adds two numbers",
      inputSchema: { a: z.number().describe("The first number."), b: z.number().describe("The second number.") },
      outputSchema: { sum: z.number() },
      annotations: readOnly,
    },
    ({ a, b }) => {
      const sum = { sum: a + b };
      return { ...text(JSON.stringify(sum)), structuredContent: sum };
    },
  );
  server.registerTool(
    "blob",
    {
      description: "Returns N bytes of text",
      inputSchema: { bytes: z.number().int().min(0).max(MAX_BLOB_BYTES).describe("How many bytes of text to return.") },
      annotations: readOnly,
    },
    ({ bytes }) => text("x".repeat(bytes)),
  );
  const extra = Math.min(Number.parseInt(env.ECHO_EXTRA_TOOLS ?? "0", 10) || 0, MAX_EXTRA_TOOLS);
  for (let i = 0; i < extra; i++) {
    server.registerTool(
      `synthetic_${i}`,
      { description: "A synthetic tool for list benchmarks", annotations: readOnly },
      () => text("synthetic"),
    );
  }
  return server;
}

let connected = false;
self.addEventListener("message", async (event) => {
  const msg = event.data;
  if (!msg || msg.mcpWorker !== "connect" || !(msg.port instanceof MessagePort) || connected) return;
  connected = true;
  try {
    const env = msg.env ?? {};
    await echoServer(env).connect(new PortTransport(msg.port, env.WIRE));
  } catch (error) {
    self.postMessage({ mcpWorker: "fatal", error: String((error && error.stack) || error) });
  }
});
self.postMessage({ mcpWorker: "boot", v: 1 });
