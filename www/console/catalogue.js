// The catalogue: the servers shipped with the site (`catalogue.json`), as cards added in one click. Each card says
// what the server does and what it needs (credentials with their descriptions, network origins); adding one starts
// it, enables its tools in the chat, and asks for its credentials when it needs some.
import { app, describe, emit, on, serverPrefix, toast } from "./app.js";
import { fill, h } from "./dom.js";

export function mountCatalogue(section) {
  const grid = h("ul", { class: "catalogue", "data-testid": "catalogue" });
  const filter = h("input", { type: "search", id: "catalogue-filter", placeholder: "Filter by name, tag or description…", autocomplete: "off", "data-testid": "catalogue-filter" });
  fill(
    section,
    h(
      "header",
      { class: "section-head" },
      h("h2", { id: "catalogue-title" }, "Catalogue"),
      h("p", { class: "muted" }, "Servers that come with this site. They run offline in a sandbox of their own; add one and call its tools."),
      h("label", { class: "sr-only", for: filter.id }, "Filter the catalogue"),
      filter,
    ),
    grid,
  );
  const render = () => renderCards(grid, filter.value.trim().toLowerCase());
  filter.addEventListener("input", render);
  on("catalogue", render);
  on("servers", render);
  render();
}

function renderCards(grid, filter) {
  const entries = app.catalogue.filter((entry) => !filter || searchText(entry).includes(filter));
  if (app.catalogue.length === 0) {
    fill(grid, h("li", { class: "empty" }, "The catalogue is empty: no sample server was built into this site."));
    return;
  }
  const focused = grid.contains(document.activeElement) ? document.activeElement : null;
  const focusKey = focused && [focused.closest("[data-id]")?.dataset.id, focused.dataset.testid];
  fill(grid, entries.length ? entries.map(card) : h("li", { class: "empty" }, "No server matches the filter."));
  if (focusKey) grid.querySelector(`[data-id="${CSS.escape(focusKey[0])}"] [data-testid="${focusKey[1]}"]`)?.focus();
}

function searchText(entry) {
  return [entry.id, entry.name, entry.description, ...(entry.tags ?? [])].join(" ").toLowerCase();
}

function card(entry) {
  const name = entry.config?.name ?? entry.id;
  const added = app.health.has(name);
  const credentials = entry.needs?.credentials ?? [];
  const network = entry.needs?.network ?? [];
  const titleId = `cat-${entry.id}`;
  return h(
    "li",
    { class: "catalogue-card", "data-testid": "catalogue-card", dataset: { id: entry.id }, "aria-labelledby": titleId },
    h("h3", { id: titleId }, entry.name ?? entry.id),
    h("p", { class: "catalogue-desc" }, entry.description ?? ""),
    entry.tags?.length ? h("p", { class: "badges" }, entry.tags.map((tag) => h("span", { class: "badge" }, tag))) : null,
    h(
      "dl",
      { class: "catalogue-needs", "data-testid": "catalogue-needs" },
      h("dt", {}, "Credentials"),
      h(
        "dd",
        {},
        credentials.length
          ? h(
              "ul",
              {},
              credentials.map((c) =>
                h("li", {}, h("code", {}, c.name), c.required === false ? " (optional)" : " (required)", c.description ? ` — ${c.description}` : ""),
              ),
            )
          : "None",
      ),
      h("dt", {}, "Network"),
      h("dd", {}, network.length ? network.join(", ") : "None: it works offline"),
    ),
    h(
      "div",
      { class: "catalogue-actions" },
      added
        ? [
            h("span", { class: "pill pill-ok", "data-testid": "catalogue-added" }, "Added"),
            entry.try
              ? h(
                  "button",
                  { type: "button", class: "btn btn-small", "data-testid": "catalogue-try", onclick: () => tryIt(name, entry.try) },
                  `Try ${entry.try.tool}`,
                )
              : null,
          ]
        : h(
            "button",
            {
              type: "button",
              class: "btn btn-primary btn-small",
              "data-testid": "catalogue-add",
              "aria-label": `Add ${entry.name ?? entry.id}`,
              onclick: () => add(entry),
            },
            "Add",
          ),
    ),
  );
}

/** Adds a catalogue server: starts it, enables its tools for the chat, and asks for required credentials. */
export async function add(entry) {
  const config = { ...entry.config, autoStart: true };
  try {
    app.runtime.addServer(config);
  } catch (error) {
    toast(`Cannot add ${config.name}: ${describe(error)}`, "error");
    return false;
  }
  app.runtime.enableTools(app.thread, [`${serverPrefix(config.name)}*`]);
  emit("tools");
  toast(`${entry.name ?? config.name} added`, "ok");
  const required = (entry.needs?.credentials ?? []).filter((c) => c.required !== false);
  if (required.length) emit("credentials-open", config.name);
  return true;
}

/** Opens the tool of a card's `try` in the workbench, its arguments filled in. */
function tryIt(server, example) {
  emit("try-tool", { server, tool: example.tool, arguments: example.arguments ?? {} });
}
