// mcp-worker serve-http.mjs: MCP's Streamable HTTP transport (revision 2025-11-25, "Transports") for serve.mjs,
// on a loopback address only. No dependencies beyond Node >= 20.
//
// One endpoint, /mcp:
// - POST a JSON-RPC message. `initialize` starts a session (`Mcp-Session-Id`), and with it a server of its own (a
//   MessageChannel and `mcp_worker_connect`). A request is answered on an SSE stream of its own (as JSON when the
//   client accepts only JSON); notifications and responses get 202.
// - GET opens the session's own SSE stream, for what the server sends outside any request (list_changed,
//   resources/updated); with `Last-Event-ID` it resumes any stream where the client lost it.
// - DELETE ends the session.
// Each message the server sends goes to one stream: a response to its request's; progress to the stream of the request
// that carries its token; a handler's log to its request's; anything else to the newest request still running, or
// else to the session's own stream. Every event has an id `<stream>_<n>`, and streams keep their events for a while,
// so a client can resume one. A POST stream starts with a priming event (an id and `retry`) for clients of 2025-11-25;
// the server may then close it mid-request (`ctx.close_sse_stream()` in the Rust SDK, SEP-1699), and the client
// resumes it with a GET.
// Every request's `Host` must be this server's loopback address and its `Origin`, if any, a loopback origin: else 403
// (DNS rebinding protection).
// A POST without a session whose `_meta` (or `MCP-Protocol-Version` header) names MCP 2026-07-28 belongs to the
// modern era, which has no sessions: serve-http-modern.mjs serves it.

import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { ModernEndpoint, isModern } from "./serve-http-modern.mjs";

const PATH = "/mcp";
const SUPPORTED_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
// Priming events (and so resumable POST streams) start with this revision: older clients choke on empty events.
const PRIMING_SINCE = "2025-11-25";
// What the SDK's `ctx.close_sse_stream()` sends, only to a transport that asked for it (`sseStreams` below).
const CLOSE_SSE_STREAM = "mcp-worker/close_sse_stream";
// What the SDK adds to a handler's log so that it reaches its request's stream (`RELATED_REQUEST_META`).
const RELATED_REQUEST = "mcp-worker/request";
const RETRY_MS = 1000;
const KEEPALIVE_MS = 25_000;
// How long a finished request's stream can still be resumed.
const RESUME_TTL_MS = 60_000;
// Events kept per stream for resumption: the session's own stream keeps the latest ones only.
const STREAM_EVENTS = 10_000;
const SESSION_STREAM_EVENTS = 100;
const MAX_SESSIONS = 256;
const SESSION_IDLE_MS = 60 * 60_000;
const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

const key = (id) => JSON.stringify(id ?? null);

// Starts serving; resolves to the endpoint's URL once listening.
export function serveHttp({ connect, host, port, maxBodyBytes }) {
  const sessions = new Map();
  const context = { connect, sessions, maxBodyBytes, hosts: new Set(), modern: new ModernEndpoint(connect) };
  const server = createServer((req, res) => {
    handle(context, req, res).catch((error) => {
      process.stderr.write(`serve.mjs: ${req.method} ${req.url}: ${error.stack || error}\n`);
      if (!res.headersSent) sendError(res, 500, -32603, "Internal error");
      else res.end();
    });
  });
  const sweep = setInterval(() => closeIdleSessions(sessions), 60_000);
  sweep.unref();
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      for (const session of sessions.values()) session.close();
      context.modern.close();
      process.exit(0);
    });
  }
  return new Promise((resolve, reject) => {
    server.once("error", (error) =>
      reject(new Error(error.code === "EADDRINUSE" ? `${host} port ${port} is already in use` : error.message)),
    );
    server.listen(port, host, () => {
      const actual = server.address().port;
      context.hosts = allowedHosts(host, actual);
      resolve(`http://${host.includes(":") ? `[${host}]` : host}:${actual}${PATH}`);
    });
  });
}

// ---- requests ----

async function handle(context, req, res) {
  const refusal = rebindingRefusal(req, context.hosts);
  if (refusal) return sendError(res, 403, -32000, refusal);
  if (new URL(req.url, "http://loopback").pathname !== PATH) {
    return sendError(res, 404, -32000, `Not Found: MCP is served at ${PATH}`);
  }
  if (req.method === "POST") return post(context, req, res);
  if (req.method === "GET") return get(context, req, res);
  if (req.method === "DELETE") return remove(context, req, res);
  return sendError(res, 405, -32000, "Method Not Allowed: use POST, GET or DELETE", { allow: "GET, POST, DELETE" });
}

