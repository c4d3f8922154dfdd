// The official TypeScript SDK's Client with the MessagePort transport, bundled for the bench page by
// tests/bench/run.mjs (esbuild, minified, served as /bench/ts-sdk-port-client.js; its gzip size is reported).
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
export { PortTransport } from "./ts-sdk-port-transport.js";
