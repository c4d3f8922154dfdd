// What the page does in JavaScript with a worker's frames, for the host's Rust code (the `extern` blocks that import
// this module say what each function does). One module, so that the browser fetches one file for all of it.

// Tool calls whose arguments and results stay JavaScript values (src/worker/js_calls.rs).
export function callFrame(id, name, args, progressToken, envelope) {
  if (typeof name !== "string") throw new TypeError("the tool name must be a string");
  let frame = '{"jsonrpc":"2.0","id":' + id + ',"method":"tools/call","params":{"name":' + JSON.stringify(name);
  if (args !== undefined && args !== null) {
    if (typeof args !== "object" || Array.isArray(args)) throw new TypeError("tool arguments must be an object");
    frame += ',"arguments":' + JSON.stringify(args);
  }
  const meta = [];
  if (envelope !== undefined) meta.push(envelope);
  if (progressToken !== undefined) meta.push('"progressToken":' + progressToken);
  if (meta.length > 0) frame += ',"_meta":{' + meta.join(",") + '}';
  return frame + '}}';
}
export function plainResult(data) {
  if (typeof data !== "string") return null;
  let m;
  try { m = JSON.parse(data); } catch { return null; }
  return plainMessage(m);
}
export function plainMessage(m) {
  if (m === null || typeof m !== "object" || m.jsonrpc !== "2.0" || !Number.isSafeInteger(m.id)) return null;
  if (!("result" in m) || "error" in m || "method" in m) return null;
  const type = m.result !== null && typeof m.result === "object" ? m.result.resultType : undefined;
  if (type !== undefined && type !== "complete") return null;
  return m;
}
export function messageId(m) { return m.id; }
export function messageResult(m) { return m.result; }

// tools/list pages read by the page (src/worker/js_listing.rs).
export function appendListed(tools, result) {
  const listed = result !== null && typeof result === "object" ? result.tools : undefined;
  if (!Array.isArray(listed)) throw new Error("tools/list result tools is not an array");
  for (let i = 0; i < listed.length; i += 1) tools.push(listed[i]);
  const next = result.nextCursor;
  if (next === undefined || next === null) return undefined;
  if (typeof next !== "string") throw new Error("unreadable tools/list result: nextCursor is not a string");
  return next;
}
export function appendPage(tools, text) {
  const page = JSON.parse(text);
  for (let i = 0; i < page.length; i += 1) tools.push(page[i]);
}

// Frames whose large strings travel beside them (src/worker/detached.rs; docs/wire-protocol.md, "Detached strings").
// A string comes as itself, or as a Uint8Array of its UTF-8, which is decoded here (strictly: bytes that are not
// UTF-8 fail the frame). Its byte length counts towards the frame's limit: a string has no more UTF-16 units than
// bytes of UTF-8.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
// Per message with detached bytes, the buffers the page decoded (kept apart from the message, which the worker wrote).
const spentBuffers = new WeakMap();
function detachedText(value, at, spent) {
  if (typeof value === "string") return value;
  let text;
  try {
    text = utf8.decode(value);
  } catch {
    throw new Error(`detached string ${at} is not UTF-8`);
  }
  spent.add(value.buffer);
  return text;
}
export function detachedLength(data) {
  if (data === null || typeof data !== "object" || typeof data.frame !== "string" || "jsonrpc" in data) return -1;
  const strings = data.strings;
  if (!Array.isArray(strings) || strings.length > 1024) return -1;
  let length = data.frame.length;
  for (const pair of strings) {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== "string") return -1;
    const value = pair[1];
    if (typeof value === "string") length += value.length;
    else if (value instanceof Uint8Array) length += value.byteLength;
    else return -1;
  }
  return length;
}
function detachedStrings(data) {
  const strings = new Map();
  // Decoded bytes replace themselves in the message, so a frame read twice (parsed for a JavaScript caller that
  // turns out not to be waiting for it, then as text) decodes them once.
  // The buffers decoded, which the worker may have back (FrameSender.recycle).
  let spent = spentBuffers.get(data);
  if (spent === undefined) spentBuffers.set(data, (spent = new Set()));
  data.strings.forEach((pair, at) => strings.set(pair[0], (pair[1] = detachedText(pair[1], at, spent))));
  if (strings.size !== data.strings.length) throw new Error("two detached strings have the same marker");
  return strings;
}
export function attachParsed(data) {
  const strings = detachedStrings(data);
  const message = JSON.parse(data.frame);
  const stack = message !== null && typeof message === "object" ? [message] : [];
  while (stack.length > 0) {
    const node = stack.pop();
    for (const key of Object.keys(node)) {
      const value = node[key];
      if (typeof value === "string") {
        const text = strings.get(value);
        if (text !== undefined) {
          node[key] = text;
          strings.delete(value);
        }
      } else if (value !== null && typeof value === "object") {
        stack.push(value);
      }
    }
  }
  if (strings.size > 0) throw new Error("a detached string's marker is not in its frame");
  return message;
}
export function attachText(data) {
  let text = data.frame;
  for (const [marker, value] of detachedStrings(data)) {
    const quoted = JSON.stringify(marker);
    const at = text.indexOf(quoted);
    if (at < 0 || text.indexOf(quoted, at + quoted.length) >= 0) {
      throw new Error("a detached string's marker is not in its frame exactly once");
    }
    text = text.slice(0, at) + JSON.stringify(value) + text.slice(at + quoted.length);
  }
  return text;
}
export function frameId(data) {
  try {
    const id = JSON.parse(data.frame)?.id;
    return Number.isSafeInteger(id) ? id : -1;
  } catch {
    return -1;
  }
}

