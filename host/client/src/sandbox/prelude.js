// The first code of every server worker (`entry`, the bundle's bootstrap URL, is defined just above). It answers
// the host's heartbeat, says so when the worker closes itself, reports requests the network policy blocked, and
// then imports the server. It runs before any server code, so the functions it keeps cannot be replaced first.
"use strict";
{
  const post = self.postMessage.bind(self);
  const scope = Object.getPrototypeOf(self);
  const close = scope.close;
  scope.close = function () {
    try { post({ mcpWorker: "closing" }); } catch {}
    return close.call(this);
  };
  self.addEventListener("message", (event) => {
    const m = event.data;
    if (m && m.mcpWorker === "ping") {
      event.stopImmediatePropagation();
      post({ mcpWorker: "pong" });
    }
  });
  self.addEventListener("securitypolicyviolation", (v) => {
    let origin = String(v.blockedURI);
    try { origin = new URL(v.blockedURI).origin; } catch {}
    post({ mcpWorker: "blocked", origin, directive: String(v.effectiveDirective) });
  });
  import(entry).catch((error) => post({ mcpWorker: "loadError", error: String((error && error.message) || error) }));
}
