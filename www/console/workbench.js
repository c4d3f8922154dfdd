// The workbench: the selected tool, its generated argument form (or raw JSON), the Call button; and the call itself.
import { app, byTestId, describe, on, selectedTool } from "./app.js";
import { fill, formatMs, h, pretty } from "./dom.js";
import { buildArgsForm } from "./form.js";
import { renderProgress, renderResult } from "./result.js";
import { connectionLost } from "./servers.js";
import { badges } from "./tools.js";

const DEFAULT_TIMEOUT_MS = 30_000;

/** The tool definition the form was built from: a server event that leaves it unchanged keeps what was typed. */
let shownTool = null;
let formSeq = 0;
let callSeq = 0;

export function mountWorkbench() {
  on("selection", render);
  on("servers", () => selectedTool().tool !== shownTool && render());
  render();
}

function render() {
  const body = byTestId("workbench-body");
  const { server, tool } = selectedTool();
  shownTool = tool;
  if (!tool) {
    const text = server ? `${server.config.name} is not connected.` : "Select a tool to call it.";
    fill(body, h("p", { class: "empty", "data-testid": "workbench-empty" }, text));
    return;
  }
  const id = `f${++formSeq}`; // keeps ids unique across re-renders, for label/for and aria-describedby
  const view = {
    server: server.config.name,
    tool: tool.name,
    form: buildArgsForm(tool.inputSchema, id),
    rawToggle: h("input", { type: "checkbox", role: "switch", id: `${id}-raw`, "data-testid": "raw-toggle" }),
    rawEditor: h("textarea", {
      id: `${id}-json`,
      class: "mono raw-json",
      rows: "8",
      spellcheck: "false",
      "data-testid": "raw-json",
      "aria-describedby": `${id}-error`,
    }),
    formError: h("p", { id: `${id}-error`, class: "form-error", role: "alert", "data-testid": "form-error" }),
    timeout: h("input", { id: `${id}-timeout`, type: "number", min: "1", step: "1", value: String(DEFAULT_TIMEOUT_MS), class: "timeout-input", "data-testid": "timeout" }),
    callButton: h("button", { type: "submit", class: "btn btn-primary", "data-testid": "call-button" }, "Call"),
  };
  view.rawWrap = h("div", { class: "raw-editor", hidden: true }, h("label", { for: view.rawEditor.id }, "Arguments (a JSON object)"), view.rawEditor);
  const title = tool.title ?? tool.annotations?.title;

  const form = h(
    "form",
    { class: "tool-form", novalidate: true, "data-testid": "tool-form", dataset: { tool: tool.name } },
    h(
      "div",
      { class: "tool-head" },
      h("h3", { class: "mono", "data-testid": "selected-tool" }, tool.name),
      h("span", { class: "muted" }, `on ${view.server}`),
      badges(tool),
    ),
    title ? h("p", { class: "tool-title" }, title) : null,
    tool.description ? h("p", { class: "tool-description" }, tool.description) : null,
    h(
      "div",
      { class: "form-toolbar" },
      h("h4", {}, "Arguments"),
      h("label", { class: "switch", for: view.rawToggle.id }, view.rawToggle, h("span", {}, "Raw JSON")),
    ),
    view.form.element,
    view.rawWrap,
    view.formError,
    h(
      "div",
      { class: "call-bar" },
      view.callButton,
      h("label", { class: "timeout", for: view.timeout.id }, "Timeout", view.timeout, "ms"),
      h("span", { class: "hint" }, h("kbd", {}, "Ctrl"), "+", h("kbd", {}, "Enter"), " to call"),
    ),
    schemaDetails("Input schema", tool.inputSchema),
    tool.outputSchema ? schemaDetails("Output schema", tool.outputSchema) : null,
  );

  view.rawToggle.addEventListener("change", () => switchMode(view));
  view.rawEditor.addEventListener("input", () => (view.formError.textContent = ""));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    call(view);
  });
  // Ctrl/Cmd+Enter calls from anywhere in the form, textareas included (where Enter is a newline).
  form.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  fill(body, form);
}

function schemaDetails(label, schema) {
  return h("details", { class: "schema" }, h("summary", {}, label), h("pre", { class: "code" }, pretty(schema)));
}

