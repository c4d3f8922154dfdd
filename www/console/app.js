// State shared by the console's panels, and a tiny publish/subscribe so that each panel re-renders itself when
// what it shows changes (instead of every action knowing which panels to redraw).

export const app = {
  /** The host module once `init()` has run; null before, and for good if it failed to load. */
  host: null,
  /** name → { config, state: "idle" | "starting" | "connected" | "error", client, info, tools, error, card } */
  servers: new Map(),
  /** The tool shown in the workbench: `{ server, tool }` names, or null. */
  selected: null,
  /** `log(level, message)`, set at start-up. */
  log: () => {},
};

const listeners = new Map();

/** Topics: "servers" (a state, client or tool list changed), "selection" (another tool was picked). */
export function on(topic, listener) {
  if (!listeners.has(topic)) listeners.set(topic, []);
  listeners.get(topic).push(listener);
}

export function emit(topic) {
  for (const listener of listeners.get(topic) ?? []) listener();
}

export function select(server, tool) {
  app.selected = { server, tool };
  emit("selection");
}

/** The selected tool's server and definition, if that server is connected and still has the tool. */
export function selectedTool() {
  const server = app.selected && app.servers.get(app.selected.server);
  const tool = server?.state === "connected" ? server.tools.find((t) => t.name === app.selected.tool) : undefined;
  return { server, tool };
}

export const byTestId = (id, root = document) => root.querySelector(`[data-testid="${id}"]`);

/** `CODE: message` of a host error; any thrown value is accepted. */
export function describe(error) {
  return `${error?.code ?? "ERROR"}: ${error?.message ?? String(error)}`;
}
