// The worker guard (docs/wire-protocol.md, "The worker guard"): answers the host's heartbeat, says so when the worker
// closes itself, and reports requests the network policy blocked. It runs before any server code: first in the
// host's prelude, and first in an SDK bundle's bootstrap for a worker the host starts from the bundle's own URL. It
// installs itself once per worker, and says so on `self` for the bootstrap's `boot`.
{
  const installed = Symbol.for("mcpWorker.guard");
  if (self[installed] !== true) {
    Object.defineProperty(self, installed, { value: true });
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
  }
}