async function post(context, req, res) {
  const sse = accepts(req, "text/event-stream");
  if (!sse && !accepts(req, "application/json")) {
    return sendError(res, 406, -32000, "Not Acceptable: accept application/json and text/event-stream");
  }
  if (!/^application\/json\s*(;|$)/i.test(req.headers["content-type"] ?? "")) {
    return sendError(res, 415, -32000, "Unsupported Media Type: the body must be application/json");
  }
  const body = await readBody(req, context.maxBodyBytes);
  if (body === null) return;
  if (body.tooLarge) {
    // The rest of the body is read and dropped, so that the client gets to read this answer.
    return sendError(res, 413, -32600, `Payload Too Large: a message is at most ${context.maxBodyBytes} bytes`);
  }
  let message;
  try {
    message = JSON.parse(body.text);
  } catch {
    return sendError(res, 400, -32700, "Parse error: the body is not JSON");
  }
  if (Array.isArray(message)) return sendError(res, 400, -32600, "Invalid Request: batches are not supported");
  const kind = classify(message);
  if (!kind) return sendError(res, 400, -32600, "Invalid Request: not a JSON-RPC 2.0 message");
  if (isModern(req, message)) return context.modern.handle(req, res, message);
  if (kind === "request" && message.method === "initialize") return initialize(context, req, res, message, body.text);
  const session = sessionOf(context, req, res);
  if (!session || !versionAccepted(req, res)) return;
  if (kind !== "request") {
    session.fromClient(message, body.text);
    res.writeHead(202).end();
  } else if (session.requests.has(key(message.id))) {
    sendError(res, 400, -32600, `Invalid Request: request id ${key(message.id)} is already in use`);
  } else {
    session.request(message, body.text, res, sse);
  }
}

function initialize(context, req, res, message, text) {
  if (req.headers["mcp-session-id"] !== undefined) {
    return sendError(res, 400, -32600, "Invalid Request: initialize starts a new session: send it without Mcp-Session-Id");
  }
  if (context.sessions.size >= MAX_SESSIONS) {
    return sendError(res, 503, -32000, `Service Unavailable: ${MAX_SESSIONS} sessions are open; end some with DELETE`);
  }
  const session = new Session(randomUUID(), context.connect, () => context.sessions.delete(session.id));
  context.sessions.set(session.id, session);
  session.request(message, text, res, accepts(req, "text/event-stream"), message.params?.protocolVersion);
}

function get(context, req, res) {
  if (!accepts(req, "text/event-stream")) return sendError(res, 406, -32000, "Not Acceptable: accept text/event-stream");
  const session = sessionOf(context, req, res);
  if (!session || !versionAccepted(req, res)) return;
  const last = req.headers["last-event-id"];
  if (last !== undefined) {
    const [streamKey, seq] = String(last).split("_");
    const stream = session.streams.get(streamKey);
    if (!stream || !/^\d+$/.test(seq ?? "")) return sendError(res, 400, -32000, `Bad Request: unknown or expired Last-Event-ID ${last}`);
    startSse(res, session);
    return stream.attach(res, Number(seq));
  }
  if (session.own.res) return sendError(res, 409, -32000, "Conflict: this session's stream is already open");
  startSse(res, session);
  session.own.attach(res, session.own.delivered);
}

function remove(context, req, res) {
  const session = sessionOf(context, req, res);
  if (!session || !versionAccepted(req, res)) return;
  session.close();
  res.writeHead(200).end();
}

function sessionOf(context, req, res) {
  const id = req.headers["mcp-session-id"];
  if (id === undefined) return sendError(res, 400, -32000, "Bad Request: Mcp-Session-Id header is required");
  const session = context.sessions.get(id);
  if (!session) return sendError(res, 404, -32001, "Session not found");
  session.seen = Date.now();
  return session;
}

function versionAccepted(req, res) {
  const version = req.headers["mcp-protocol-version"];
  if (version === undefined || SUPPORTED_VERSIONS.includes(version)) return true;
  sendError(res, 400, -32000, `Bad Request: unsupported MCP-Protocol-Version ${version} (supported: ${SUPPORTED_VERSIONS.join(", ")})`);
  return false;
}

// ---- sessions and streams ----

// One client's session: its server, its streams, and where each of its requests is answered.
class Session {
  constructor(id, connect, onClose) {
    this.id = id;
    this.onClose = onClose;
    this.version = undefined;
    this.seen = Date.now();
    this.own = new Stream("0", SESSION_STREAM_EVENTS);
    this.streams = new Map([["0", this.own]]);
    this.nextStream = 1;
    this.requests = new Map(); // key(id) -> { method, token, stream } or { method, token, json: res }
    this.progress = new Map(); // key(progressToken) -> stream
    this.server = connect((frame) => this.fromServer(frame), { sseStreams: true });
  }

