// End-to-end test of the console (www/index.html) in headless Chromium, flow by flow, as a person uses it: add a
// server from the catalogue, call a tool, give a server its key, watch the events, import a config with broken
// entries, hide and allow tools, reload and find everything back. Screenshots of each screen go to
// target/e2e/console/. Run by `cargo xtask test`; by hand: MCP_WORKER_SITE_URL=http://127.0.0.1:8080/ node --test tests/e2e/
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  addFromCatalogue,
  assertNoPageErrors,
  callFromWorkbench,
  openConsole,
  sel,
  serverCard,
  setUpVault,
  showView,
  text,
  toolItem,
  waitForServerStatus,
} from "./console-page.mjs";

const PASSPHRASE = "a long enough passphrase";
const KEY = "sk-test-4e1d9c";

describe("console", () => {
  let c;
  let page;

  before(async () => {
    c = await openConsole();
    page = c.page;
  });

  after(async () => {
    await c?.close();
  });

  it("opens on the catalogue on a first visit, and adds a server in one click", async () => {
    assert.equal(await page.isVisible(sel("view-add")), true, "a first visit shows the catalogue");
    assert.match(await text(page, sel("servers-empty")), /No server yet/);
    const calculator = sel("catalogue-card", '[data-id="calculator"]');
    assert.match(await text(page, calculator), /Credentials\s*None/);
    await c.screenshot("catalogue");

    await addFromCatalogue(page, "calculator");
    await waitForServerStatus(page, "calculator", "connected");
    const card = serverCard("calculator");
    assert.match(await text(page, `${card} ${sel("server-transport")}`), /Web Worker/);
    assert.match(await text(page, `${card} ${sel("server-isolation")}`), /Sandbox/);
    assert.equal(await text(page, `${card} ${sel("server-network")}`), "None");
    assert.ok(Number(await text(page, `${card} ${sel("server-tools")}`)) >= 1, "the card counts its tools");
    assert.match(await text(page, `${card} ${sel("server-protocol")}`), /^\d{4}-\d{2}-\d{2}$/);
    assert.equal(await text(page, `${calculator} ${sel("catalogue-added")}`), "Added");
    await c.screenshot("server-added");
  });

  it("calls a tool from its generated form and shows the result", async () => {
    const result = await callFromWorkbench(page, "calculator", "calculate", { expression: "6 * 7" });
    assert.equal(result.state, "ok", `the call should succeed, the result says: ${result.text}`);
    assert.match(await text(page, sel("result-text")), /\b42\b/);
    assert.match(await text(page, sel("result-duration")), /\d+(\.\d+)? m?s/);
    await c.screenshot("tool-call");
  });

  it("catches bad arguments before anything is sent", async () => {
    await showView(page, "tools");
    await page.click(`${toolItem("calculator", "calculate")} ${sel("tool-select")}`);
    await page.fill(sel("arg-expression"), "");
    const before = await page.getAttribute(sel("result"), "data-call");
    await page.click(sel("call-button"));
    await page.waitForSelector(`${sel("form-error")}:not(:empty)`);
    assert.match(await text(page, sel("form-error")), /expression is required/);
    await page.check(sel("raw-toggle"));
    await page.fill(sel("raw-json"), '{"expression": ');
    await page.click(sel("call-button"));
    assert.match(await text(page, sel("form-error")), /not valid JSON/);
    assert.equal(await page.getAttribute(sel("result"), "data-call"), before, "nothing was sent");
    await page.uncheck(sel("raw-toggle")).catch(() => {});
  });

  it("sets up the vault, gives a server its key without ever showing it, and the server gets it", async () => {
    await addFromCatalogue(page, "everything");
    await waitForServerStatus(page, "everything", "connected");
    await page.click(`${serverCard("everything")} ${sel("server-keys")}`);
    await page.waitForSelector(sel("credentials-dialog"));
    assert.match(await text(page, sel("credentials-locked")), /locked or not set up/);
    await page.click(sel("credentials-open-vault"));
    await page.waitForSelector(sel("vault-dialog"));
    await c.screenshot("vault-setup");
    await page.fill(sel("vault-passphrase"), PASSPHRASE);
    await page.fill(sel("vault-passphrase-again"), `${PASSPHRASE}!`);
    await page.click(sel("vault-submit"));
    assert.match(await text(page, sel("vault-error")), /differ/);
    await page.fill(sel("vault-passphrase-again"), PASSPHRASE);
    await page.click(sel("vault-submit"));
    await page.waitForSelector(`${sel("vault-status")}[data-state="unlocked"]`);

    const row = `${sel("credentials-dialog")} ${sel("credential-row", '[data-name="EVERYTHING_API_KEY"]')}`;
    await page.waitForSelector(`${row} ${sel("credential-value")}:not([disabled])`);
    assert.match(await text(page, row), /An example secret/);
    await page.fill(`${row} ${sel("credential-value")}`, KEY);
    await page.click(`${row} ${sel("credential-save")}`);
    await page.waitForSelector(`${sel("credential-row", '[data-name="EVERYTHING_API_KEY"][data-stored="true"]')}`);
    assert.equal(await page.inputValue(`${row} ${sel("credential-value")}`), "", "the field is cleared");
    await c.screenshot("credentials");
    await page.click(sel("credentials-restart-now"));
    await page.waitForSelector(sel("credentials-dialog"));
    await page.click(sel("credentials-done"));
    await page.waitForSelector(sel("credentials-dialog"), { state: "detached" });
    await waitForServerStatus(page, "everything", "connected");

    const result = await callFromWorkbench(page, "everything", "credential_status");
    assert.match(result.text, new RegExp(`EVERYTHING_API_KEY is set \\(${KEY.length} characters\\)`));
    assert.ok(!(await page.textContent("body")).includes(KEY), "the key is nowhere on the page");
  });

  it("shows progress while a tool works, and cancels it", async () => {
    const done = await callFromWorkbench(page, "everything", "slow_operation", { steps: 3, step_ms: 50 });
    assert.equal(done.state, "ok", done.text);
    assert.match(done.text, /done after 3 steps/);

    await callFromWorkbench(page, "everything", "slow_operation", { steps: 100, step_ms: 100 }, { wait: false });
    await page.waitForFunction(() => document.querySelector('[data-testid="result-progress-bar"]')?.value >= 2);
    assert.match(await text(page, sel("result-progress")), /Progress \d+ \/ 100: step \d+/);
    await c.screenshot("progress");
    await page.click(sel("cancel-button"));
    await page.waitForSelector(`${sel("result")}[data-state="cancelled"]`);
    assert.match(await text(page, sel("result")), /Cancelled/);
  });

  it("shows the status socket as a live timeline, filtered by kind and server", async () => {
    await showView(page, "events");
    await page.waitForSelector(sel("event-row", '[data-kind="progress"][data-server="everything"]'));
    await page.waitForSelector(sel("event-row", '[data-kind="serverStatus"][data-server="calculator"]'));
    await page.selectOption(sel("event-server"), "calculator");
    const servers = await page.$$eval(sel("event-row"), (rows) => [...new Set(rows.map((r) => r.dataset.server))]);
    assert.deepEqual(servers, ["calculator"], "only calculator's events are shown");
    await page.selectOption(sel("event-server"), "");
    await page.uncheck(sel("event-kind-calls"));
    assert.equal(await page.$$eval(sel("event-row", '[data-kind="progress"]'), (rows) => rows.length), 0, "progress is filtered out");
    await page.check(sel("event-kind-calls"));
    // Live: a new call shows up without reloading the view.
    const before = await page.$$eval(sel("event-row", '[data-kind="progress"]'), (rows) => rows.length);
    await page.evaluate(() => document.querySelector('[data-testid="tab-events"]').focus());
    await callFromWorkbench(page, "everything", "test_tool_with_progress");
    await showView(page, "events");
    const afterCount = await page.$$eval(sel("event-row", '[data-kind="progress"]'), (rows) => rows.length);
    assert.ok(afterCount > before, `new progress events appear (${before} → ${afterCount})`);
    await page.fill(sel("event-search"), "Halfway");
    assert.match(await text(page, sel("event-list")), /Halfway/);
    await c.screenshot("events");
    await page.fill(sel("event-search"), "");
  });

  it("imports an mcpServers file, adding the good entries and showing each broken one's problems", async () => {
    await showView(page, "add");
    const document = {
      mcpServers: {
        echo: { type: "wasm", workerUrl: "./bundles/echo/bootstrap.js" },
        nowhere: { type: "http" },
        "bad-network": { type: "wasm", workerUrl: "./bundles/echo/bootstrap.js", network: ["not an origin"] },
      },
    };
    await page.fill(sel("import-text"), JSON.stringify(document, null, 2));
    await page.click(sel("import-submit"));
    await page.waitForSelector(sel("import-summary"));
    assert.match(await text(page, sel("import-summary")), /1 server added; 2 entries with problems/);
    assert.equal(await page.getAttribute(sel("import-entry", '[data-entry="echo"]'), "data-state"), "added");
    assert.match(await text(page, sel("import-entry", '[data-entry="nowhere"]')), /url/);
    assert.match(await text(page, sel("import-entry", '[data-entry="bad-network"]')), /network/);
    await page.waitForSelector(serverCard("echo"));
    await c.screenshot("import");

    // A local process is listed, with why it cannot run and what to do instead.
    await page.fill(sel("import-text"), JSON.stringify({ mcpServers: { files: { command: "npx", args: ["server-files"] } } }));
    await page.click(sel("import-submit"));
    await page.waitForSelector(sel("import-entry", '[data-entry="files"]'));
    assert.equal(await page.getAttribute(sel("import-entry", '[data-entry="files"]'), "data-state"), "cannot-run");
    assert.match(await text(page, sel("import-entry", '[data-entry="files"]')), /cannot start a local process/);
    assert.match(await text(page, sel("import-summary")), /1 server added \(1 of them local, which a browser cannot run\)/);
    await c.screenshot("import-local");

    await page.fill(sel("import-text"), "{ not json");
    await page.click(sel("import-submit"));
    await page.waitForSelector(sel("import-error"));
    assert.match(await text(page, sel("import-error")), /Nothing imported: INVALID_CONFIG/);
  });

  it("offers stdio in the add form only to say why it cannot run here, and shows config problems beside their fields", async () => {
    assert.equal(await page.isDisabled(sel("server-form-type-stdio")), true);
    assert.match(await text(page, sel("server-form-stdio-reason")), /cannot start programs/);
    await page.fill(sel("server-form-name"), "by-hand");
    await page.click(sel("server-form-submit"));
    await page.waitForSelector(`${sel("server-form-workerUrl-error")}:not(:empty)`);
    assert.equal(await page.getAttribute(sel("server-form-workerUrl"), "aria-invalid"), "true");
    await page.fill(sel("server-form-workerUrl"), "./bundles/echo/bootstrap.js");
    await page.click(sel("server-form-submit"));
    await page.waitForSelector(serverCard("by-hand"));
  });

  it("keeps destructive tools from agents until allowed, and edits what the chat may use", async () => {
    await showView(page, "tools");
    const group = sel("tool-group", '[data-server="everything"]');
    await page.waitForSelector(`${group} ${sel("hidden-notice")}`);
    const hidden = `${group} ${sel("tool-item")}.tool-hidden`;
    assert.ok((await page.$$(hidden)).length > 0, "some tools of everything are hidden");
    assert.match(await text(page, `${hidden} ${sel("hidden-reason")}`), /Hidden from agents/);
    assert.equal(await page.isDisabled(`${hidden} ${sel("tool-enabled")}`), true);
    await c.screenshot("tools-hidden");
    await page.click(`${group} ${sel("allow-destructive")}`);
    await page.click(sel("confirm-yes"));
    await page.waitForSelector(`${group} ${sel("hidden-notice")}`, { state: "detached" });
    assert.equal((await page.$$(hidden)).length, 0, "none is hidden once allowed");

    // The chat may use calculate (added from the catalogue); unchecking it takes it out of what the model gets.
    const calculate = `${toolItem("calculator", "calculate")} ${sel("tool-enabled")}`;
    assert.equal(await page.isChecked(calculate), true);
    await page.uncheck(calculate);
    await page.click(sel("export-open"));
    await page.waitForSelector(sel("export-dialog"));
    await page.selectOption(sel("export-format"), "openai");
    const exported = JSON.parse(await text(page, sel("export-json")));
    const names = exported.map((tool) => tool.function.name);
    assert.ok(!names.includes("mcp__calculator__calculate"), `unchecked tool left out: ${names}`);
    assert.ok(names.includes("page_clock"), `the console's own tools are there beside the servers': ${names}`);
    assert.ok(names.some((n) => n.startsWith("mcp__everything__")), "everything's tools are there");
    await c.screenshot("export");
    await page.keyboard.press("Escape");
    await page.waitForSelector(sel("export-dialog"), { state: "detached" });
  });

  it("calls the console's own native tool beside the servers' tools", async () => {
    const result = await callFromWorkbench(page, null, "page_clock");
    assert.equal(result.state, "ok", result.text);
    assert.match(await text(page, sel("result-structured")), /"timeZone"/);
  });

  it("brings everything back after a reload: servers, enablement, allowed tools, the vault (locked)", async () => {
    await c.reload();
    for (const name of ["calculator", "everything", "echo", "by-hand"]) await page.waitForSelector(serverCard(name));
    assert.equal(await page.isVisible(sel("view-tools")), true, "the view shown before the reload (kept in the address)");
    assert.equal(await page.getAttribute(sel("vault-status"), "data-state"), "locked");
    await showView(page, "tools");
    await page.waitForSelector(toolItem("calculator", "calculate"));
    assert.equal(await page.isChecked(`${toolItem("calculator", "calculate")} ${sel("tool-enabled")}`), false, "still unchecked");
    assert.equal(await page.$(`${sel("tool-group", '[data-server="everything"]')} ${sel("hidden-notice")}`), null, "still allowed");

    await page.click(sel("vault-button"));
    await page.fill(sel("vault-passphrase"), "wrong passphrase");
    await page.click(sel("vault-submit"));
    await page.waitForSelector(`${sel("vault-error")}:not(:empty)`);
    assert.match(await text(page, sel("vault-error")), /Wrong passphrase/);
    await page.fill(sel("vault-passphrase"), PASSPHRASE);
    await page.click(sel("vault-submit"));
    await page.waitForSelector(`${sel("vault-status")}[data-state="unlocked"]`);
    // It started while the vault was locked, without its key: unlocking restarts it with the key.
    await page.waitForSelector(`${sel("toast")}:has-text("everything restarted with its credentials")`);
    const result = await callFromWorkbench(page, "everything", "credential_status");
    assert.match(result.text, /EVERYTHING_API_KEY is set/);
    await c.screenshot("after-reload");
  });

  it("removes a server after asking", async () => {
    await page.click(`${serverCard("by-hand")} ${sel("server-remove")}`);
    await page.waitForSelector(sel("confirm-dialog"));
    await page.click(sel("confirm-yes"));
    await page.waitForSelector(serverCard("by-hand"), { state: "detached" });
  });

  it("is usable from the keyboard: tabs with arrow keys, dialogs close with Escape and give focus back", async () => {
    await page.focus(sel("tab-tools"));
    await page.click(sel("tab-tools"));
    await page.keyboard.press("ArrowRight");
    assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), "tab-resources");
    assert.equal(await page.isVisible(sel("view-resources")), true);
    await page.keyboard.press("End");
    assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), "tab-chat");
    await page.focus(`${serverCard("echo")} ${sel("server-remove")}`);
    await page.keyboard.press("Enter");
    await page.waitForSelector(sel("confirm-dialog"));
    await page.keyboard.press("Escape");
    await page.waitForSelector(sel("confirm-dialog"), { state: "detached" });
    assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), "server-remove", "focus is back on the button");
    assert.ok(await page.$(serverCard("echo")), "Escape removed nothing");
    const unlabelled = await page.$$eval("input, select, textarea", (fields) =>
      fields.filter((f) => f.type !== "hidden" && !f.labels?.length && !f.getAttribute("aria-label") && !f.closest("[hidden]")).map((f) => f.outerHTML.slice(0, 120)),
    );
    assert.deepEqual(unlabelled, [], "every field has a label");
  });

  it("reported no page errors", () => {
    assertNoPageErrors(c.errors);
  });
});
