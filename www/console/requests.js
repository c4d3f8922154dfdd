// Requests from servers, answered by the person at the page: an elicitation is a form in a modal dialog (Accept,
// Decline, Cancel); a sampling request is shown for approval (send it to the chat's model, answer it yourself, or
// refuse). One dialog at a time, the others wait in order; a request that stops waiting (the server cancelled it,
// it timed out, something else answered it) closes its dialog or leaves the queue.
import { app, describe, on, toast } from "./app.js";
import { openDialog } from "./dialog.js";
import { h, pretty, truncate } from "./dom.js";
import { buildElicitationForm } from "./elicitation-form.js";
import { renderBlock } from "./result.js";

/** Characters of a server's message or of one prompt shown in a dialog. */
const TEXT_LIMIT = 4000;

/** The server requests answered here. */
const METHODS = ["elicitation/create", "sampling/createMessage"];
/** Requests waiting for their dialog, oldest first. */
const queue = [];
/** Every request id already queued or shown, so that a replayed event does not show a request twice. */
const known = new Set();
/** The dialog shown: `{ request, dialog, finished, abort }`, or null. */
let current = null;
let dialogSeq = 0;

const text = (value) => (typeof value === "string" ? value : "");
const capped = (value) => {
  const { text: shown, omitted } = truncate(text(value), TEXT_LIMIT);
  return omitted ? `${shown}… (${omitted.toLocaleString()} more characters)` : shown;
};

export function mount() {
  on("event", (event) => {
    if (event?.type === "elicitationRequested" || event?.type === "samplingRequested") {
      // Replayed events of requests answered before the page loaded are not shown.
      if (isWaiting(event.requestId)) enqueue(event);
    } else if (event?.type === "serverRequestSettled") {
      settled(event);
    }
  });
  for (const request of waiting()) enqueue(request);
}

/** The requests waiting for an answer (none when the runtime cannot say). */
function waiting() {
  try {
    return app.runtime.pendingRequests();
  } catch {
    return [];
  }
}

const isWaiting = (requestId) => waiting().some((r) => r.requestId === requestId);

function enqueue({ requestId, server, method, params }) {
  if (known.has(requestId) || !METHODS.includes(method)) return;
  known.add(requestId);
  queue.push({ requestId, server: text(server), method, params: params && typeof params === "object" ? params : {} });
  if (current) updateQueueNote();
  else showNext();
}

function showNext() {
  current = null;
  const request = queue.shift();
  if (!request) return;
  const state = { request, finished: false, abort: new AbortController() };
  current = state;
  const build = request.method === "sampling/createMessage" ? samplingDialog : elicitationDialog;
  try {
    const { options, body } = build(request, state);
    state.dialog = openDialog({ ...options, wide: true }, () => [body, h("p", { class: "muted small request-queue", "data-testid": "request-queue" })]);
  } catch (error) {
    // A request the console cannot show is refused, so that it neither hangs nor blocks the ones after it.
    state.finished = true;
    toast(`A request from ${request.server} could not be shown, and was refused: ${describe(error)}`, "error");
    try {
      app.runtime.rejectRequest(request.requestId, "The console could not show the request");
    } catch {
      // It stopped waiting meanwhile.
    }
    return showNext();
  }
  state.dialog.element.dataset.requestId = String(request.requestId);
  updateQueueNote();
  // Escape or the close button: an elicitation is cancelled, a sampling request refused.
  state.dialog.done.then(() => {
    if (state.finished) return;
    if (request.method === "sampling/createMessage") respond(state, { reject: "The user refused the sampling request" });
    else respond(state, { answer: { action: "cancel" } });
  });
}

function updateQueueNote() {
  const note = current?.dialog?.element.querySelector("[data-testid=request-queue]");
  if (!note) return;
  const n = queue.length;
  note.textContent = n === 0 ? "" : n === 1 ? "1 more request is waiting after this one." : `${n} more requests are waiting after this one.`;
}

/** Sends the answer (`{ answer }`) or the refusal (`{ reject }`), closes the dialog and shows the next request. */
function respond(state, { answer, reject }) {
  if (state.finished) return;
  state.finished = true;
  state.abort.abort();
  try {
    if (reject) app.runtime.rejectRequest(state.request.requestId, reject);
    else app.runtime.answerRequest(state.request.requestId, answer);
  } catch (error) {
    toast(`The answer to ${state.request.server} was not sent: ${describe(error)}`, "error");
  }
  state.dialog.close();
  showNext();
}

