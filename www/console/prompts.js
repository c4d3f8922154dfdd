// The prompts of the server picked in "Resources & prompts": the list, a form with a field per argument (with the
// server's completion suggestions while typing), and the messages the prompt expands to.
import { announce, app } from "./app.js";
import { fill, h } from "./dom.js";
import { clip, objects, pagedList } from "./listing.js";
import { renderBlock, renderError } from "./result.js";

/** How long typing pauses before the server is asked for suggestions. */
const COMPLETE_DELAY_MS = 200;
/** Suggestions shown as buttons (the datalist gets up to 100, as the protocol allows). */
const MAX_CHIPS = 12;

let formSeq = 0;

const text = (value) => (typeof value === "string" ? value : "");

export function createPromptsPanel() {
  let server = null;
  /** The prompt whose form is shown, or null. */
  let shown = null;
  let getRun = 0;

  const list = pagedList({
    testid: "prompt-list",
    label: "Prompts",
    emptyText: "This server lists no prompts.",
    unsupportedText: "This server offers no prompts.",
    item: promptItem,
  });
  const detail = h("div", { class: "prompt-detail", "data-testid": "prompt-detail" });
  const element = h(
    "section",
    { class: "panel feature-panel", "aria-labelledby": "prompts-title", "data-testid": "prompts-panel" },
    h("header", { class: "panel-head" }, h("h2", { id: "prompts-title" }, "Prompts")),
    h("div", { class: "feature-split" }, h("div", { class: "feature-lists" }, list.element), detail),
  );

  function promptItem(prompt) {
    const name = text(prompt.name);
    const args = objects(prompt.arguments);
    return h(
      "li",
      { class: "feature-item", "data-testid": "prompt-item", dataset: { name } },
      h(
        "button",
        { type: "button", class: "feature-select", "aria-current": shown?.name === name ? "true" : null, onclick: () => pick(prompt) },
        h("span", { class: "feature-name mono" }, clip(name)),
        clip(prompt.title) ? h("span", { class: "feature-title" }, clip(prompt.title)) : null,
        clip(prompt.description) ? h("span", { class: "feature-desc" }, clip(prompt.description)) : null,
        h("span", { class: "badges" }, h("span", { class: "badge" }, args.length === 1 ? "1 argument" : `${args.length} arguments`)),
      ),
    );
  }

  function relist() {
    return list.start(async (cursor) => {
      const page = await app.runtime.listPrompts(server, cursor ? { cursor } : undefined);
      return { items: objects(page?.prompts), nextCursor: page?.nextCursor };
    });
  }

  function renderEmpty() {
    fill(detail, h("p", { class: "empty" }, "Pick a prompt to fill in its arguments and get its messages."));
  }

  /** Shows the form of `prompt`, for the server listed now. */
  function pick(prompt) {
    const promptName = text(prompt.name);
    const target = server;
    shown = { name: promptName };
    getRun += 1;
    for (const item of list.element.querySelectorAll("[data-testid=prompt-item]")) {
      const button = item.querySelector(".feature-select");
      if (item.dataset.name === promptName) button.setAttribute("aria-current", "true");
      else button.removeAttribute("aria-current");
    }
    const id = `pf${++formSeq}`;
    const args = objects(prompt.arguments).filter((arg) => text(arg.name) !== "");
    const fields = args.map((arg, i) => argumentField(arg, `${id}-${i}`));
    const otherValues = (except) =>
      Object.fromEntries(fields.filter((f) => f.name !== except && f.input.value !== "").map((f) => [f.name, f.input.value]));
    for (const field of fields) field.complete = (value) => suggest(target, promptName, field, value, otherValues(field.name));

    const output = h("div", { class: "prompt-result", "data-testid": "prompt-result" });
    const getButton = h("button", { type: "submit", class: "btn btn-primary", "data-testid": "prompt-get" }, "Get prompt");
    const form = h(
      "form",
      { class: "prompt-form", novalidate: true, "data-testid": "prompt-form", dataset: { prompt: promptName } },
      h("h3", { class: "mono", "data-testid": "prompt-name" }, clip(promptName)),
      clip(prompt.title) ? h("p", { class: "feature-title" }, clip(prompt.title)) : null,
      clip(prompt.description, 4000) ? h("p", { class: "muted" }, clip(prompt.description, 4000)) : null,
      h("div", { class: "fields" }, fields.length ? fields.map((f) => f.element) : h("p", { class: "muted" }, "This prompt takes no arguments.")),
      h("div", { class: "call-bar" }, getButton),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const errors = fields.filter((f) => !f.validate());
      if (errors.length) return errors[0].input.focus();
      get(target, promptName, otherValues(null), output, getButton);
    });
    fill(detail, form, output);
  }

  async function get(target, name, args, output, button) {
    const run = ++getRun;
    button.disabled = true;
    output.dataset.state = "pending";
    fill(output, h("p", { class: "muted" }, "Getting the prompt…"));
    try {
      const result = await app.runtime.getPrompt(target, name, args);
      if (run !== getRun) return;
      output.dataset.state = "ok";
      fill(output, renderMessages(result));
      const count = objects(result?.messages).length;
      announce(`${name}: ${count === 1 ? "1 message" : `${count} messages`}`);
    } catch (error) {
      if (run !== getRun) return;
      output.dataset.state = "error";
      fill(output, renderError(error));
    } finally {
      button.disabled = false;
    }
  }

  /** Asks the server for completions of `field`; a failure or a late answer shows nothing. */
  async function suggest(target, name, field, value, others) {
    const run = ++field.run;
    let values = [];
    try {
      const result = await app.runtime.complete(target, { type: "ref/prompt", name }, { name: field.name, value }, { arguments: others });
      values = (Array.isArray(result?.completion?.values) ? result.completion.values : []).filter((v) => typeof v === "string");
    } catch {
      values = [];
    }
    if (run === field.run && target === server) field.showSuggestions(values.slice(0, 100));
  }

  renderEmpty();
  return {
    element,
    /** Lists the prompts of `name` (and closes the form when the server changes). */
    show(name) {
      if (name !== server) {
        server = name;
        shown = null;
        getRun += 1;
        renderEmpty();
      }
      return relist();
    },
    relist: () => relist().catch(() => {}),
  };
}

