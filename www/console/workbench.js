// The workbench: the selected tool, its argument form generated from the input schema (or raw JSON), Call and
// Cancel, a progress bar while the server reports progress, and the result. A server's tool is called on its
// server (`callTool`); a native tool through the tool system, as an agent would.
import { app, byTestId, on } from "./app.js";
import { fill, h, pretty } from "./dom.js";
import { buildArgsForm } from "./form.js";
import { renderProgress, renderResult } from "./result.js";
import { badges } from "./tools.js";

const DEFAULT_TIMEOUT_MS = 60_000;
/** The thread native tools are run in from the workbench. */
const WORKBENCH_THREAD = "console-workbench";

/** `{ server, tool }` of the selected tool (server null for a native tool). */
let selected = null;
/** The definition the form was built from: a registry change that leaves it unchanged keeps what was typed. */
let shownDefinition = null;
let formSeq = 0;
let callSeq = 0;
let panel = null;
let resultPanel = null;
/** The call in flight: its AbortController. */
let inFlight = null;

export function mountWorkbench(workbench, result) {
  panel = workbench;
  resultPanel = result;
  fill(
    resultPanel,
    h("header", { class: "panel-head" }, h("h2", { id: "result-title" }, "Result")),
    h(
      "div",
      { class: "panel-body result", "data-testid": "result", "data-state": "idle", "aria-live": "polite" },
      h("p", { class: "muted" }, "No call yet. Pick a tool, fill in its arguments and press Call."),
    ),
  );
  on("tools", () => entryOf(selected)?.definition !== shownDefinition && render());
  on("servers", () => entryOf(selected)?.definition !== shownDefinition && render());
  render();
}

/** Shows a tool in the workbench, its fields filled from `args` when given. */
export function select(tool, args) {
  selected = tool;
  render(args);
  for (const item of document.querySelectorAll("[data-testid=tool-item]")) {
    const current = item.dataset.tool === tool.tool && item.dataset.server === (tool.server ?? "");
    byTestId("tool-select", item)?.toggleAttribute("aria-current", current);
  }
  panel.focus();
}

function entryOf(tool) {
  if (!tool) return null;
  const entries = app.runtime.toolEntries(tool.server ? { server: tool.server, includeHidden: true } : { includeHidden: true });
  return entries.find((e) => e.tool === tool.tool && e.server === (tool.server ?? null)) ?? null;
}

function render(args) {
  const entry = entryOf(selected);
  shownDefinition = entry?.definition ?? null;
  const head = h("header", { class: "panel-head" }, h("h2", { id: "workbench-title" }, "Call a tool"));
  if (!entry) {
    const text = selected ? `${selected.tool} is not available now: is ${selected.server ?? "the console"} running?` : "Select a tool to call it.";
    fill(panel, head, h("div", { class: "panel-body" }, h("p", { class: "empty", "data-testid": "workbench-empty" }, text)));
    return;
  }
  const tool = entry.definition;
  const id = `f${++formSeq}`;
  const view = {
    entry,
    form: buildArgsForm(tool.inputSchema, id),
    rawToggle: h("input", { type: "checkbox", role: "switch", id: `${id}-raw`, "data-testid": "raw-toggle" }),
    rawEditor: h("textarea", { id: `${id}-json`, class: "mono raw-json", rows: "8", spellcheck: "false", "data-testid": "raw-json", "aria-describedby": `${id}-error` }),
    formError: h("p", { id: `${id}-error`, class: "form-error", role: "alert", "data-testid": "form-error" }),
    timeout: h("input", { id: `${id}-timeout`, type: "number", min: "1", step: "1", value: String(DEFAULT_TIMEOUT_MS), class: "timeout-input", "data-testid": "timeout" }),
    callButton: h("button", { type: "submit", class: "btn btn-primary", "data-testid": "call-button" }, "Call"),
    cancelButton: h("button", { type: "button", class: "btn", "data-testid": "cancel-button", hidden: true }, "Cancel"),
  };
  if (args) view.form.write(args);
  view.rawWrap = h("div", { class: "raw-editor", hidden: true }, h("label", { for: view.rawEditor.id }, "Arguments (a JSON object)"), view.rawEditor);
  const where = entry.server ? `on ${entry.server}` : "in this page";
  const form = h(
    "form",
    { class: "tool-form", novalidate: true, "data-testid": "tool-form", dataset: { tool: entry.tool, server: entry.server ?? "" } },
    h("div", { class: "tool-head" }, h("h3", { class: "mono", "data-testid": "selected-tool" }, entry.tool), h("span", { class: "muted" }, where), badges(entry)),
    tool.title ? h("p", { class: "tool-title" }, tool.title) : null,
    tool.description ? h("p", { class: "tool-description" }, tool.description) : null,
    entry.hidden ? h("p", { class: "notice small" }, "Hidden from agents; you can still call it yourself.") : null,
    h("div", { class: "form-toolbar" }, h("h4", {}, "Arguments"), h("label", { class: "switch", for: view.rawToggle.id }, view.rawToggle, h("span", {}, "Raw JSON"))),
    view.form.element,
    view.rawWrap,
    view.formError,
    h(
      "div",
      { class: "call-bar" },
      view.callButton,
      view.cancelButton,
      h("label", { class: "timeout", for: view.timeout.id }, "Timeout", view.timeout, "ms"),
      h("span", { class: "hint" }, h("kbd", {}, "Ctrl"), "+", h("kbd", {}, "Enter"), " to call"),
    ),
    h("details", { class: "schema" }, h("summary", {}, "Input schema"), h("pre", { class: "code" }, pretty(tool.inputSchema))),
    tool.outputSchema ? h("details", { class: "schema" }, h("summary", {}, "Output schema"), h("pre", { class: "code" }, pretty(tool.outputSchema))) : null,
  );
  view.rawToggle.addEventListener("change", () => switchMode(view));
  view.rawEditor.addEventListener("input", () => (view.formError.textContent = ""));
  view.cancelButton.addEventListener("click", () => inFlight?.abort());
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    call(view);
  });
  form.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  fill(panel, head, h("div", { class: "panel-body", "data-testid": "workbench-body" }, form));
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

