#!/usr/bin/env node
// mcp-worker serve.mjs: the Node entry point of a server bundle (Node >= 20, no dependencies).
//
// It runs the very `server_bg.wasm` that a browser runs in a Web Worker, outside the browser:
//   node <bundle>/serve.mjs                MCP over stdio (one JSON-RPC message per line on stdin and stdout)
//   node <bundle>/serve.mjs --http PORT    MCP over Streamable HTTP at http://127.0.0.1:PORT/mcp (serve-http.mjs)
//
// The server is the bundle's wasm-bindgen glue (`server.js` + `server_bg.wasm`): `mcp_worker_connect(port, env)`
// serves MCP on a MessagePort, one JSON text per message, exactly as in the worker. Here the port is one end of a
// Node MessageChannel whose other end is bridged to stdin/stdout, or to HTTP (one channel, and so one server, per
// session). Its environment holds exactly the credentials `manifest.json` declares, read from the variables of the
// same names. stdout carries nothing but MCP; diagnostics go to stderr.

import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

const PROG = "serve.mjs";
// The largest message accepted (a stdin line, an HTTP body).
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
// How long the server may keep answering once stdin has ended.
const STDIN_END_GRACE_MS = 5000;
const LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"];

const bundleFile = (name) => new URL(`./${name}`, import.meta.url);

function fail(message, code = 1) {
  process.stderr.write(`${PROG}: ${message}\n`);
  process.exit(code);
}

function readManifest() {
  const file = bundleFile("manifest.json");
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    fail(`cannot read ${file.pathname}: ${error.message} (serve.mjs runs from a bundle built by \`cargo xtask build\`)`);
  }
  try {
    const manifest = JSON.parse(text);
    if (typeof manifest.name !== "string" || !Array.isArray(manifest.credentials)) throw new Error("no name or credentials");
    return manifest;
  } catch (error) {
    fail(`${file.pathname} is not a valid server manifest: ${error.message}`);
  }
}

function usage(manifest) {
  const credentials = manifest.credentials.map(
    (c) => `  ${c.name} (${c.required ? "required" : "optional"}): ${c.description}`,
  );
  return [
    `Usage: node serve.mjs [--http PORT [--host HOST]]`,
    ``,
    `Serves the MCP server "${manifest.name}" ${manifest.version ?? ""} of this bundle.`,
    `  (no option)   MCP over stdio: JSON-RPC messages, one per line, on stdin and stdout`,
    `  --http PORT   MCP over Streamable HTTP at http://127.0.0.1:PORT/mcp (PORT 0 picks a free port;`,
    `                the URL is printed on stderr). Only loopback clients are served: the Host and Origin`,
    `                headers of every request are checked (DNS rebinding protection).`,
    `  --host HOST   the loopback address to listen on: 127.0.0.1 (default), localhost or ::1`,
    `  --help        this text`,
    ``,
    credentials.length
      ? `Credentials, read from the environment variables of the same names:\n${credentials.join("\n")}`
      : `The server declares no credentials.`,
    ``,
  ].join("\n");
}

function parseOptions(manifest) {
  let values;
  try {
    ({ values } = parseArgs({
      options: { http: { type: "string" }, host: { type: "string" }, help: { type: "boolean", short: "h" } },
    }));
  } catch (error) {
    fail(`${error.message}\n\n${usage(manifest)}`, 2);
  }
  if (values.help) {
    process.stdout.write(usage(manifest));
    process.exit(0);
  }
  if (values.host !== undefined && values.http === undefined) fail("--host needs --http PORT", 2);
  if (values.http === undefined) return { mode: "stdio" };
  const port = Number(values.http);
  if (!/^\d+$/.test(values.http) || port > 65535) fail(`--http ${values.http}: expected a port number (0-65535)`, 2);
  const host = values.host ?? "127.0.0.1";
  if (!isLoopback(host)) {
    fail(
      `--host ${host}: only loopback addresses are served (${LOOPBACK_HOSTS.slice(0, 3).join(", ")}): ` +
        `the server has no authentication, and anyone who can reach it could use its credentials`,
      2,
    );
  }
  return { mode: "http", port, host: host === "[::1]" ? "::1" : host };
}

