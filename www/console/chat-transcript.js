// The chat's transcript: what the user said, what the model answered, each tool call it asked for (name and
// arguments) with its result as the Tools view shows results, and notices and errors. Text from the model and from
// servers goes into text nodes only, cut when huge.
import { emit } from "./app.js";
import { h, pretty, truncate } from "./dom.js";
import { renderError, renderResult } from "./result.js";

/** Characters of a message or of arguments shown; the rest is counted. */
const TEXT_LIMIT = 100_000;

/** A transcript writing into `log` (the `role="log"` element); `empty` is shown while there is nothing. */
export function createTranscript(log, empty) {
  // The log scrolls itself to what was said last; the page around it stays where it is.
  const follow = () => (log.scrollTop = log.scrollHeight);
  const add = (entry) => {
    empty.remove();
    log.append(entry);
    follow();
    return entry;
  };
  return {
    user: (text) => add(message("user", "You", text)),
    assistant: (text, model) => add(message("assistant", model || "Model", text, text ? null : "(The model answered with no text.)")),
    notice: (text) => add(h("p", { class: "chat-notice muted", "data-testid": "chat-notice" }, text)),
    /** An error; `unlock` adds a button that opens the vault dialog. */
    error: (text, { unlock = false } = {}) =>
      add(
        h(
          "div",
          { class: "chat-error error-box", "data-testid": "chat-error" },
          h("p", { class: "error-message" }, text),
          unlock ? h("button", { type: "button", class: "btn btn-small", "data-testid": "chat-vault-unlock", onclick: () => emit("vault-open") }, "Unlock the vault") : null,
        ),
      ),
    /** A tool call, its result pending: `settle(toolResult)` shows the result, `cancel(reason)` that it will not come. */
    toolCall(call) {
      const result = h("div", { class: "result chat-tool-result", "data-testid": "chat-tool-result" });
      const tool = registryParts(call.name);
      renderResult(result, { ...tool, state: "pending" });
      add(
        h(
          "article",
          { class: "chat-entry chat-tool", "data-testid": "chat-tool-call", dataset: { tool: call.name } },
          h("header", { class: "chat-entry-head" }, h("span", { class: "chat-who" }, "Tool call"), h("span", { class: "mono chat-tool-name" }, call.name)),
          h("pre", { class: "code chat-tool-args", "data-testid": "chat-tool-args", "aria-label": "Arguments" }, argumentsText(call.arguments)),
          result,
        ),
      );
      return {
        settle(toolResult) {
          showToolResult(result, toolResult);
          follow();
        },
        cancel(reason) {
          renderResult(result, { ...tool, state: "cancelled" });
          result.append(h("p", { class: "muted" }, reason));
        },
      };
    },
    clear() {
      log.replaceChildren(empty);
    },
  };
}

function message(role, who, text, placeholder = null) {
  const { text: shown, omitted } = truncate(text, TEXT_LIMIT);
  return h(
    "article",
    { class: `chat-entry chat-${role}`, "data-testid": "chat-message", dataset: { role } },
    h("header", { class: "chat-entry-head" }, h("span", { class: "chat-who" }, who)),
    placeholder ? h("p", { class: "muted" }, placeholder) : h("p", { class: "chat-text" }, shown),
    omitted ? h("p", { class: "muted small" }, `… ${omitted.toLocaleString()} more characters not shown`) : null,
  );
}

/** `{ server, tool }` of a registry name (`mcp__calculator__calculate`); other names are the console's own. */
function registryParts(name) {
  const match = /^mcp__(.+?)__(.+)$/.exec(name);
  return match ? { server: match[1], tool: match[2] } : { server: "console", tool: name };
}

/** The arguments pretty-printed when they are JSON, else as the model wrote them (with a note). */
function argumentsText(args) {
  let text;
  try {
    text = pretty(JSON.parse(args));
  } catch {
    text = `${args}\n(not valid JSON)`;
  }
  const { text: shown, omitted } = truncate(text, TEXT_LIMIT);
  return omitted ? `${shown}\n… ${omitted.toLocaleString()} more characters not shown` : shown;
}

/** An ART `ToolResult` in the result view: success, a tool's own error (its content), or a refused/failed call. */
function showToolResult(container, result) {
  const meta = result?.metadata ?? {};
  const named = registryParts(String(result?.toolName ?? ""));
  const where = { server: meta.server ?? named.server, tool: meta.tool ?? named.tool, durationMs: meta.durationMs };
  const output = result?.output;
  const mcp = Array.isArray(output?.content);
  if (result?.status === "success") {
    renderResult(container, { ...where, state: "ok", result: mcp ? output : { content: [{ type: "text", text: pretty(output) }] } });
  } else if (mcp) {
    renderResult(container, { ...where, state: "tool-error", result: output });
    const shown = output.content.filter((block) => block?.type === "text").map((block) => block.text).join("\n");
    if (result.error && result.error !== shown) container.prepend(renderError({ code: meta.errorCode ?? "TOOL_ERROR", message: result.error }));
  } else {
    renderResult(container, { ...where, state: "error", error: { code: meta.errorCode ?? "ERROR", message: result?.error ?? "The call failed." } });
  }
}
