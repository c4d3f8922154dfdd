// The bundles' Node entry point, `node <bundle>/serve.mjs`, as an MCP client sees it: the official TypeScript SDK's
// Client over stdio and over Streamable HTTP against the echo and everything bundles (the very wasm the browser
// runs), the errors a user meets (a missing credential, a non-loopback address, bad input), and the HTTP
// transport's DNS rebinding protection and session handling, with plain HTTP requests.
//
//   node --test tests/node/          (after `cargo xtask build`; MCP_WORKER_BUNDLES=<dir> [target/bundles])
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";

const REPOSITORY = fileURLToPath(new URL("../..", import.meta.url));
const BUNDLES = process.env.MCP_WORKER_BUNDLES || join(REPOSITORY, "target/bundles");
const ECHO = join(BUNDLES, "echo");
const EVERYTHING = join(BUNDLES, "everything");
for (const bundle of [ECHO, EVERYTHING]) {
  assert.ok(existsSync(join(bundle, "serve.mjs")), `no ${bundle}/serve.mjs: build the bundles first (cargo xtask build)`);
}

// ---- helpers ----

async function stdioClient(bundle, env = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(bundle, "serve.mjs")],
    env: { PATH: process.env.PATH, ...env },
    stderr: "pipe",
  });
  const client = new Client({ name: "serve-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

async function httpClient(url) {
  const client = new Client({ name: "serve-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

// Runs serve.mjs to its end: `{ code, stdout, stderr }`.
function run(entry, args = [], { env = {}, input = "" } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [entry, ...args], { env: { PATH: process.env.PATH, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

// Starts `serve.mjs --http 0`; resolves to `{ url, port, child }` once it prints its URL.
function startHttp(bundle, env = {}) {
  const child = spawn(process.execPath, [join(bundle, "serve.mjs"), "--http", "0"], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
      const url = stderr.match(/http:\/\/127\.0\.0\.1:(\d+)\/mcp/);
      if (url) resolve({ url: url[0], port: Number(url[1]), child });
    });
    child.on("exit", (code) => reject(new Error(`serve.mjs exited (${code}): ${stderr}`)));
  });
}

// One HTTP request with exactly the headers given (fetch would not let a test set Host): `{ status, headers, body }`.
function request(port, { method = "POST", path = "/mcp", headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path, headers, setHost: false }, (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

const initialized = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });

const jsonHeaders = (port, extra = {}) => ({
  host: `127.0.0.1:${port}`,
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  ...extra,
});

// The JSON-RPC messages of an SSE body.
const sseMessages = (body) =>
  body
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line.length > 6)
    .map((line) => JSON.parse(line.slice(6)));

const text = (result) => result.content.map((c) => c.text).join("");

/** everything's progress (0, 50, 100) and its three log messages reach `client` (asking for debug logs first when
 * `setLevel`), whatever the transport. */
async function assertProgressAndLogs(client, { setLevel = false } = {}) {
  const progress = [];
  const result = await client.callTool({ name: "test_tool_with_progress", arguments: {} }, undefined, {
    onprogress: (p) => progress.push(p.progress),
  });
  assert.equal(text(result), "Progress test completed");
  assert.deepEqual(progress, [0, 50, 100]);
  const logs = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n.params.data));
  if (setLevel) await client.setLoggingLevel("debug");
  await client.callTool({ name: "test_tool_with_logging", arguments: {} });
  assert.deepEqual(logs, ["Tool execution started", "Tool processing data", "Tool execution completed"]);
}

// ---- stdio ----

describe("serve.mjs over stdio", () => {
  it("serves echo to the TypeScript SDK's client", async () => {
    const client = await stdioClient(ECHO);
    try {
      assert.equal(client.getServerVersion().name, "echo");
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), ["add", "blob", "echo"]);
      assert.equal(text(await client.callTool({ name: "echo", arguments: { text: "hello from node" } })), "hello from node");
      const sum = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
      assert.deepEqual(sum.structuredContent, { sum: 5 });
    } finally {
      await client.close();
    }
  });

  it("gives everything its credential from the environment, and reports progress and logs", async () => {
    const client = await stdioClient(EVERYTHING, { EVERYTHING_API_KEY: "sk-12345" });
    try {
      const status = await client.callTool({ name: "credential_status", arguments: {} });
      assert.equal(text(status), "EVERYTHING_API_KEY is set (8 characters)");
      await assertProgressAndLogs(client, { setLevel: true });
    } finally {
      await client.close();
    }
  });

  it("answers a line that is not JSON with a parse error, goes on, and exits when stdin ends", async () => {
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping" });
    const { code, stdout, stderr } = await run(join(ECHO, "serve.mjs"), [], { input: `not json\n\n${ping}\n` });
    assert.equal(code, 0, stderr);
    const lines = stdout.trim().split("\n").map((line) => JSON.parse(line));
    assert.equal(lines.length, 2, stdout);
    assert.equal(lines[0].error.code, -32700);
    assert.deepEqual(lines[1], { jsonrpc: "2.0", id: 7, result: {} });
    assert.match(stderr, /not JSON/);
  });

  it("ends with exit code 1 and says why when the server panics", async () => {
    const call = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "crash", arguments: {} } });
    const { code, stderr } = await run(join(EVERYTHING, "serve.mjs"), [], { input: `${initialize}\n${initialized}\n${call}\n` });
    assert.equal(code, 1);
    assert.match(stderr, /the crash tool was called/);
  });
});

