// Modal dialogs on the native <dialog> element: focus moves into it, Tab stays inside, Escape cancels, and focus
// goes back where it was when it closes.
import { h } from "./dom.js";

let dialogSeq = 0;

/**
 * Opens a modal dialog. `content(close)` returns its body (nodes); `close(value)` closes it, and the returned
 * promise resolves with that value (`null` when the user pressed Escape or the close button).
 * Options: `title`, `description` (a sentence under the title), `testid`, `wide`.
 */
export function openDialog({ title, description, testid, wide = false }, content) {
  const id = `dlg${++dialogSeq}`;
  const opener = document.activeElement;
  let settle;
  const done = new Promise((resolve) => (settle = resolve));
  const element = h("dialog", {
    class: `dialog${wide ? " dialog-wide" : ""}`,
    "data-testid": testid,
    "aria-labelledby": `${id}-title`,
    "aria-describedby": description ? `${id}-desc` : null,
  });
  let closed = false;
  const close = (value = null) => {
    if (closed) return;
    closed = true;
    element.close();
    element.remove();
    if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    settle(value);
  };
  element.addEventListener("cancel", (event) => {
    event.preventDefault();
    close(null);
  });
  element.append(
    h(
      "header",
      { class: "dialog-head" },
      h("h2", { id: `${id}-title` }, title),
      h("button", { type: "button", class: "btn btn-ghost btn-small dialog-x", "aria-label": "Close", onclick: () => close(null) }, "✕"),
    ),
    description ? h("p", { id: `${id}-desc`, class: "dialog-desc muted" }, description) : null,
    h("div", { class: "dialog-body" }, content(close)),
  );
  document.body.append(element);
  element.showModal();
  const first = element.querySelector("[autofocus], input:not([type=hidden]), textarea, select, .dialog-body button");
  first?.focus();
  return { element, close, done };
}

/** Asks a yes/no question; resolves true when confirmed. */
export function confirmDialog({ title, message, confirm = "Confirm", danger = false, testid = "confirm-dialog" }) {
  return openDialog({ title, testid }, (close) => [
    h("p", {}, message),
    h(
      "div",
      { class: "dialog-actions" },
      h("button", { type: "button", class: "btn", onclick: () => close(false) }, "Cancel"),
      h(
        "button",
        { type: "button", class: `btn ${danger ? "btn-danger" : "btn-primary"}`, "data-testid": "confirm-yes", onclick: () => close(true) },
        confirm,
      ),
    ),
  ]).done.then((value) => value === true);
}
