// The official TypeScript SDK's client, bundled for the bench page by tests/bench/run.mjs (esbuild), so that the
// Streamable HTTP row compares ours with the SDK's Client in the same page and run.
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
