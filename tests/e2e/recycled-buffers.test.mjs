// A result's large strings cross as UTF-8 bytes in a buffer that is moved, not copied (docs/wire-protocol.md,
// "Detached strings"); once the page has decoded them it gives the buffer back to the worker, which copies its next
// large string into it. These tests check what a caller would notice if that went wrong: every text arrives exactly,
// whatever buffer it travelled in, larger strings after smaller ones and the other way round.
// Run by `cargo xtask test`; by hand: MCP_WORKER_SITE_URL=http://127.0.0.1:8080/ node --test tests/e2e/recycled-buffers.test.mjs
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { openRuntimePage } from "./runtime-page.mjs";

const ECHO = "/bundles/echo/bootstrap.js";
const KiB = 1024;

describe("buffers of detached bytes go back to the worker", () => {
  for (const isolation of ["sandbox", "page"]) {
    it(`large texts of changing sizes arrive exactly while their buffers are reused (${isolation})`, async () => {
      const { browser, page, pageErrors } = await openRuntimePage();
      try {
        const out = await page.evaluate(
          async ({ echo, isolation, sizes }) => {
            // Counts the buffers the page gives back on the port.
            let returned = 0;
            const watch = watchChannels({ onPost: (m) => (returned += m?.mcpWorker === "buffers" ? m.buffers.length : 0) });
            const client = await host.McpClient.spawn({ name: "recycled", workerUrl: echo, isolation });
            watch.stop();
            const wrong = [];
            for (const [i, size] of sizes.entries()) {
              // A text of its own for each call: a byte left from an earlier text would show.
              const unit = `${i}:é✓${String.fromCharCode(97 + (i % 26))}`;
              const text = unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
              const result = await client.callTool("echo", { text });
              if (result.content[0].text !== text) wrong.push({ i, size, got: result.content[0].text.length });
            }
            client.close();
            return { wrong, returned };
          },
          { echo: ECHO, isolation, sizes: [256 * KiB, 40 * KiB, 1024 * KiB, 33 * KiB, 512 * KiB, 256 * KiB, 2048 * KiB, 64 * KiB] },
        );
        assert.deepEqual(out.wrong, [], "every text arrived exactly");
        assert.equal(out.returned, 8, "each large text's buffer went back to the worker");
      } finally {
        assert.deepEqual(pageErrors, []);
        await browser.close();
      }
    });
  }
});