/** A text field for one prompt argument, with a datalist and buttons for the server's suggestions. */
function argumentField(arg, id) {
  const name = text(arg.name);
  const required = arg.required === true;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const datalist = h("datalist", { id: `${id}-list` });
  const input = h("input", {
    type: "text",
    id,
    name,
    list: datalist.id,
    autocomplete: "off",
    spellcheck: "false",
    "data-testid": `prompt-arg-${name}`,
    "aria-required": required ? "true" : null,
    "aria-describedby": `${hintId} ${errorId}`,
  });
  const error = h("p", { id: errorId, class: "field-error", "data-testid": `prompt-arg-error-${name}` });
  const chips = h("div", { class: "suggestions", role: "group", "aria-label": `Suggestions for ${name}`, "data-testid": `prompt-suggestions-${name}`, "aria-live": "polite" });
  const title = text(arg.title);
  const field = {
    name,
    input,
    run: 0,
    complete: null,
    element: h(
      "div",
      { class: "field field-string" },
      h(
        "label",
        { for: id },
        h("span", { class: "field-name" }, clip(title || name)),
        title && title !== name ? h("span", { class: "field-type" }, clip(name)) : null,
        required ? h("span", { class: "required", title: "required" }, "*", h("span", { class: "sr-only" }, " (required)")) : null,
      ),
      input,
      datalist,
      h("p", { id: hintId, class: "field-hint" }, clip(arg.description, 2000)),
      chips,
      error,
    ),
    validate() {
      const missing = required && input.value === "";
      setError(missing ? `${title || name} is required` : "");
      return !missing;
    },
    showSuggestions(values) {
      fill(datalist, values.map((v) => h("option", { value: v })));
      const offered = values.filter((v) => v !== input.value).slice(0, MAX_CHIPS);
      fill(
        chips,
        offered.length ? h("span", { class: "muted small" }, "Suggestions:") : null,
        offered.map((v) =>
          h(
            "button",
            {
              type: "button",
              class: "btn btn-small btn-ghost suggestion",
              "data-testid": "prompt-suggestion",
              onclick: () => {
                input.value = v;
                fill(chips);
                input.focus();
              },
            },
            v,
          ),
        ),
      );
    },
  };
  function setError(message) {
    error.textContent = message;
    if (message) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  }
  let timer = null;
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => field.complete?.(input.value), COMPLETE_DELAY_MS);
  };
  input.addEventListener("input", () => {
    setError("");
    schedule();
  });
  input.addEventListener("focus", () => chips.childElementCount === 0 && schedule());
  return field;
}

/** The prompt's description and messages: each a role and its content blocks. */
function renderMessages(result) {
  const messages = objects(result?.messages);
  return [
    clip(result?.description, 4000) ? h("p", { class: "muted", "data-testid": "prompt-description" }, clip(result.description, 4000)) : null,
    messages.length === 0
      ? h("p", { class: "muted" }, "The prompt has no messages.")
      : h(
          "ol",
          { class: "prompt-messages", "data-testid": "prompt-messages" },
          messages.map((message) =>
            h(
              "li",
              { class: "prompt-message", "data-testid": "prompt-message", dataset: { role: clip(message.role, 40) } },
              h("span", { class: "pill prompt-role" }, clip(message.role, 40) || "?"),
              h(
                "div",
                { class: "content-blocks" },
                (Array.isArray(message.content) ? message.content : [message.content]).map((block) => renderBlock(block, "in the prompt")),
              ),
            ),
          ),
        ),
  ];
}
