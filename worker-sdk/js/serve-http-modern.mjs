// mcp-worker serve-http-modern.mjs: Streamable HTTP for MCP 2026-07-28 (the "modern" era), used by serve-http.mjs.
//
// No sessions: every POST carries one request whose `_meta` names its protocol version and the client's
// capabilities. All modern requests share one server (it serves each request on its own, and its list changes reach
// every open `subscriptions/listen` stream). Before a request reaches it, the headers that mirror the body are
// checked (SEP-2243): `MCP-Protocol-Version` against `_meta`, `Mcp-Method`, `Mcp-Name` and each `Mcp-Param-*` a
// tool declares with `x-mcp-header`; a mismatch is 400 with -32020.
//
// A request's answer is plain JSON when the server answers at once; once the server sends a notification for the
// request first (progress, a log, a listen stream's acknowledgement), the answer is an SSE stream instead. A client
// that goes away cancels its request. Ids and progress tokens are renamed on the way in, so that clients cannot
// collide, and restored on the way out.

const PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
const CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
// What the SDK adds to a handler's log so that it reaches the right stream (removed before the client sees it).
const RELATED_REQUEST = "mcp-worker/request";
// Revisions of the handshake era: a request that names one of these in its header alone is not modern.
const HANDSHAKE_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
const NAMED = { "tools/call": "name", "prompts/get": "name", "resources/read": "uri" };
const MAX_PENDING = 1024;
const KEEPALIVE_MS = 25_000;

// Whether a POSTed message belongs to the modern era: no session, and a modern version in `_meta` or the header.
export function isModern(req, message) {
  if (req.headers["mcp-session-id"] !== undefined) return false;
  if (message?.params?._meta?.[PROTOCOL_VERSION] !== undefined) return true;
  const header = req.headers["mcp-protocol-version"];
  return header !== undefined && !HANDSHAKE_VERSIONS.includes(header) && message?.method !== "initialize";
}

export class ModernEndpoint {
  constructor(connect) {
    this.connect = connect;
    this.server = null;
    this.pending = new Map(); // internal id -> { id, res, token, sse, keepAlive }
    this.tokens = new Map(); // internal token -> internal id
    this.next = 1;
    this.headerParams = null; // tool name -> [{ path, header }], from the server's own tools/list
    this.internal = new Map(); // internal id -> resolve, for the endpoint's own requests
  }

  serverConnection() {
    this.server ??= this.connect((frame) => this.fromServer(frame), { sseStreams: true });
    return this.server;
  }

  async handle(req, res, message) {
    if (!("id" in message)) return res.writeHead(202).end(); // no client notification is defined on modern HTTP
    const meta = message.params?._meta;
    if (typeof meta?.[PROTOCOL_VERSION] !== "string") {
      return reject(res, 400, message.id, -32602, `missing _meta["${PROTOCOL_VERSION}"]: every request names its protocol version`);
    }
    if (meta[CLIENT_CAPABILITIES] === null || typeof meta[CLIENT_CAPABILITIES] !== "object") {
      return reject(res, 400, message.id, -32602, `missing _meta["${CLIENT_CAPABILITIES}"]: every request declares the client's capabilities`);
    }
    const mismatch = this.headerMismatch(req, message) ?? (await this.paramMismatch(req, message));
    if (mismatch) return reject(res, 400, message.id, -32020, `Header mismatch: ${mismatch}`);
    if (this.pending.size >= MAX_PENDING) {
      return reject(res, 503, message.id, -32603, `${MAX_PENDING} requests are running; try again later`);
    }
    this.forward(req, res, message);
  }

