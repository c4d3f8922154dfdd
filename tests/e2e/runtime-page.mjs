// Shared by the runtime's end-to-end tests: headless Chromium on a blank page of the assembled site (served by
// `cargo xtask test`, which sets MCP_WORKER_SITE_URL), with the host package loaded and a few helpers installed.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { launchChromium } from "../support/chromium.mjs";

export const SITE_URL = process.env.MCP_WORKER_SITE_URL;
/** A page of the site's origin with nothing on it but the host package, loaded and initialized. */
export async function openRuntimePage({ files = {} } = {}) {
  assert.ok(SITE_URL, "MCP_WORKER_SITE_URL is not set: run `cargo xtask test`, or serve the site and set it");
  const browser = await launchChromium();
  const page = await browser.newPage();
  page.setDefaultTimeout(20_000);
  const pageErrors = [];
  const consoleMessages = [];
  page.on("pageerror", (error) => pageErrors.push(error.stack || String(error)));
  page.on("console", (message) => consoleMessages.push({ type: message.type(), text: message.text() }));
  // Written into the site by `cargo xtask test`: a real page of the site's origin, so its sandboxed servers'
  // requests to 127.0.0.1 are loopback to loopback.
  const blank = new URL("e2e-blank.html", SITE_URL).href;
  // Files the site does not have (test bundles), served from disk on the site's origin.
  for (const [urlPath, diskPath] of Object.entries(files)) {
    const body = await readFile(diskPath);
    await page.route(new URL(urlPath, SITE_URL).href, (route) =>
      route.fulfill({ status: 200, contentType: "text/javascript", headers: { "Access-Control-Allow-Origin": "*" }, body }),
    );
  }
  const response = await page.goto(blank);
  assert.ok(response?.ok(), `the blank page did not load from ${blank}`);
  await loadHost(page);
  return { browser, page, pageErrors, consoleMessages };
}

/** Loads and initializes the host package in the page and installs the helpers (again after a reload). */
export async function loadHost(page) {
  await page.evaluate(async () => {
    const host = await import("/pkg/host/mcp_worker_host.js");
    const wasm = await host.default();
    window.host = host;
    /** The size of the host's WebAssembly memory, in bytes: its high-water mark (wasm memory never shrinks). */
    window.hostMemory = () => wasm.memory.buffer.byteLength;
    /** What a failed promise (or function) rejected with, in a form node can compare; null if it succeeded. */
    window.failure = async (work) => {
      try {
        await (typeof work === "function" ? work() : work);
        return null;
      } catch (e) {
        return {
          isError: e instanceof Error,
          name: e?.name,
          code: e?.code,
          message: String(e?.message ?? e),
          errors: e?.errors,
          missing: e?.missing,
        };
      }
    };
    /** Resolves when `predicate()` is true, polling; rejects after `ms` with `what`. */
    window.waitFor = async (what, predicate, ms = 15_000) => {
      const until = Date.now() + ms;
      while (!(await predicate())) {
        if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    window.unique = (prefix) => `${prefix}-${Date.now()}-${Math.random().toString(16).slice(2)}`;
    /**
     * Watches the page's end of the MessageChannels made until `stop()`: `onPost(message)` for each message the page
     * posts on it, `onMessage(data)` for each it receives (the host's ports to its servers' workers).
     */
    window.watchChannels = ({ onPost = () => {}, onMessage = () => {} }) => {
      const Channel = window.MessageChannel;
      window.MessageChannel = class extends Channel {
        constructor() {
          super();
          const port = this.port1;
          const post = port.postMessage.bind(port);
          port.postMessage = (message, ...rest) => {
            onPost(message);
            return post(message, ...rest);
          };
          port.addEventListener("message", (event) => onMessage(event.data));
        }
      };
      return { stop: () => (window.MessageChannel = Channel) };
    };
  });
}
