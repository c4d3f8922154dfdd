// A server's credentials: what it declared (names, what each is for, required or not), which are stored, a field
// to give each, and delete. A stored value is never shown: the field is cleared once the value is in the vault.
// Opened from a server card, after adding a server that needs some, and when the runtime asks (`credentialsRequired`).
import { app, byTestId, describe, emit, on, toast } from "./app.js";
import { openDialog } from "./dialog.js";
import { fill, h } from "./dom.js";

/** The last `credentialsRequired` event of each server. */
const asked = new Map();
/** The dialog shown: `{ server, body }`, redrawn when the vault opens or locks. */
let shown = null;

export function mountCredentials() {
  on("credentials-open", (server) => openCredentials(server));
  on("event", (event) => {
    if (event.type !== "credentialsRequired") return;
    asked.set(event.server, event);
    if (!app.replaying && !event.locked) openCredentials(event.server);
  });
  on("event", (event) => event.type === "serverRemoved" && asked.delete(event.server));
  on("vault", () => shown?.body.isConnected && render(shown.server, shown.body));
}

/** Every credential the server is known to take: its catalogue entry's, its config's, and what it asked for. */
async function declared(server) {
  const out = new Map();
  const add = (c) => {
    const decl = typeof c === "string" ? { name: c, description: "", required: true } : { description: "", required: true, ...c };
    const known = out.get(decl.name);
    out.set(decl.name, known ? { ...known, description: known.description || decl.description, required: known.required || decl.required } : decl);
  };
  const entry = app.catalogue.find((e) => (e.config?.name ?? e.id) === server);
  (entry?.needs?.credentials ?? []).forEach(add);
  (app.runtime.serverConfig(server)?.credentials ?? []).forEach(add);
  (asked.get(server)?.credentials ?? []).forEach(add);
  try {
    (await app.runtime.credentials.missing(server)).forEach(add);
  } catch {
    // A manifest that cannot be fetched now leaves what is known.
  }
  return [...out.values()];
}

export function openCredentials(server) {
  if (byTestId("credentials-dialog")?.dataset.server === server) return;
  if (!app.health.has(server)) return;
  const { element } = openDialog(
    { title: `Credentials of ${server}`, description: "Stored encrypted in the vault, and given only to this server's code. A stored value is never shown again.", testid: "credentials-dialog", wide: true },
    (close) => {
      const body = h("div", { class: "credentials-body", "data-testid": "credentials-body" }, h("p", { class: "muted" }, "Loading…"));
      const done = h("div", { class: "dialog-actions" }, h("button", { type: "button", class: "btn btn-primary", "data-testid": "credentials-done", onclick: () => close(true) }, "Done"));
      shown = { server, body };
      render(server, body);
      return [body, done];
    },
  );
  element.dataset.server = server;
}

async function render(server, body) {
  const credentials = app.runtime.credentials;
  const unlocked = credentials.isUnlocked();
  const [decls, stored] = await Promise.all([declared(server), credentials.names(server).catch(() => [])]);
  const storedSet = new Set(stored);
  for (const name of stored) if (!decls.some((d) => d.name === name)) decls.push({ name, description: "", required: false });
  const change = asked.get(server)?.identityChange;
  fill(
    body,
    unlocked
      ? null
      : h(
          "p",
          { class: "notice", "data-testid": "credentials-locked" },
          "The vault is locked or not set up: values can be stored once it is open. ",
          h("button", { type: "button", class: "btn btn-small btn-primary", "data-testid": "credentials-open-vault", onclick: () => emit("vault-open") }, "Open the vault"),
        ),
    change ? identityNotice(server, change) : null,
    decls.length === 0 ? h("p", { class: "muted" }, `${server} declares no credentials. You can still store one by name below.`) : null,
    h("ul", { class: "credential-rows" }, decls.map((decl) => row(server, decl, storedSet.has(decl.name), unlocked, body))),
    otherRow(server, unlocked, body),
  );
}