  // A client request, answered on a stream of its own (or as JSON). `version` decides the priming event: the
  // session's, or for `initialize` the one the client asks for.
  request(message, text, res, sse, version = this.version) {
    const entry = { method: message.method, token: message.params?._meta?.progressToken };
    if (sse) {
      const stream = new Stream(String(this.nextStream++), STREAM_EVENTS);
      this.streams.set(stream.key, stream);
      stream.requests.add(key(message.id));
      startSse(res, this);
      if (version >= PRIMING_SINCE) stream.prime(res);
      stream.attach(res, 0);
      entry.stream = stream;
      if (entry.token !== undefined) this.progress.set(key(entry.token), stream);
    } else {
      entry.json = res;
      res.on("close", () => (entry.json = null));
    }
    this.requests.set(key(message.id), entry);
    this.server.send(text);
  }

  fromClient(message, text) {
    if (message.method === "notifications/cancelled") this.settle(message.params?.requestId);
    this.server.send(text);
  }

  fromServer(frame) {
    let message;
    try {
      message = JSON.parse(frame);
    } catch {
      return process.stderr.write(`serve.mjs: the server sent a frame that is not JSON: ${frame.slice(0, 200)}\n`);
    }
    if (message.method === CLOSE_SSE_STREAM) return this.closeStreamOf(message.params?.requestId);
    if (message.method === undefined && "id" in message) return this.answer(message, frame);
    const progress = message.method === "notifications/progress" && this.progress.get(key(message.params?.progressToken));
    // A handler's log names its request (the SDK's hint, removed here).
    const related = message.params?._meta?.[RELATED_REQUEST];
    if (related !== undefined) {
      delete message.params._meta[RELATED_REQUEST];
      if (Object.keys(message.params._meta).length === 0) delete message.params._meta;
      frame = JSON.stringify(message);
    }
    const stream = related !== undefined && this.requests.get(key(related))?.stream;
    (progress || stream || this.streamForUnrelated()).write(frame);
  }

  // The server's hint: the stream of request `id` closes, if its client can resume it (it got a priming event).
  closeStreamOf(id) {
    const stream = this.requests.get(key(id))?.stream;
    if (stream?.resumable) stream.pause();
  }

  answer(message, frame) {
    const entry = this.requests.get(key(message.id));
    if (!entry) return; // cancelled, or a session that ended
    if (entry.method === "initialize" && message.result) this.version = message.result.protocolVersion;
    if (entry.json) {
      entry.json.writeHead(200, { "content-type": "application/json", "mcp-session-id": this.id }).end(frame);
    }
    entry.stream?.write(frame);
    this.settle(message.id);
  }

  // Forgets a request; its stream ends once it carries no other.
  settle(id) {
    const entry = this.requests.get(key(id));
    if (!entry) return;
    this.requests.delete(key(id));
    if (entry.token !== undefined) this.progress.delete(key(entry.token));
    if (entry.json && !entry.json.headersSent) entry.json.writeHead(204).end();
    const stream = entry.stream;
    if (!stream) return;
    stream.requests.delete(key(id));
    if (stream.requests.size > 0) return;
    stream.finish();
    setTimeout(() => this.streams.delete(stream.key), RESUME_TTL_MS).unref();
  }

  // The newest running request's stream, a connected one if possible; else the session's own stream.
  streamForUnrelated() {
    const running = [...this.requests.values()].map((e) => e.stream).filter(Boolean).reverse();
    return running.find((s) => s.res) ?? (this.own.res ? this.own : running[0] ?? this.own);
  }

  close() {
    for (const entry of this.requests.values()) if (entry.json) sendError(entry.json, 404, -32001, "Session ended");
    for (const stream of this.streams.values()) stream.finish();
    this.requests.clear();
    this.server.close();
    this.onClose();
  }

  idle(now) {
    return now - this.seen > SESSION_IDLE_MS && [...this.streams.values()].every((s) => !s.res);
  }
}

// A logical SSE stream: its events (kept for resumption) and the connection it is written to, if any.
class Stream {
  constructor(key, capacity) {
    this.key = key;
    this.capacity = capacity;
    this.events = []; // { seq, data }
    this.seq = 0;
    this.delivered = 0;
    this.res = null;
    this.requests = new Set();
    this.resumable = false;
    this.done = false;
  }

  // The priming event: an id to resume from, and how long to wait before reconnecting.
  prime(res) {
    this.resumable = true;
    write(res, `id: ${this.key}_0\nretry: ${RETRY_MS}\ndata: \n\n`);
  }

