// End-to-end tests of the console's "Resources & prompts" view and of the dialogs for server requests (elicitation
// forms, sampling approvals), in headless Chromium with the real runtime and the `everything` sample server, added
// from the catalogue. Each test acts and looks as a person would; screenshots go to target/e2e/console/.
// By hand: MCP_WORKER_SITE_URL=http://127.0.0.1:8080/ node --test tests/e2e/console-features.test.mjs
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  addFromCatalogue,
  assertNoPageErrors,
  callFromWorkbench,
  openConsole,
  sel,
  showView,
  text,
  waitForServerStatus,
} from "./console-page.mjs";
import { startScriptedModel } from "../fixtures/scripted-model.mjs";

const resourceItem = (uri) => `${sel("resource-item", `[data-uri="${uri}"]`)} button`;
const promptItem = (name) => `${sel("prompt-item", `[data-name="${name}"]`)} button`;

/** Waits for the Tools view's result to leave "pending" (a call that waited for a dialog), and reads it. */
async function settledResult(page) {
  await page.waitForSelector(`${sel("result")}:not([data-state="pending"])`);
  return { state: await page.getAttribute(sel("result"), "data-state"), text: await text(page, sel("result")) };
}

/** Shows "Resources & prompts" with `server` picked, and waits until its resources are listed. */
async function openResources(page, server) {
  await showView(page, "resources");
  await page.selectOption(sel("resources-server"), server);
  await page.waitForSelector(`${sel("resource-list")} ${sel("resource-item")}`);
}