function isLoopback(host) {
  return LOOPBACK_HOSTS.includes(host) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

// The server's environment: the declared credentials that are set. Exits naming the required ones that are not
// (never printing a value).
function credentialsEnv(manifest) {
  const env = {};
  const missing = [];
  for (const credential of manifest.credentials) {
    const value = process.env[credential.name];
    if (value) env[credential.name] = value;
    else if (credential.required) missing.push(credential);
  }
  if (missing.length) {
    const lines = missing.map((c) => `  ${c.name}: ${c.description}`);
    fail(
      `the server "${manifest.name}" needs ${missing.length === 1 ? "a credential" : "credentials"} that ` +
        `${missing.length === 1 ? "is" : "are"} not set:\n${lines.join("\n")}\n` +
        `Set ${missing.length === 1 ? "it as an environment variable" : "them as environment variables"} ` +
        `(in an mcpServers entry: its "env").`,
    );
  }
  return env;
}

// Loads the glue and the wasm, and returns `connect(onFrame, options)`: a new server on a new MessageChannel,
// as `{ send(frame), close() }`.
async function loadServer(env) {
  const glue = await import(bundleFile("server.js").href);
  if (typeof glue.mcp_worker_connect !== "function") {
    fail("server.js exports no mcp_worker_connect(): export the server with mcp_worker_sdk::export_server!");
  }
  glue.initSync({ module: readFileSync(bundleFile("server_bg.wasm")) });
  return (onFrame, options = {}) => {
    const { port1, port2 } = new MessageChannel();
    port2.onmessage = (event) => onFrame(String(event.data));
    glue.mcp_worker_connect(port1, { ...env }, options);
    return { send: (frame) => port2.postMessage(frame), close: () => port2.close() };
  };
}

// A wasm trap (a panic in the server) leaves the instance unusable: like a crashed worker, the process ends.
function exitOnCrash(name) {
  const crash = (error) => fail(`the server "${name}" crashed: ${(error && error.stack) || error}`);
  process.on("uncaughtException", crash);
  process.on("unhandledRejection", crash);
}

// ---- stdio ----

// Splits a byte stream into lines of at most `max` bytes: `onLine(text)` for each, `onTooLong()` for each longer one
// (whose bytes are skipped up to its newline).
function lineSplitter(max, onLine, onTooLong) {
  let parts = [];
  let size = 0;
  let skipping = false;
  return (chunk) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      if (skipping || size + piece.length > max) onTooLong();
      else onLine(Buffer.concat([...parts, piece]).toString("utf8"));
      parts = [];
      size = 0;
      skipping = false;
      start = nl + 1;
    }
    const rest = chunk.subarray(start);
    if (skipping || rest.length === 0) return;
    if (size + rest.length > max) {
      parts = [];
      size = 0;
      skipping = true;
    } else {
      parts.push(rest);
      size += rest.length;
    }
  };
}

function serveStdio(connect) {
  const pending = new Set(); // ids of the client's requests not answered yet
  let ended = false;
  const exitWhenIdle = () => {
    if (ended && pending.size === 0) process.exit(0);
  };
  const server = connect((frame) => {
    const message = parseJson(frame);
    if (message && "id" in message && !("method" in message)) pending.delete(JSON.stringify(message.id));
    process.stdout.write(`${frame}\n`);
    exitWhenIdle();
  });
  const tooLarge = () => {
    process.stderr.write(`${PROG}: a message on stdin is over ${MAX_MESSAGE_BYTES} bytes: ignored\n`);
    const error = { code: -32600, message: `Invalid Request: message over ${MAX_MESSAGE_BYTES} bytes` };
    process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: null, error })}\n`);
  };
  const onLine = (line) => {
    if (!line.trim()) return;
    const message = parseJson(line);
    if (message === undefined) process.stderr.write(`${PROG}: a line on stdin is not JSON (answered -32700)\n`);
    else if (message && typeof message.method === "string" && "id" in message) pending.add(JSON.stringify(message.id));
    // A cancelled request gets no answer (a cancelled subscriptions/listen neither): waiting for one would keep the
    // process up for the whole grace period once stdin ends.
    else if (message?.method === "notifications/cancelled") pending.delete(JSON.stringify(message.params?.requestId));
    server.send(line);
  };
  process.stdout.on("error", () => process.exit(0)); // the client went away
  process.stdin.on("data", lineSplitter(MAX_MESSAGE_BYTES, onLine, tooLarge));
  process.stdin.on("end", () => {
    ended = true;
    exitWhenIdle();
    setTimeout(() => process.exit(0), STDIN_END_GRACE_MS).unref();
  });
}

function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// ---- main ----

const manifest = readManifest();
const options = parseOptions(manifest);
const env = credentialsEnv(manifest);
exitOnCrash(manifest.name);
const connect = await loadServer(env).catch((error) => fail(`cannot load the server: ${error.stack || error}`));
if (options.mode === "stdio") {
  serveStdio(connect);
} else {
  const { serveHttp } = await import(bundleFile("serve-http.mjs").href);
  serveHttp({ connect, name: manifest.name, host: options.host, port: options.port, maxBodyBytes: MAX_MESSAGE_BYTES })
    .then((url) => process.stderr.write(`${PROG}: "${manifest.name}" serves MCP (Streamable HTTP) at ${url}\n`))
    .catch((error) => fail(error.message));
}
