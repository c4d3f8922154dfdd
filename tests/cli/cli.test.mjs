// The server author's command line, as an author outside this workspace meets it: `mcp-worker new` makes a crate in
// a temporary directory, `mcp-worker build` turns it into a bundle (and, with --lean-std, a lighter one, which
// --weigh breaks down),
// `mcp-worker inspect` lists its tools, and the host (the client-only package) loads the bundle in headless Chromium
// and calls its tool.
// `mcp-worker dev` serves the bundle in the console and rebuilds it when its source changes.
// Run by `cargo xtask test`, which builds the CLI (MCP_WORKER_CLI) and the host packages (MCP_WORKER_HOST_PKG, the
// client-only one; MCP_WORKER_HOST_PACKAGE, the full one the console runs on).
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { cp, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import { launchChromium } from "../support/chromium.mjs";
import { serveStatic } from "../support/static-server.mjs";

const run = promisify(execFile);
const CLI = process.env.MCP_WORKER_CLI;
const HOST_PKG = process.env.MCP_WORKER_HOST_PKG;
const SCREENSHOTS = process.env.MCP_WORKER_SCREENSHOTS;

let dir;
let crate;

before(async () => {
  assert.ok(CLI && HOST_PKG, "MCP_WORKER_CLI and MCP_WORKER_HOST_PKG are set by `cargo xtask test`");
  dir = await mkdtemp(join(tmpdir(), "mcp-worker-author-"));
  crate = join(dir, "greeter");
});

after(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

test("new makes a crate, build makes its bundle, inspect lists its tool", { timeout: 15 * 60_000 }, async () => {
  const created = await run(CLI, ["new", "greeter"], { cwd: dir });
  assert.match(created.stdout, /created the server crate `greeter`/);
  const again = await run(CLI, ["new", "greeter"], { cwd: dir }).catch((error) => error);
  assert.match(String(again.stderr), /exists and is not empty/, "new refuses to write over a crate");

  // A release build (wasm-opt found or installed, as a server author's machine would), its schemas made at build
  // time; `dev` below builds for debug, its schemas made in the worker.
  const built = await run(CLI, ["build", "--release", "--prebuilt-schemas"], { cwd: crate, maxBuffer: 64 << 20 });
  assert.match(`${built.stdout}${built.stderr}`, /wasm-opt/, "the release build optimizes the wasm");
  assert.match(`${built.stdout}${built.stderr}`, /--features mcp-worker-sdk\/prebuilt-schemas/, "a second build embeds the schemas");
  for (const file of ["bootstrap.js", "server.js", "server_bg.wasm", "manifest.json", "serve.mjs"]) {
    assert.ok((await stat(join(crate, "bundle", file))).size > 0, `the bundle has ${file}`);
  }
  const manifest = JSON.parse(await readFile(join(crate, "bundle/manifest.json"), "utf8"));
  assert.equal(manifest.name, "greeter");
  assert.equal(manifest.title, "Greeter");
  assert.equal(manifest.tools[0].inputSchema.properties.name.type, "string", "the tool's schema, from the embedded table");

  const inspected = await run(CLI, ["inspect", "bundle"], { cwd: crate });
  assert.match(inspected.stdout, /tools \(1\):\n {2}greet \(read-only\): Greets someone by name/);

  // --lean-std: the same bundle, its standard library compiled for size; the browser test below runs this one.
  const plainWasm = (await stat(join(crate, "bundle/server_bg.wasm"))).size;
  const debugOnly = await run(CLI, ["build", "--lean-std"], { cwd: crate }).catch((error) => error);
  assert.match(String(debugOnly.stderr), /--lean-std compiles the standard library for a release build's size: add --release/);
  const debugWeigh = await run(CLI, ["build", "--weigh"], { cwd: crate }).catch((error) => error);
  assert.match(String(debugWeigh.stderr), /--weigh weighs the optimized wasm of a release build: add --release/);
  // --weigh: what the bundle's wasm is made of, by crate and by function.
  const lean = await run(CLI, ["build", "--release", "--prebuilt-schemas", "--lean-std", "--weigh"], { cwd: crate, maxBuffer: 64 << 20 });
  const leanOutput = `${lean.stdout}${lean.stderr}`;
  assert.match(leanOutput, /\ngreeter: [\d.]+ KiB of wasm: code [\d.]+ KiB \([\d.]+%\), data/, leanOutput.slice(-3000));
  assert.match(leanOutput, /KiB +[\d.]+% +\d+ fn {2}mcp_worker_sdk\n/, "the SDK's share");
  assert.match(leanOutput, /KiB +[\d.]+% +\d+ fn {2}serde_json\n/, "serde_json's share");
  assert.match(leanOutput, /largest functions:\n +[\d.]+ KiB/);
  assert.match(leanOutput, /-Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size/, "the release build compiles the standard library");
  assert.doesNotMatch(leanOutput, /built again with the prebuilt one|building with the prebuilt standard library/, "no fallback");
  assert.match(leanOutput, /release wasm, standard library compiled for size/);
  const leanWasm = (await stat(join(crate, "bundle/server_bg.wasm"))).size;
  assert.ok(leanWasm < plainWasm * 0.97, `the lean bundle's wasm (${leanWasm} bytes) is lighter than the plain one's (${plainWasm})`);
  const leanManifest = JSON.parse(await readFile(join(crate, "bundle/manifest.json"), "utf8"));
  assert.deepEqual(leanManifest.tools, manifest.tools, "the same tools, with the same schemas");
});

test("the host loads the built bundle in Chromium and calls its tool", async () => {
  const site = join(dir, "site");
  await cp(join(crate, "bundle"), join(site, "bundles/greeter"), { recursive: true });
  await cp(HOST_PKG, join(site, "pkg"), { recursive: true });
  const server = await serveStatic(site);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/pkg/mcp_worker_host.js`);
    assert.equal(await call(page, "/pkg/mcp_worker_host.js"), "Hello, Ada!");
  } finally {
    await browser.close();
    server.close();
  }
});

test("dev serves the bundle in the console and rebuilds it when its source changes", { timeout: 10 * 60_000 }, async () => {
  const dev = spawn(CLI, ["dev", "--port", "0"], { cwd: crate, stdio: ["ignore", "pipe", "inherit"] });
  const output = lines(dev.stdout);
  const browser = await launchChromium();
  try {
    const url = (await output.next(/^console: (http:\/\/127\.0\.0\.1:\d+\/)/, 5 * 60_000))[1];
    const catalogue = await (await fetch(`${url}catalogue.json`)).json();
    assert.deepEqual(catalogue.servers.map((server) => server.id), ["greeter"]);
    // The console runs under the policy a deployed console has (as `cargo xtask demo` serves it).
    const policy = (await fetch(url)).headers.get("content-security-policy") ?? "";
    assert.match(policy, /script-src 'self' 'wasm-unsafe-eval' 'sha256-[^']+' 'sha256-[^']+';/, policy);

    // The console lists the author's server and adds it in one click.
    const page = await browser.newPage();
    const blocked = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    await page.goto(url);
    const card = '[data-testid="catalogue-card"][data-id="greeter"]';
    await page.click(`${card} [data-testid="catalogue-add"]`);
    await page.waitForSelector(`${card} [data-testid="catalogue-added"]`);
    if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, "cli-dev-console.png") });
    assert.equal(await call(page), "Hello, Ada!");

    // An edit is rebuilt in place; the next start of the server runs it.
    const source = join(crate, "src/lib.rs");
    await writeFile(source, (await readFile(source, "utf8")).replace('format!("Hello, {}!"', 'format!("Good day, {}!"'));
    await output.next(/^rebuilt: restart `greeter`/, 5 * 60_000);
    assert.equal(await call(page), "Good day, Ada!");
    assert.deepEqual(blocked, [], "the policy blocked nothing the console does");
  } finally {
    dev.kill();
    await browser.close();
  }
});

/** Starts the greeter bundle in a worker of the page, with the host module at `hostUrl`, calls `greet`, and stops it. */
function call(page, hostUrl = "/pkg/host/mcp_worker_host.js") {
  return page.evaluate(async (hostUrl) => {
    const host = await import(hostUrl);
    await host.default();
    const client = await host.McpClient.spawn({ name: "greeter", workerUrl: "/bundles/greeter/bootstrap.js" });
    const result = await client.callTool("greet", { name: "Ada" }, undefined);
    client.close();
    return result.content[0].text;
  }, hostUrl);
}

/** The lines a stream prints, awaited one pattern at a time. */
function lines(stream) {
  let buffer = "";
  const seen = [];
  const waiting = [];
  stream.setEncoding("utf8");
  stream.on("data", (chunk) => {
    buffer += chunk;
    const parts = buffer.split("\n");
    buffer = parts.pop();
    seen.push(...parts);
    for (const waiter of [...waiting]) waiter();
  });
  return {
    next(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no line matched ${pattern} in ${timeoutMs} ms:\n${seen.join("\n")}`)), timeoutMs);
        const check = () => {
          const index = seen.findIndex((line) => pattern.test(line));
          if (index < 0) return;
          const match = seen[index].match(pattern);
          seen.splice(0, index + 1);
          waiting.splice(waiting.indexOf(check), 1);
          clearTimeout(timer);
          resolve(match);
        };
        waiting.push(check);
        check();
      });
    },
  };
}