function row(server, decl, isStored, unlocked, body) {
  const id = `cred-${server}-${decl.name}`.replace(/[^a-zA-Z0-9_-]/g, "_");
  const input = h("input", { type: "password", id, autocomplete: "off", disabled: !unlocked, "data-testid": "credential-value", placeholder: isStored ? "Stored: type to replace" : "Value" });
  const save = async (event) => {
    event.preventDefault();
    if (!input.value) return input.focus();
    await store(server, decl.name, input, body);
  };
  return h(
    "li",
    { class: "credential-row", "data-testid": "credential-row", dataset: { name: decl.name, stored: String(isStored) } },
    h(
      "div",
      { class: "credential-head" },
      h("label", { for: id }, h("code", {}, decl.name)),
      h("span", { class: `badge ${decl.required ? "badge-danger" : ""}` }, decl.required ? "required" : "optional"),
      h("span", { class: `pill ${isStored ? "pill-ok" : "pill-pending"}`, "data-testid": "credential-state" }, isStored ? "Stored" : "Not stored"),
    ),
    decl.description ? h("p", { class: "field-hint" }, decl.description) : null,
    h(
      "form",
      { class: "credential-form", onsubmit: save },
      input,
      h("button", { type: "submit", class: "btn btn-small btn-primary", disabled: !unlocked, "data-testid": "credential-save", "aria-label": `Save ${decl.name}` }, "Save"),
      isStored
        ? h(
            "button",
            { type: "button", class: "btn btn-small btn-ghost", "data-testid": "credential-delete", "aria-label": `Delete ${decl.name}`, onclick: () => remove(server, decl.name, body) },
            "Delete",
          )
        : null,
    ),
  );
}

function otherRow(server, unlocked, body) {
  const name = h("input", { type: "text", id: "cred-other-name", autocomplete: "off", spellcheck: "false", disabled: !unlocked, placeholder: "NAME", "data-testid": "credential-other-name" });
  const value = h("input", { type: "password", id: "cred-other-value", autocomplete: "off", disabled: !unlocked, placeholder: "Value", "data-testid": "credential-other-value" });
  return h(
    "details",
    { class: "credential-other" },
    h("summary", {}, "Store another credential by name"),
    h(
      "form",
      {
        class: "credential-form",
        onsubmit: async (event) => {
          event.preventDefault();
          if (!name.value.trim()) return name.focus();
          await store(server, name.value.trim(), value, body);
          name.value = "";
        },
      },
      h("label", { for: name.id }, "Name"),
      name,
      h("label", { for: value.id }, "Value"),
      value,
      h("button", { type: "submit", class: "btn btn-small", disabled: !unlocked }, "Save"),
    ),
  );
}

async function store(server, name, input, body) {
  try {
    await app.runtime.credentials.set(server, name, input.value);
    input.value = "";
    toast(`${name} stored for ${server}`, "ok");
    await render(server, body);
    if (app.health.get(server)?.status === "connected") body.append(restartOffer(server));
  } catch (error) {
    input.value = "";
    toast(`${name} not stored: ${describe(error)}`, "error");
  }
}

async function remove(server, name, body) {
  try {
    await app.runtime.credentials.delete(server, name);
    toast(`${name} deleted for ${server}`, "ok");
    await render(server, body);
  } catch (error) {
    toast(`${name} not deleted: ${describe(error)}`, "error");
  }
}

/** A running server keeps what it was given at its start: offer the restart that gives it the new value. */
function restartOffer(server) {
  const notice = h(
    "div",
    { class: "notice", "data-testid": "credentials-restart" },
    h("p", {}, `${server} is running with the credentials it was given when it started. Restart it to use the new value.`),
    h(
      "button",
      {
        type: "button",
        class: "btn btn-small btn-primary",
        "data-testid": "credentials-restart-now",
        onclick: async () => {
          notice.remove();
          try {
            await app.runtime.restartServer(server);
            toast(`${server} restarted with its credentials`, "ok");
          } catch (error) {
            toast(`${server}: ${describe(error)}`, "error");
          }
        },
      },
      `Restart ${server} now`,
    ),
  );
  return notice;
}

function identityNotice(server, change) {
  return h(
    "div",
    { class: "notice", "data-testid": "credentials-identity" },
    h("p", {}, `The credentials stored for ${server} (${change.credentials.join(", ")}) were stored for ${change.storedFor ?? "code not recorded"}; its config now runs ${change.current}. They are held back until you agree.`),
    h(
      "button",
      {
        type: "button",
        class: "btn btn-small",
        onclick: async () => {
          try {
            await app.runtime.confirmCredentialIdentity(server);
            asked.delete(server);
            toast(`${server} may use its credentials`, "ok");
          } catch (error) {
            toast(describe(error), "error");
          }
        },
      },
      "Let the new code use them",
    ),
  );
}
