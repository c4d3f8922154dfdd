// A server's list (resources, templates, prompts) fetched page by page, with "Load more" while the server has more,
// and what to say when it is empty, not offered, or failed.
import { describe } from "./app.js";
import { fill, h } from "./dom.js";

/**
 * Fetches a list page by page into `list` (a <ul>), with a "Load more" button while the server has more.
 * `fetchPage(cursor)` resolves with `{ items, nextCursor }`; `item(x)` makes an <li>. Returns `{ element, start }`:
 * `start(fetchPage)` lists from the first page, and resolves once it is shown (rejects with the error it shows).
 */
export function pagedList({ testid, label, emptyText, unsupportedText, item }) {
  const list = h("ul", { class: "feature-list", "data-testid": testid, "aria-label": label });
  const message = h("div", { class: "feature-list-message" });
  const more = h("button", { type: "button", class: "btn btn-small", "data-testid": `${testid}-more`, "aria-label": `Load more ${label.toLowerCase()}`, hidden: true }, "Load more");
  const element = h("div", { class: "feature-list-wrap", "aria-busy": "false" }, list, message, more);
  let run = 0;
  let next = null;
  let fetchPage = null;

  async function page(cursor) {
    const mine = run;
    element.setAttribute("aria-busy", "true");
    more.disabled = true;
    try {
      const { items, nextCursor } = await fetchPage(cursor);
      if (mine !== run) return;
      list.append(...items.map(item));
      next = typeof nextCursor === "string" && nextCursor !== "" ? nextCursor : null;
      fill(message, list.children.length === 0 ? h("p", { class: "empty small" }, emptyText) : null);
    } catch (error) {
      if (mine !== run) return;
      next = null;
      fill(
        message,
        error?.code === "UNSUPPORTED"
          ? h("p", { class: "empty small", "data-testid": `${testid}-unsupported` }, unsupportedText)
          : h("p", { class: "error-box", role: "alert", "data-testid": `${testid}-error` }, describe(error)),
      );
      if (error?.code !== "UNSUPPORTED") throw error;
    } finally {
      if (mine === run) {
        element.setAttribute("aria-busy", "false");
        more.hidden = next === null;
        more.disabled = false;
      }
    }
  }

  more.addEventListener("click", () => page(next).catch(() => {}));
  return {
    element,
    start(fetcher) {
      run += 1;
      fetchPage = fetcher;
      list.replaceChildren();
      fill(message, h("p", { class: "muted small" }, "Loading…"));
      more.hidden = true;
      return page(undefined);
    },
  };
}

/** Items of a page, keeping only the entries that are objects (a server may send anything). */
export function objects(value) {
  return Array.isArray(value) ? value.filter((x) => x && typeof x === "object") : [];
}

/** A server's string for display, cut at `limit` characters (anything that is not a string is ""). */
export function clip(value, limit = 400) {
  if (typeof value !== "string") return "";
  return value.length > limit ? `${value.slice(0, limit)}…` : value;
}
