// Shared by the console's end-to-end tests: the console (www/index.html) in headless Chromium, each test file in a
// browser profile of its own (so its IndexedDB starts empty and survives reloads), with helpers that act and look
// as a person would: by labels, roles and visible text.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS } from "../support/chromium.mjs";
import { SITE_URL } from "./runtime-page.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TARGET = path.resolve(ROOT, process.env.CARGO_TARGET_DIR || "target");
/** Where the screenshots of each screen go, for people to review. */
export const SCREENSHOTS = path.join(TARGET, "e2e", "console");
const TIMEOUT_MS = 20_000;

/** `[data-testid="…"]` with an optional suffix. */
export const sel = (testid, extra = "") => `[data-testid="${testid}"]${extra}`;

/**
 * Opens the console in a fresh persistent profile. Returns `{ page, context, errors, reload, screenshot, close }`:
 * `errors` collects uncaught page errors and console errors; `reload()` reloads and waits for the runtime;
 * `screenshot(name)` saves `target/e2e/console/<name>.png`.
 */
export async function openConsole({ viewport = { width: 1440, height: 900 }, hash = "" } = {}) {
  assert.ok(SITE_URL, "MCP_WORKER_SITE_URL is not set: run `cargo xtask test`, or serve the site (cargo xtask demo) and set it");
  const profile = await mkdtemp(path.join(os.tmpdir(), "mcp-worker-console-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    viewport,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(TIMEOUT_MS);
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.stack || String(error)));
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`${msg.text()} (${msg.location().url || "?"})`);
  });
  const url = new URL(`index.html${hash}`, SITE_URL).href;
  const response = await page.goto(url);
  assert.ok(response?.ok(), `GET ${url} answered ${response?.status()}: is the site assembled?`);
  await waitForRuntime(page);
  await mkdir(SCREENSHOTS, { recursive: true });
  return {
    page,
    context,
    errors,
    async reload() {
      await page.reload();
      await waitForRuntime(page);
    },
    screenshot: (name) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: false }),
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Waits until the top bar says the runtime is ready, or fails with what it says instead. */
export async function waitForRuntime(page) {
  const status = sel("host-status");
  await page.waitForSelector(`${status}[data-state="ready"], ${status}[data-state="error"]`);
  const state = await page.getAttribute(status, "data-state");
  if (state !== "ready") assert.fail(`the runtime did not load: ${await page.textContent("main")}`);
}

/** Shows a view by clicking its tab (add, tools, resources, events, chat). */
export async function showView(page, name) {
  await page.click(sel(`tab-${name}`));
  await page.waitForSelector(`${sel(`view-${name}`)}:not([hidden])`);
}

/** The server card of `name` in the sidebar. */
export const serverCard = (name) => sel("server-card", `[data-server="${name}"]`);

/** Waits until the card of `name` shows `status` (its `data-state`), failing with what the card says. */
export async function waitForServerStatus(page, name, status, timeout = TIMEOUT_MS) {
  const selector = `${serverCard(name)} ${sel("server-status")}[data-state="${status}"]`;
  try {
    await page.waitForSelector(selector, { timeout });
  } catch {
    const card = (await page.$(serverCard(name))) ? await page.textContent(serverCard(name)) : "(no card)";
    assert.fail(`server ${name} did not reach "${status}"; its card says: ${card}`);
  }
}

/** Adds a catalogue entry with its Add button, and waits for its card. */
export async function addFromCatalogue(page, id) {
  await showView(page, "add");
  await page.click(`${sel("catalogue-card", `[data-id="${id}"]`)} ${sel("catalogue-add")}`);
  await page.waitForSelector(serverCard(id));
}

/** Sets up the vault with a passphrase through its dialog. */
export async function setUpVault(page, passphrase = "correct horse battery staple") {
  await page.click(sel("vault-button"));
  await page.waitForSelector(sel("vault-dialog"));
  await page.check(sel("vault-mode-passphrase"));
  await page.fill(sel("vault-passphrase"), passphrase);
  await page.fill(sel("vault-passphrase-again"), passphrase);
  await page.click(sel("vault-submit"));
  await page.waitForSelector(`${sel("vault-status")}[data-state="unlocked"]`);
}

/** The visible text of the first element matching `selector`, trimmed. */
export async function text(page, selector) {
  return ((await page.textContent(selector)) ?? "").trim();
}

/** Fails with the page errors collected so far, if any. */
export function assertNoPageErrors(errors) {
  assert.deepEqual(errors, [], `the page reported errors:\n${errors.join("\n")}`);
}

/** The Tools view's entry of a tool: `server` null for the console's own (native) tools. */
export const toolItem = (server, tool) =>
  sel("tool-item", `${server ? `[data-server="${server}"]` : '[data-source="native"]'}[data-tool="${tool}"]`);

/**
 * Calls a tool from the Tools view as a person would: picks it, fills the generated form (`fields`: argument
 * name → text typed into its field), presses Call, and waits for the outcome. Returns `{ state, text }` of the
 * result panel (`state`: ok, tool-error, error, cancelled).
 */
export async function callFromWorkbench(page, server, tool, fields = {}, { wait = true } = {}) {
  await showView(page, "tools");
  await page.click(`${toolItem(server, tool)} ${sel("tool-select")}`);
  await page.waitForSelector(sel("tool-form", `[data-tool="${tool}"]`));
  for (const [name, value] of Object.entries(fields)) await page.fill(sel(`arg-${name}`), String(value));
  const before = Number((await page.getAttribute(sel("result"), "data-call")) ?? 0);
  await page.click(sel("call-button"));
  await page.waitForSelector(`${sel("result")}[data-call="${before + 1}"]`);
  if (!wait) return { state: "pending", text: "" };
  await page.waitForSelector(`${sel("result")}[data-call="${before + 1}"]:not([data-state="pending"])`);
  return { state: await page.getAttribute(sel("result"), "data-state"), text: await text(page, sel("result")) };
}