// Frames the page posts to a worker (src/worker.rs; docs/wire-protocol.md, "Batches"). To a worker whose `boot`
// said it reads batches, the frames posted in one turn of the event loop go as one message, an array of them, at
// the end of that turn: a message costs both threads more than the frames in it, and calls made together (an agent's
// parallel tool calls, the answers of a batch the worker sent) are sent together. Order is kept.
export class FrameSender {
  constructor(port) {
    this.port = port;
    this.maxFrames = 1;
    this.maxChars = 0;
    this.queue = [];
    this.chars = 0;
    this.flushing = false;
    this.flush = () => this.drain();
    this.recycling = false;
  }
  // The worker said it takes back the buffers of the detached bytes it sent (its `boot` said `buffers: true`).
  recycles() {
    this.recycling = true;
  }
  // Gives the worker back the buffers of a message's detached bytes once they are decoded: copying the next large
  // string into memory it has written before costs it a fraction of filling fresh memory. Nothing the page holds
  // refers to them any more; a buffer that cannot be moved (shared, or already gone) stays where it is.
  recycle(data) {
    const spent = spentBuffers.get(data);
    if (spent === undefined) return;
    spentBuffers.delete(data);
    if (!this.recycling) return;
    const buffers = [...spent].filter((b) => b instanceof ArrayBuffer && !b.detached && b.byteLength > 0);
    if (buffers.length === 0) return;
    try {
      this.port.postMessage({ mcpWorker: "buffers", buffers }, buffers);
    } catch {
      // Not transferable: the worker allocates anew.
    }
  }
  batches(maxFrames, maxChars) {
    this.maxFrames = maxFrames;
    this.maxChars = maxChars;
  }
  send(frame) {
    if (this.maxFrames <= 1) return this.port.postMessage(frame);
    if (this.queue.length >= this.maxFrames || (this.queue.length > 0 && this.chars + frame.length > this.maxChars)) {
      this.post();
    }
    this.queue.push(frame);
    this.chars += frame.length;
    if (!this.flushing) {
      this.flushing = true;
      queueMicrotask(this.flush);
    }
  }
  drain() {
    this.flushing = false;
    this.post();
  }
  post() {
    const queue = this.queue;
    if (queue.length === 0) return;
    this.queue = [];
    this.chars = 0;
    this.port.postMessage(queue.length === 1 ? queue[0] : queue);
  }
}
// The total length of the frames of a batch from the worker (an array), or -1 when one of them is not a string.
export function batchLength(data) {
  let length = 0;
  for (let i = 0; i < data.length; i += 1) {
    if (typeof data[i] !== "string") return -1;
    length += data[i].length;
  }
  return length;
}

// Closing the port of a server disconnected for what it sent, off the page's thread (src/worker/port_disposal.rs).
// The disposing worker is made on first use; undefined until then, null when it cannot run.
let disposer;
export function closeOffThread(port) {
  port.onmessage = null;
  if (disposer === undefined) {
    disposer = null;
    try {
      const script = "onmessage = (event) => { for (const port of event.ports) port.close(); };";
      const url = URL.createObjectURL(new Blob([script], { type: "text/javascript" }));
      // The URL is resolved when the worker is constructed.
      try { disposer = new Worker(url); } finally { URL.revokeObjectURL(url); }
      // A policy may refuse the script only once it is fetched: the ports handed over meanwhile close with the
      // worker, the next ones on the page.
      disposer.onerror = () => { disposer = null; };
    } catch {
      disposer = null;
    }
  }
  if (disposer) {
    try {
      disposer.postMessage(null, [port]);
      return;
    } catch {}
  }
  port.close();
}

// A server's file for the sandbox, fetched by the page: the page's HTTP cache keeps it, while an opaque origin's
// requests are never cached, so a sandboxed frame's or worker's own fetch would download it each time. Posts
// `{ ...message, [key]: body }` on `port`, the response's body as a stream (transferred: the sandbox reads it as it
// comes, as from its own fetch), or null when the fetch fails (the sandbox then fetches the file itself, and reports
// what went wrong, as it always has).
function postBody(url, port, key, message = {}) {
  fetch(url, { credentials: "omit" })
    .then((response) => (response.ok && response.body ? response.body : null))
    .catch(() => null)
    .then((body) => {
      try {
        port.postMessage({ ...message, [key]: body }, body ? [body] : []);
      } catch {
        port.postMessage({ ...message, [key]: null });
      }
    });
}

// For a sandboxed start (src/worker/endpoint.rs): `{ mcpWorker: "bundle", port }` on its control channel, which the
// server's frame relays to the worker's prelude, then, on that port, straight to the worker (a stream relayed by the
// frame would pass each of its chunks through the frame), `{ body }` for the wasm at `url` and `{ script }` for the
// bootstrap at `entry`, each its response's body (a stream: the page neither holds nor decodes a server's files),
// fetched through the page's cache, or null when its fetch fails (the worker then fetches the file itself, as it
// imports a bootstrap that is not a bundle's one-module entry).
export function sendBundle(url, entry, control) {
  const channel = new MessageChannel();
  control.postMessage({ mcpWorker: "bundle", port: channel.port2 }, [channel.port2]);
  postBody(url, channel.port1, "body");
  postBody(entry, channel.port1, "script");
}

// `{ keep: url, body }` for the frame that keeps compiled modules (src/worker/module_keeper.rs).
export function keepWasm(url, port) {
  postBody(url, port, "body", { keep: url });
}
