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
    h("p", { class: "muted" }, "Paste a config from Claude Desktop, Cursor or VS Code, or choose the file. Entries that cannot run in a browser are reported, not added."),
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
  const names = [...new Set([...result.added, ...byEntry.keys()])].sort();
  const locked = !app.runtime.credentials.isUnlocked();
  const aboutVault = result.errors.some((p) => /vault|locked/i.test(p.message));
  fill(
    outcome,
    h("p", { class: "import-summary", "data-testid": "import-summary" }, summary(result)),
    h(
      "ul",
      { class: "import-entries" },
      names.map((name) => {
        const problems = byEntry.get(name) ?? [];
        return h(
          "li",
          { class: `import-entry ${problems.length ? "bad" : "ok"}`, "data-testid": "import-entry", dataset: { entry: name, state: problems.length ? "error" : "added" } },
          h("span", { class: "mono import-name" }, name || "(document)"),
          problems.length
            ? h("ul", { class: "import-problems" }, problems.map((p) => h("li", {}, p.field ? [h("code", {}, p.field), ": "] : null, p.message)))
            : h("span", { class: "pill pill-ok" }, "Added"),
        );
      }),
    ),
    aboutVault && locked
      ? h("p", {}, "Entries with secrets need the vault. ", h("button", { type: "button", class: "btn btn-small", onclick: () => emit("vault-open") }, "Open the vault"), " then import again.")
      : null,
  );
  toast(summary(result), result.errors.length ? "error" : "ok");
}

function summary({ added, errors }) {
  const entries = new Set(errors.map((p) => p.entry)).size;
  const parts = [`${added.length} server${added.length === 1 ? "" : "s"} added`];
  if (entries) parts.push(`${entries} entr${entries === 1 ? "y" : "ies"} with problems, not added`);
  return `${parts.join("; ")}.`;
}
