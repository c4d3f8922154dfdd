// The result view of a tool call: status, duration, content blocks, structured content and the raw JSON.
import { fill, formatMs, h, pretty, truncate } from "./dom.js";

/** Text shown per block; the rest is counted, not rendered, so a 64 MiB `blob` result cannot freeze the page. */
const TEXT_LIMIT = 100_000;

const STATUS = {
  pending: "Calling…",
  ok: "Success",
  "tool-error": "Tool error",
  error: "Call failed",
  cancelled: "Cancelled",
};

/**
 * Renders one call outcome into `container`:
 * `{ state: "pending" | "ok" | "tool-error" | "error", server, tool, durationMs?, result?, error? }`.
 */
export function renderResult(container, outcome) {
  const { state, server, tool } = outcome;
  container.dataset.state = state;
  container.setAttribute("aria-busy", state === "pending" ? "true" : "false");
  fill(
    container,
    h(
      "div",
      { class: "result-head" },
      h("span", { class: `pill pill-${state}`, "data-testid": "result-status" }, STATUS[state]),
      h("span", { class: "mono result-target" }, `${server} › ${tool}`),
      outcome.durationMs != null
        ? h("span", { class: "result-duration", "data-testid": "result-duration" }, formatMs(outcome.durationMs))
        : null,
    ),
    state === "pending"
      ? h(
          "div",
          { class: "progress-line" },
          h("progress", { "data-testid": "result-progress-bar", "aria-label": `Progress of ${tool}` }),
          h("p", { class: "muted", "data-testid": "result-progress" }, "Waiting for the server…"),
        )
      : null,
    state === "error" ? renderError(outcome.error) : null,
    outcome.result ? renderCallResult(outcome.result) : null,
  );
}

/** Shows progress notifications while a call is pending. */
export function renderProgress(container, { progress, total, message }) {
  const line = container.querySelector("[data-testid=result-progress]");
  if (!line) return;
  const bar = container.querySelector("[data-testid=result-progress-bar]");
  if (bar && Number.isFinite(total) && total > 0 && Number.isFinite(progress)) {
    bar.max = total;
    bar.value = Math.min(progress, total);
  }
  const amount = total ? `${progress} / ${total}` : String(progress);
  line.textContent = message ? `Progress ${amount}: ${message}` : `Progress ${amount}`;
}

/** An error the host threw: its message plus the stable code (and the JSON-RPC code when there is one). */
export function renderError(error) {
  return h(
    "div",
    { class: "error-box", role: "alert", "data-testid": "result-error" },
    h(
      "div",
      { class: "error-codes" },
      h("code", { class: "pill pill-error", "data-testid": "result-error-code" }, error?.code ?? "ERROR"),
      error?.rpcCode != null ? h("code", { class: "pill" }, `JSON-RPC ${error.rpcCode}`) : null,
    ),
    h("p", { class: "error-message", "data-testid": "result-error-message" }, error?.message ?? String(error)),
  );
}

function renderCallResult(result) {
  const blocks = Array.isArray(result.content) ? result.content : [];
  return [
    h(
      "div",
      { class: "content-blocks", "data-testid": "result-content" },
      blocks.length === 0 ? h("p", { class: "muted" }, "No content blocks.") : blocks.map((block) => renderBlock(block)),
    ),
    result.structuredContent !== undefined
      ? section("Structured content", h("pre", { class: "code", "data-testid": "result-structured" }, pretty(result.structuredContent)))
      : null,
    h(
      "details",
      { class: "raw-result" },
      h("summary", {}, "Raw result JSON"),
      h("pre", { class: "code" }, truncate(pretty(result), TEXT_LIMIT).text),
    ),
  ];
}

/** One content block (of a result, a prompt message or a sampling message); `origin` names where an image came from. */
export function renderBlock(block, origin = "returned by the tool") {
  switch (block?.type) {
    case "text":
      return blockFrame("text", textView(String(block.text ?? "")));
    case "image":
      return blockFrame(
        `image · ${block.mimeType}`,
        safeMime(block.mimeType, "image/")
          ? h("img", { class: "result-image", src: `data:${block.mimeType};base64,${block.data}`, alt: `Image ${origin} (${block.mimeType})` })
          : h("p", { class: "muted" }, `Not shown: ${block.mimeType} is not an image type.`),
      );
    case "audio":
      return blockFrame(
        `audio · ${block.mimeType}`,
        safeMime(block.mimeType, "audio/")
          ? h("audio", { controls: true, src: `data:${block.mimeType};base64,${block.data}` })
          : h("p", { class: "muted" }, `Not shown: ${block.mimeType} is not an audio type.`),
      );
    case "resource_link":
      return blockFrame("resource link", h("p", {}, h("code", {}, block.uri), block.name ? ` — ${block.name}` : ""));
    case "resource": {
      const res = block.resource ?? {};
      const body =
        typeof res.text === "string"
          ? textView(res.text)
          : h("p", { class: "muted" }, `Binary resource, ${Math.floor(((res.blob ?? "").length * 3) / 4)} bytes`);
      return blockFrame(`resource · ${res.uri ?? "?"}`, body);
    }
    default:
      return blockFrame(String(block?.type ?? "unknown"), h("pre", { class: "code" }, pretty(block)));
  }
}

/** Text in a <pre>, cut at the display limit. */
export function textView(text) {
  const { text: shown, omitted } = truncate(text, TEXT_LIMIT);
  return [
    h("pre", { class: "text-block", "data-testid": "result-text" }, shown),
    omitted ? h("p", { class: "muted" }, `… ${omitted.toLocaleString()} more characters not shown`) : null,
  ];
}

function blockFrame(label, body) {
  return h("div", { class: "content-block" }, h("div", { class: "block-label" }, label), body);
}

function section(title, body) {
  return h("section", { class: "result-section" }, h("h3", {}, title), body);
}

/** Only plain `type/subtype` values go into a data: URL, so a server cannot smuggle other URL syntax in. */
export function safeMime(mime, prefix) {
  return typeof mime === "string" && mime.startsWith(prefix) && /^[\w.+-]+\/[\w.+-]+$/.test(mime);
}
