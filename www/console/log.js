// The activity log: a timestamped, append-only list (role="log", so screen readers announce new entries).
import { clock, h } from "./dom.js";

/** The log keeps this many entries; older ones are dropped so a long session stays fast. */
const MAX_ENTRIES = 500;

/** Returns `log(level, message)`; level is "info", "ok", "warn" or "error". */
export function createLog(list) {
  return function log(level, message) {
    // Stick to the bottom only if the reader was already there, so scrolling back to read is not interrupted.
    const scroller = list.parentElement;
    const atBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 24;
    const now = new Date();
    list.append(
      h(
        "li",
        { class: `log-entry log-${level}`, "data-testid": "log-entry", dataset: { level } },
        h("time", { datetime: now.toISOString() }, clock(now)),
        h("span", { class: "log-level" }, level),
        h("span", { class: "log-message" }, message),
      ),
    );
    while (list.childElementCount > MAX_ENTRIES) list.firstElementChild.remove();
    if (atBottom) scroller.scrollTop = scroller.scrollHeight;
  };
}
