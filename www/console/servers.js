// Server lifecycle (connect, disconnect, ping, loss) and the servers panel.
import { app, byTestId, describe, emit, on, select } from "./app.js";
import { formatMs, h } from "./dom.js";
import { renderError } from "./result.js";

const STATE_LABEL = { idle: "Disconnected", starting: "Starting…", connected: "Connected", error: "Error" };
const modules = new Map();

export function mountServers() {
  on("servers", renderServers);
  renderServers();
}

export async function connect(name) {
  const server = app.servers.get(name);
  if (!app.host || server.state === "starting" || server.state === "connected") return;
  const { workerUrl, env = {}, moduleUrl } = server.config;
  setState(server, "starting", { error: null });
  app.log("info", `${name}: starting worker ${workerUrl}`);
  const started = performance.now();
  let client = null;
  try {
    const module = moduleUrl ? await compiled(moduleUrl) : undefined;
    client = await app.host.McpClient.spawn({ name, workerUrl, env, module });
    const info = client.serverInfo;
    setState(server, "connected", { client, info });
    app.log(
      "ok",
      `${name}: connected in ${formatMs(performance.now() - started)}: ` +
        `${info.serverInfo.name} ${info.serverInfo.version}, protocol ${info.protocolVersion}`,
    );
    const tools = await client.listTools();
    if (server.client !== client) return; // disconnected while listing
    app.log("info", `${name}: ${tools.length} tool${tools.length === 1 ? "" : "s"} listed`);
    setState(server, "connected", { tools });
    if (!app.selected && tools.length > 0) select(name, tools[0].name);
  } catch (e) {
    if (client && server.client !== client) return; // the user disconnected meanwhile: nothing to report
    client?.close();
    setState(server, "error", { client: null, tools: [], error: e });
    app.log("error", `${name}: ${describe(e)}`);
  }
}

export function disconnect(name) {
  const server = app.servers.get(name);
  const client = server.client;
  if (!client) return;
  // Forgotten before close(), so the CLOSED rejections of calls in flight are not taken for a crash.
  setState(server, "idle", { client: null, tools: [] });
  client.close();
  app.log("info", `${name}: disconnected`);
}

export async function ping(name) {
  const client = app.servers.get(name).client;
  if (!client) return;
  const started = performance.now();
  try {
    await client.ping();
    app.log("ok", `${name}: ping answered in ${formatMs(performance.now() - started)}`);
  } catch (e) {
    app.log("error", `${name}: ping failed: ${describe(e)}`);
    connectionLost(name, client, e);
  }
}

/** After an error meaning the worker is gone, its server shows as failed, with its Connect button back. */
export function connectionLost(name, client, error) {
  const server = app.servers.get(name);
  const gone = error?.code === "WORKER_CRASHED" || error?.code === "CLOSED";
  if (!gone || server.client !== client) return;
  client.close();
  setState(server, "error", { client: null, tools: [], error });
}

function setState(server, state, changes = {}) {
  Object.assign(server, changes, { state });
  emit("servers");
}

/** One compile per wasm URL, shared by every (re)connect of servers using it. */
function compiled(url) {
  if (!modules.has(url)) {
    const promise = app.host.compileModule(url);
    promise.catch(() => modules.delete(url)); // a failed compile is retried on the next connect
    modules.set(url, promise);
  }
  return modules.get(url);
}

// ---- the panel

function renderServers() {
  const list = byTestId("server-list");
  // Cards are replaced one by one and focus is carried over, so a keyboard user stays on the card they used.
  for (const server of app.servers.values()) {
    const old = server.card;
    const focused = old?.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
    server.card = serverCard(server);
    if (old) old.replaceWith(server.card);
    else list.append(server.card);
    if (focused) {
      const same = byTestId(focused, server.card);
      const fallback = byTestId(server.state === "connected" ? "server-disconnect" : "server-connect", server.card);
      (same && !same.disabled ? same : fallback)?.focus();
    }
  }
}

function serverCard(server) {
  const { name, workerUrl } = server.config;
  const { state } = server;
  const button = (testid, label, enabled, onclick, variant = "") =>
    h("button", { type: "button", class: `btn btn-small ${variant}`, "data-testid": testid, disabled: !enabled, onclick }, label);
  return h(
    "li",
    { class: `server-card state-${state}`, "data-testid": "server-card", dataset: { server: name } },
    h(
      "div",
      { class: "server-top" },
      h("span", { class: "status-dot", "aria-hidden": "true" }),
      h("span", { class: "server-name mono" }, name),
      h("span", { class: "server-state", "data-testid": "server-status", dataset: { state } }, STATE_LABEL[state]),
    ),
    serverDetail(server),
    h("p", { class: "server-url mono", title: workerUrl }, workerUrl),
    h(
      "div",
      { class: "server-actions" },
      button(
        "server-connect",
        state === "error" ? "Reconnect" : "Connect",
        app.host && (state === "idle" || state === "error"),
        () => connect(name),
        "btn-primary",
      ),
      button("server-disconnect", "Disconnect", state === "connected", () => disconnect(name)),
      button("server-ping", "Ping", state === "connected", () => ping(name), "btn-ghost"),
    ),
  );
}

function serverDetail(server) {
  if (server.state === "starting") return h("p", { class: "server-detail muted" }, "Starting the worker and initializing…");
  if (server.state === "error") return renderError(server.error);
  if (server.state !== "connected") return h("p", { class: "server-detail muted" }, "Not connected");
  const { serverInfo, protocolVersion, instructions } = server.info;
  return h(
    "div",
    { class: "server-detail", "data-testid": "server-info" },
    h("p", {}, h("strong", {}, serverInfo.title ?? serverInfo.name), " ", h("span", { class: "mono muted" }, `${serverInfo.name} ${serverInfo.version}`)),
    h("p", { class: "muted" }, "MCP ", h("span", { class: "mono", "data-testid": "server-protocol" }, protocolVersion)),
    instructions ? h("p", { class: "server-instructions" }, withCode(instructions)) : null,
  );
}

/** Markdown-style `code` spans as <code>; everything else stays plain text. */
function withCode(text) {
  return text.split("`").map((part, i) => (i % 2 ? h("code", {}, part) : part));
}
