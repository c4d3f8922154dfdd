// mcp-worker console: starts MCP servers in Web Workers through the host's JS API, lists their tools, calls them
// from forms generated from each tool's inputSchema, and logs what happens. Plain ES modules, no build step.
import { app, byTestId, describe, emit } from "./console/app.js";
import { formatMs } from "./console/dom.js";
import { createLog } from "./console/log.js";
import { connect, mountServers } from "./console/servers.js";
import { mountTools } from "./console/tools.js";
import { mountWorkbench } from "./console/workbench.js";

/**
 * The servers the console offers. `workerUrl` is the bundle's bootstrap script. Optional: `env` (values the server
 * receives), `moduleUrl` (its wasm, compiled once here so reconnects skip the worker's own fetch and compile),
 * `autoConnect` (default true).
 */
const SERVERS = [{ name: "echo", workerUrl: "./bundles/echo/bootstrap.js" }];

/**
 * The light host package, where `cargo xtask demo` puts it in the site: the console only needs McpClient
 * (pkg/host/ is the full runtime).
 */
const HOST_URL = "./pkg/host-client/mcp_worker_host.js";

async function loadHost() {
  const started = performance.now();
  try {
    // Imported dynamically so that a missing or broken host build is a readable message, not a blank page.
    const host = await import(HOST_URL);
    await host.default();
    app.host = host;
    setHostStatus("ready", "Host ready");
    app.log("ok", `Host loaded in ${formatMs(performance.now() - started)}`);
  } catch (e) {
    setHostStatus("error", "Host failed to load");
    app.log("error", `Host failed to load from ${HOST_URL}: ${e.message}. Is the site built (cargo xtask demo)?`);
  }
}

function setHostStatus(state, text) {
  const status = byTestId("host-status");
  status.dataset.state = state;
  status.querySelector(".host-status-text").textContent = text;
}

// Anything unexpected still reaches the log, so a bug shows on the page and not only in devtools.
window.addEventListener("error", (event) => app.log("error", `Unexpected error: ${event.message}`));
window.addEventListener("unhandledrejection", (event) => app.log("error", `Unexpected error: ${describe(event.reason)}`));

app.log = createLog(byTestId("log"));
byTestId("log-clear").addEventListener("click", () => byTestId("log").replaceChildren());
for (const config of SERVERS) {
  app.servers.set(config.name, { config, state: "idle", client: null, info: null, tools: [], error: null });
}
mountServers();
mountTools();
mountWorkbench();

await loadHost();
emit("servers"); // the Connect buttons need the host
for (const config of SERVERS) {
  if (config.autoConnect !== false) connect(config.name);
}
