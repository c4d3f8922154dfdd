// The official TypeScript SDK as a contender in the bench: its Client on this page and its McpServer in a module
// worker (ts-sdk-server-entry.js), over a MessagePort with ts-sdk-port-transport.js on each side, on either wire
// ("clone": message objects posted as they are; "json": JSON text). tests/bench/run.mjs bundles both sides with
// esbuild and serves them as /bench/ts-sdk-port-client.js and /bench/ts-sdk-server.js; where they are not served
// (the page opened without the runner, or the bundles failed to build) spawning fails and the bench reports why.
import { connectWorker } from "./handshake.js";

const HERE = new URL(".", import.meta.url);
const SDK_WORKER = new URL("ts-sdk-server.js", HERE).href;
const SDK_CLIENT = new URL("ts-sdk-port-client.js", HERE).href;

export const SDK_WIRES = ["clone", "json"];

let bundle = null;

/** The page-side bundle (the SDK's Client and PortTransport), imported once. */
export function loadSdk() {
  bundle ??= import(SDK_CLIENT);
  return bundle;
}

export class SdkClient {
  /** New worker -> boot/connect handshake -> the SDK Client's initialize done. `extraTools`: ECHO_EXTRA_TOOLS. */
  static async spawn(wire, { extraTools = 0 } = {}) {
    const { Client, PortTransport } = await loadSdk();
    const env = { WIRE: wire };
    if (extraTools) env.ECHO_EXTRA_TOOLS = String(extraTools);
    const { worker, port } = await connectWorker(SDK_WORKER, { env });
    const client = new Client({ name: "bench", version: "1.0.0" });
    try {
      await client.connect(new PortTransport(port, wire));
    } catch (error) {
      worker.terminate();
      throw error;
    }
    return new SdkClient(worker, client);
  }

  constructor(worker, client) {
    this.worker = worker;
    this.client = client;
  }

  callTool(name, args) {
    return this.client.callTool({ name, arguments: args });
  }

  /** Every tool, following cursors (McpServer answers in one page). */
  async listTools() {
    const tools = [];
    let cursor;
    do {
      const page = await this.client.listTools(cursor === undefined ? undefined : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }

  close() {
    this.client.close();
    this.worker.terminate();
  }
}
