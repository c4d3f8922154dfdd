// The servers sidebar: one card per configured server, live from the status socket. Each says where the server
// stands (status, transport, sandbox and network policy, tools, protocol, last error, failures, restarts, uptime),
// what it waits for (credentials, a sign-in), and offers what can be done (connect, restart, enable, disable,
// credentials, remove).
import { app, byTestId, describe, emit, on, toast } from "./app.js";
import { confirmDialog } from "./dialog.js";
import { fill, h } from "./dom.js";

const STATUS_LABEL = {
  disconnected: "Idle",
  connecting: "Starting…",
  connected: "Connected",
  needs_credentials: "Needs credentials",
  needs_authorization: "Needs sign-in",
  error: "Error",
  disabled: "Disabled",
};

/** What the runtime said each server waits for: `credentialsRequired` and `authorizationRequired` events. */
const waiting = new Map();
/** Restarts seen per server (`serverRestarting` events), since the page loaded. */
const restarts = new Map();
const cards = new Map();

export function mount(list) {
  byTestId("add-server-open").addEventListener("click", () => {
    emit("show-view", "add");
    byTestId("view-add").focus();
  });
  on("servers", () => render(list));
  on("event", (event) => {
    if (event.type === "credentialsRequired" || event.type === "authorizationRequired") {
      waiting.set(event.server, event);
      render(list);
    } else if (event.type === "serverRestarting") {
      restarts.set(event.server, (restarts.get(event.server) ?? 0) + 1);
    } else if (event.type === "serverRemoved") {
      waiting.delete(event.server);
      restarts.delete(event.server);
    }
  });
  // Uptimes tick without re-rendering the cards (focus and hover stay put).
  setInterval(() => {
    for (const [name, card] of cards) {
      const uptime = byTestId("server-uptime", card);
      if (uptime) uptime.textContent = uptimeText(app.health.get(name));
    }
  }, 1000);
  render(list);
}

function render(list) {
  const names = [...app.health.keys()].sort();
  byTestId("server-count").textContent = names.length ? String(names.length) : "";
  for (const [name, card] of cards) {
    if (!app.health.has(name)) {
      card.remove();
      cards.delete(name);
    }
  }
  if (names.length === 0) {
    fill(
      list,
      h(
        "li",
        { class: "empty", "data-testid": "servers-empty" },
        "No server yet. ",
        h("button", { type: "button", class: "btn-link", onclick: () => emit("show-view", "add") }, "Add one from the catalogue"),
        ".",
      ),
    );
    return;
  }
  byTestId("servers-empty", list)?.remove();
  // Cards are replaced one by one and focus is carried over, so a keyboard user stays on the button they used.
  names.forEach((name, index) => {
    const old = cards.get(name);
    const focused = old?.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
    const card = serverCard(app.health.get(name));
    cards.set(name, card);
    if (old) old.replaceWith(card);
    else list.insertBefore(card, list.children[index] ?? null);
    if (focused) (byTestId(focused, card) ?? card.querySelector("button"))?.focus();
  });
}

function serverCard(health) {
  const { name, status } = health;
  const config = app.runtime.serverConfig(name);
  const wait = waitingFor(health);
  return h(
    "li",
    { class: `server-card state-${status}`, "data-testid": "server-card", dataset: { server: name }, "aria-label": `Server ${name}` },
    h(
      "div",
      { class: "server-top" },
      h("span", { class: "status-dot", "aria-hidden": "true" }),
      h("h3", { class: "server-name mono" }, name),
      h("span", { class: "server-state", "data-testid": "server-status", dataset: { state: status } }, STATUS_LABEL[status] ?? status),
    ),
    h("dl", { class: "server-facts" }, facts(health, config)),
    wait,
    health.lastError && status !== "connected"
      ? h("p", { class: "server-error", "data-testid": "server-error", role: status === "error" ? "alert" : null }, health.lastError)
      : null,
    actions(health, config),
  );
}

function facts(health, config) {
  const fact = (label, value, testid) => [h("dt", {}, label), h("dd", { "data-testid": testid }, value)];
  const where = config?.url ?? config?.workerUrl ?? config?.command ?? "";
  return [
    fact("Transport", transportText(health, config), "server-transport"),
    fact("Runs in", isolationText(health), "server-isolation"),
    health.isolation === "remote" ? null : fact("Network", networkText(health), "server-network"),
    fact("Tools", String(health.toolCount), "server-tools"),
    health.protocolVersion ? fact("Protocol", health.protocolVersion, "server-protocol") : null,
    health.status === "connected" ? fact("Up", uptimeText(health), "server-uptime") : null,
    health.consecutiveFailures ? fact("Failures", `${health.consecutiveFailures} in a row`, "server-failures") : null,
    restarts.get(health.name) ? fact("Restarts", String(restarts.get(health.name)), "server-restarts") : null,
    health.blockedRequests ? fact("Blocked", `${health.blockedRequests} (last: ${health.lastBlockedOrigin})`, "server-blocked") : null,
    where ? fact("From", h("span", { class: "mono small", title: where }, where), "server-source") : null,
  ];
}

