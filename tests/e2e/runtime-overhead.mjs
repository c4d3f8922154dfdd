// What the runtime's layers cost per call, in one page (not a test: `cargo xtask test` runs only *.test.mjs):
// McpClient.callTool (the raw client), McpRuntime.callTool (manager, progress reporting), and
// McpRuntime.executeTools (checks, validation, toolExecutionStarted/Finished events, history) without and with four
// JS subscribers. Sequential calls of echo's `echo`, after a warm-up.
//   cargo xtask build --release && (assemble target/site, e.g. by `cargo xtask demo`) then
//   MCP_WORKER_SITE_URL=http://127.0.0.1:8080/ node tests/e2e/runtime-overhead.mjs
import { openRuntimePage } from "./runtime-page.mjs";

const { browser, page } = await openRuntimePage();
const out = await page.evaluate(async () => {
  const N = 2000;
  const time = async (run) => {
    for (let i = 0; i < 200; i++) await run();
    const start = performance.now();
    for (let i = 0; i < N; i++) await run();
    return (performance.now() - start) / N;
  };
  const client = await host.McpClient.spawn({ name: "echo", workerUrl: "/bundles/echo/bootstrap.js" });
  const mcpClient = await time(() => client.callTool("echo", { text: "x" }));
  client.close();
  const rt = await host.McpRuntime.create({ databaseName: unique("overhead") });
  rt.addServer({ name: "echo", workerUrl: "/bundles/echo/bootstrap.js" });
  await rt.connectServer("echo");
  rt.setThreadTools("t", ["mcp__echo__*"]);
  const callTool = await time(() => rt.callTool("echo", "echo", { text: "x" }));
  const calls = [{ callId: "c", toolName: "mcp__echo__echo", arguments: { text: "x" } }];
  const executeTools = await time(() => rt.executeTools(calls, "t"));
  for (let s = 0; s < 4; s++) rt.subscribe(() => {});
  const executeTools4Subscribers = await time(() => rt.executeTools(calls, "t"));
  rt.close();
  return { mcpClient, callTool, executeTools, executeTools4Subscribers };
});
const ms = Object.fromEntries(Object.entries(out).map(([k, v]) => [k, `${(v * 1000).toFixed(0)} µs`]));
console.log("mean per sequential call:", ms);
await browser.close();
