// The chat's model settings: endpoint base URL and model name (kept in localStorage), and the API key (kept in the
// vault only: stored from a password field that is cleared at once, read back when a request is sent, never shown).
// Also publishes the model to the other parts as `app.model` (used to answer servers' sampling requests).
import { announce, app, describe, emit, on } from "./app.js";
import { requestCompletion } from "./chat-endpoint.js";
import { fill, h } from "./dom.js";

const STORAGE = { base: "mcp-worker-console.chat.base", model: "mcp-worker-console.chat.model" };
/** Where the key is kept in the vault: a scope no server is named ("@console"), and the credential's name. */
const VAULT_SERVER = "@console";
const KEY_NAME = "CHAT_API_KEY";

/** A stored key that cannot be read because the vault is locked; the view offers to unlock it. */
export class VaultLockedError extends Error {
  constructor() {
    super("An API key is stored in the vault, which is locked: unlock the vault to send (or forget the key).");
    this.name = "VaultLockedError";
  }
}

/** The settings in use; saved to localStorage as well when the browser allows it. */
const current = { base: load(STORAGE.base), model: load(STORAGE.model) };

/** The base URL and model (empty strings when unset). */
export function settings() {
  return { ...current };
}

/** The stored API key, or null when none is stored. */
export async function readKey() {
  const credentials = app.runtime.credentials;
  if (!(await credentials.names(VAULT_SERVER)).includes(KEY_NAME)) return null;
  if (!credentials.isUnlocked()) throw new VaultLockedError();
  return credentials.get(VAULT_SERVER, KEY_NAME);
}