  write(data) {
    this.events.push({ seq: ++this.seq, data });
    if (this.events.length > this.capacity) this.events.shift();
    if (this.res) this.send(this.res, this.seq, data);
  }

  send(res, seq, data) {
    const lines = data.split(/\r\n|\r|\n/).map((line) => `data: ${line}`);
    write(res, `id: ${this.key}_${seq}\nevent: message\n${lines.join("\n")}\n\n`);
    this.delivered = Math.max(this.delivered, seq);
  }

  // Connects `res`, first replaying the events after `after`; a finished stream ends once replayed.
  attach(res, after) {
    if (this.res) this.res.end();
    for (const event of this.events) if (event.seq > after) this.send(res, event.seq, event.data);
    if (this.done) return res.end();
    this.res = res;
    const keepAlive = setInterval(() => write(res, ": keep-alive\n\n"), KEEPALIVE_MS);
    res.on("close", () => {
      clearInterval(keepAlive);
      if (this.res === res) this.res = null;
    });
  }

  // Closes the connection but not the stream: the client resumes it with Last-Event-ID (SEP-1699 polling).
  pause() {
    const res = this.res;
    this.res = null;
    res?.end();
  }

  finish() {
    this.done = true;
    this.pause();
  }
}

function closeIdleSessions(sessions) {
  const now = Date.now();
  for (const session of [...sessions.values()]) if (session.idle(now)) session.close();
}

// ---- HTTP helpers ----

function startSse(res, session) {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache, no-transform",
    connection: "keep-alive",
    "mcp-session-id": session.id,
  });
  res.flushHeaders();
  res.on("error", () => {}); // a client that left: its streams notice on "close"
}

function write(res, text) {
  if (!res.destroyed && !res.writableEnded) res.write(text);
}

function sendError(res, status, code, message, headers = {}) {
  const body = JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } });
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(body);
  return null;
}

// Whether the request's Accept header allows `type` (a missing header allows anything).
function accepts(req, type) {
  const accept = req.headers.accept;
  if (accept === undefined) return true;
  const [major] = type.split("/");
  return accept
    .split(",")
    .map((part) => part.split(";")[0].trim().toLowerCase())
    .some((range) => range === type || range === "*/*" || range === `${major}/*`);
}

// The body as text, `{ tooLarge: true }` past `limit` bytes (the rest is discarded), or null if the client left.
function readBody(req, limit) {
  return new Promise((resolve) => {
    if (Number(req.headers["content-length"]) > limit) {
      req.resume();
      return resolve({ tooLarge: true });
    }
    const chunks = [];
    let size = 0;
    const onData = (chunk) => {
      size += chunk.length;
      if (size <= limit) return chunks.push(chunk);
      req.off("data", onData);
      req.resume();
      resolve({ tooLarge: true });
    };
    req.on("data", onData);
    req.on("end", () => resolve({ text: Buffer.concat(chunks).toString("utf8") }));
    req.on("error", () => resolve(null));
  });
}

function classify(message) {
  if (!message || typeof message !== "object" || message.jsonrpc !== "2.0") return null;
  if (typeof message.method === "string") return "id" in message ? "request" : "notification";
  if ("id" in message && ("result" in message || "error" in message)) return "response";
  return null;
}

// ---- DNS rebinding protection ----

function allowedHosts(host, port) {
  const names = new Set([...LOOPBACK_NAMES, host.includes(":") ? `[${host}]` : host]);
  const hosts = new Set([...names].map((name) => `${name}:${port}`));
  if (port === 80) for (const name of names) hosts.add(name);
  return hosts;
}

// Why the request is refused, or undefined: its Host must be this server's loopback address, and its Origin (sent
// by browsers) a loopback origin, so that a web page cannot reach the server through a rebound DNS name.
function rebindingRefusal(req, hosts) {
  const host = req.headers.host?.toLowerCase();
  if (!host || !hosts.has(host)) {
    return `Forbidden: Host ${JSON.stringify(req.headers.host ?? "")} is not this server's loopback address (DNS rebinding protection)`;
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !isLoopbackOrigin(origin)) {
    return `Forbidden: Origin ${JSON.stringify(origin)} is not a loopback origin (DNS rebinding protection)`;
  }
  return undefined;
}

function isLoopbackOrigin(origin) {
  try {
    const url = new URL(origin);
    const name = url.hostname.toLowerCase();
    return /^https?:$/.test(url.protocol) && (LOOPBACK_NAMES.has(name) || /^127(\.\d{1,3}){3}$/.test(name));
  } catch {
    return false;
  }
}