function readArgs(view) {
  if (view.rawToggle.checked) {
    const parsed = parseRaw(view.rawEditor.value);
    return parsed.ok ? { args: parsed.args } : { error: parsed.message, focus: view.rawEditor };
  }
  const read = view.form.read();
  if (read.errors.length) {
    return { error: `Check the arguments: ${read.errors.map((e) => e.message).join("; ")}.`, focus: view.form.element.querySelector('[aria-invalid="true"]') };
  }
  return { args: read.args };
}

/** Reads the arguments, calls the tool and shows the outcome; input errors are shown without sending anything. */
async function call(view) {
  const { entry, formError, timeout, callButton, cancelButton } = view;
  const read = readArgs(view);
  if (read.error) {
    formError.textContent = read.error;
    read.focus?.focus();
    return;
  }
  formError.textContent = "";
  const timeoutMs = Number(timeout.value) > 0 ? Math.round(Number(timeout.value)) : DEFAULT_TIMEOUT_MS;
  const resultView = byTestId("result", resultPanel);
  const seq = ++callSeq;
  const label = { server: entry.server ?? "console", tool: entry.tool };
  resultView.dataset.call = String(seq);
  renderResult(resultView, { state: "pending", ...label });
  const controller = new AbortController();
  inFlight = controller;
  callButton.disabled = true;
  callButton.textContent = "Calling…";
  cancelButton.hidden = false;
  const started = performance.now();
  const current = () => seq === callSeq;
  try {
    const result = entry.server
      ? await app.runtime.callTool(entry.server, entry.tool, read.args, {
          timeoutMs,
          signal: controller.signal,
          onProgress: (progress) => current() && renderProgress(resultView, progress),
        })
      : await callNative(entry, read.args, timeoutMs, controller.signal);
    if (current()) renderResult(resultView, { state: result?.isError ? "tool-error" : "ok", ...label, durationMs: performance.now() - started, result });
  } catch (error) {
    const cancelled = error?.name === "AbortError" || error?.code === "ABORTED";
    if (current()) renderResult(resultView, { state: cancelled ? "cancelled" : "error", ...label, durationMs: performance.now() - started, error: cancelled ? { code: "ABORTED", message: "You cancelled the call; the server was told to stop." } : error });
  } finally {
    // The outcome may be below the form: bring it into view.
    if (current()) resultPanel.scrollIntoView({ block: "nearest" });
    if (inFlight === controller) inFlight = null;
    callButton.disabled = false;
    callButton.textContent = "Call";
    cancelButton.hidden = true;
  }
}

/** A native tool, run through the tool system as an agent's call; its output shown as a tool result. */
async function callNative(entry, args, timeoutMs, signal) {
  const [result] = await app.runtime.executeTools([{ callId: `workbench-${callSeq}`, toolName: entry.name, arguments: args }], WORKBENCH_THREAD, {
    enabledTools: [entry.name],
    timeoutMs,
    signal,
  });
  if (result.status === "error") return { isError: true, content: [{ type: "text", text: result.error ?? "failed" }] };
  const structured = result.output !== null && typeof result.output === "object" && !Array.isArray(result.output);
  return { content: [{ type: "text", text: pretty(result.output) }], structuredContent: structured ? result.output : undefined };
}