/** A request stopped waiting: its dialog closes (saying why), or it leaves the queue. */
function settled({ requestId, server, outcome }) {
  const index = queue.findIndex((r) => r.requestId === requestId);
  if (index >= 0) {
    queue.splice(index, 1);
    updateQueueNote();
    return;
  }
  const state = current;
  if (!state || state.request.requestId !== requestId || state.finished) return;
  state.finished = true;
  state.abort.abort();
  state.dialog.close();
  const who = text(server) || "The server";
  const why = {
    cancelled: `${who} no longer waits for an answer: its request was cancelled.`,
    timedOut: `${who}'s request timed out: it waited too long for an answer.`,
  }[outcome] ?? `${who}'s request was answered elsewhere.`;
  toast(why, outcome === "timedOut" ? "error" : "info");
  showNext();
}

function elicitationDialog(request, state) {
  const params = request.params;
  const form = buildElicitationForm(params.requestedSchema, `el${++dialogSeq}`);
  const decide = (action) => () => respond(state, { answer: { action } });
  const element = h(
    "form",
    {
      class: "request-form",
      novalidate: true,
      "data-testid": "elicitation-form",
      onsubmit: (event) => {
        event.preventDefault();
        const { content, invalid } = form.read();
        if (invalid.length) return invalid[0].focus();
        respond(state, { answer: { action: "accept", content } });
      },
    },
    h("p", { class: "request-message", "data-testid": "elicitation-message" }, capped(params.message) || "(The server gave no message.)"),
    form.element,
    h(
      "div",
      { class: "dialog-actions" },
      h("button", { type: "button", class: "btn", "data-testid": "elicitation-cancel", onclick: decide("cancel") }, "Cancel"),
      h("button", { type: "button", class: "btn", "data-testid": "elicitation-decline", onclick: decide("decline") }, "Decline"),
      h("button", { type: "submit", class: "btn btn-primary", "data-testid": "elicitation-accept" }, "Accept"),
    ),
  );
  return {
    options: {
      title: `${request.server} asks for information`,
      description: "Accept sends what you fill in to the server; Decline refuses; Cancel (or Escape) answers nothing.",
      testid: "elicitation-dialog",
    },
    body: element,
  };
}

function samplingDialog(request, state) {
  const params = request.params;
  const model = app.model;
  const id = `sa${++dialogSeq}`;
  const error = h("p", { id: `${id}-error`, class: "form-error", role: "alert", "data-testid": "sampling-error" });
  const answer = h("textarea", { id, rows: "3", "data-testid": "sampling-own-answer", "aria-describedby": error.id });
  const buttons = [];
  const button = (props, label) => {
    const b = h("button", { type: "button", ...props }, label);
    buttons.push(b);
    return b;
  };
  const busy = (on) => buttons.forEach((b) => (b.disabled = on));
  const status = h("p", { class: "muted", role: "status", "data-testid": "sampling-status" });

  async function sendToModel() {
    busy(true);
    error.textContent = "";
    status.textContent = `Waiting for ${model.label}…`;
    try {
      const reply = await model.complete(toChatMessages(params.messages), {
        maxTokens: Number.isInteger(params.maxTokens) ? params.maxTokens : undefined,
        systemPrompt: text(params.systemPrompt) || undefined,
        signal: state.abort.signal,
      });
      if (state.finished) return;
      respond(state, {
        answer: { role: "assistant", content: { type: "text", text: String(reply?.text ?? "") }, model: text(reply?.model) || model.label, stopReason: "endTurn" },
      });
    } catch (failure) {
      if (state.finished) return;
      status.textContent = "";
      error.textContent = `${model.label} did not answer: ${describe(failure)}`;
      busy(false);
    }
  }

  function sendOwn() {
    if (answer.value.trim() === "") {
      error.textContent = "Write an answer first, or refuse.";
      answer.setAttribute("aria-invalid", "true");
      answer.focus();
      return;
    }
    respond(state, { answer: { role: "assistant", content: { type: "text", text: answer.value }, model: "human", stopReason: "endTurn" } });
  }

  answer.addEventListener("input", () => {
    error.textContent = "";
    answer.removeAttribute("aria-invalid");
  });
  const body = h(
    "div",
    { class: "request-form", "data-testid": "sampling-request" },
    samplingDetails(params),
    h(
      "div",
      { class: "sampling-choice" },
      model
        ? button({ class: "btn btn-primary", autofocus: true, "data-testid": "sampling-approve", onclick: sendToModel }, `Approve and send to ${text(model.label) || "the model"}`)
        : h("p", { class: "muted", "data-testid": "sampling-no-model" }, "No model is set up (see “Try it with a model”): answer it yourself or refuse."),
      status,
    ),
    h("div", { class: "sampling-own field" }, h("label", { for: answer.id }, "Or answer it yourself"), answer),
    error,
    h(
      "div",
      { class: "dialog-actions" },
      // Refuse stays usable while the model works: it also stops the model's request.
      h("button", { type: "button", class: "btn btn-danger", "data-testid": "sampling-refuse", onclick: () => respond(state, { reject: "The user refused the sampling request" }) }, "Refuse"),
      button({ class: "btn", "data-testid": "sampling-send-own", onclick: sendOwn }, "Send your answer"),
    ),
  );
  return {
    options: {
      title: `${request.server} asks to use a model`,
      description: "It wants a reply from a language model. Nothing is sent unless you approve; Escape refuses.",
      testid: "sampling-dialog",
    },
    body,
  };
}

