// The Tools view: the union registry (the console's own tools beside every server's), each with whether the chat
// may use it (per-thread enablement), the destructive tools hidden from agents with why and how to allow them, the
// export preview, and the workbench that calls the selected tool.
import { app, byTestId, describe, emit, on, toast } from "./app.js";
import { confirmDialog } from "./dialog.js";
import { fill, h, pretty } from "./dom.js";
import { openExport } from "./export.js";
import { registerNativeTools } from "./native-tools.js";
import { enabledBy, turnOff } from "./thread-tools.js";
import { mountWorkbench, select } from "./workbench.js";

/** Rows rendered at once: a registry with thousands of tools is narrowed with the filter instead. */
const MAX_ROWS = 300;

export function mount(view) {
  registerNativeTools();
  if (app.runtime.threadTools(app.thread) === null) {
    // A first visit: the chat may use the console's own tools, and the tools of servers added later.
    app.runtime.setThreadTools(app.thread, registerNames().filter((n) => !n.startsWith("mcp__")));
  }
  const filter = h("input", { id: "tool-filter", type: "search", placeholder: "Filter tools…", autocomplete: "off", "data-testid": "tool-filter" });
  const list = h("div", { class: "tool-list", "data-testid": "tool-list" });
  const count = h("span", { class: "count", "data-testid": "tool-count" });
  const workbench = h("section", { class: "panel", id: "workbench", tabindex: "-1", "aria-labelledby": "workbench-title", "data-testid": "workbench" });
  const result = h("section", { class: "panel", "aria-labelledby": "result-title" });
  view.replaceChildren(
    h(
      "div",
      { class: "tools-layout" },
      h(
        "section",
        { class: "panel panel-tools", "aria-labelledby": "tools-title" },
        h(
          "header",
          { class: "panel-head" },
          h("h2", { id: "tools-title" }, "Tools"),
          count,
          h("button", { type: "button", class: "btn btn-small", "data-testid": "export-open", onclick: () => openExport() }, "Export…"),
        ),
        h(
          "p",
          { class: "tool-thread muted small", id: "tool-thread-hint" },
          "Checked tools are offered to the model in “Try it with a model” (thread ",
          h("code", {}, app.thread),
          ").",
        ),
        h("div", { class: "tool-filter" }, h("label", { class: "sr-only", for: filter.id }, "Filter tools"), filter),
        h("div", { class: "tool-scroll" }, list),
      ),
      h("div", { class: "stage-col" }, workbench, result),
    ),
  );
  const render = () => renderList(list, count, filter.value.trim().toLowerCase());
  filter.addEventListener("input", render);
  on("tools", render);
  on("servers", render);
  mountWorkbench(workbench, result);
  on("try-tool", ({ server, tool, arguments: args }) => {
    emit("show-view", "tools");
    select({ server, tool }, args);
  });
  render();
}

function registerNames() {
  return app.runtime.toolEntries({ includeHidden: true }).map((e) => e.name);
}

function renderList(list, count, filter) {
  const entries = app.runtime.toolEntries({ includeHidden: true });
  const thread = app.runtime.threadTools(app.thread) ?? [];
  const groups = new Map([[null, []]]);
  for (const name of [...app.health.keys()].sort()) groups.set(name, []);
  for (const entry of entries) {
    if (!groups.has(entry.server)) groups.set(entry.server, []);
    groups.get(entry.server).push(entry);
  }
  count.textContent = String(entries.length);
  const focusedTestId = list.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
  const focusedTool = document.activeElement?.closest?.("[data-testid=tool-item]")?.dataset.name;
  let shown = 0;
  const sections = [];
  for (const [server, tools] of groups) {
    const matches = filter ? tools.filter((t) => searchText(t).includes(filter)) : tools;
    if (filter && matches.length === 0) continue;
    const rows = matches.slice(0, Math.max(0, MAX_ROWS - shown));
    shown += rows.length;
    sections.push(group(server, tools, rows, thread));
  }
  fill(list, sections.length ? sections : h("p", { class: "empty" }, "No tool matches the filter."));
  if (focusedTool) {
    const item = list.querySelector(`[data-testid=tool-item][data-name="${CSS.escape(focusedTool)}"]`);
    (item && focusedTestId ? byTestId(focusedTestId, item) : null)?.focus();
  }
}

function searchText(entry) {
  const d = entry.definition;
  return `${entry.name} ${entry.tool} ${entry.server ?? "console"} ${d.title ?? ""} ${d.description ?? ""}`.toLowerCase();
}

