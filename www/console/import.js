// Import an `mcpServers` document (Claude Desktop, Cursor, VS Code), pasted or from a file. Every valid entry is
// added; each entry with problems is listed with them, so one broken entry never hides the good ones. Literal
// secrets in `env` and `headers` move into the vault, which must be unlocked for them.
import { app, describe, emit, serverPrefix, toast } from "./app.js";
import { fill, h } from "./dom.js";

const EXAMPLE = `{
  "mcpServers": {
    "echo": { "type": "wasm", "workerUrl": "./bundles/echo/bootstrap.js" },
    "remote": { "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer \${API_KEY}" } }
  }
}`;

export function mountImport(section) {
  const text = h("textarea", { id: "import-text", rows: "8", class: "mono", spellcheck: "false", placeholder: EXAMPLE, "data-testid": "import-text" });
  const file = h("input", { type: "file", id: "import-file", accept: ".json,application/json", "data-testid": "import-file" });
  const outcome = h("div", { class: "import-outcome", "data-testid": "import-outcome", "aria-live": "polite" });
  const button = h("button", { type: "submit", class: "btn btn-primary", "data-testid": "import-submit" }, "Import");
  const form = h(
    "form",
    { class: "import-form", "aria-labelledby": "import-title" },
    h("h2", { id: "import-title" }, "Import an mcpServers file"),
    h("p", { class: "muted" }, "Paste a config from Claude Desktop, Cursor or VS Code, or choose the file. Entries with problems are reported, not added; a local (stdio) server is listed with why a browser cannot run it."),
    h("label", { for: text.id }, "mcpServers JSON"),
    text,
    h("div", { class: "import-file" }, h("label", { for: file.id }, "Or choose a file"), file),
    h("div", { class: "form-actions" }, button),
    outcome,
  );
  file.addEventListener("change", async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    if (chosen.size > 1024 * 1024) {
      fill(outcome, h("p", { class: "form-error", role: "alert" }, `${chosen.name} is ${Math.round(chosen.size / 1024)} KiB: a config file is at most 1 MiB.`));
      return;
    }
    text.value = await chosen.text();
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    try {
      await run(text.value, outcome);
    } finally {
      button.disabled = false;
    }
  });
  fill(section, form);
}

async function run(document, outcome) {
  if (!document.trim()) {
    fill(outcome, h("p", { class: "form-error", role: "alert" }, "Paste an mcpServers document first."));
    return;
  }
  let result;
  try {
    result = await app.runtime.importMcpServers(document);
  } catch (error) {
    fill(outcome, h("p", { class: "form-error", role: "alert", "data-testid": "import-error" }, `Nothing imported: ${describe(error)}`));
    return;
  }
  for (const name of result.added) {
    app.runtime.enableTools(app.thread, [`${serverPrefix(name)}*`]);
  }
  if (result.added.length) emit("tools");
  const byEntry = new Map();
  for (const problem of result.errors) {
    if (!byEntry.has(problem.entry)) byEntry.set(problem.entry, []);
    byEntry.get(problem.entry).push(problem);
  }
  const state = new Map([
    ...result.added.map((name) => [name, "added"]),
    ...result.changed.map((name) => [name, "changed"]),
    ...result.unchanged.map((name) => [name, "unchanged"]),
  ]);
  const ignoredBy = new Map();
  for (const note of result.ignored) {
    if (!ignoredBy.has(note.entry)) ignoredBy.set(note.entry, []);
    ignoredBy.get(note.entry).push(note.field);
  }
  // A local process (stdio) is kept, to show why it cannot run, but it is not a working server.
  for (const name of state.keys()) {
    if (app.runtime.serverConfig(name)?.command !== undefined) state.set(name, "cannot-run");
  }
  const names = [...new Set([...state.keys(), ...byEntry.keys()])].sort();
  const locked = !app.runtime.credentials.isUnlocked();
  const aboutVault = result.errors.some((p) => /vault|locked/i.test(p.message));
  fill(
    outcome,
    h("p", { class: "import-summary", "data-testid": "import-summary" }, summary(result, state)),
    h(
      "ul",
      { class: "import-entries" },
      names.map((name) => {
        const problems = byEntry.get(name) ?? [];
        return h(
          "li",
          { class: `import-entry ${problems.length ? "bad" : state.get(name) === "cannot-run" ? "warn" : "ok"}`, "data-testid": "import-entry", dataset: { entry: name, state: problems.length ? "error" : state.get(name) } },
          h("span", { class: "mono import-name" }, name || "(document)"),
          problems.length
            ? h("ul", { class: "import-problems" }, problems.map((p) => h("li", {}, p.field ? [h("code", {}, p.field), ": "] : null, p.message)))
            : h("span", { class: `pill ${state.get(name) === "cannot-run" ? "pill-pending" : "pill-ok"}` }, STATE_LABEL[state.get(name)]),
          state.get(name) === "cannot-run" && !problems.length
            ? h("p", { class: "import-ignored" }, "A browser cannot start a local process (stdio): run it behind a Streamable HTTP bridge and import its URL instead.")
            : null,
          ignoredBy.has(name)
            ? h("p", { class: "import-ignored", "data-testid": "import-ignored" }, "Not used here: ", ignoredBy.get(name).map((field, i) => [i ? ", " : "", h("code", {}, field)]))
            : null,
        );
      }),
    ),
    aboutVault && locked
      ? h("p", {}, "Entries with secrets need the vault. ", h("button", { type: "button", class: "btn btn-small", onclick: () => emit("vault-open") }, "Open the vault"), " then import again.")
      : null,
  );
  toast(summary(result, state), result.errors.length ? "error" : "ok");
}

const STATE_LABEL = {
  added: "Added",
  changed: "Updated",
  unchanged: "Unchanged",
  "cannot-run": "Listed; cannot run here",
};

function summary({ added, changed, unchanged, errors }, state) {
  const entries = new Set(errors.map((p) => p.entry)).size;
  const servers = (n) => `${n} server${n === 1 ? "" : "s"}`;
  const local = added.filter((name) => state.get(name) === "cannot-run").length;
  const parts = [`${servers(added.length)} added${local ? ` (${local} of them local, which a browser cannot run)` : ""}`];
  if (changed.length) parts.push(`${servers(changed.length)} updated`);
  if (unchanged.length) parts.push(`${servers(unchanged.length)} unchanged`);
  if (entries) parts.push(`${entries} entr${entries === 1 ? "y" : "ies"} with problems, not added`);
  return `${parts.join("; ")}.`;
}