/** Toggles between the generated fields and the raw JSON editor, carrying the arguments across. */
function switchMode(view) {
  const { form, rawToggle, rawEditor, rawWrap, formError } = view;
  formError.textContent = "";
  if (rawToggle.checked) {
    rawEditor.value = pretty(form.read({ mark: false }).args);
    form.element.hidden = true;
    rawWrap.hidden = false;
    return;
  }
  const parsed = parseRaw(rawEditor.value);
  const problems = parsed.ok ? form.check(parsed.args) : [parsed.message];
  if (problems.length) {
    // Stay in raw mode rather than silently drop what the fields cannot hold.
    rawToggle.checked = true;
    formError.textContent = `Cannot switch to the form: ${problems.join("; ")}.`;
    return;
  }
  form.write(parsed.args);
  rawWrap.hidden = true;
  form.element.hidden = false;
}

function parseRaw(text) {
  if (text.trim() === "") return { ok: true, args: {} };
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: `Arguments are not valid JSON: ${e.message}` };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, message: 'Arguments must be a JSON object, like {"text": "hi"}' };
  }
  return { ok: true, args: value };
}

/** Reads the arguments, calls the tool and shows the outcome; input errors are shown without sending anything. */
async function call(view) {
  const { server, tool, form, rawToggle, rawEditor, formError, timeout, callButton } = view;
  const client = app.servers.get(server).client;
  if (!client) return;

  let args;
  if (rawToggle.checked) {
    const parsed = parseRaw(rawEditor.value);
    if (!parsed.ok) return notSent(view, parsed.message, rawEditor);
    args = parsed.args;
  } else {
    const read = form.read();
    if (read.errors.length) {
      const message = `Check the arguments: ${read.errors.map((e) => e.message).join("; ")}.`;
      return notSent(view, message, form.element.querySelector('[aria-invalid="true"]'));
    }
    args = read.args;
  }
  formError.textContent = "";
  const timeoutMs = Number(timeout.value) > 0 ? Math.round(Number(timeout.value)) : DEFAULT_TIMEOUT_MS;

  const resultView = byTestId("result");
  const seq = ++callSeq;
  resultView.dataset.call = String(seq); // lets tests tell this call's result from the previous one
  renderResult(resultView, { state: "pending", server, tool });
  callButton.disabled = true;
  callButton.textContent = "Calling…";
  app.log("info", `Call sent: ${server} › ${tool} ${clip(JSON.stringify(args), 200)}`);
  const started = performance.now();
  try {
    // Only the latest call owns the result view; an older one that finishes late is still logged.
    const onProgress = (progress) => seq === callSeq && renderProgress(resultView, progress);
    const result = await client.callTool(tool, args, { timeoutMs, onProgress });
    const durationMs = performance.now() - started;
    const state = result?.isError ? "tool-error" : "ok";
    if (seq === callSeq) renderResult(resultView, { state, server, tool, durationMs, result });
    const label = state === "ok" ? "Result" : "Tool error";
    app.log(state === "ok" ? "ok" : "error", `${label}: ${server} › ${tool} in ${formatMs(durationMs)}: ${clip(summary(result), 120)}`);
  } catch (e) {
    const durationMs = performance.now() - started;
    if (seq === callSeq) renderResult(resultView, { state: "error", server, tool, durationMs, error: e });
    app.log("error", `Call failed: ${server} › ${tool} after ${formatMs(durationMs)}: ${describe(e)}`);
    connectionLost(server, client, e);
  } finally {
    callButton.disabled = false;
    callButton.textContent = "Call";
  }
}

function notSent(view, message, focusTarget) {
  view.formError.textContent = message;
  app.log("warn", `Not sent: ${view.server} › ${view.tool}: ${message}`);
  focusTarget?.focus();
}

/** One line about a result for the log: its structured content, else its first text block, else its block types. */
function summary(result) {
  if (result?.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  const blocks = Array.isArray(result?.content) ? result.content : [];
  const text = blocks.find((b) => b?.type === "text");
  if (text) return String(text.text).replaceAll("\n", " ⏎ ");
  return blocks.length ? blocks.map((b) => b?.type).join(", ") : "(empty)";
}

function clip(text, max) {
  return text.length > max ? `${text.slice(0, max)}… (${text.length.toLocaleString()} chars)` : text;
}