function group(server, all, rows, thread) {
  const health = server ? app.health.get(server) : null;
  const hidden = all.filter((t) => t.hidden);
  const allowed = server ? app.runtime.serverConfig(server)?.allowDestructiveTools : false;
  const destructive = all.filter((t) => t.destructive);
  let empty = null;
  if (all.length === 0) {
    empty = !health
      ? "No tools."
      : health.status === "connected"
        ? "This server offers no tools."
        : health.status === "disabled"
          ? "Disabled: enable it to see its tools."
          : "Its tools appear once it has started.";
  }
  return h(
    "section",
    { class: "tool-group", "data-testid": "tool-group", dataset: { server: server ?? "" }, "aria-label": server ? `Tools of ${server}` : "The console's own tools" },
    h(
      "header",
      { class: "tool-group-head" },
      h("h3", { class: "tool-group-title" }, server ? h("span", { class: "mono" }, server) : "This console (native tools)"),
      health && health.status !== "connected" && health.status !== "disabled" && all.length === 0
        ? h("button", { type: "button", class: "btn btn-small btn-ghost", onclick: () => start(server) }, "Start it")
        : null,
    ),
    empty ? h("p", { class: "muted small" }, empty) : null,
    hidden.length
      ? h(
          "div",
          { class: "notice small", "data-testid": "hidden-notice" },
          h("p", {}, `${hidden.length} tool${hidden.length === 1 ? " is" : "s are"} hidden from agents: ${server} may change or delete things with ${hidden.length === 1 ? "it" : "them"}, and its config does not allow destructive tools. You can still call ${hidden.length === 1 ? "it" : "them"} yourself here.`),
          h("button", { type: "button", class: "btn btn-small", "data-testid": "allow-destructive", onclick: () => allowDestructive(server, true) }, `Show ${server}'s destructive tools to agents`),
        )
      : null,
    allowed && destructive.length
      ? h(
          "p",
          { class: "small muted" },
          `Destructive tools of ${server} are shown to agents. `,
          h("button", { type: "button", class: "btn-link", "data-testid": "hide-destructive", onclick: () => allowDestructive(server, false) }, "Hide them again"),
        )
      : null,
    h("ul", { class: "tool-items" }, rows.map((entry) => item(entry, thread))),
    rows.length < all.length && rows.length ? h("p", { class: "muted small" }, `${all.length - rows.length} more: refine the filter`) : null,
  );
}

function item(entry, thread) {
  const d = entry.definition;
  const enabled = !entry.hidden && enabledBy(thread, entry.name);
  const id = `enable-${entry.name}`;
  const reasonId = `hidden-${entry.name}`;
  return h(
    "li",
    {
      class: `tool-item${entry.hidden ? " tool-hidden" : ""}`,
      "data-testid": "tool-item",
      dataset: { name: entry.name, tool: entry.tool, server: entry.server ?? "", source: entry.source },
    },
    h(
      "div",
      { class: "tool-enable" },
      h("input", {
        type: "checkbox",
        id,
        checked: enabled,
        disabled: entry.hidden,
        "data-testid": "tool-enabled",
        "aria-describedby": entry.hidden ? reasonId : null,
        onchange: (event) => setEnabled(entry, event.target.checked),
      }),
      h("label", { class: "sr-only", for: id }, `Offer ${entry.name} to the chat`),
    ),
    h(
      "button",
      { type: "button", class: "tool-select", "data-testid": "tool-select", onclick: () => select({ server: entry.server, tool: entry.tool }) },
      h("span", { class: "tool-line" }, h("span", { class: "tool-name mono" }, entry.tool), badges(entry)),
      d.title ? h("span", { class: "tool-title" }, d.title) : null,
      d.description ? h("span", { class: "tool-desc" }, d.description) : null,
      h("span", { class: "tool-registry-name mono small muted" }, entry.name),
    ),
    entry.hidden ? h("p", { class: "small hidden-reason", id: reasonId, "data-testid": "hidden-reason" }, `Hidden from agents: ${hiddenReason(d)}.`) : null,
    h("details", { class: "schema" }, h("summary", {}, "Input schema"), h("pre", { class: "code", "data-testid": "tool-schema" }, pretty(d.inputSchema))),
  );
}

function hiddenReason(definition) {
  const a = definition.annotations ?? {};
  if (a.destructiveHint === true && !a.readOnlyHint) return "its server marks it destructive";
  if (!a.readOnlyHint) return "its server does not say it is read-only, so it may change things";
  return "its name says it deletes or removes things";
}

/** The tool's annotations as badges. They are the server's own hints, so the titles say so. */
export function badges(entry) {
  const a = entry.definition.annotations ?? {};
  const badge = (label, title, variant = "", testid = null) =>
    h("span", { class: `badge ${variant}`, title, "data-testid": testid }, label);
  return h(
    "span",
    { class: "badges" },
    entry.source === "native" ? badge("native", "Runs in this page", "badge-accent", "badge-native") : null,
    a.readOnlyHint ? badge("read-only", "readOnlyHint: does not modify its environment (a hint from the server)", "badge-ok", "badge-read-only") : null,
    entry.destructive ? badge("destructive", "May change or delete things: hidden from agents unless allowed", "badge-danger", "badge-destructive") : null,
    a.openWorldHint ? badge("open world", "openWorldHint: talks to the outside world (a hint from the server)") : null,
  );
}

function setEnabled(entry, on) {
  if (on) {
    app.runtime.enableTools(app.thread, [entry.name]);
  } else {
    const change = turnOff(app.runtime.threadTools(app.thread) ?? [], entry.name, registerNames());
    if (change.disable.length) app.runtime.disableTools(app.thread, change.disable);
    if (change.enable.length) app.runtime.enableTools(app.thread, change.enable);
  }
  emit("tools");
}

async function allowDestructive(server, allow) {
  if (allow) {
    const ok = await confirmDialog({
      title: `Show ${server}'s destructive tools to agents?`,
      message: `Agents (the chat) could then call the tools of ${server} that may change or delete things, once they are checked for the chat. This is saved in ${server}'s config (allowDestructiveTools).`,
      confirm: "Show them",
      danger: true,
    });
    if (!ok) return;
  }
  try {
    app.runtime.setAllowDestructiveTools(server, allow);
    toast(allow ? `${server}: destructive tools shown to agents` : `${server}: destructive tools hidden from agents`, "ok");
    emit("tools");
  } catch (error) {
    toast(describe(error), "error");
  }
}

async function start(server) {
  try {
    await app.runtime.connectServer(server);
  } catch (error) {
    toast(`${server}: ${describe(error)}`, "error");
  }
}
