// The export preview: the registry's tools as each agent API takes them (OpenAI, Anthropic, ART, MCP), for the
// chat's thread or every tool agents may see, with what a format had to leave out, and a Copy button.
import { app, describe } from "./app.js";
import { openDialog } from "./dialog.js";
import { fill, h, truncate } from "./dom.js";

const FORMATS = [
  ["openai", "OpenAI (Chat Completions tools)"],
  ["anthropic", "Anthropic (Messages tools)"],
  ["art", "ART (ToolSchema)"],
  ["mcp", "MCP (tools/list)"],
];
const SHOWN_CHARS = 200_000;

export function openExport() {
  openDialog({ title: "Export the tools", description: "What an agent is given, in each API's shape.", testid: "export-dialog", wide: true }, (close) => {
    const format = h("select", { id: "export-format", "data-testid": "export-format" }, FORMATS.map(([value, label]) => h("option", { value }, label)));
    const scope = h(
      "select",
      { id: "export-scope", "data-testid": "export-scope" },
      h("option", { value: "thread" }, "The chat's tools (checked in the Tools view)"),
      h("option", { value: "all" }, "Every tool agents may see"),
    );
    const output = h("pre", { class: "code export-json", "data-testid": "export-json", tabindex: "0", "aria-label": "The exported tools" });
    const notes = h("div", { class: "export-notes", "data-testid": "export-notes" });
    const status = h("span", { class: "muted small", role: "status" });
    let text = "";
    const render = () => {
      try {
        const filter = scope.value === "thread" ? { threadId: app.thread } : {};
        const exported = app.runtime.listTools(format.value, filter);
        text = JSON.stringify(exported.tools, null, 2);
        const shown = truncate(text, SHOWN_CHARS);
        output.textContent = shown.omitted ? `${shown.text}\n… ${shown.omitted.toLocaleString()} more characters (Copy takes all)` : shown.text;
        fill(
          notes,
          h("p", {}, `${exported.tools.length} tool${exported.tools.length === 1 ? "" : "s"}`),
          exported.skipped.length
            ? h("div", { class: "notice small" }, h("p", {}, "Left out, because the format cannot take their schema:"), h("ul", {}, exported.skipped.map((s) => h("li", {}, h("code", {}, s.name), `: ${s.reason}`))))
            : null,
        );
      } catch (error) {
        text = "";
        output.textContent = "";
        fill(notes, h("p", { class: "form-error", role: "alert" }, describe(error)));
      }
    };
    format.addEventListener("change", render);
    scope.addEventListener("change", render);
    render();
    const copy = async () => {
      try {
        await navigator.clipboard.writeText(text);
        status.textContent = "Copied.";
      } catch {
        // No clipboard permission: select the text, so Ctrl+C copies it.
        getSelection().selectAllChildren(output);
        status.textContent = "Selected: press Ctrl+C to copy.";
      }
    };
    return [
      h(
        "div",
        { class: "export-controls" },
        h("label", { for: format.id }, "Format"),
        format,
        h("label", { for: scope.id }, "Tools"),
        scope,
      ),
      notes,
      output,
      h(
        "div",
        { class: "dialog-actions" },
        status,
        h("button", { type: "button", class: "btn", "data-testid": "export-copy", onclick: copy }, "Copy"),
        h("button", { type: "button", class: "btn btn-primary", onclick: () => close(true) }, "Close"),
      ),
    ];
  });
}