describe("console: resources, prompts and server requests", () => {
  let consolePage;
  let page;
  let model;

  before(async () => {
    consolePage = await openConsole();
    page = consolePage.page;
    await addFromCatalogue(page, "everything");
    await waitForServerStatus(page, "everything", "connected");
  });

  after(async () => {
    await consolePage?.close();
    await model?.close();
  });

  it("reads a resource and shows its text; a subscribed resource is read again and marked updated when it changes", async () => {
    await openResources(page, "everything");
    assert.match(await text(page, sel("resources-server-status")), /everything is running/);

    await page.click(resourceItem("test://static-text"));
    await page.waitForSelector(`${sel("resource-contents")} pre`);
    assert.equal(await text(page, sel("resource-reader-uri")), "test://static-text");
    assert.equal(await text(page, `${sel("resource-contents")} pre`), "This is the content of the static text resource.");

    await page.click(resourceItem("test://watched-resource"));
    await page.waitForSelector(`${sel("resource-reader-uri")}:text-is("test://watched-resource")`);
    await page.waitForSelector(`${sel("resource-contents")} pre`);
    const before = await text(page, `${sel("resource-contents")} pre`);
    const version = Number(before.match(/^Watched resource, version (\d+)$/)?.[1]);
    assert.ok(Number.isInteger(version), `the watched resource reads "${before}"`);
    assert.equal(await page.isVisible(sel("resource-updated")), false, "no change was announced yet");

    await page.click(sel("resource-subscribe"));
    await page.waitForSelector(sel("resource-subscribed"));
    assert.equal(await text(page, sel("resource-subscribe")), "Unsubscribe");
    assert.ok(await page.isVisible(`${sel("resource-item", '[data-uri="test://watched-resource"]')} .badge-subscribed`));

    const call = await callFromWorkbench(page, "everything", "update_watched_resource");
    assert.equal(call.state, "ok", call.text);
    assert.match(call.text, new RegExp(`version ${version + 1}; subscribers notified: true`), "the server knows of the subscription");

    await showView(page, "resources");
    await page.waitForSelector(sel("resource-updated"));
    assert.match(await text(page, sel("resource-updated")), /^updated at \d\d:\d\d:\d\d$/);
    await page.waitForSelector(`${sel("resource-contents")} pre:text-is("Watched resource, version ${version + 1}")`);
    await consolePage.screenshot("resources");

    await page.click(sel("resource-subscribe"));
    await page.waitForSelector(`${sel("resource-subscribe")}:text-is("Subscribe to changes")`);
    assert.equal(await page.isVisible(sel("resource-subscribed")), false);
  });

  it("shows a binary resource as an image with its size and a download link, and lists the resource templates", async () => {
    await openResources(page, "everything");
    await page.click(resourceItem("test://static-binary"));
    await page.waitForSelector(sel("resource-download"));
    assert.ok(await page.isVisible(`${sel("resource-contents")} img`), "the PNG is previewed");
    assert.match(await text(page, sel("resource-contents")), /\d+ bytes · Download static-binary/);
    assert.match(await text(page, sel("template-list")), /test:\/\/template\/\{id\}\/data/);
  });

  it("gets a prompt with typed arguments, offering the server's completions while typing", async () => {
    await openResources(page, "everything");
    await page.click(promptItem("test_prompt_with_arguments"));
    await page.waitForSelector(sel("prompt-form", '[data-prompt="test_prompt_with_arguments"]'));

    // arg1 is required: Get without it says so beside the field, and puts the cursor there.
    await page.click(sel("prompt-get"));
    assert.equal(await text(page, sel("prompt-arg-error-arg1")), "arg1 is required");
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), "prompt-arg-arg1");

    await page.locator(sel("prompt-arg-arg1")).pressSequentially("pa", { delay: 40 });
    await page.waitForSelector(sel("prompt-suggestion"));
    const suggestions = await page.$$eval(`${sel("prompt-suggestions-arg1")} ${sel("prompt-suggestion")}`, (buttons) =>
      buttons.map((b) => b.textContent),
    );
    assert.ok(suggestions.includes("paris"), `suggestions: ${suggestions}`);
    assert.ok(suggestions.every((s) => s.startsWith("pa")), `suggestions: ${suggestions}`);
    await page.click(`${sel("prompt-suggestions-arg1")} ${sel("prompt-suggestion")}:text-is("paris")`);
    assert.equal(await page.inputValue(sel("prompt-arg-arg1")), "paris");

    await page.fill(sel("prompt-arg-arg2"), "formal");
    await page.click(sel("prompt-get"));
    await page.waitForSelector(sel("prompt-message"));
    assert.equal(await text(page, `${sel("prompt-message")} .prompt-role`), "user");
    assert.equal(await text(page, `${sel("prompt-message")} pre`), "Prompt with arguments: arg1='paris', arg2='formal'");
    await consolePage.screenshot("prompt");
  });

  it("asks for an elicitation's values in a form, and the tool gets what was entered, or the decline", async () => {
    await callFromWorkbench(page, "everything", "test_elicitation", { message: "Who is calling?" }, { wait: false });
    await page.waitForSelector(sel("elicitation-dialog"));
    assert.match(await text(page, `${sel("elicitation-dialog")} h2`), /^everything asks for information$/);
    assert.equal(await text(page, sel("elicitation-message")), "Who is calling?");

    // Both fields are required: Accept with one empty marks it and focuses it.
    await page.fill(sel("elicit-email"), "ada@example.org");
    await page.click(sel("elicitation-accept"));
    assert.equal(await text(page, sel("elicit-error-username")), "username is required");
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), "elicit-username");
    assert.ok(await page.isVisible(sel("elicitation-dialog")), "the dialog stays open");

    await page.fill(sel("elicit-username"), "Ada Lovelace");
    await consolePage.screenshot("elicitation");
    await page.click(sel("elicitation-accept"));
    await page.waitForSelector(sel("elicitation-dialog"), { state: "detached" });
    const accepted = await settledResult(page);
    assert.equal(accepted.state, "ok", accepted.text);
    assert.match(accepted.text, /action=accept/);
    assert.match(accepted.text, /"username":"Ada Lovelace"/);
    assert.match(accepted.text, /"email":"ada@example.org"/);

    await callFromWorkbench(page, "everything", "test_elicitation", { message: "Anything else?" }, { wait: false });
    await page.waitForSelector(sel("elicitation-dialog"));
    await page.click(sel("elicitation-decline"));
    const declined = await settledResult(page);
    assert.match(declined.text, /action=decline/);

    await callFromWorkbench(page, "everything", "test_elicitation", { message: "Press Escape" }, { wait: false });
    await page.waitForSelector(sel("elicitation-dialog"));
    await page.keyboard.press("Escape");
    const cancelled = await settledResult(page);
    assert.match(cancelled.text, /action=cancel/);
  });

  it("fills an elicitation form with the server's defaults and choices", async () => {
    await callFromWorkbench(page, "everything", "test_elicitation_sep1330_enums", {}, { wait: false });
    await page.waitForSelector(sel("elicitation-dialog"));
    assert.deepEqual(
      await page.$$eval(`${sel("elicit-titledSingle")} option`, (options) => options.map((o) => o.textContent)),
      ["(none)", "First Option", "Second Option", "Third Option"],
    );
    await page.selectOption(sel("elicit-titledSingle"), { label: "Second Option" });
    await page.check(`${sel("elicit-titledMulti")} label:has-text("Third Choice") input`);
    await page.click(sel("elicitation-accept"));
    const enums = await settledResult(page);
    assert.match(enums.text, /"titledSingle":"value2"/);
    assert.match(enums.text, /"titledMulti":\["value3"\]/);

    await callFromWorkbench(page, "everything", "test_elicitation_sep1034_defaults", {}, { wait: false });
    await page.waitForSelector(sel("elicitation-dialog"));
    assert.equal(await page.inputValue(sel("elicit-name")), "John Doe");
    assert.equal(await page.inputValue(sel("elicit-age")), "30");
    assert.ok(await page.isChecked(sel("elicit-verified")));
    await page.fill(sel("elicit-age"), "12.5");
    await page.click(sel("elicitation-accept"));
    assert.equal(await text(page, sel("elicit-error-age")), "age must be a whole number");
    await page.fill(sel("elicit-age"), "31");
    await page.click(sel("elicitation-accept"));
    const defaults = await settledResult(page);
    assert.match(defaults.text, /"age":31/);
    assert.match(defaults.text, /"name":"John Doe"/);
    assert.match(defaults.text, /"status":"active"/);
  });

  it("shows a sampling request for approval; the tool gets the person's own answer, or the refusal", async () => {
    await callFromWorkbench(page, "everything", "test_sampling", { prompt: "What is the capital of France?" }, { wait: false });
    await page.waitForSelector(sel("sampling-dialog"));
    assert.match(await text(page, `${sel("sampling-dialog")} h2`), /^everything asks to use a model$/);
    assert.equal(await text(page, `${sel("sampling-messages")} pre`), "What is the capital of France?");
    assert.match(await text(page, sel("sampling-dialog")), /Most tokens\s*100/);

    // An empty answer is not sent.
    await page.click(sel("sampling-send-own"));
    assert.match(await text(page, sel("sampling-error")), /Write an answer first/);
    await page.fill(sel("sampling-own-answer"), "Paris, says a person.");
    await consolePage.screenshot("sampling");
    await page.click(sel("sampling-send-own"));
    await page.waitForSelector(sel("sampling-dialog"), { state: "detached" });
    const answered = await settledResult(page);
    assert.equal(answered.state, "ok", answered.text);
    assert.match(answered.text, /LLM response: Paris, says a person\./);

    await callFromWorkbench(page, "everything", "test_sampling", { prompt: "Tell me a secret" }, { wait: false });
    await page.waitForSelector(sel("sampling-dialog"));
    await page.click(sel("sampling-refuse"));
    const refused = await settledResult(page);
    assert.notEqual(refused.state, "ok", refused.text);
    assert.match(refused.text, /The user refused the sampling request/);
  });

  it("sends an approved sampling request to the chat's model, and the tool gets the model's answer", async () => {
    model = await startScriptedModel([{ text: "Paris is the capital of France." }]);
    await showView(page, "chat");
    if (!(await page.isVisible(sel("chat-base")))) await page.click(`${sel("chat-settings")} summary`);
    await page.fill(sel("chat-base"), model.url);
    await page.fill(sel("chat-model"), "scripted-1");
    await page.click(sel("chat-save"));
    await page.waitForSelector(`${sel("chat-settings-status")}[data-kind="ok"]`, { state: "attached" });

    await callFromWorkbench(page, "everything", "test_sampling", { prompt: "What is the capital of France?" }, { wait: false });
    await page.waitForSelector(sel("sampling-approve"));
    assert.match(await text(page, sel("sampling-approve")), /^Approve and send to scripted-1 at 127\.0\.0\.1:\d+$/);
    assert.equal(model.requests.length, 0, "nothing is sent before the approval");
    await page.click(sel("sampling-approve"));
    const answered = await settledResult(page);
    assert.equal(answered.state, "ok", answered.text);
    assert.match(answered.text, /LLM response: Paris is the capital of France\./);
    assert.equal(model.requests.length, 1);
    const sent = model.requests[0].body.messages.at(-1);
    assert.deepEqual(sent, { role: "user", content: "What is the capital of France?" });
  });

  it("closes a request's dialog, and says why, when the server stops waiting for the answer", async () => {
    await callFromWorkbench(page, "everything", "test_elicitation", { message: "Still there?" }, { wait: false });
    await page.waitForSelector(sel("elicitation-dialog"));
    // The server goes away while the dialog is open (restarted from devtools: the modal dialog keeps the page's
    // own buttons out of reach, as it should).
    await page.evaluate(() => mcpConsole.runtime.restartServer("everything").catch(() => {}));
    await page.waitForSelector(sel("elicitation-dialog"), { state: "detached" });
    await page.waitForSelector(`${sel("toast")}:has-text("everything no longer waits for an answer")`);
    const outcome = await settledResult(page);
    assert.equal(outcome.state, "error", outcome.text);
    await waitForServerStatus(page, "everything", "connected");
  });

  it("says so when a server offers no resources and no prompts", async () => {
    await addFromCatalogue(page, "echo");
    await showView(page, "resources");
    await page.selectOption(sel("resources-server"), "echo");
    await page.waitForSelector(sel("resource-list-unsupported"));
    assert.equal(await text(page, sel("resource-list-unsupported")), "This server offers no resources.");
    await page.waitForSelector(sel("prompt-list-unsupported"));
    assert.equal(await text(page, sel("prompt-list-unsupported")), "This server offers no prompts.");
    assert.equal(await page.$$eval(sel("resource-item"), (items) => items.length), 0);
  });

  it("reported no page errors", () => {
    assertNoPageErrors(consolePage.errors);
  });
});