// ---- what a user meets on the command line ----

describe("serve.mjs on the command line", () => {
  let bundle;
  before(() => {
    // The echo bundle, declaring a required credential.
    bundle = mkdtempSync(join(tmpdir(), "serve-test-"));
    cpSync(ECHO, bundle, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(bundle, "manifest.json"), "utf8"));
    manifest.credentials = [{ name: "ECHO_TOKEN", description: "The token of the echo service", required: true }];
    writeFileSync(join(bundle, "manifest.json"), JSON.stringify(manifest));
  });
  after(() => rmSync(bundle, { recursive: true, force: true }));

  it("refuses to start without a required credential, naming it and saying what it is", async () => {
    const { code, stdout, stderr } = await run(join(bundle, "serve.mjs"), [], { env: { ECHO_TOKEN: "" } });
    assert.equal(code, 1);
    assert.equal(stdout, "", "nothing but MCP on stdout");
    assert.match(stderr, /ECHO_TOKEN: The token of the echo service/);
  });

  it("starts once the credential is set, and never prints it", async () => {
    const client = await stdioClient(bundle, { ECHO_TOKEN: "secret-value-123" });
    try {
      assert.equal(text(await client.callTool({ name: "echo", arguments: { text: "ok" } })), "ok");
    } finally {
      await client.close();
    }
    const { stdout } = await run(join(bundle, "serve.mjs"), ["--help"], { env: { ECHO_TOKEN: "secret-value-123" } });
    assert.match(stdout, /ECHO_TOKEN \(required\)/);
    assert.doesNotMatch(stdout, /secret-value-123/);
  });

  it("serves loopback addresses only", async () => {
    const { code, stderr } = await run(join(ECHO, "serve.mjs"), ["--http", "0", "--host", "0.0.0.0"]);
    assert.equal(code, 2);
    assert.match(stderr, /--host 0\.0\.0\.0: only loopback addresses/);
    const bad = await run(join(ECHO, "serve.mjs"), ["--http", "eighty"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /expected a port number/);
  });
});

// ---- Streamable HTTP ----

