// The page's link to tests/bench/run.mjs when no DevTools client is attached to the browser (`?report=<path>`, the
// runner's default): what the runner would otherwise read through the DevTools protocol travels as POSTs to the
// page's own origin (the runner's proxy). Nothing is sent while a window is measured: the page's log lines and errors
// wait in a buffer and go with the next window mark (`__benchMark`, which the runner answers once it has counted) and
// with the results.

/** Links the page to the runner at `base` (a path on the page's origin ending in `/`). */
export function linkToRunner(base) {
  const lines = [];
  const keep = (level) => {
    const original = console[level].bind(console);
    console[level] = (...args) => {
      original(...args);
      lines.push({ level, text: args.map(String).join(" ") });
    };
  };
  ["log", "warn", "error"].forEach(keep);
  addEventListener("error", (event) => lines.push({ level: "pageerror", text: String(event.message) }));
  addEventListener("unhandledrejection", (event) => lines.push({ level: "pageerror", text: String(event.reason) }));
  const post = async (what, body) => {
    const response = await fetch(base + what, { method: "POST", body: JSON.stringify({ ...body, lines: lines.splice(0) }) });
    await response.arrayBuffer();
  };
  globalThis.__benchMark = (label, phase, calls) => post("mark", { label, phase, calls });
  return { done: (result) => post("done", { result }) };
}
