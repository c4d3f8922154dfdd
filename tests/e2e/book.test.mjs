// The guides as `cargo xtask demo` serves them beside the console (/book/): a reader sees styled pages with their
// chapter list, and the page's policy lets mdBook's own scripts run (theme, sidebar, code highlighting).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launchChromium } from "../support/chromium.mjs";
import { SITE_URL } from "./runtime-page.mjs";

let browser;

before(async () => {
  assert.ok(SITE_URL, "MCP_WORKER_SITE_URL is not set: run `cargo xtask test`, or serve the site and set it");
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

test("the guides open from the console's link, styled, with their chapters and no blocked script", async () => {
  const page = await browser.newPage();
  const problems = [];
  page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
  page.on("pageerror", (error) => problems.push(String(error)));
  await page.goto(SITE_URL);
  const guides = await page.getAttribute(".guides-link", "href");
  const response = await page.goto(new URL(guides, SITE_URL).href);
  assert.equal(response?.status(), 200);
  await page.goto(new URL("book/getting-started.html", SITE_URL).href);
  const seen = await page.evaluate(() => ({
    scripted: document.documentElement.classList.contains("js"),
    chapters: [...document.querySelectorAll("#sidebar a, mdbook-sidebar-scrollbox a")].map((a) => a.textContent.trim()),
    title: document.querySelector("main h1")?.textContent,
    // Inline code is readable: its text and its background differ.
    code: (() => {
      const style = getComputedStyle(document.querySelector("p code"));
      return { color: style.color, background: style.backgroundColor };
    })(),
  }));
  assert.deepEqual(problems.filter((p) => !p.includes("favicon")), [], "no blocked script, no error");
  assert.ok(seen.scripted, "mdBook's scripts ran");
  assert.equal(seen.title, "Getting started for app developers");
  for (const chapter of ["Writing a server in Rust", "The security model", "ART integration", "Performance"]) {
    assert.ok(seen.chapters.some((c) => c.includes(chapter)), `the chapter list has ${chapter}: ${seen.chapters}`);
  }
  assert.notEqual(seen.code.color, seen.code.background);
});
