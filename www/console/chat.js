// The "Try it with a model" view: a chat with a model of an OpenAI-compatible endpoint that can call the tools
// enabled for the console's chat thread. Settings (chat-settings.js), the endpoint client (chat-endpoint.js), the
// tool-calling loop (chat-loop.js) and the transcript (chat-transcript.js) are put together here.
import { app, describe, on, showView } from "./app.js";
import { EndpointError, requestCompletion } from "./chat-endpoint.js";
import { runTurn } from "./chat-loop.js";
import { VaultLockedError, mountSettings, readKey, settings } from "./chat-settings.js";
import { createTranscript } from "./chat-transcript.js";
import { h } from "./dom.js";

export function mount(view) {
  /** The conversation as Chat Completions messages. */
  let history = [];
  /** The running turn's controller: Stop aborts the request and the tool calls with it. */
  let running = null;

  const settingsBox = h("div", { class: "chat-settings-box" });
  const empty = h("p", { class: "empty", "data-testid": "chat-empty" }, "Ask something that needs a tool, such as “What is 6 times 7?”, and watch the model call it.");
  const log = h("div", { class: "chat-log", role: "log", "aria-live": "polite", "aria-label": "Conversation", "data-testid": "chat-log" }, empty);
  const transcript = createTranscript(log, empty);
  const toolCount = h("span", { "data-testid": "chat-tool-count" });
  const input = h("textarea", {
    id: "chat-input",
    class: "chat-input",
    "data-testid": "chat-input",
    rows: 3,
    placeholder: "Message the model (Enter sends, Shift+Enter starts a new line)",
    onkeydown: (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        send();
      }
    },
  });
  const sendButton = h("button", { type: "submit", class: "btn btn-primary", "data-testid": "chat-send" }, "Send");
  const stopButton = h("button", { type: "button", class: "btn", "data-testid": "chat-stop", disabled: true, onclick: () => running?.abort() }, "Stop");
  const hint = h("p", { class: "chat-hint", role: "status", "data-testid": "chat-hint" });

  view.replaceChildren(
    h(
      "header",
      { class: "view-head" },
      h("h2", {}, "Try it with a model"),
      h("p", { class: "muted" }, "A model of any OpenAI-compatible endpoint, with the tools enabled for this chat. Tool calls run here, in the servers' sandboxes."),
    ),
    settingsBox,
    h(
      "section",
      { class: "panel chat-panel", "aria-label": "Chat" },
      log,
      h(
        "form",
        { class: "chat-composer", onsubmit: (event) => (event.preventDefault(), send()) },
        h(
          "div",
          { class: "chat-tools-line" },
          toolCount,
          h("button", { type: "button", class: "btn btn-small btn-ghost", "data-testid": "chat-choose-tools", onclick: () => showView("tools") }, "Choose tools"),
        ),
        h("label", { for: "chat-input", class: "sr-only" }, "Message"),
        input,
        h(
          "div",
          { class: "chat-actions" },
          hint,
          h("button", { type: "button", class: "btn btn-ghost", "data-testid": "chat-new", onclick: newChat }, "New chat"),
          stopButton,
          sendButton,
        ),
      ),
    ),
  );
  mountSettings(settingsBox, () => (hint.textContent = ""));
  on("tools", countTools);
  on("servers", countTools);
  on("view", (name) => name === "chat" && countTools());
  countTools();

  /** "3 tools enabled for this chat", and what the model cannot be given. */
  function countTools() {
    try {
      const { tools, skipped } = app.runtime.listTools("openai", { threadId: app.thread });
      const n = tools.length;
      toolCount.textContent = `${n === 0 ? "No" : n} tool${n === 1 ? "" : "s"} enabled for this chat${skipped.length ? ` (${skipped.length} left out: their schemas do not fit the format)` : ""}`;
    } catch (error) {
      toolCount.textContent = `The chat's tools could not be listed: ${describe(error)}`;
    }
  }

  async function send() {
    if (running) return;
    const text = input.value.trim();
    if (!text) return input.focus();
    const { base, model } = settings();
    if (!base || !model) {
      hint.textContent = "Set the endpoint and the model first.";
      settingsBox.querySelector("details").open = true;
      return settingsBox.querySelector(base ? "#chat-model" : "#chat-base").focus();
    }
    hint.textContent = "";
    input.value = "";
    history.push({ role: "user", content: text });
    transcript.user(text);
    const controller = new AbortController();
    setRunning(controller);
    const conversation = history;
    try {
      const key = await readKey();
      await runTurn({
        history: conversation,
        transcript,
        signal: controller.signal,
        ask: (messages, signal) => {
          const tools = app.runtime.listTools("openai", { threadId: app.thread }).tools;
          return requestCompletion({ base, model, key, messages, tools, signal });
        },
        execute: (calls, signal) => app.runtime.executeTools(calls, app.thread, { signal }),
      });
    } catch (error) {
      // A turn of a chat cleared meanwhile reports nothing into the new one.
      if (conversation !== history) return;
      if (controller.signal.aborted) transcript.notice("Stopped.");
      else {
        const readable = error instanceof EndpointError || error instanceof VaultLockedError;
        transcript.error(readable ? error.message : describe(error), { unlock: error instanceof VaultLockedError });
      }
    } finally {
      if (running === controller) setRunning(null);
    }
    if (conversation === history) input.focus();
  }

  function newChat() {
    running?.abort();
    setRunning(null);
    history = [];
    transcript.clear();
    hint.textContent = "";
    input.focus();
  }

  function setRunning(controller) {
    running = controller;
    sendButton.disabled = Boolean(controller);
    sendButton.setAttribute("aria-busy", controller ? "true" : "false");
    stopButton.disabled = !controller;
    view.toggleAttribute("data-busy", Boolean(controller));
  }
}
