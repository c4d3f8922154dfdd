// Small DOM helpers shared by the console modules.

/**
 * Creates an element. Content is always set through text nodes, never innerHTML: tool names, descriptions and
 * results come from servers and must not be able to inject markup into the console.
 * Props: `class`, `dataset`, `on<event>` listeners, DOM properties for non-string values (checked, disabled, open…),
 * attributes otherwise.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value == null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (typeof value !== "string" && key in el) el[key] = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  el.append(...nodes(children));
  return el;
}

/** Children as `append`/`replaceChildren` take them: nested arrays flattened, null and false left out. */
export function nodes(children) {
  return children.flat(Infinity).filter((c) => c != null && c !== false);
}

/** Replaces an element's children (arrays and nulls allowed, as in `h`). */
export function fill(el, ...children) {
  el.replaceChildren(...nodes(children));
  return el;
}

/** `HH:MM:SS.mmm` in local time: precise enough to read call ordering in the log. */
export function clock(date = new Date()) {
  const pad = (n, w = 2) => String(n).padStart(w, "0");
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

/** A duration for humans: sub-millisecond precision only where it means something. */
export function formatMs(ms) {
  if (ms < 10) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${ms.toFixed(1)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/** JSON for display; never throws (cyclic or BigInt values fall back to String). */
export function pretty(value) {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Cuts long text so a huge result cannot freeze the page; says how much was left out. */
export function truncate(text, limit) {
  if (text.length <= limit) return { text, omitted: 0 };
  return { text: text.slice(0, limit), omitted: text.length - limit };
}
