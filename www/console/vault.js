// The vault in the top bar: set it up (a passphrase, or a key this browser keeps), unlock it, lock it. Its state
// is shown at all times; a server that needs credentials from a locked vault opens the unlock dialog.
import { app, byTestId, describe, emit, on, toast } from "./app.js";
import { mountCredentials } from "./credentials.js";
import { confirmDialog, openDialog } from "./dialog.js";
import { fill, h } from "./dom.js";

const MIN_PASSPHRASE = 8;

/** Servers that started while the vault was locked: they run without the credentials stored for them. */
const startedLocked = new Set();

/** "unavailable" (no IndexedDB), "not-set-up", "locked" or "unlocked". */
let state = "locked";
let mode = null;

export function mount(element) {
  on("vault-open", () => openVault());
  on("event", (event) => {
    if (event.type === "serverStatus") {
      if (event.status === "connected" && !app.runtime.credentials.isUnlocked()) startedLocked.add(event.server);
      else if (event.status !== "connected") startedLocked.delete(event.server);
    }
    if (event.type === "credentialsRequired" && event.locked && !app.replaying && state !== "unlocked") {
      openVault(`${event.server} needs its credentials, which are in the vault.`);
    }
  });
  mountCredentials();
  refresh(element);
  on("vault", () => refresh(element));
}

async function refresh(element) {
  const credentials = app.runtime.credentials;
  try {
    mode = await credentials.keyMode();
    state = mode === null ? "not-set-up" : credentials.isUnlocked() ? "unlocked" : "locked";
  } catch (error) {
    state = "unavailable";
    mode = null;
    console.warn("console: the vault is unavailable", error);
  }
  element.dataset.state = state;
  const label = {
    unavailable: "Vault unavailable",
    "not-set-up": "Vault not set up",
    locked: "Vault locked",
    unlocked: "Vault unlocked",
  }[state];
  const action = { "not-set-up": "Set up", locked: "Unlock", unlocked: "Lock" }[state];
  fill(
    element,
    lockIcon(state === "unlocked"),
    h("span", { class: "vault-label", "data-testid": "vault-label" }, label),
    action
      ? h("button", { type: "button", class: "btn btn-small", "data-testid": "vault-button", onclick: () => (state === "unlocked" ? lock() : openVault()) }, action)
      : null,
  );
}

/** A padlock, open or closed (SVG: no emoji font needed). */
function lockIcon(open) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "vault-icon");
  svg.setAttribute("aria-hidden", "true");
  const body = document.createElementNS(svg.namespaceURI, "rect");
  for (const [k, v] of Object.entries({ x: "3", y: "7", width: "10", height: "7", rx: "1.5" })) body.setAttribute(k, v);
  const shackle = document.createElementNS(svg.namespaceURI, "path");
  shackle.setAttribute("d", open ? "M5 7V5a3 3 0 0 1 5.8-1" : "M5 7V5a3 3 0 0 1 6 0v2");
  svg.append(body, shackle);
  return svg;
}

function lock() {
  app.runtime.credentials.lock();
  toast("Vault locked: servers that are running keep what they were given", "info");
  emit("vault");
}

/** Opens the dialog that sets up or unlocks the vault; `reason` says why it was opened. */
export async function openVault(reason) {
  if (byTestId("vault-dialog")) return;
  await refresh(byTestId("vault-status"));
  if (state === "unlocked" || state === "unavailable") return;
  if (state === "locked" && mode === "device") {
    await unlock({ device: true });
    return;
  }
  const setup = state === "not-set-up";
  openDialog(
    {
      title: setup ? "Set up the vault" : "Unlock the vault",
      description: reason ?? (setup ? "The vault keeps the keys servers need, encrypted in this browser. Values are never shown again once stored." : "Enter the vault's passphrase."),
      testid: "vault-dialog",
    },
    (close) => (setup ? setupForm(close) : unlockForm(close)),
  );
}

