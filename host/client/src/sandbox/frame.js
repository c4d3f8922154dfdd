"use strict";
// The document of a server's sandboxed frame (opaque origin; its Content-Security-Policy is the server's network
// policy, in its document or, for a frame made ahead, added from the host's first message). It starts the server's
// worker once, from a blob: URL so the worker shares the frame's origin and policy, and relays the host's control
// messages to it. Worker messages are relayed only as the small records the host
// reads, so a server cannot send the page more than that on this channel. MCP frames never pass through here: the
// host's MessagePort is transferred on to the worker.
// A frame told to `keep` runs no server: it holds modules of the wasm URLs sent on `control` (module_keeper.rs),
// compiled from the body the page sends with a URL (a stream of the bytes it fetched), or else fetched.
(() => {
  let started = false;
  const KEPT_MAX = 8;
  const keep = (kept, url, body) => {
    if (typeof url !== "string" || url.length > 4096 || !/^https?:\/\//i.test(url)) return;
    const compile = () =>
      WebAssembly.compileStreaming(
        body instanceof ReadableStream
          ? new Response(body, { headers: { "Content-Type": "application/wasm" } })
          : fetch(url, { credentials: "omit" }),
      );
    const module = kept.get(url) ?? compile().catch(() => null);
    kept.delete(url);
    kept.set(url, module);
    if (kept.size > KEPT_MAX) kept.delete(kept.keys().next().value);
  };
  const kinds = new Set(["boot", "fatal", "pong", "closing", "blocked", "loadError"]);
  const text = (value, max) => String(value ?? "").slice(0, max);
  addEventListener("message", (event) => {
    const init = event.data;
    if (started || event.source !== parent || !init || init.mcpWorkerFrame !== 1) return;
    if (!(init.control instanceof MessagePort)) return;
    started = true;
    const control = init.control;
    if (init.keep === true) {
      const kept = new Map();
      control.onmessage = (e) => keep(kept, e.data && e.data.keep, e.data && e.data.body);
      return;
    }
    // A spare frame, made before its server was known, takes on the server's policy before the worker exists: the
    // browser enforces it beside the frame's own, and the worker inherits both.
    if (typeof init.policy === "string") {
      const meta = document.createElement("meta");
      meta.httpEquiv = "Content-Security-Policy";
      meta.content = init.policy;
      document.head.append(meta);
    }
    let worker;
    try {
      const entry = `const entry = ${JSON.stringify(String(init.entry))};\n${String(init.prelude)}`;
      worker = new Worker(URL.createObjectURL(new Blob([entry], { type: "text/javascript" })), { name: text(init.name, 200) });
    } catch (error) {
      control.postMessage({ mcpWorker: "loadError", error: text(error && error.message ? error.message : error, 2000) });
      return;
    }
    worker.onmessage = (e) => {
      const m = e.data;
      if (!m || typeof m !== "object" || !kinds.has(m.mcpWorker)) return;
      const record = { mcpWorker: m.mcpWorker };
      if (m.v !== undefined) record.v = Number(m.v);
      if (m.batches === true) record.batches = true;
      if (m.buffers === true) record.buffers = true;
      if (typeof m.modern === "string") record.modern = text(m.modern, 40);
      if (m.error !== undefined) record.error = text(m.error, 4000);
      if (m.origin !== undefined) record.origin = text(m.origin, 2000);
      if (m.directive !== undefined) record.directive = text(m.directive, 100);
      control.postMessage(record);
    };
    worker.onmessageerror = () => control.postMessage({ mcpWorker: "fatal", error: "a control message could not be deserialized" });
    worker.onerror = (e) => {
      e.preventDefault();
      control.postMessage({ mcpWorker: "error", error: text(e.message, 4000) });
    };
    control.onmessage = (e) => {
      const m = e.data;
      try {
        worker.postMessage(m, m && m.port instanceof MessagePort ? [m.port] : []);
      } catch (error) {
        control.postMessage({ mcpWorker: "fatal", error: text(error && error.message, 2000) });
      }
    };
  });
})();
