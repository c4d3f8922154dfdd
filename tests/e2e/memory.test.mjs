// What the host's WebAssembly memory grows by, in headless Chromium, for the two loads a server controls: how many
// tools it lists and how large a result it returns. Wasm memory never shrinks, so its size is the page's high-water
// mark: every byte the host ever needed at once. Each figure is read from a fresh page (its own wasm instance), so
// the cases do not share a high-water mark.
// Run by `cargo xtask test`; by hand: MCP_WORKER_SITE_URL=http://127.0.0.1:8080/ node --test tests/e2e/memory.test.mjs
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { openRuntimePage } from "./runtime-page.mjs";

const ECHO = "/bundles/echo/bootstrap.js";
const TOOLS = 50_000;
const KiB = 1024;
const MiB = 1024 * KiB;
const RESULT_BYTES = 12 * MiB; // under the default frame limit (16 Mi characters)

/** Runs `work(args)` in a fresh page; returns its value with the host memory before and after, in bytes. */
async function measured(work, args) {
  const { browser, page, pageErrors } = await openRuntimePage();
  try {
    return await page.evaluate(
      async ({ source, args }) => {
        const memory = () => window.hostMemory();
        const before = memory();
        // eslint-disable-next-line no-new-func
        const value = await new Function("args", `return (${source})(args)`)(args);
        return { ...value, before, after: memory() };
      },
      { source: work.toString(), args },
    );
  } finally {
    assert.deepEqual(pageErrors, []);
    await browser.close();
  }
}

describe("host memory under a server's load", () => {
  it(`lists ${TOOLS.toLocaleString("en")} tools in at most 1 KiB of host memory each (McpClient)`, async () => {
    const out = await measured(
      async ({ echo, extra }) => {
        const client = await host.McpClient.spawn({ name: "many", workerUrl: echo, env: { ECHO_EXTRA_TOOLS: String(extra) } });
        const spawned = window.hostMemory();
        const tools = await client.listTools();
        const listed = window.hostMemory();
        const again = await client.listTools();
        client.close();
        return { spawned, listed, count: tools.length, again: again.length, last: tools.at(-1)?.name };
      },
      { echo: ECHO, extra: TOOLS - 3 },
    );
    assert.equal(out.count, TOOLS);
    assert.equal(out.last, `synthetic_${TOOLS - 4}`);
    const perTool = (out.listed - out.spawned) / TOOLS;
    console.log(`McpClient.listTools: ${TOOLS} tools grew host memory ${((out.listed - out.spawned) / MiB).toFixed(1)} MiB = ${perTool.toFixed(0)} B/tool; after a second listing ${((out.after - out.spawned) / MiB).toFixed(1)} MiB`);
    assert.ok(perTool <= KiB, `${perTool.toFixed(0)} bytes of host memory per listed tool (at most 1024)`);
    assert.equal(out.again, TOOLS);
    assert.equal(out.after, out.listed, "a second listing reuses the memory of the first");
  });

  it(`registers ${TOOLS.toLocaleString("en")} tools in at most 1 KiB of host memory each (McpRuntime)`, async () => {
    const out = await measured(
      async ({ echo, extra, tools }) => {
        const rt = await host.McpRuntime.create({ toolLimits: { maxToolsPerServer: tools } });
        const created = window.hostMemory();
        rt.addServer({ name: "many", workerUrl: echo, env: { ECHO_EXTRA_TOOLS: String(extra) } });
        await rt.connectServer("many");
        const listed = window.hostMemory();
        const count = rt.listTools(undefined, { server: "many" }).tools.length;
        const exported = window.hostMemory();
        const restarts = [];
        for (let i = 0; i < 3; i += 1) {
          await rt.restartServer("many");
          restarts.push([window.hostMemory(), rt.listTools(undefined, { server: "many" }).tools.length]);
        }
        rt.close();
        return { created, listed, count, exported, restarts };
      },
      { echo: ECHO, extra: TOOLS - 3, tools: TOOLS },
    );
    assert.equal(out.count, TOOLS);
    const perTool = (out.listed - out.created) / TOOLS;
    const grown = out.restarts.map(([bytes]) => `${((bytes - out.created) / MiB).toFixed(0)} MiB`).join(", ");
    console.log(`McpRuntime: ${TOOLS} tools registered grew host memory ${((out.listed - out.created) / MiB).toFixed(1)} MiB = ${perTool.toFixed(0)} B/tool; after listTools() ${((out.exported - out.created) / MiB).toFixed(0)} MiB; after each of 3 restarts: ${grown}`);
    assert.ok(perTool <= KiB, `${perTool.toFixed(0)} bytes of host memory per registered tool (at most 1024)`);
    assert.deepEqual(out.restarts.map(([, count]) => count), [TOOLS, TOOLS, TOOLS]);
    // Restarting relists every tool; the memory of one listing is reused by the next.
    assert.equal(out.restarts[2][0], out.restarts[1][0], "the third restart needs no more memory than the second");
  });

  for (const api of ["McpClient", "McpRuntime"]) {
    it(`a ${RESULT_BYTES / MiB} MiB result grows host memory by at most its size, and a second one reuses it (${api})`, async () => {
      const out = await measured(
        async ({ echo, bytes, api }) => {
          let call;
          let close;
          if (api === "McpClient") {
            const client = await host.McpClient.spawn({ name: "echo", workerUrl: echo });
            call = () => client.callTool("blob", { bytes });
            close = () => client.close();
          } else {
            const rt = await host.McpRuntime.create({});
            rt.addServer({ name: "echo", workerUrl: echo });
            await rt.connectServer("echo");
            call = () => rt.callTool("echo", "blob", { bytes });
            close = () => rt.close();
          }
          const ready = window.hostMemory();
          const first = await call();
          const once = window.hostMemory();
          const second = await call();
          const twice = window.hostMemory();
          close();
          const length = (r) => (r.content ?? r.output?.content)?.[0]?.text?.length;
          return { ready, once, twice, lengths: [length(first), length(second)] };
        },
        { echo: ECHO, bytes: RESULT_BYTES, api },
      );
      console.log(`${api}: a ${RESULT_BYTES / MiB} MiB result grew host memory ${((out.once - out.ready) / MiB).toFixed(1)} MiB, a second ${((out.twice - out.once) / MiB).toFixed(1)} MiB more`);
      assert.deepEqual(out.lengths, [RESULT_BYTES, RESULT_BYTES]);
      // Wasm memory grows by pages of 64 KiB: its own size is the result's, rounded up to the next page.
      assert.ok(out.once - out.ready <= RESULT_BYTES + 64 * KiB, `grew ${out.once - out.ready} bytes for a ${RESULT_BYTES}-byte result`);
      assert.equal(out.twice, out.once, "the second result reuses the memory of the first");
    });
  }
});
