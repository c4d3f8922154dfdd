// State shared by the console's views, and a small publish/subscribe so that each view re-renders itself when what
// it shows changes (instead of every action knowing which views to redraw).
//
// Topics and their payloads:
// - "event" (StatusEvent): every event of the runtime's status socket, in order (replayed ones first).
// - "servers" (): a server was added, removed or changed status (read `app.health`).
// - "tools" (): the registry or a thread's enablement changed.
// - "vault" (): the vault was set up, unlocked or locked.
// - "view" (name): a tab was shown.
// - "catalogue" (): the catalogue was loaded.
// - "vault-open" (): something asks the user to set up or unlock the vault (the vault dialog opens).
// - "show-view" (name): something asks for a view to be shown.

export const app = {
  /** The host module (`pkg/host/mcp_worker_host.js`) once loaded. */
  host: null,
  /** The `McpRuntime`, created with the console's database; null until then, and for good if that failed. */
  runtime: null,
  /** The catalogue's entries (`catalogue.json`): `{ id, name, description, tags, needs, config, try }`. */
  catalogue: [],
  /** name → ServerHealth, kept current from `serverStatus` and `serverRemoved` events. */
  health: new Map(),
  /** True while the status socket replays kept events (at start-up): parts open no dialog for those. */
  replaying: false,
  /** The thread whose tool enablement the Tools view edits and the chat runs in. */
  thread: "console-chat",
  /**
   * The model the chat is set up with, for other parts (sampling approvals): `{ label, complete(messages,
   * { maxTokens, systemPrompt, signal }) → Promise<{ text, model }> }` with OpenAI-style `messages`; null when no
   * model is set up.
   */
  model: null,
};

/** The IndexedDB database that keeps the console's servers, enabled tools and vault across reloads. */
export const DATABASE = "mcp-worker-console";

const listeners = new Map();

export function on(topic, listener) {
  if (!listeners.has(topic)) listeners.set(topic, []);
  listeners.get(topic).push(listener);
}

/** Calls every listener of `topic`; one that throws is reported and does not stop the others. */
export function emit(topic, payload) {
  for (const listener of listeners.get(topic) ?? []) {
    try {
      listener(payload);
    } catch (error) {
      console.error(`console: a listener of "${topic}" failed`, error);
    }
  }
}

export const byTestId = (id, root = document) => root.querySelector(`[data-testid="${id}"]`);

/** `CODE: message` of a runtime error; any thrown value is accepted. */
export function describe(error) {
  if (error?.name === "AbortError" && !error.code) return "ABORTED: cancelled";
  return `${error?.code ?? "ERROR"}: ${error?.message ?? String(error)}`;
}

/** Says `text` to screen readers (the page's polite live region). */
export function announce(text) {
  const region = byTestId("announcer");
  region.textContent = "";
  // A new text node in a later task, so that the same sentence twice is announced twice.
  setTimeout(() => (region.textContent = text), 30);
}

/** Shows a short message in the corner for a few seconds (and announces it). `kind`: info, ok, error. */
export function toast(text, kind = "info") {
  const box = byTestId("toasts");
  const item = document.createElement("p");
  item.className = `toast toast-${kind}`;
  item.dataset.testid = "toast";
  item.dataset.kind = kind;
  item.textContent = text;
  box.append(item);
  // At most four at once: the oldest gives way.
  while (box.childElementCount > 4) box.firstElementChild.remove();
  setTimeout(() => item.remove(), kind === "error" ? 9000 : 5000);
}

/** Shows a view (tab) by name: add, tools, resources, events, chat. */
export function showView(name) {
  emit("show-view", name);
}

/** The registry-name prefix of a server's tools (`mcp__echo__`), which enables all of them in a thread. */
export function serverPrefix(server) {
  return `mcp__${server}__`;
}
