// Frames made in one turn of the page's event loop travel together (docs/wire-protocol.md, "Batches"): calls an
// agent makes at once go to the worker in a few messages, the server's answers come back the same way, and each
// call still gets its own answer. With the server in its own sandboxed frame (the default) and on the page's origin.
// Run by `cargo xtask test`; by hand: MCP_WORKER_SITE_URL=http://127.0.0.1:8080/ node --test tests/e2e/batches.test.mjs
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { openRuntimePage } from "./runtime-page.mjs";

const ECHO = "/bundles/echo/bootstrap.js";
const CALLS = 64;
const BATCH_FRAMES = 16;

describe("frames in batches", () => {
  for (const isolation of ["sandbox", "page"]) {
    it(`${CALLS} calls made together go and come back in batches, each with its own answer (${isolation})`, async () => {
      const { browser, page, pageErrors } = await openRuntimePage();
      try {
        const out = await page.evaluate(
          async ({ echo, isolation, calls }) => {
            // Counts the MCP messages on the page's end of the channel (control messages are objects, not frames).
            const counts = {};
            const reset = () => Object.assign(counts, { sent: 0, sentFrames: 0, got: 0, gotFrames: 0, largest: 0 });
            reset();
            const isFrames = (m) => typeof m === "string" || Array.isArray(m);
            const watch = watchChannels({
              onPost: (m) => {
                if (!isFrames(m)) return;
                counts.sent += 1;
                counts.sentFrames += Array.isArray(m) ? m.length : 1;
                counts.largest = Math.max(counts.largest, Array.isArray(m) ? m.length : 1);
              },
              // Answers only: the server may also send notifications of its own.
              onMessage: (data) => {
                if (!isFrames(data)) return;
                const answers = (Array.isArray(data) ? data : [data]).filter((f) => f.includes('"result"'));
                if (answers.length > 0) {
                  counts.got += 1;
                  counts.gotFrames += answers.length;
                }
              },
            });
            const client = await host.McpClient.spawn({ name: "batched", workerUrl: echo, isolation });
            // The tools/list asked for with the start answers here, not among the calls' answers.
            await client.listTools();
            watch.stop();
            reset();
            const texts = Array.from({ length: calls }, (_, i) => `call ${i}`);
            const results = await Promise.all(texts.map((text) => client.callTool("echo", { text })));
            const seen = { ...counts };
            // One call alone still goes at once, as a frame of its own.
            reset();
            const alone = await client.callTool("echo", { text: "alone" });
            client.close();
            return { texts, answers: results.map((r) => r.content[0].text), seen, alone: alone.content[0].text, aloneCounts: { ...counts } };
          },
          { echo: ECHO, isolation, calls: CALLS },
        );
        assert.deepEqual(out.answers, out.texts, "each call got its own answer");
        const { seen } = out;
        console.log(`${isolation}: ${CALLS} calls went in ${seen.sent} messages, their answers came in ${seen.got}`);
        assert.equal(seen.sentFrames, CALLS);
        assert.equal(seen.gotFrames, CALLS);
        assert.equal(seen.largest, BATCH_FRAMES, `the page's batches hold at most ${BATCH_FRAMES} frames`);
        assert.equal(seen.sent, CALLS / BATCH_FRAMES, `the calls went in batches of ${BATCH_FRAMES}`);
        assert.ok(seen.got <= CALLS / 8, `the answers came back in batches (${seen.got} messages for ${CALLS} answers)`);
        assert.equal(out.alone, "alone");
        assert.deepEqual(out.aloneCounts, { sent: 1, sentFrames: 1, got: 1, gotFrames: 1, largest: 1 });
      } finally {
        assert.deepEqual(pageErrors, []);
        await browser.close();
      }
    });
  }
});