/** What the server asks the model: system prompt, messages (text and images), token limit and model hints. */
function samplingDetails(params) {
  const messages = Array.isArray(params.messages) ? params.messages.filter((m) => m && typeof m === "object") : [];
  const hints = Array.isArray(params.modelPreferences?.hints) ? params.modelPreferences.hints.map((x) => text(x?.name)).filter(Boolean) : [];
  const facts = [
    ["Most tokens", Number.isFinite(params.maxTokens) ? String(params.maxTokens) : "not given"],
    hints.length ? ["Model hints", hints.join(", ")] : null,
    typeof params.temperature === "number" ? ["Temperature", String(params.temperature)] : null,
    text(params.includeContext) && params.includeContext !== "none" ? ["Context asked for", params.includeContext] : null,
    Array.isArray(params.stopSequences) && params.stopSequences.length ? ["Stop sequences", pretty(params.stopSequences)] : null,
  ].filter(Boolean);
  return [
    text(params.systemPrompt)
      ? h("div", { class: "sampling-system" }, h("h3", {}, "System prompt"), h("pre", { class: "text-block", "data-testid": "sampling-system" }, capped(params.systemPrompt)))
      : null,
    h("h3", {}, messages.length === 1 ? "Message" : `Messages (${messages.length})`),
    h(
      "ol",
      { class: "prompt-messages", "data-testid": "sampling-messages" },
      messages.map((message) =>
        h(
          "li",
          { class: "prompt-message", dataset: { role: text(message.role) } },
          h("span", { class: "pill prompt-role" }, text(message.role) || "?"),
          h(
            "div",
            { class: "content-blocks" },
            blocks(message.content).map((block) =>
              block?.type === "text" ? renderBlock({ type: "text", text: capped(block.text) }) : renderBlock(block, "sent by the server"),
            ),
          ),
        ),
      ),
    ),
    h("dl", { class: "sampling-facts" }, facts.map(([term, value]) => [h("dt", {}, term), h("dd", {}, value)])),
  ];
}

const blocks = (content) => (Array.isArray(content) ? content : content != null ? [content] : []);

/** The request's messages as the chat's model takes them (OpenAI style): text, and images as data URLs. */
function toChatMessages(messages) {
  return (Array.isArray(messages) ? messages : []).map((message) => {
    const parts = blocks(message?.content).map((block) => {
      if (block?.type === "text") return { type: "text", text: text(block.text) };
      if (block?.type === "image" && typeof block.data === "string") return { type: "image_url", image_url: { url: `data:${text(block.mimeType)};base64,${block.data}` } };
      return { type: "text", text: `[${text(block?.type) || "unknown"} content left out]` };
    });
    const content = parts.every((p) => p.type === "text") ? parts.map((p) => p.text).join("\n") : parts;
    return { role: message?.role === "assistant" ? "assistant" : "user", content };
  });
}