describe("serve.mjs --http", () => {
  let echo;
  let everything;
  before(async () => {
    [echo, everything] = await Promise.all([startHttp(ECHO), startHttp(EVERYTHING)]);
  });
  after(() => {
    echo?.child.kill();
    everything?.child.kill();
  });

  it("serves echo to the TypeScript SDK's client, a session each", async () => {
    const [a, b] = await Promise.all([httpClient(echo.url), httpClient(echo.url)]);
    try {
      assert.ok(a.transport.sessionId && a.transport.sessionId !== b.transport.sessionId);
      const { tools } = await a.client.listTools();
      assert.ok(tools.some((t) => t.name === "echo"));
      assert.equal(text(await b.client.callTool({ name: "echo", arguments: { text: "over http" } })), "over http");
    } finally {
      await a.transport.terminateSession();
      await Promise.all([a.client.close(), b.client.close()]);
    }
  });

  it("streams everything's progress and logs, and tells the client its tools changed", async () => {
    const { client } = await httpClient(everything.url);
    try {
      await assertProgressAndLogs(client);
      let changed = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed++);
      await client.callTool({ name: "add_dynamic_tool", arguments: {} });
      assert.equal(changed, 1);
      assert.ok((await client.listTools()).tools.some((t) => t.name === "dynamic_tool"));
    } finally {
      await client.close();
    }
  });

  it("closes a stream mid-call when the server asks, and the client gets the result on reconnecting", async () => {
    const { client } = await httpClient(everything.url);
    try {
      const result = await client.callTool({ name: "test_reconnection", arguments: {} });
      assert.match(text(result), /^Reconnection test completed successfully/);
    } finally {
      await client.close();
    }
  });

  it("keeps the stream of a client older than 2025-11-25 open, which could not resume it", async () => {
    const port = everything.port;
    const old = initialize.replace("2025-11-25", "2025-06-18");
    const init = await request(port, { headers: jsonHeaders(port), body: old });
    assert.equal(sseMessages(init.body)[0].result.protocolVersion, "2025-06-18");
    const headers = jsonHeaders(port, { "mcp-session-id": init.headers["mcp-session-id"], "mcp-protocol-version": "2025-06-18" });
    await request(port, { headers, body: initialized });
    const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "test_reconnection", arguments: {} } };
    const answer = await request(port, { headers, body: JSON.stringify(call) });
    assert.doesNotMatch(answer.body, /retry:/, "no priming event for an older client");
    assert.match(text(sseMessages(answer.body)[0].result), /^Reconnection test completed/);
  });

  it("refuses a Host or an Origin that is not loopback (DNS rebinding protection)", async () => {
    const port = echo.port;
    const rebound = await request(port, { headers: jsonHeaders(port, { host: "evil.example.com" }), body: initialize });
    assert.equal(rebound.status, 403);
    assert.match(JSON.parse(rebound.body).error.message, /Host "evil\.example\.com"/);
    const page = await request(port, { headers: jsonHeaders(port, { origin: "http://evil.example.com" }), body: initialize });
    assert.equal(page.status, 403);
    assert.match(JSON.parse(page.body).error.message, /Origin/);
    const local = await request(port, { headers: jsonHeaders(port, { origin: "http://localhost:5173" }), body: initialize });
    assert.equal(local.status, 200);
    assert.ok(local.headers["mcp-session-id"]);
    assert.equal(sseMessages(local.body)[0].result.serverInfo.name, "echo");
  });

  it("answers bad requests with the right status and a JSON-RPC error, and keeps serving", async () => {
    const port = echo.port;
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const noSession = await request(port, { headers: jsonHeaders(port), body: list });
    assert.equal(noSession.status, 400);
    const unknown = await request(port, { headers: jsonHeaders(port, { "mcp-session-id": "nope" }), body: list });
    assert.equal(unknown.status, 404);
    assert.equal(JSON.parse(unknown.body).error.code, -32001);
    const notJson = await request(port, { headers: jsonHeaders(port), body: "{oops" });
    assert.equal(notJson.status, 400);
    assert.equal(JSON.parse(notJson.body).error.code, -32700);
    const huge = await request(port, { headers: jsonHeaders(port), body: Buffer.alloc(17 * 1024 * 1024, 32) });
    assert.equal(huge.status, 413);
    const elsewhere = await request(port, { path: "/", headers: jsonHeaders(port), body: initialize });
    assert.equal(elsewhere.status, 404);

    const init = await request(port, { headers: jsonHeaders(port), body: initialize });
    const session = init.headers["mcp-session-id"];
    const version = await request(port, {
      headers: jsonHeaders(port, { "mcp-session-id": session, "mcp-protocol-version": "1999-01-01" }),
      body: list,
    });
    assert.equal(version.status, 400);
    assert.match(JSON.parse(version.body).error.message, /MCP-Protocol-Version 1999-01-01/);
    const listed = await request(port, { headers: jsonHeaders(port, { "mcp-session-id": session }), body: list });
    assert.equal(listed.status, 200);
    assert.ok(sseMessages(listed.body)[0].result.tools.length >= 3);
    const ended = await request(port, { method: "DELETE", headers: jsonHeaders(port, { "mcp-session-id": session }) });
    assert.equal(ended.status, 200);
    const gone = await request(port, { headers: jsonHeaders(port, { "mcp-session-id": session }), body: list });
    assert.equal(gone.status, 404);
  });

  it("answers a client that accepts only JSON with JSON, and sends the rest on its GET stream", async () => {
    const port = everything.port;
    const init = await request(port, { headers: jsonHeaders(port, { accept: "application/json" }), body: initialize });
    assert.equal(init.headers["content-type"], "application/json");
    const session = init.headers["mcp-session-id"];
    const headers = (extra) => jsonHeaders(port, { "mcp-session-id": session, ...extra });
    assert.equal((await request(port, { headers: headers(), body: initialized })).status, 202);
    const subscribe = { jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri: "test://watched-resource" } };
    await request(port, { headers: headers({ accept: "application/json" }), body: JSON.stringify(subscribe) });

    // The session's own stream, read as it arrives.
    const events = [];
    const stream = http.request({ host: "127.0.0.1", port, path: "/mcp", headers: headers({ accept: "text/event-stream" }) });
    const opened = new Promise((resolve) => stream.on("response", resolve));
    stream.end();
    const response = await opened;
    response.on("data", (d) => events.push(...sseMessages(String(d))));

    const call = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "update_watched_resource", arguments: {} } };
    const answer = await request(port, { headers: headers({ accept: "application/json" }), body: JSON.stringify(call) });
    assert.match(text(JSON.parse(answer.body).result), /subscribers notified: true/);
    for (let i = 0; i < 50 && events.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(events, [
      { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "test://watched-resource" } },
    ]);
    stream.destroy();
  });
});
