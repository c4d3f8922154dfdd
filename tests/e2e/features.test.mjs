// End-to-end tests of a server's resources, prompts, completion and log level through the JavaScript runtime, in
// headless Chromium, against the `everything` sample server in its sandboxed worker.
// Run by `cargo xtask test`; by hand: MCP_WORKER_SITE_URL=http://127.0.0.1:8080/ node --test tests/e2e/features.test.mjs
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { openRuntimePage } from "./runtime-page.mjs";

const EVERYTHING = "/bundles/everything/bootstrap.js";
const ECHO = "/bundles/echo/bootstrap.js";

describe("McpRuntime: resources, prompts, completion and log levels", () => {
  let browser;
  let page;

  before(async () => {
    ({ browser, page } = await openRuntimePage());
  });

  after(async () => {
    await browser?.close();
  });

  it("lists and reads resources as text and binary, and a subscription outlives a restart until it ends", async () => {
    const out = await page.evaluate(async ({ EVERYTHING }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("resources") });
      const updates = [];
      rt.subscribe((e) => updates.push(e), { kinds: ["resourceUpdated"] });
      rt.addServer({ name: "every", workerUrl: EVERYTHING });
      const listed = await rt.listResources("every");
      const templates = await rt.listResourceTemplates("every");
      const text = await rt.readResource("every", "test://static-text");
      const binary = await rt.readResource("every", "test://static-binary");
      const filled = await rt.readResource("every", "test://template/42/data");
      const missing = await rt.readResource("every", "test://nothing").then(() => null, (e) => e.code);

      await rt.subscribeResource("every", "test://watched-resource");
      await rt.callTool("every", "update_watched_resource", {});
      await waitFor("an update", () => updates.length === 1);
      await rt.restartServer("every");
      await rt.callTool("every", "update_watched_resource", {});
      await waitFor("an update after the restart", () => updates.length === 2);
      const watched = await rt.readResource("every", "test://watched-resource");
      const subscribed = rt.resourceSubscriptions("every");
      await rt.unsubscribeResource("every", "test://watched-resource");
      await rt.callTool("every", "update_watched_resource", {});
      await new Promise((resolve) => setTimeout(resolve, 300));
      rt.close();
      return {
        uris: listed.resources.map((r) => r.uri),
        nextCursor: listed.nextCursor ?? null,
        templates: templates.resourceTemplates.map((t) => t.uriTemplate),
        text: text.contents[0],
        binary: { mimeType: binary.contents[0].mimeType, png: atob(binary.contents[0].blob).slice(1, 4) },
        filled: JSON.parse(filled.contents[0].text),
        missing,
        updates: updates.map(({ server, uri }) => ({ server, uri })),
        watched: watched.contents[0].text,
        subscribed,
        after: rt.resourceSubscriptions("every"),
      };
    }, { EVERYTHING });
    assert.ok(out.uris.includes("test://static-text") && out.uris.includes("test://static-binary"), JSON.stringify(out.uris));
    assert.equal(out.nextCursor, null);
    assert.deepEqual(out.templates, ["test://template/{id}/data"]);
    assert.deepEqual(out.text, { uri: "test://static-text", mimeType: "text/plain", text: "This is the content of the static text resource." });
    assert.deepEqual(out.binary, { mimeType: "image/png", png: "PNG" });
    assert.equal(out.filled.id, "42");
    assert.equal(out.missing, "RPC_ERROR");
    const update = { server: "every", uri: "test://watched-resource" };
    assert.deepEqual(out.updates, [update, update], "one before the restart, one after, none after unsubscribing");
    assert.match(out.watched, /version/);
    assert.deepEqual(out.subscribed, ["test://watched-resource"]);
    assert.deepEqual(out.after, []);
  });

  it("gets prompts with arguments, completes prompt and template arguments, and sets the log level", async () => {
    const out = await page.evaluate(async ({ EVERYTHING, ECHO }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("prompts") });
      const logs = [];
      rt.subscribe((e) => logs.push(e.level), { kinds: ["serverLog"] });
      rt.addServer({ name: "every", workerUrl: EVERYTHING });
      rt.addServer({ name: "echo", workerUrl: ECHO });
      const prompts = await rt.listPrompts("every");
      const got = await rt.getPrompt("every", "test_prompt_with_arguments", { arg1: "first", arg2: "second" });
      const badArgs = await rt.getPrompt("every", "test_prompt_with_arguments", { arg1: 7 }).then(() => null, (e) => e.code);
      const forPrompt = await rt.complete("every", { type: "ref/prompt", name: "test_prompt_with_arguments" }, { name: "arg1", value: "par" });
      const forTemplate = await rt.complete("every", { type: "ref/resource", uri: "test://template/{id}/data" }, { name: "id", value: "" });
      await rt.callTool("every", "test_tool_with_logging", {});
      const before = logs.length;
      await rt.setLogLevel("every", "error");
      await rt.callTool("every", "test_tool_with_logging", {});
      await new Promise((resolve) => setTimeout(resolve, 200));
      const afterLevel = logs.length - before;
      const badLevel = await rt.setLogLevel("every", "loud").then(() => null, (e) => e.code);
      const unsupported = await rt.listPrompts("echo").then(() => null, (e) => ({ code: e.code, message: e.message }));
      rt.close();
      return {
        names: prompts.prompts.map((p) => p.name),
        text: JSON.stringify(got.messages),
        badArgs,
        forPrompt: forPrompt.completion.values,
        forTemplate: forTemplate.completion.values,
        before,
        afterLevel,
        badLevel,
        unsupported,
      };
    }, { EVERYTHING, ECHO });
    assert.ok(out.names.includes("test_simple_prompt") && out.names.includes("test_prompt_with_arguments"), JSON.stringify(out.names));
    assert.ok(out.text.includes("first") && out.text.includes("second"), out.text);
    assert.equal(out.badArgs, "INVALID_INPUT", "prompt argument values are strings");
    assert.deepEqual(out.forPrompt, ["paris", "park", "party"]);
    assert.deepEqual(out.forTemplate, ["1", "2", "3"]);
    assert.ok(out.before >= 1, "the tool logs at info by default");
    assert.equal(out.afterLevel, 0, "nothing below error after setLogLevel");
    assert.equal(out.badLevel, "INVALID_INPUT");
    assert.deepEqual(out.unsupported, {
      code: "UNSUPPORTED",
      message: "server echo does not offer prompts (it declared no `prompts` capability)",
    });
  });

  it("refuses a feature result of a shape MCP does not have, and hands on the members a server adds", async () => {
    const out = await page.evaluate(async ({ MISBEHAVING }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("bad-shapes") });
      rt.addServer({ name: "bad", workerUrl: MISBEHAVING, env: { FAULT: "bad-shapes" } });
      const failure = (promise) => promise.then((r) => ({ resolved: r }), (e) => `${e.code}: ${e.message}`);
      const out = {
        resources: await failure(rt.listResources("bad")),
        templates: await failure(rt.listResourceTemplates("bad")),
        read: await failure(rt.readResource("bad", "a://b")),
        prompts: await rt.listPrompts("bad"),
        prompt: await failure(rt.getPrompt("bad", "p")),
        complete: await failure(rt.complete("bad", { type: "ref/prompt", name: "p" }, { name: "x", value: "" })),
        exported: await rt.exportResources({ servers: ["bad"] }),
      };
      rt.close();
      return out;
    }, { MISBEHAVING: "/e2e-fixtures/misbehaving-server.js" });
    const refused = (what) => `PROTOCOL: server bad: protocol violation: ${what}`;
    assert.equal(out.resources, refused("the resources/list result's `resources` is not an array"));
    assert.equal(out.templates, refused("the resources/templates/list result's `nextCursor` is not a string"));
    assert.equal(out.read, refused("the resources/read result has no `contents`"));
    assert.deepEqual(out.prompts, { prompts: [{ name: "p", tags: ["x"] }], nextCursor: "more", _meta: { n: 1 } });
    assert.equal(out.prompt, refused("the prompts/get result's `messages` is not an array"));
    assert.equal(out.complete, refused("the completion/complete result's `completion` is not an object"));
    assert.deepEqual(out.exported.resources, []);
    assert.deepEqual(out.exported.errors.map((e) => e.code), ["PROTOCOL"], JSON.stringify(out.exported.errors));
  });

  it("exports resources for a picker and gives agents an opt-in tool that reads them", async () => {
    const out = await page.evaluate(async ({ EVERYTHING, ECHO }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("resource-tool") });
      rt.addServer({ name: "every", workerUrl: EVERYTHING, resourceTool: true });
      rt.addServer({ name: "plain", workerUrl: EVERYTHING });
      rt.addServer({ name: "echo", workerUrl: ECHO });
      await rt.connectServer("every");
      await rt.connectServer("echo");
      const picker = await rt.exportResources();
      const named = await rt.exportResources({ servers: ["plain", "nope"] });
      const tools = rt.listTools("openai", { server: "every" }).tools.map((t) => t.function.name);
      rt.setThreadTools("t1", ["mcp__every__*"]);
      const [read, refused, wrongArgs] = await rt.executeTools(
        [
          { callId: "a", toolName: "mcp__every__read_resource", arguments: { uri: "test://static-text" } },
          { callId: "b", toolName: "mcp__every__read_resource", arguments: { uri: "test://nothing" } },
          { callId: "c", toolName: "mcp__every__read_resource", arguments: { path: "x" } },
        ],
        "t1",
      );
      const plainTools = rt.listTools("mcp", { server: "plain", includeHidden: true }).tools.map((t) => t.name);
      rt.close();
      return {
        picker: picker.resources.map((r) => `${r.server} ${r.uri}`),
        pickerErrors: picker.errors,
        named: named.resources.map((r) => r.server),
        namedErrors: named.errors.map((e) => `${e.server} ${e.code}`),
        tools,
        read: { status: read.status, output: JSON.stringify(read.output) },
        refused: { status: refused.status, output: JSON.stringify(refused.output ?? refused.error) },
        wrongArgs: wrongArgs.status,
        plainTools,
      };
    }, { EVERYTHING, ECHO });
    assert.ok(out.picker.includes("every test://static-text"), JSON.stringify(out.picker));
    assert.ok(!out.picker.some((entry) => entry.startsWith("echo ")), "echo offers no resources");
    assert.deepEqual(out.pickerErrors, []);
    assert.ok(out.named.length > 0 && out.named.every((server) => server === "plain"), JSON.stringify(out.named));
    assert.deepEqual(out.namedErrors, ["nope UNKNOWN_SERVER"]);
    assert.ok(out.tools.includes("mcp__every__read_resource"), JSON.stringify(out.tools));
    assert.equal(out.read.status, "success");
    assert.ok(out.read.output.includes("This is the content of the static text resource."), out.read.output);
    assert.ok(out.refused.output.includes("test://nothing"), JSON.stringify(out.refused));
    assert.notEqual(out.wrongArgs, "success");
    assert.ok(!out.plainTools.includes("mcp__plain__read_resource"), "only servers that opt in get the tool");
  });

  it("answers roots from the application and tells running servers when they change", async () => {
    const out = await page.evaluate(async ({ EVERYTHING }) => {
      const rt = await host.McpRuntime.create({ databaseName: unique("roots"), roots: [{ uri: "file:///work", name: "work" }] });
      rt.addServer({ name: "every", workerUrl: EVERYTHING });
      const roots = async () => (await rt.callTool("every", "list_roots", {})).content[0].text;
      const first = await roots();
      rt.setRoots([{ uri: "file:///home", name: "home" }, { uri: "file:///tmp" }]);
      const second = await roots();
      const bad = (() => { try { rt.setRoots([{ name: "no uri" }]); } catch (e) { return e.code; } })();
      const kept = await roots();
      rt.close();
      const none = await host.McpRuntime.create({ databaseName: unique("no-roots") });
      const refused = (() => { try { none.setRoots([]); } catch (e) { return { code: e.code, message: e.message }; } })();
      none.close();
      const badOption = await host.McpRuntime.create({ databaseName: unique("bad-roots"), roots: ["file:///x"] })
        .then(() => null, (e) => e.code);
      return { first, second, bad, kept, refused, badOption };
    }, { EVERYTHING });
    assert.equal(out.first, "file:///work");
    assert.equal(out.second, "file:///home\nfile:///tmp");
    assert.equal(out.bad, "INVALID_INPUT");
    assert.equal(out.kept, out.second, "a refused change changes nothing");
    assert.equal(out.refused.code, "INVALID_INPUT");
    assert.match(out.refused.message, /offers no roots/);
    assert.equal(out.badOption, "INVALID_INPUT");
  });
});