  // The first header that does not mirror the body, described; undefined when all do.
  headerMismatch(req, message) {
    const version = header(req, "mcp-protocol-version");
    if (version !== message.params._meta[PROTOCOL_VERSION]) {
      return `MCP-Protocol-Version ${JSON.stringify(version ?? "")} is not the _meta protocol version ${JSON.stringify(message.params._meta[PROTOCOL_VERSION])}`;
    }
    const method = header(req, "mcp-method");
    if (method !== message.method) return `Mcp-Method ${JSON.stringify(method ?? "")} is not the method ${JSON.stringify(message.method)}`;
    const field = NAMED[message.method];
    if (field === undefined) return undefined;
    const name = decodeHeader(header(req, "mcp-name"));
    const expected = message.params?.[field];
    if (name !== expected) return `Mcp-Name ${JSON.stringify(name ?? "")} is not the ${field} ${JSON.stringify(expected)}`;
    return undefined;
  }

  // For tools/call: the first `Mcp-Param-*` header the tool declares (`x-mcp-header`) that does not mirror its
  // argument, described.
  async paramMismatch(req, message) {
    if (message.method !== "tools/call") return undefined;
    const params = (await this.toolHeaderParams()).get(message.params?.name) ?? [];
    for (const { path, header: name } of params) {
      const value = path.reduce((object, key) => (object && typeof object === "object" ? object[key] : undefined), message.params?.arguments);
      const raw = header(req, `mcp-param-${name.toLowerCase()}`);
      if (value === undefined || value === null) continue;
      if (raw === undefined) return `Mcp-Param-${name} is missing; it mirrors the argument ${path.join(".")}`;
      const decoded = decodeHeader(raw);
      if (decoded === undefined) return `Mcp-Param-${name} is not valid base64 between =?base64? and ?=`;
      if (decoded !== String(value)) return `Mcp-Param-${name} ${JSON.stringify(decoded)} is not the argument ${path.join(".")} ${JSON.stringify(value)}`;
    }
    return undefined;
  }

  // Which arguments of which tools are mirrored in headers, read once from the server's tools/list (every page)
  // and read again when its tools change.
  async toolHeaderParams() {
    if (this.headerParams) return this.headerParams;
    const found = new Map();
    let cursor;
    do {
      const result = await this.ask("tools/list", cursor === undefined ? {} : { cursor });
      for (const tool of result?.tools ?? []) found.set(tool.name, headerParamsOf(tool.inputSchema));
      cursor = result?.nextCursor;
    } while (cursor !== undefined);
    if (!this.listening) {
      this.listening = true;
      this.ask("subscriptions/listen", { notifications: { toolsListChanged: true } }, true);
    }
    this.headerParams = found;
    return found;
  }

