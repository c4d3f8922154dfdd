// The Events view: the runtime's status socket as a live timeline, filterable by kind, server and text, with each
// event's details one click away. Newest at the bottom; it sticks to the bottom unless the reader scrolled up.
import { app, byTestId, on } from "./app.js";
import { clock, fill, h, pretty } from "./dom.js";

/** Rows kept on the page; older ones are dropped so a long session stays fast. */
const MAX_ROWS = 1000;

/** Groups of event kinds for the filter, each with the kinds it covers. */
const GROUPS = [
  ["status", "Server status", ["serverStatus", "serverRemoved", "serverRestarting", "serverThrottled"]],
  ["calls", "Tool calls", ["toolExecutionStarted", "toolExecutionFinished", "progress"]],
  ["tools", "Tools and lists", ["toolsChanged", "toolsHidden", "toolNamesClashed", "toolListLimited", "listChanged", "resourceUpdated"]],
  ["logs", "Server logs", ["serverLog"]],
  ["requests", "Requests to you", ["elicitationRequested", "samplingRequested", "serverRequestSettled"]],
  ["security", "Credentials, sign-in, network", ["credentialsRequired", "authorizationRequired", "networkBlocked"]],
];
const GROUP_OF = new Map(GROUPS.flatMap(([group, , kinds]) => kinds.map((kind) => [kind, group])));

const events = [];

export function mount(view) {
  const kinds = h(
    "fieldset",
    { class: "event-kinds" },
    h("legend", { class: "sr-only" }, "Kinds of events shown"),
    GROUPS.map(([group, label]) =>
      h("label", { class: "chip" }, h("input", { type: "checkbox", value: group, checked: true, "data-testid": `event-kind-${group}` }), label),
    ),
  );
  const server = h("select", { id: "event-server", "data-testid": "event-server" });
  const search = h("input", { type: "search", id: "event-search", placeholder: "Search events…", autocomplete: "off", "data-testid": "event-search" });
  const list = h("ol", { class: "events", role: "log", "aria-live": "polite", "aria-relevant": "additions", "aria-labelledby": "events-title", "data-testid": "event-list" });
  const scroller = h("div", { class: "events-scroll" }, list);
  const shown = h("span", { class: "muted small", "data-testid": "event-shown" });
  fill(
    view,
    h(
      "section",
      { class: "panel view-section events-panel", "aria-labelledby": "events-title" },
      h(
        "header",
        { class: "panel-head" },
        h("h2", { id: "events-title" }, "Events"),
        shown,
        h("button", { type: "button", class: "btn btn-small btn-ghost", "data-testid": "event-clear", onclick: () => clear(list, shown) }, "Clear"),
      ),
      h(
        "div",
        { class: "event-filters" },
        kinds,
        h("span", { class: "event-server-pick" }, h("label", { for: server.id }, "Server"), server),
        h("label", { class: "sr-only", for: search.id }, "Search events"),
        search,
      ),
      scroller,
    ),
  );
  const filter = () => ({
    groups: new Set([...kinds.querySelectorAll("input:checked")].map((i) => i.value)),
    server: server.value,
    text: search.value.trim().toLowerCase(),
  });
  const rerender = () => {
    const f = filter();
    fill(list, events.filter((e) => matches(e, f)).slice(-MAX_ROWS).map(row));
    updateCount(shown, list);
    scroller.scrollTop = scroller.scrollHeight;
  };
  for (const control of [kinds, server]) control.addEventListener("change", rerender);
  search.addEventListener("input", rerender);
  const servers = () => {
    const current = server.value;
    fill(server, h("option", { value: "" }, "All servers"), [...app.health.keys()].sort().map((name) => h("option", { value: name }, name)));
    server.value = app.health.has(current) ? current : "";
  };
  on("servers", servers);
  servers();
  on("event", (event) => {
    events.push(event);
    if (events.length > MAX_ROWS * 2) events.splice(0, events.length - MAX_ROWS);
    byTestId("event-count").textContent = String(event.seq);
    if (!matches(event, filter())) return;
    const atBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 32;
    list.append(row(event));
    while (list.childElementCount > MAX_ROWS) list.firstElementChild.remove();
    updateCount(shown, list);
    if (atBottom) scroller.scrollTop = scroller.scrollHeight;
  });
}

function clear(list, shown) {
  events.length = 0;
  list.replaceChildren();
  updateCount(shown, list);
}

function updateCount(shown, list) {
  shown.textContent = `${list.childElementCount} shown`;
}

