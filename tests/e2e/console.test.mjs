// End-to-end test of the console (www/index.html) in headless Chromium: what a person sees when they open it.
// Run by `cargo xtask test`, which serves target/site and sets MCP_WORKER_SITE_URL; by hand:
//   MCP_WORKER_SITE_URL=http://127.0.0.1:8080/ node --test tests/e2e/
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const SITE_URL = process.env.MCP_WORKER_SITE_URL;
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TARGET = path.resolve(ROOT, process.env.CARGO_TARGET_DIR || "target");
const SCREENSHOT = path.join(TARGET, "e2e", "console.png");
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
const TIMEOUT_MS = 15_000;

const sel = (testid, extra = "") => `[data-testid="${testid}"]${extra}`;

describe("console", () => {
  let browser;
  let page;
  const pageErrors = [];
  const consoleErrors = [];

  before(async () => {
    assert.ok(
      SITE_URL,
      "MCP_WORKER_SITE_URL is not set: serve the site (cargo xtask demo) and set it, e.g. MCP_WORKER_SITE_URL=http://127.0.0.1:8080/",
    );
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.setDefaultTimeout(TIMEOUT_MS);
    page.on("pageerror", (error) => pageErrors.push(error.stack || String(error)));
    page.on("console", (msg) => {
      if (msg.type() === "error") consoleErrors.push(`${msg.text()} (${msg.location().url || "?"})`);
    });
    // Requests still open when the page fails to load say which file the server did not deliver.
    const pending = new Set();
    page.on("request", (request) => pending.add(request.url()));
    page.on("requestfinished", (request) => pending.delete(request.url()));
    page.on("requestfailed", (request) => pending.delete(request.url()));
    const url = new URL("index.html", SITE_URL).href;
    let response;
    try {
      response = await page.goto(url);
    } catch (error) {
      const open = [...pending].join(", ") || "none";
      throw new Error(`cannot load the console at ${url}: ${error.message.split("\n")[0]}\nrequests still pending: ${open}`);
    }
    assert.ok(response?.ok(), `GET ${url} answered ${response?.status()}: is the site assembled (www/ copied)?`);
  });

  after(async () => {
    await browser?.close();
  });

  it("loads the host and connects the echo server", async () => {
    const card = sel("server-card", '[data-server="echo"]');
    const status = `${card} ${sel("server-status")}`;
    // Wait for a final state, then say which: an error is reported with the message the page shows.
    await waitFor(page, `echo to leave "starting"`, () =>
      page.waitForSelector(`${status}[data-state="connected"], ${status}[data-state="error"]`),
    );
    const state = await page.getAttribute(status, "data-state");
    if (state !== "connected") {
      assert.fail(`echo did not connect; its card says: ${await text(page, card)}\nlog:\n${await logText(page)}`);
    }
    assert.equal(await page.getAttribute(sel("host-status"), "data-state"), "ready", "host status should be ready");
    const info = await text(page, `${card} ${sel("server-info")}`);
    assert.match(info, /echo \d+\.\d+\.\d+/, `server info should show name and version, got: ${info}`);
    assert.match(await text(page, `${card} ${sel("server-protocol")}`), /^\d{4}-\d{2}-\d{2}$/, "protocol version");
  });

  it("lists the echo, add and blob tools", async () => {
    await waitFor(page, "the tool list", () => page.waitForSelector(sel("tool-item", '[data-tool="blob"]')));
    const names = await page.$$eval(sel("tool-item"), (items) => items.map((item) => item.dataset.tool));
    for (const name of ["echo", "add", "blob"]) {
      assert.ok(names.includes(name), `tool list should include ${name}, has: ${names.join(", ")}`);
    }
    const echoItem = sel("tool-item", '[data-tool="echo"]');
    assert.match(await text(page, echoItem), /Returns its text/, "echo's description is shown");
    assert.ok(await page.isVisible(`${echoItem} ${sel("badge-read-only")}`), "echo shows a read-only badge");
    // The input schema is collapsed until opened.
    assert.equal(await page.isVisible(`${echoItem} ${sel("tool-schema")}`), false, "schema starts collapsed");
    await page.click(`${echoItem} summary`);
    assert.match(await text(page, `${echoItem} ${sel("tool-schema")}`), /"text"/, "schema shows the text property");
  });

  it("calls echo with text typed into the generated form", async () => {
    await selectTool(page, "echo");
    const message = "Hello from the e2e test ✓";
    await page.fill(sel("arg-text"), message);
    const result = await call(page, "echo");
    assert.equal(result.state, "ok", `echo should succeed, result panel says: ${result.text}`);
    assert.equal(await text(page, sel("result-text")), message, "the result shows the echoed text");
    assert.match(await text(page, sel("result-duration")), /\d+(\.\d+)? m?s/, "the result shows its duration");
  });

  it("calls add with a=2, b=40 and shows 42", async () => {
    await selectTool(page, "add");
    await page.fill(sel("arg-a"), "2");
    await page.fill(sel("arg-b"), "40");
    const result = await call(page, "add");
    assert.equal(result.state, "ok", `add should succeed, result panel says: ${result.text}`);
    assert.match(await text(page, sel("result-structured")), /"sum":\s*42\b/, "structured content shows the sum");
    assert.match(await text(page, sel("result-text")), /42/, "the text block shows 42");
  });

  it("shows readable errors for bad input and keeps working", async () => {
    await selectTool(page, "add");
    const callsBefore = await callCount(page);

    // An empty required field is caught before anything is sent.
    await page.fill(sel("arg-a"), "2");
    await page.fill(sel("arg-b"), "");
    await page.click(sel("call-button"));
    await waitFor(page, "the form error for an empty field", () => page.waitForSelector(sel("form-error"), { state: "visible" }));
    assert.match(await text(page, sel("form-error")), /b is required/, "the form says which field is missing");
    assert.equal(await page.getAttribute(sel("arg-b"), "aria-invalid"), "true", "the empty field is marked invalid");
    assert.equal(await callCount(page), callsBefore, "nothing is sent while a required field is empty");

    // Invalid JSON in raw mode is caught as well.
    await page.check(sel("raw-toggle"));
    await page.fill(sel("raw-json"), '{"a": 2, "b": ');
    await page.click(sel("call-button"));
    await waitFor(page, "the invalid-JSON error", () => page.waitForSelector(sel("form-error"), { state: "visible" }));
    assert.match(await text(page, sel("form-error")), /not valid JSON/, "the form says the JSON is invalid");
    assert.equal(await callCount(page), callsBefore, "invalid JSON is not sent");

    // Arguments of the wrong type reach the server, whose error is shown as a tool error.
    await page.fill(sel("raw-json"), '{"a": "two", "b": 40}');
    const bad = await call(page, "add");
    assert.equal(bad.state, "tool-error", `a string for a number should be a tool error, result panel says: ${bad.text}`);
    assert.match(await text(page, sel("result-text")), /Invalid arguments/, "the server's message is shown");
    assert.match(await text(page, sel("result-status")), /Tool error/, "the result is labelled as an error");

    // The page still works: fix the JSON, go back to the form (it takes the values over) and call again.
    await page.fill(sel("raw-json"), '{"a": 1.5, "b": 2}');
    await page.uncheck(sel("raw-toggle"));
    assert.equal(await page.inputValue(sel("arg-a")), "1.5", "the form takes a from the raw JSON");
    assert.equal(await page.inputValue(sel("arg-b")), "2", "the form takes b from the raw JSON");
    const good = await call(page, "add");
    assert.equal(good.state, "ok", `add should succeed after the errors, result panel says: ${good.text}`);
    assert.match(await text(page, sel("result-structured")), /"sum":\s*3\.5\b/, "1.5 + 2 = 3.5");
  });

  it("disconnects and reconnects echo", async () => {
    const card = sel("server-card", '[data-server="echo"]');
    await page.click(`${card} ${sel("server-disconnect")}`);
    await waitFor(page, "echo to disconnect", () =>
      page.waitForSelector(`${card} ${sel("server-status")}[data-state="idle"]`),
    );
    assert.equal(await page.locator(sel("tool-item")).count(), 0, "no tools are listed while disconnected");
    await page.click(`${card} ${sel("server-connect")}`);
    await waitFor(page, "echo to reconnect", () =>
      page.waitForSelector(`${card} ${sel("server-status")}[data-state="connected"]`),
    );
    await waitFor(page, "the tools after reconnecting", () => page.waitForSelector(sel("tool-item", '[data-tool="add"]')));

    // The selected tool is back in the workbench; a call works on the new worker (this is also the screenshot).
    await waitFor(page, "the add form after reconnecting", () => page.waitForSelector(sel("arg-a")));
    await page.fill(sel("arg-a"), "2");
    await page.fill(sel("arg-b"), "40");
    const result = await call(page, "add");
    assert.equal(result.state, "ok", `add should succeed after reconnecting, result panel says: ${result.text}`);
    assert.match(await text(page, sel("result-structured")), /"sum":\s*42\b/, "2 + 40 = 42 after reconnecting");
  });

  it("logs what happened", async () => {
    const log = await logText(page);
    const entries = await page.locator(sel("log-entry")).count();
    assert.ok(entries >= 8, `the log should have entries, has ${entries}:\n${log}`);
    for (const expected of [/Host loaded/, /echo: starting worker/, /echo: connected/, /Call sent: echo › echo/, /Result: echo › add/, /Tool error: echo › add/, /Not sent/, /disconnected/]) {
      assert.match(log, expected, `the log should mention ${expected}`);
    }
    assert.match(log, /^\d{2}:\d{2}:\d{2}\.\d{3}/m, "log entries are timestamped");
  });

  it("takes a screenshot", async () => {
    await mkdir(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
  });

  it("had no uncaught page errors and no console errors", () => {
    assert.deepEqual(pageErrors, [], `uncaught errors in the page:\n${pageErrors.join("\n")}`);
    assert.deepEqual(consoleErrors, [], `console errors:\n${consoleErrors.join("\n")}`);
  });
});

/** Runs a wait; on timeout, fails with what was awaited and what the page shows, not just a selector. */
async function waitFor(page, what, wait) {
  try {
    return await wait();
  } catch (error) {
    const state = await page
      .evaluate(() => ({
        host: document.querySelector('[data-testid="host-status"]')?.textContent?.trim(),
        servers: [...document.querySelectorAll('[data-testid="server-card"]')].map((c) => c.innerText.replace(/\s+/g, " ")),
        result: document.querySelector('[data-testid="result"]')?.innerText,
      }))
      .catch(() => ({}));
    throw new Error(
      `timed out waiting for ${what}: ${error.message.split("\n")[0]}\n` +
        `host: ${state.host}\nservers: ${JSON.stringify(state.servers)}\nresult: ${state.result}\nlog:\n${await logText(page)}`,
    );
  }
}

async function selectTool(page, name) {
  await page.click(`${sel("tool-item", `[data-tool="${name}"]`)} ${sel("tool-select")}`);
  await waitFor(page, `the ${name} form`, () => page.waitForSelector(sel("tool-form", `[data-tool="${name}"]`)));
}

/** Clicks Call and waits for this call's outcome (not the previous one's); returns its state and text. */
async function call(page, tool) {
  const before = await callCount(page);
  await page.click(sel("call-button"));
  await waitFor(page, `the result of ${tool}`, () =>
    page.waitForFunction(
      (previous) => {
        const result = document.querySelector('[data-testid="result"]');
        return Number(result.dataset.call ?? 0) > previous && result.dataset.state !== "pending";
      },
      before,
    ),
  );
  return {
    state: await page.getAttribute(sel("result"), "data-state"),
    text: await text(page, sel("result")),
  };
}

async function callCount(page) {
  return Number((await page.getAttribute(sel("result"), "data-call")) ?? 0);
}

async function text(page, selector) {
  return ((await page.textContent(selector)) ?? "").trim();
}

async function logText(page) {
  return page
    .$$eval('[data-testid="log-entry"]', (entries) => entries.map((e) => e.innerText.replace(/\s+/g, " ")).join("\n"))
    .catch(() => "(log unavailable)");
}