function setupForm(close) {
  const error = h("p", { class: "form-error", role: "alert", "data-testid": "vault-error" });
  const passphrase = h("input", { type: "password", id: "vault-pass", autocomplete: "new-password", "data-testid": "vault-passphrase" });
  const again = h("input", { type: "password", id: "vault-pass-again", autocomplete: "new-password", "data-testid": "vault-passphrase-again" });
  const passFields = h(
    "div",
    { class: "vault-pass-fields" },
    h("div", { class: "field" }, h("label", { for: passphrase.id }, `Passphrase (at least ${MIN_PASSPHRASE} characters)`), passphrase),
    h("div", { class: "field" }, h("label", { for: again.id }, "The passphrase again"), again),
  );
  const radio = (value, label, hint, checked) =>
    h(
      "label",
      { class: "radio radio-block" },
      h("input", { type: "radio", name: "vault-mode", value, checked, "data-testid": `vault-mode-${value}` }),
      h("span", {}, h("strong", {}, label), h("span", { class: "field-hint" }, hint)),
    );
  const form = h(
    "form",
    { class: "vault-form", novalidate: true },
    h(
      "fieldset",
      {},
      h("legend", {}, "How the vault is unlocked"),
      radio("passphrase", "A passphrase", "Asked for after each reload. Without it, the stored values cannot be read, even from a copy of this browser's data.", true),
      radio("device", "A key this browser keeps", "No passphrase: the vault unlocks on its own in this browser profile. Protects against a copied disk less than a passphrase does.", false),
    ),
    passFields,
    error,
    h(
      "div",
      { class: "dialog-actions" },
      h("button", { type: "button", class: "btn", onclick: () => close(null) }, "Cancel"),
      h("button", { type: "submit", class: "btn btn-primary", "data-testid": "vault-submit" }, "Set up the vault"),
    ),
  );
  form.addEventListener("change", () => (passFields.hidden = form.elements["vault-mode"].value !== "passphrase"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const usePassphrase = form.elements["vault-mode"].value === "passphrase";
    if (usePassphrase && passphrase.value.length < MIN_PASSPHRASE) return fail(error, `The passphrase needs at least ${MIN_PASSPHRASE} characters.`, passphrase);
    if (usePassphrase && passphrase.value !== again.value) return fail(error, "The two passphrases differ.", again);
    const key = usePassphrase ? { passphrase: passphrase.value } : { device: true };
    await busy(form, async () => {
      try {
        await app.runtime.credentials.setup(key);
        close(true);
        toast("Vault set up and unlocked", "ok");
        emit("vault");
      } catch (e) {
        fail(error, describe(e), null);
        if (e.code === "ORPHANED_CREDENTIALS") error.after(wipeOffer(close));
      }
    });
  });
  return form;
}

function unlockForm(close) {
  const error = h("p", { class: "form-error", role: "alert", "data-testid": "vault-error" });
  const passphrase = h("input", { type: "password", id: "vault-unlock-pass", autocomplete: "current-password", "data-testid": "vault-passphrase" });
  const form = h(
    "form",
    { class: "vault-form", novalidate: true },
    h("div", { class: "field" }, h("label", { for: passphrase.id }, "Passphrase"), passphrase),
    error,
    h(
      "div",
      { class: "dialog-actions" },
      h("button", { type: "button", class: "btn", onclick: () => close(null) }, "Cancel"),
      h("button", { type: "submit", class: "btn btn-primary", "data-testid": "vault-submit" }, "Unlock"),
    ),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    await busy(form, async () => {
      if (await unlock({ passphrase: passphrase.value }, error)) close(true);
      else {
        passphrase.select();
        passphrase.focus();
      }
    });
  });
  return form;
}

async function unlock(key, error = null) {
  try {
    await app.runtime.credentials.unlock(key);
    toast("Vault unlocked: servers waiting for credentials start again", "ok");
    emit("vault");
    restartStartedLocked();
    return true;
  } catch (e) {
    const message = e.code === "WRONG_KEY" ? "Wrong passphrase: the vault stays locked." : describe(e);
    if (error) fail(error, message, null);
    else toast(message, "error");
    return false;
  }
}

/**
 * Servers that started while the vault was locked did without their optional credentials (required ones make a
 * server wait instead): once it is unlocked, those with credentials stored restart to get them.
 */
async function restartStartedLocked() {
  for (const server of [...startedLocked]) {
    startedLocked.delete(server);
    const names = await app.runtime.credentials.names(server).catch(() => []);
    if (names.length === 0 || app.health.get(server)?.status !== "connected") continue;
    try {
      await app.runtime.restartServer(server);
      toast(`${server} restarted with its credentials (${names.join(", ")})`, "ok");
    } catch (error) {
      toast(`${server}: ${describe(error)}`, "error");
    }
  }
}

/** The way out when the key record was lost: delete what can never be read again (after asking). */
function wipeOffer(close) {
  return h(
    "button",
    {
      type: "button",
      class: "btn btn-danger",
      "data-testid": "vault-wipe",
      onclick: async () => {
        const ok = await confirmDialog({
          title: "Delete every stored credential?",
          message: "The vault's key is gone, so what it sealed can never be read again. Deleting lets you set up a new vault.",
          confirm: "Delete them",
          danger: true,
        });
        if (!ok) return;
        await app.runtime.credentials.wipe();
        close(null);
        emit("vault");
        openVault();
      },
    },
    "Delete them and start over",
  );
}

function fail(error, message, input) {
  error.textContent = message;
  input?.focus();
}

async function busy(form, action) {
  const submit = form.querySelector("[type=submit]");
  submit.disabled = true;
  form.setAttribute("aria-busy", "true");
  try {
    await action();
  } finally {
    submit.disabled = false;
    form.removeAttribute("aria-busy");
  }
}