function transportText(health, config) {
  if (config?.type === "sse") return "HTTP+SSE";
  return { wasm: "Web Worker (wasm)", http: "Streamable HTTP", stdio: "stdio (not in a browser)" }[health.transport] ?? health.transport;
}

function isolationText(health) {
  return {
    sandbox: "Sandbox (its own origin)",
    page: "The page's origin (trusted)",
    remote: "A remote server",
  }[health.isolation] ?? health.isolation;
}

function networkText(health) {
  return health.network.length ? health.network.join(", ") : "None";
}

function uptimeText(health) {
  if (!health || health.status !== "connected" || !health.lastConnectedMs) return "";
  const seconds = Math.max(0, Math.round((Date.now() - health.lastConnectedMs) / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

/** What the server waits for, with the names and descriptions it declared, and the button that helps. */
function waitingFor(health) {
  const event = waiting.get(health.name);
  if (health.status === "needs_credentials") {
    const missing = event?.type === "credentialsRequired" ? event.credentials : [];
    const locked = event?.type === "credentialsRequired" && event.locked;
    return h(
      "div",
      { class: "server-needs", "data-testid": "server-needs" },
      h("p", {}, locked ? "Needs credentials from the vault, which is locked:" : "Needs credentials:"),
      missing.length
        ? h("ul", {}, missing.map((c) => h("li", {}, h("code", {}, c.name), c.description ? ` — ${c.description}` : "")))
        : null,
      event?.identityChange
        ? h("p", { class: "small" }, `Its stored credentials were kept for ${event.identityChange.storedFor ?? "no known code"}; it now runs ${event.identityChange.current}.`)
        : null,
    );
  }
  if (health.status === "needs_authorization") {
    const auth = event?.type === "authorizationRequired" ? event : null;
    const whom = auth?.authorizationServer ? ` with ${auth.authorizationServer}` : "";
    return h(
      "div",
      { class: "server-needs", "data-testid": "server-needs" },
      h("p", {}, `Needs you to sign in${whom}.`),
      auth && !auth.canAuthorize ? h("p", { class: "small" }, "This page has no sign-in configured.") : null,
    );
  }
  return null;
}

function actions(health, config) {
  const { name, status } = health;
  const button = (testid, label, onclick, variant = "") =>
    h("button", { type: "button", class: `btn btn-small ${variant}`, "data-testid": testid, "aria-label": `${label}: ${name}`, onclick }, label);
  const runnable = config?.type !== "stdio";
  return h(
    "div",
    { class: "server-actions" },
    status === "disabled"
      ? button("server-enable", "Enable", () => act(name, "enabled", () => app.runtime.enableServer(name)), "btn-primary")
      : [
          status === "needs_authorization"
            ? button("server-sign-in", "Sign in", () => act(name, "signed in", () => app.runtime.connectServer(name)), "btn-primary")
            : null,
          status === "needs_credentials"
            ? button("server-credentials", "Give credentials", () => emit("credentials-open", name), "btn-primary")
            : null,
          runnable && status !== "connected" && status !== "connecting" && status !== "needs_credentials"
            ? button("server-connect", "Connect", () => act(name, "connected", () => app.runtime.connectServer(name)), status === "error" ? "btn-primary" : "")
            : null,
          status === "connected"
            ? button("server-restart", "Restart", () => act(name, "restarted", () => app.runtime.restartServer(name)))
            : null,
          button("server-disable", "Disable", () => act(name, "disabled", () => app.runtime.disableServer(name)), "btn-ghost"),
        ],
    status !== "needs_credentials" ? button("server-keys", "Credentials", () => emit("credentials-open", name), "btn-ghost") : null,
    button("server-remove", "Remove", () => remove(name), "btn-ghost btn-danger-text"),
  );
}

async function act(name, done, action) {
  try {
    await action();
    toast(`${name}: ${done}`, "ok");
  } catch (error) {
    toast(`${name}: ${describe(error)}`, "error");
  }
}

async function remove(name) {
  const ok = await confirmDialog({
    title: `Remove ${name}?`,
    message: `The server stops, its tools go, and the credentials stored for it are deleted.`,
    confirm: "Remove",
    danger: true,
  });
  if (ok) act(name, "removed", () => app.runtime.removeServer(name));
}
