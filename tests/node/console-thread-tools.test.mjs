// The console's per-thread enablement logic (www/console/thread-tools.js), under Node: no browser needed.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { enabledBy, turnOff } from "../../www/console/thread-tools.js";

const REGISTERED = ["page_clock", "mcp__echo__echo", "mcp__echo__add", "mcp__echo__blob", "mcp__echoes__x"];

describe("console thread tools", () => {
  it("enables by name and by prefix, and a prefix stops at its own server", () => {
    const entries = ["page_clock", "mcp__echo__*"];
    assert.deepEqual(REGISTERED.filter((n) => enabledBy(entries, n)), ["page_clock", "mcp__echo__echo", "mcp__echo__add", "mcp__echo__blob"]);
    assert.equal(enabledBy([], "page_clock"), false, "a thread with nothing enabled enables nothing");
  });

  it("turns off a tool enabled by name", () => {
    assert.deepEqual(turnOff(["page_clock", "mcp__echo__*"], "page_clock", REGISTERED), { disable: ["page_clock"], enable: [] });
  });

  it("turns off a tool enabled by a prefix: the prefix gives way to the others it covers", () => {
    const change = turnOff(["page_clock", "mcp__echo__*"], "mcp__echo__add", REGISTERED);
    assert.deepEqual(change, { disable: ["mcp__echo__*"], enable: ["mcp__echo__echo", "mcp__echo__blob"] });
    const after = ["page_clock", ...change.enable];
    assert.deepEqual(REGISTERED.filter((n) => enabledBy(after, n)), ["page_clock", "mcp__echo__echo", "mcp__echo__blob"]);
  });

  it("changes nothing for a tool that is not enabled", () => {
    assert.deepEqual(turnOff(["page_clock"], "mcp__echo__add", REGISTERED), { disable: [], enable: [] });
  });
});