  // A request of the endpoint's own to the server; resolves to its result (undefined on an error).
  ask(method, params, stream = false) {
    const id = `own-${this.next++}`;
    const _meta = { [PROTOCOL_VERSION]: "2026-07-28", [CLIENT_CAPABILITIES]: {} };
    return new Promise((resolve) => {
      this.internal.set(id, { resolve, stream });
      this.serverConnection().send(JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta } }));
    });
  }

  forward(req, res, message) {
    const internal = `m${this.next++}`;
    const entry = { id: message.id, res, token: undefined, sse: false, keepAlive: null };
    const meta = { ...message.params._meta };
    if (meta.progressToken !== undefined) {
      entry.token = meta.progressToken;
      meta.progressToken = internal;
      this.tokens.set(internal, internal);
    }
    this.pending.set(internal, entry);
    res.on("error", () => {});
    res.on("close", () => {
      if (!this.pending.has(internal)) return;
      // The client left before the answer: that is the cancellation of its request.
      this.settle(internal);
      this.serverConnection().send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: internal, reason: "the HTTP client disconnected" } }));
    });
    const forwarded = { ...message, id: internal, params: { ...message.params, _meta: meta } };
    this.serverConnection().send(JSON.stringify(forwarded));
  }

  fromServer(frame) {
    let message;
    try {
      message = JSON.parse(frame);
    } catch {
      return process.stderr.write(`serve.mjs: the server sent a frame that is not JSON: ${frame.slice(0, 200)}\n`);
    }
    if (message.method === undefined) return this.answer(message);
    const meta = message.params?._meta ?? {};
    if (meta[SUBSCRIPTION_ID] !== undefined && this.internal.get(meta[SUBSCRIPTION_ID])?.stream) {
      if (message.method === "notifications/tools/list_changed") this.headerParams = null;
      return;
    }
    const target = meta[SUBSCRIPTION_ID] ?? meta[RELATED_REQUEST] ?? (message.method === "notifications/progress" ? this.tokens.get(message.params?.progressToken) : undefined);
    const entry = target === undefined ? undefined : this.pending.get(target);
    if (!entry) return; // nothing of the modern era goes anywhere but to its request's stream
    const params = { ...message.params };
    const restored = { ...meta };
    delete restored[RELATED_REQUEST];
    if (restored[SUBSCRIPTION_ID] !== undefined) restored[SUBSCRIPTION_ID] = entry.id;
    if (Object.keys(restored).length) params._meta = restored;
    else delete params._meta;
    if (message.method === "notifications/progress") params.progressToken = entry.token;
    this.stream(entry, JSON.stringify({ ...message, params }));
  }

  answer(message) {
    const own = this.internal.get(message.id);
    if (own) {
      this.internal.delete(message.id);
      return own.resolve(message.result);
    }
    const entry = this.pending.get(message.id);
    if (!entry) return; // cancelled
    this.settle(message.id);
    const frame = JSON.stringify({ ...message, id: entry.id });
    if (entry.sse) {
      sseEvent(entry.res, frame);
      return entry.res.end();
    }
    const status = message.error ? statusOf(message.error.code) : 200;
    entry.res.writeHead(status, { "content-type": "application/json" }).end(frame);
  }

  // Writes a notification of a request: the first one turns its answer into an SSE stream.
  stream(entry, frame) {
    if (!entry.sse) {
      entry.sse = true;
      entry.res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" });
      entry.res.flushHeaders();
      entry.keepAlive = setInterval(() => write(entry.res, ": keep-alive\n\n"), KEEPALIVE_MS);
    }
    sseEvent(entry.res, frame);
  }

  settle(internal) {
    const entry = this.pending.get(internal);
    if (!entry) return;
    this.pending.delete(internal);
    this.tokens.delete(internal);
    clearInterval(entry.keepAlive);
  }

  close() {
    for (const entry of this.pending.values()) entry.res.end();
    this.pending.clear();
    this.server?.close();
  }
}

// HTTP status of an error the server answered: not found, or a request the client must change.
function statusOf(code) {
  if (code === -32601) return 404;
  if (code === -32020 || code === -32021 || code === -32022) return 400;
  return 200;
}

// A header's value, with surrounding whitespace removed (RFC 9110 OWS); undefined when absent.
function header(req, name) {
  const value = req.headers[name];
  return value === undefined ? undefined : String(value).trim();
}

// A header value, decoded from `=?base64?…?=` when it has both markers (standard alphabet, padding required,
// UTF-8); undefined when such a value is not valid.
export function decodeHeader(value) {
  if (value === undefined) return undefined;
  const match = /^=\?base64\?(.*)\?=$/.exec(value);
  if (!match) return value;
  const text = match[1];
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(text, "base64"));
  } catch {
    return undefined;
  }
}

// The arguments of an input schema mirrored in headers: properties reached through `properties` alone whose
// schema names an `x-mcp-header`.
export function headerParamsOf(schema, path = []) {
  const found = [];
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (!property || typeof property !== "object") continue;
    if (typeof property["x-mcp-header"] === "string") found.push({ path: [...path, name], header: property["x-mcp-header"] });
    found.push(...headerParamsOf(property, [...path, name]));
  }
  return found;
}

function reject(res, status, id, code, message) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }));
}

function sseEvent(res, frame) {
  write(res, `event: message\ndata: ${frame}\n\n`);
}

function write(res, text) {
  if (!res.destroyed && !res.writableEnded) res.write(text);
}