function matches(event, { groups, server, text }) {
  if (!groups.has(GROUP_OF.get(event.type) ?? "status")) return false;
  if (server && event.server !== server) return false;
  return !text || `${event.type} ${event.server ?? ""} ${summary(event)}`.toLowerCase().includes(text);
}

function row(event) {
  const level = levelOf(event);
  return h(
    "li",
    { class: `event event-${level}`, "data-testid": "event-row", dataset: { kind: event.type, server: event.server ?? "", level } },
    h(
      "details",
      {},
      h(
        "summary",
        {},
        h("time", { datetime: new Date(event.timestamp).toISOString() }, clock(new Date(event.timestamp))),
        h("span", { class: "event-kind mono" }, event.type),
        event.server ? h("span", { class: "event-server mono" }, event.server) : null,
        h("span", { class: "event-summary", "data-testid": "event-summary" }, clip(summary(event), 300)),
      ),
      h("pre", { class: "code" }, clip(pretty(event), 20_000)),
    ),
  );
}

/** Server text can be any length: a row shows the start of it. */
function clip(text, max) {
  return text.length > max ? `${text.slice(0, max)}… (${text.length.toLocaleString()} characters)` : text;
}

function levelOf(event) {
  switch (event.type) {
    case "toolExecutionFinished":
      return event.status === "error" ? "error" : "ok";
    case "serverStatus":
      return event.status === "error" ? "error" : event.status === "connected" ? "ok" : "info";
    case "serverLog":
      return ["error", "critical", "alert", "emergency"].includes(event.level) ? "error" : event.level === "warning" ? "warn" : "info";
    case "networkBlocked":
    case "toolListLimited":
    case "serverThrottled":
    case "serverRestarting":
      return "warn";
    default:
      return "info";
  }
}

/** One line about an event, in words. */
export function summary(event) {
  switch (event.type) {
    case "serverStatus":
      return `${event.status}${event.status === "connected" ? ` · ${event.toolCount} tools · ${event.protocolVersion ?? ""}` : ""}${event.lastError && event.status !== "connected" ? ` · ${event.lastError}` : ""}`;
    case "serverRemoved":
      return "removed";
    case "serverRestarting":
      return `restart ${event.attempt} in ${event.backoffMs} ms: ${event.reason}`;
    case "toolExecutionStarted":
      return `${event.toolName} started (thread ${event.threadId})`;
    case "toolExecutionFinished":
      return `${event.toolName} ${event.status} in ${Math.round(event.durationMs)} ms${event.error ? `: ${event.error}` : ""}`;
    case "progress":
      return `progress ${event.progress}${event.total ? ` / ${event.total}` : ""}${event.message ? `: ${event.message}` : ""}`;
    case "toolsChanged":
      return `tools +${event.added.length} −${event.removed.length}`;
    case "toolsHidden":
      return `hidden from agents: ${hiddenSummary(event.tools)}`;
    case "toolNamesClashed":
      return `tool names clashed on ${event.name}`;
    case "toolListLimited":
      return event.message;
    case "listChanged":
      return `${event.list} changed`;
    case "resourceUpdated":
      return `updated ${event.uri}`;
    case "serverLog":
      return `[${event.level}]${event.logger ? ` ${event.logger}:` : ""} ${typeof event.data === "string" ? event.data : clip(JSON.stringify(event.data) ?? "", 300)}`;
    case "credentialsRequired":
      return `needs ${event.credentials.map((c) => c.name).join(", ") || "credentials"}${event.locked ? " (vault locked)" : ""}`;
    case "authorizationRequired":
      return `needs sign-in (${event.reason})`;
    case "networkBlocked":
      return `blocked ${event.origin} (${event.directive})`;
    case "elicitationRequested":
      return `asks you: ${event.params?.message ?? ""}`;
    case "samplingRequested":
      return "asks for a model completion";
    case "serverRequestSettled":
      return `request ${event.requestId} ${event.outcome}`;
    case "serverThrottled":
      return `throttled: ${event.logDropped} logs dropped, ${event.requestsRefused} requests refused`;
    default:
      return "";
  }
}

/** The hidden tools grouped by reason: "a, b (why); c (why)". Most share one reason, said once. */
function hiddenSummary(tools) {
  const byReason = new Map();
  for (const { tool, reason } of tools) {
    if (!byReason.has(reason)) byReason.set(reason, []);
    byReason.get(reason).push(tool);
  }
  return [...byReason].map(([reason, names]) => `${names.join(", ")} (${reason})`).join("; ");
}
