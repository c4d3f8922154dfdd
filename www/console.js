// mcp-worker console: the whole runtime (McpRuntime) on one page. Servers from a catalogue, a form or an
// `mcpServers` file; the encrypted vault for their keys; the union tool registry with the console's own tools;
// resources, prompts and server requests; the status socket as a timeline; and a chat with a model that calls the
// tools. Plain ES modules, no build step. Everything is kept in IndexedDB, so a reload brings it back.
import { DATABASE, app, byTestId, describe, emit, toast } from "./console/app.js";
import { h } from "./console/dom.js";
import { mountTabs } from "./console/tabs.js";

/** The full host package, where `cargo xtask demo` puts it in the site. */
const HOST_URL = "./pkg/host/mcp_worker_host.js";
const OAUTH_URL = "./pkg/host/oauth-popup.mjs";
const CATALOGUE_URL = "./catalogue.json";

/**
 * The parts of the console: each module's `mount(element)` builds its part. They are loaded one by one, so that a
 * part that fails shows its error in place and the others still work.
 */
const PARTS = [
  { module: "./console/servers.js", element: "server-list" },
  { module: "./console/vault.js", element: "vault-status" },
  { module: "./console/add.js", element: "view-add" },
  { module: "./console/tools.js", element: "view-tools" },
  { module: "./console/resources.js", element: "view-resources" },
  { module: "./console/events.js", element: "view-events" },
  { module: "./console/chat.js", element: "view-chat" },
  { module: "./console/requests.js", element: null },
];

function setHostStatus(state, text) {
  const status = byTestId("host-status");
  status.dataset.state = state;
  status.querySelector(".host-status-text").textContent = text;
}

async function createRuntime() {
  const started = performance.now();
  const host = await import(HOST_URL);
  await host.default();
  app.host = host;
  const { popupAuthorize, callbackUrl } = await import(OAUTH_URL);
  app.runtime = await host.McpRuntime.create({
    database: DATABASE,
    // Server requests are answered from the page: elicitation as forms, sampling after the user approves.
    elicitation: true,
    sampling: true,
    roots: [],
    oauth: { redirectUri: callbackUrl, authorize: (url) => popupAuthorize(url), clientName: "mcp-worker console" },
  });
  // For people poking at the console from devtools: `mcpConsole.runtime` is the McpRuntime.
  globalThis.mcpConsole = app;
  return performance.now() - started;
}

async function loadCatalogue() {
  try {
    const response = await fetch(CATALOGUE_URL);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const document = await response.json();
    app.catalogue = Array.isArray(document?.servers) ? document.servers : [];
  } catch (error) {
    app.catalogue = [];
    toast(`The catalogue (${CATALOGUE_URL}) could not be loaded: ${error.message}`, "error");
  }
  emit("catalogue");
}

/** Keeps `app.health` current and hands every event of the status socket to the views. */
function listen(runtime) {
  for (const health of runtime.servers()) app.health.set(health.name, health);
  // Kept events are replayed first: parts show them, but do not open dialogs for what is long past.
  app.replaying = true;
  runtime.subscribe(
    (event) => {
      if (event.type === "serverStatus") {
        const { id, seq, timestamp, type, ...health } = event;
        app.health.set(event.server, { ...health, name: event.server });
        emit("servers");
      } else if (event.type === "serverRemoved") {
        app.health.delete(event.server);
        emit("servers");
      } else if (event.type === "toolsChanged") {
        emit("tools");
      }
      emit("event", event);
    },
    { replay: true },
  );
  app.replaying = false;
  emit("servers");
}

async function mountParts() {
  // Fetched together, mounted in order.
  const modules = PARTS.map((part) => import(part.module).then((module) => ({ module }), (error) => ({ error })));
  for (const [index, part] of PARTS.entries()) {
    const element = part.element ? byTestId(part.element) : null;
    try {
      const { module, error } = await modules[index];
      if (error) throw error;
      module.mount(element);
    } catch (error) {
      console.error(`console: ${part.module} failed`, error);
      element?.replaceChildren(h("p", { class: "error-box", role: "alert" }, `This part of the console failed to load: ${describe(error)}`));
    }
  }
}

// Anything unexpected still shows on the page, not only in devtools.
window.addEventListener("error", (event) => toast(`Unexpected error: ${event.message}`, "error"));
window.addEventListener("unhandledrejection", (event) => toast(`Unexpected error: ${describe(event.reason)}`, "error"));

let loadMs = 0;
try {
  loadMs = await createRuntime();
} catch (error) {
  setHostStatus("error", "The runtime failed to load");
  document.getElementById("main").replaceChildren(
    h("p", { class: "error-box", role: "alert" }, `The runtime failed to load from ${HOST_URL}: ${describe(error)}. Is the site built (cargo xtask demo)?`),
  );
}
if (app.runtime) {
  await loadCatalogue();
  await mountParts();
  listen(app.runtime);
  // A first visit (no server yet) opens on the catalogue; later visits on the tools.
  mountTabs(app.health.size === 0 ? "add" : "tools");
  setHostStatus("ready", `Runtime ready in ${Math.round(loadMs)} ms`);
  const persistence = app.runtime.persistence();
  for (const problem of persistence?.problems ?? []) {
    toast(`A saved ${problem.store} record (${problem.key}) could not be restored: ${problem.reason}`, "error");
  }
}