/** Builds the settings form into `container`; `onChange()` runs after each save. */
export function mountSettings(container, onChange) {
  const saved = settings();
  const base = h("input", { id: "chat-base", type: "url", "data-testid": "chat-base", placeholder: "https://api.openai.com/v1", value: saved.base, autocomplete: "url", spellcheck: false });
  const model = h("input", { id: "chat-model", type: "text", "data-testid": "chat-model", placeholder: "gpt-4o-mini", value: saved.model, spellcheck: false });
  const key = h("input", { id: "chat-key", type: "password", "data-testid": "chat-key", autocomplete: "off", spellcheck: false, "aria-describedby": "chat-key-state" });
  const keyState = h("p", { id: "chat-key-state", class: "field-hint", "data-testid": "chat-key-state" });
  const vault = h("div", { class: "chat-vault", "data-testid": "chat-vault" });
  const status = h("p", { class: "chat-settings-status", "data-testid": "chat-settings-status" });
  const forgetButton = h("button", { type: "button", class: "btn", "data-testid": "chat-key-forget", hidden: true, onclick: forget }, "Forget the key");
  const label = h("span", { class: "muted", "data-testid": "chat-model-label" });
  const details = h(
    "details",
    { class: "panel chat-settings", "data-testid": "chat-settings", open: !(saved.base && saved.model) },
    h("summary", { class: "chat-settings-summary" }, h("span", { class: "chat-settings-title" }, "Model"), label),
    h(
      "form",
      { class: "chat-settings-form", novalidate: true, onsubmit: (event) => (event.preventDefault(), save()) },
      field("chat-base", "Endpoint base URL", base, "An OpenAI-compatible API: OpenAI, or a local server such as http://127.0.0.1:11434/v1 (Ollama). It must allow this page's origin (CORS)."),
      field("chat-model", "Model", model),
      field("chat-key", "API key (optional)", key, null, keyState),
      vault,
      h(
        "div",
        { class: "chat-settings-actions" },
        h("button", { type: "submit", class: "btn btn-primary", "data-testid": "chat-save" }, "Save"),
        forgetButton,
        status,
      ),
    ),
  );
  container.replaceChildren(details);

  async function save() {
    status.textContent = "";
    delete status.dataset.kind;
    const url = base.value.trim();
    if (url && !isHttpUrl(url)) {
      base.setAttribute("aria-invalid", "true");
      return report("The endpoint base URL must be an http:// or https:// URL.", "error", base);
    }
    base.removeAttribute("aria-invalid");
    current.base = url;
    current.model = model.value.trim();
    store(STORAGE.base, current.base);
    store(STORAGE.model, current.model);
    publishModel();
    onChange();
    const value = key.value.trim();
    if (value) {
      // It goes into an HTTP header, which takes printable ASCII only.
      if (!/^[\x21-\x7e]+$/.test(value)) return report("Saved, but not the key: an API key has no spaces and no characters beyond ASCII.", "error", key);
      if (!app.runtime.credentials.isUnlocked()) return report("Saved, but not the key: the vault must be unlocked to store it.", "error", key);
      try {
        await app.runtime.credentials.set(VAULT_SERVER, KEY_NAME, value);
      } catch (error) {
        return report(`Saved, but the key could not be stored: ${describe(error)}`, "error", key);
      }
      key.value = "";
    }
    await refresh();
    report(value ? "Saved; the key is in the vault." : "Saved.", "ok");
    // Set up: the settings fold away so the conversation has the room (the summary says which model it is).
    if (app.model) details.open = false;
  }

  async function forget() {
    try {
      await app.runtime.credentials.delete(VAULT_SERVER, KEY_NAME);
      report("The key was deleted from the vault.", "ok");
    } catch (error) {
      report(`The key could not be deleted: ${describe(error)}`, "error");
    }
    await refresh();
    key.focus();
  }

  function report(text, kind, focus = null) {
    status.textContent = text;
    status.dataset.kind = kind;
    announce(text);
    focus?.focus();
  }

  /** Shows whether a key is stored, and the vault's state when it is not unlocked. */
  async function refresh() {
    const credentials = app.runtime.credentials;
    const [names, mode] = await Promise.all([credentials.names(VAULT_SERVER).catch(() => []), credentials.keyMode().catch(() => null)]);
    const stored = names.includes(KEY_NAME);
    keyState.textContent = stored ? "A key is stored in the vault. Type a new one to replace it." : "No key stored. Local servers usually need none.";
    forgetButton.hidden = !stored;
    const unlocked = credentials.isUnlocked();
    vault.dataset.state = unlocked ? "unlocked" : mode ? "locked" : "none";
    key.disabled = !unlocked;
    fill(
      vault,
      unlocked
        ? null
        : [
            h("p", {}, mode ? "The vault is locked: unlock it to store a key or to use the stored one." : "A key is kept in the vault (encrypted, never in this page's storage): set up the vault to store one."),
            h("button", { type: "button", class: "btn btn-small", "data-testid": "chat-vault-open", onclick: () => emit("vault-open") }, mode ? "Unlock the vault" : "Set up the vault"),
          ],
    );
    const which = app.model ? app.model.label : "not set up: enter an endpoint and a model";
    label.textContent = stored ? `${which} · key in the vault` : which;
  }

  on("vault", refresh);
  on("view", (name) => name === "chat" && refresh());
  publishModel();
  refresh();
}

/** Sets `app.model` from the saved settings: the endpoint without tools, for single answers. */
function publishModel() {
  const { base, model } = settings();
  app.model =
    base && model && isHttpUrl(base)
      ? {
          label: `${model} at ${new URL(base).host}`,
          async complete(messages, { maxTokens, systemPrompt, signal } = {}) {
            const all = systemPrompt ? [{ role: "system", content: systemPrompt }, ...messages] : messages;
            const answer = await requestCompletion({ base, model, key: await readKey(), messages: all, maxTokens, signal });
            return { text: answer.message.content, model: answer.model };
          },
        }
      : null;
}

function field(id, label, input, hint = null, extra = null) {
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, h("span", { class: "field-name" }, label)),
    input,
    hint ? h("p", { class: "field-hint" }, hint) : null,
    extra,
  );
}

function isHttpUrl(text) {
  try {
    return ["http:", "https:"].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

function load(name) {
  try {
    return localStorage.getItem(name) ?? "";
  } catch {
    return "";
  }
}

function store(name, value) {
  try {
    if (value) localStorage.setItem(name, value);
    else localStorage.removeItem(name);
  } catch {
    // Storage refused (private mode): the settings last until the page is closed.
  }
}
