// End-to-end test of the console's "Try it with a model" view in headless Chromium: a chat with a scripted
// OpenAI-compatible endpoint (tests/fixtures/scripted-model.mjs; no real model runs here) whose tool calls run on
// the real calculator sample server. Run by hand:
//   MCP_WORKER_SITE_URL=http://127.0.0.1:8304/ node --test tests/e2e/console-chat.test.mjs
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startScriptedModel } from "../fixtures/scripted-model.mjs";
import { addFromCatalogue, assertNoPageErrors, openConsole, sel, setUpVault, showView, text } from "./console-page.mjs";

const KEY = "sk-test-5f2c9a1e-never-shown";
const PASSPHRASE = "correct horse battery staple";
const CALCULATE = "mcp__calculator__calculate";

describe("console: try it with a model", () => {
  let consolePage;
  let page;
  /** Endpoints that fail on purpose: the browser logs their failed requests, which are not page errors. */
  const failingUrls = [];
  const models = [];

  /** Starts a scripted endpoint and enters it (with `model` and, when given, a key) in the chat's settings. */
  async function useModel(steps, { model = "scripted-1", key = "" } = {}) {
    const endpoint = await startScriptedModel(steps);
    models.push(endpoint);
    await enterSettings(endpoint.url, model, key);
    return endpoint;
  }

  async function enterSettings(base, model, key = "") {
    await showView(page, "chat");
    if (!(await page.isVisible(sel("chat-base")))) await page.click(`${sel("chat-settings")} summary`);
    await page.fill(sel("chat-base"), base);
    await page.fill(sel("chat-model"), model);
    if (key) await page.fill(sel("chat-key"), key);
    await page.click(sel("chat-save"));
    // Saved settings fold away; the status line stays in the (closed) settings.
    await page.waitForSelector(`${sel("chat-settings-status")}[data-kind="ok"]`, { state: "attached" });
    assert.match(await text(page, sel("chat-model-label")), new RegExp(`^${model} at 127\\.0\\.0\\.1:\\d+`));
  }

  /** Types a message, sends it with Enter, and waits until the turn is over. */
  async function say(message) {
    await page.click(sel("chat-new"));
    await page.fill(sel("chat-input"), message);
    await page.press(sel("chat-input"), "Enter");
    // The message shows as the turn starts (the chat was just cleared), and the view is busy until it ends.
    await page.waitForSelector(sel("chat-message", '[data-role="user"]'));
    await page.waitForSelector(`${sel("view-chat")}:not([data-busy])`);
  }

  before(async () => {
    consolePage = await openConsole();
    page = consolePage.page;
  });

  after(async () => {
    await consolePage?.close();
    for (const model of models) await model.close();
  });

  it("a model calls the calculator, sees its result, and answers; the key goes only into the Authorization header", async () => {
    await addFromCatalogue(page, "calculator");
    await setUpVault(page, PASSPHRASE);
    await showView(page, "chat");
    await page.waitForFunction(
      (selector) => /^\d+ tools? enabled for this chat/.test(document.querySelector(selector)?.textContent ?? ""),
      sel("chat-tool-count"),
    );
    const endpoint = await useModel(
      [
        { toolCalls: [{ name: CALCULATE, arguments: { expression: "6*7" } }] },
        { text: "6 times 7 is 42, says the calculator." },
      ],
      { key: KEY },
    );

    // The key is in the vault, and nowhere on the page or in its storage.
    assert.equal(await page.inputValue(sel("chat-key")), "", "the key field is cleared after saving");
    assert.match(await text(page, sel("chat-key-state")), /A key is stored in the vault/);
    const visible = await page.evaluate(() => ({
      text: document.body.innerText,
      html: document.documentElement.outerHTML,
      values: [...document.querySelectorAll("input, textarea")].map((field) => field.value),
      storage: JSON.stringify({ ...localStorage }),
    }));
    for (const [where, content] of Object.entries(visible)) assert.ok(!String(content).includes(KEY), `the key shows in the page's ${where}`);

    await say("What is 6 times 7?");
    const call = sel("chat-tool-call", `[data-tool="${CALCULATE}"]`);
    const error = (await page.$(sel("chat-error"))) ? await text(page, sel("chat-error")) : "";
    assert.equal(error, "", "the turn ended with an error");
    assert.deepEqual(JSON.parse(await text(page, `${call} ${sel("chat-tool-args")}`)), { expression: "6*7" });
    assert.equal(await page.getAttribute(`${call} ${sel("chat-tool-result")}`, "data-state"), "ok");
    assert.equal(await text(page, `${call} ${sel("chat-tool-result")} ${sel("result-text")}`), "42");
    const answers = await page.$$eval(`${sel("chat-message")}[data-role="assistant"]`, (items) => items.map((item) => item.textContent));
    assert.equal(answers.length, 1);
    assert.match(answers[0], /6 times 7 is 42, says the calculator\./);

    assert.equal(endpoint.requests.length, 2, "the model was asked twice");
    const [first, second] = endpoint.requests;
    assert.ok(
      first.body.tools.some((tool) => tool.type === "function" && tool.function.name === CALCULATE),
      "the first request offers the calculator's tool",
    );
    assert.deepEqual(first.body.messages, [{ role: "user", content: "What is 6 times 7?" }]);
    const toolMessage = second.body.messages.find((message) => message.role === "tool");
    assert.ok(toolMessage, "the second request carries a tool message");
    assert.match(toolMessage.content, /42/);
    const asked = second.body.messages.find((message) => message.tool_calls);
    assert.equal(toolMessage.tool_call_id, asked.tool_calls[0].id, "the tool message answers the model's call");
    for (const request of endpoint.requests) assert.equal(request.authorization, `Bearer ${KEY}`);
    assert.deepEqual(endpoint.failures, []);
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), "chat-input", "focus is back in the input");
    await consolePage.screenshot("chat");
  });

  it("“Choose tools” shows the Tools view", async () => {
    await showView(page, "chat");
    await page.click(sel("chat-choose-tools"));
    await page.waitForSelector(`${sel("view-tools")}:not([hidden])`);
  });

  it("an endpoint that answers 500 shows the status and what it said", async () => {
    const endpoint = await useModel([{ status: 500, body: JSON.stringify({ error: { message: "the model is overloaded" } }) }]);
    failingUrls.push(endpoint.url);
    await say("Hello?");
    const error = await text(page, sel("chat-error"));
    assert.match(error, /HTTP 500/);
    assert.match(error, /the model is overloaded/);
  });

  it("an endpoint that cannot be reached says so and names CORS", async () => {
    const gone = await startScriptedModel([]);
    await gone.close();
    failingUrls.push(gone.url);
    await enterSettings(gone.url, "scripted-1");
    await say("Anyone there?");
    const error = await text(page, sel("chat-error"));
    assert.match(error, /could not be reached from this page/);
    assert.match(error, /CORS/);
  });

  it("a malformed answer is named, and the chat goes on working", async () => {
    await useModel([
      { status: 200, body: "<html>surprise</html>" },
      { status: 200, body: JSON.stringify({ choices: [] }) },
      { toolCalls: [{ name: "mcp__nowhere__nothing", arguments: "{not json" }] },
      { text: "Sorry, that tool does not exist." },
    ]);
    await say("First try");
    assert.match(await text(page, sel("chat-error")), /not JSON.*<html>surprise/);
    await say("Second try");
    assert.match(await text(page, sel("chat-error")), /no choices\[0\]\.message/);

    await say("Third try");
    const call = sel("chat-tool-call", '[data-tool="mcp__nowhere__nothing"]');
    assert.match(await text(page, `${call} ${sel("chat-tool-args")}`), /\{not json[\s\S]*not valid JSON/);
    assert.equal(await page.getAttribute(`${call} ${sel("chat-tool-result")}`, "data-state"), "error");
    assert.match(await text(page, `${call} ${sel("result-error")}`), /UNKNOWN_TOOL|INVALID_ARGUMENTS/);
    assert.match(await text(page, `${sel("chat-message")}[data-role="assistant"]`), /that tool does not exist/);
  });

  it("a huge answer is shown cut, saying how much was left out", async () => {
    await useModel([{ text: `${"All work and no play. ".repeat(10_000)}THE END` }]);
    await say("Tell me a long story");
    const answer = `${sel("chat-message")}[data-role="assistant"]`;
    assert.match(await text(page, answer), /… 120\D?007 more characters not shown/);
    assert.ok(!(await text(page, answer)).includes("THE END"));
  });

  it("a model that keeps calling tools is stopped after 10 rounds, with a message saying so", async () => {
    const endpoint = await useModel(
      Array.from({ length: 11 }, (_, round) => ({ toolCalls: [{ name: CALCULATE, arguments: { expression: `${round} + 1` } }] })),
    );
    await say("Count forever");
    assert.equal(endpoint.requests.length, 10, "the model was asked 10 times, not more");
    assert.equal((await page.$$(sel("chat-tool-call"))).length, 10);
    assert.match(await text(page, sel("chat-notice")), /Stopped after 10 rounds of tool calls/);
    const last = endpoint.requests[9].body.messages.filter((message) => message.role === "tool");
    assert.equal(last.length, 9, "each round's result went back to the model");
    assert.equal(last[8].content, "9");
  });

  it("Shift+Enter starts a new line, and Stop ends a turn whose answer does not come", async () => {
    await useModel([{ delayMs: 10_000, text: "Too late." }]);
    await page.click(sel("chat-new"));
    await page.fill(sel("chat-input"), "Take");
    await page.press(sel("chat-input"), "Shift+Enter");
    await page.type(sel("chat-input"), "your time");
    await page.click(sel("chat-send"));
    await page.waitForSelector(`${sel("chat-send")}[aria-busy="true"]`);
    assert.equal(await text(page, `${sel("chat-message")}[data-role="user"] .chat-text`), "Take\nyour time", "Shift+Enter starts a new line");
    await page.click(sel("chat-stop"));
    await page.waitForSelector(`${sel("view-chat")}:not([data-busy])`, { timeout: 3000 });
    assert.match(await text(page, sel("chat-notice")), /Stopped/);
    assert.equal(await page.$(sel("chat-error")), null);
    assert.equal(await page.isDisabled(sel("chat-send")), false);
  });

  it("with the vault locked, the chat says the key cannot be read and offers to unlock it", async () => {
    const endpoint = await useModel([{ text: "Unlocked and answering." }]);
    await page.click(sel("vault-button"));
    await page.waitForSelector(`${sel("vault-status")}[data-state="locked"]`);
    await page.click(`${sel("chat-settings")} summary`);
    await page.waitForSelector(`${sel("chat-vault")}[data-state="locked"]`);
    assert.match(await text(page, sel("chat-vault")), /The vault is locked/);
    assert.equal(await page.isDisabled(sel("chat-key")), true, "no key can be typed while the vault is locked");

    await say("Are you there?");
    assert.match(await text(page, sel("chat-error")), /stored in the vault, which is locked/);
    assert.equal(endpoint.requests.length, 0, "nothing was sent without the key");
    await page.click(sel("chat-vault-unlock"));
    await page.waitForSelector(sel("vault-dialog"));
    await page.fill(sel("vault-passphrase"), PASSPHRASE);
    await page.click(sel("vault-submit"));
    await page.waitForSelector(`${sel("vault-status")}[data-state="unlocked"]`);
    await page.waitForSelector(`${sel("chat-vault")}[data-state="unlocked"]`, { state: "attached" });

    await say("Are you there now?");
    assert.match(await text(page, `${sel("chat-message")}[data-role="assistant"]`), /Unlocked and answering/);
    assert.equal(endpoint.requests[0].authorization, `Bearer ${KEY}`);
  });

  it("the chat's model answers other parts of the console (sampling) without tools", async () => {
    const endpoint = await useModel([{ text: "A short poem." }], { model: "scripted-2" });
    const answer = await page.evaluate(async () => {
      const { model } = globalThis.mcpConsole;
      const result = await model.complete([{ role: "user", content: "Write a poem" }], { maxTokens: 50, systemPrompt: "Be brief." });
      return { label: model.label, ...result };
    });
    assert.equal(answer.text, "A short poem.");
    assert.equal(answer.model, "scripted-2");
    assert.match(answer.label, /^scripted-2 at 127\.0\.0\.1:\d+$/);
    const [request] = endpoint.requests;
    assert.equal(request.body.tools, undefined);
    assert.equal(request.body.max_tokens, 50);
    assert.deepEqual(request.body.messages[0], { role: "system", content: "Be brief." });
    assert.equal(request.authorization, `Bearer ${KEY}`, "the stored key is used");
  });

  it("“Forget the key” deletes it from the vault, and requests go without one", async () => {
    const endpoint = await useModel([{ text: "No key needed here." }]);
    await page.click(`${sel("chat-settings")} summary`);
    await page.click(sel("chat-key-forget"));
    await page.waitForSelector(`${sel("chat-key-forget")}[hidden]`, { state: "attached" });
    assert.match(await text(page, sel("chat-key-state")), /No key stored/);
    await say("Hello without a key");
    assert.match(await text(page, `${sel("chat-message")}[data-role="assistant"]`), /No key needed here/);
    assert.equal(endpoint.requests[0].authorization, null);
  });

  it("the endpoint and model are remembered after a reload", async () => {
    const before = { base: await page.inputValue(sel("chat-base")), model: await page.inputValue(sel("chat-model")) };
    await consolePage.reload();
    // The tabs are set up after the runtime is ready: a click before that would be lost.
    await page.waitForSelector(`${sel("tabs")} [aria-selected="true"]`);
    await showView(page, "chat");
    assert.deepEqual({ base: await page.inputValue(sel("chat-base")), model: await page.inputValue(sel("chat-model")) }, before);
    assert.match(await text(page, sel("chat-model-label")), new RegExp(`^${before.model} at 127\\.0\\.0\\.1:\\d+`));
    assert.equal(await page.getAttribute(sel("chat-settings"), "open"), null, "complete settings start folded");
  });

  it("“New chat” clears the conversation, and the page reported no errors", async () => {
    await showView(page, "chat");
    await page.click(sel("chat-new"));
    assert.equal(await page.$(sel("chat-message")), null);
    assert.ok(await page.isVisible(sel("chat-empty")));
    assertNoPageErrors(consolePage.errors.filter((error) => !failingUrls.some((url) => error.includes(url))));
  });
});
