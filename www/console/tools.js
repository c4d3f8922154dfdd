// The tools panel: every tool of the connected servers, filterable, each with its annotations and input schema.
import { app, byTestId, on, select } from "./app.js";
import { fill, h, pretty } from "./dom.js";

/** Rows rendered at once: a server with thousands of tools is narrowed with the filter instead. */
const MAX_ROWS = 200;

export function mountTools() {
  on("servers", renderTools);
  on("selection", markSelected);
  byTestId("tool-filter").addEventListener("input", renderTools);
  renderTools();
}

/** The tool's annotations as badges. They are the server's own hints, so the titles say so. */
export function badges(tool) {
  const a = tool.annotations ?? {};
  const badge = (label, title, variant = "", testid = null) =>
    h("span", { class: `badge ${variant}`, title: `${title} (a hint from the server)`, "data-testid": testid }, label);
  return h(
    "span",
    { class: "badges" },
    a.readOnlyHint ? badge("read-only", "readOnlyHint: does not modify its environment", "badge-ok", "badge-read-only") : null,
    a.destructiveHint === true && !a.readOnlyHint ? badge("destructive", "destructiveHint", "badge-danger") : null,
    a.idempotentHint ? badge("idempotent", "idempotentHint") : null,
    a.openWorldHint ? badge("open world", "openWorldHint: talks to the outside world") : null,
  );
}

/** What the list shows now; a server event that changes none of it leaves the list (open schemas, focus) alone. */
let shownKey = null;

function renderTools() {
  const filter = byTestId("tool-filter").value.trim().toLowerCase();
  const connected = [...app.servers.values()].filter((s) => s.state === "connected");
  const key = [filter, ...connected.flatMap((s) => [s.config.name, s.tools])];
  if (shownKey && key.length === shownKey.length && key.every((part, i) => part === shownKey[i])) return;
  shownKey = key;
  let total = 0;
  let shown = 0;
  const groups = connected.map((server) => {
    total += server.tools.length;
    const matches = filter ? server.tools.filter((tool) => searchText(tool).includes(filter)) : server.tools;
    const rows = matches.slice(0, Math.max(0, MAX_ROWS - shown));
    shown += rows.length;
    return h(
      "section",
      { class: "tool-group", "aria-label": `Tools of ${server.config.name}` },
      connected.length > 1 ? h("h3", { class: "tool-group-title mono" }, server.config.name) : null,
      h("ul", { class: "tool-items" }, rows.map((tool) => toolItem(server.config.name, tool))),
      matches.length > rows.length ? h("p", { class: "muted small" }, `${matches.length - rows.length} more: refine the filter`) : null,
    );
  });
  byTestId("tool-count").textContent = connected.length ? String(total) : "";
  const empty = (text) => h("p", { class: "empty" }, text);
  fill(
    byTestId("tool-list"),
    connected.length === 0
      ? empty("Connect a server to see its tools.")
      : shown === 0
        ? empty(total ? "No tool matches the filter." : "No tools.")
        : groups,
  );
}

function searchText(tool) {
  return `${tool.name} ${tool.title ?? ""} ${tool.description ?? ""}`.toLowerCase();
}

function toolItem(serverName, tool) {
  const current = app.selected?.server === serverName && app.selected?.tool === tool.name;
  const title = tool.title ?? tool.annotations?.title;
  return h(
    "li",
    { class: "tool-item", "data-testid": "tool-item", dataset: { server: serverName, tool: tool.name } },
    h(
      "button",
      {
        type: "button",
        class: "tool-select",
        "data-testid": "tool-select",
        "aria-current": current ? "true" : null,
        onclick: () => select(serverName, tool.name),
      },
      h("span", { class: "tool-line" }, h("span", { class: "tool-name mono" }, tool.name), badges(tool)),
      title ? h("span", { class: "tool-title" }, title) : null,
      tool.description ? h("span", { class: "tool-desc" }, tool.description) : null,
    ),
    h(
      "details",
      { class: "schema" },
      h("summary", {}, "Input schema"),
      h("pre", { class: "code", "data-testid": "tool-schema" }, pretty(tool.inputSchema)),
    ),
  );
}

/** Moves the highlight without rebuilding the list, so focus and open schemas stay as they are. */
function markSelected() {
  for (const item of document.querySelectorAll("[data-testid=tool-item]")) {
    const current = item.dataset.server === app.selected?.server && item.dataset.tool === app.selected?.tool;
    const button = byTestId("tool-select", item);
    if (current) button.setAttribute("aria-current", "true");
    else button.removeAttribute("aria-current");
  }
}
