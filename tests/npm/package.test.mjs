// The npm package as an app developer meets it: a fresh app in a directory outside the workspace installs the tarball
// with npm, is type-checked with the package's declarations (skipLibCheck off), bundled with Vite, with esbuild and
// with webpack 5, served on 127.0.0.1, and in headless Chromium adds a server from a bundle, calls its tool and reads status events.
// Run by `cargo xtask test`, which packs the tarball (MCP_WORKER_NPM_TARBALL) and builds the bundles
// (MCP_WORKER_BUNDLES).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import * as esbuild from "esbuild";
import { launchChromium } from "../support/chromium.mjs";
import { serveStatic } from "../support/static-server.mjs";
import { build as viteBuild } from "vite";
import webpack from "webpack";

const run = promisify(execFile);
const HERE = dirname(fileURLToPath(import.meta.url));
const WORKSPACE = join(HERE, "../..");
const TARBALL = process.env.MCP_WORKER_NPM_TARBALL;
const BUNDLES = process.env.MCP_WORKER_BUNDLES;
const EXAMPLES = process.env.MCP_WORKER_GUIDE_EXAMPLES;

let app;

before(async () => {
  assert.ok(TARBALL && BUNDLES, "MCP_WORKER_NPM_TARBALL and MCP_WORKER_BUNDLES are set by `cargo xtask test`");
  app = await mkdtemp(join(tmpdir(), "mcp-worker-fresh-app-"));
  await cp(join(HERE, "app"), app, { recursive: true });
  // The guides' examples, each a module of the app, type-checked with it as pasted.
  if (EXAMPLES) await cp(EXAMPLES, join(app, "src/examples"), { recursive: true });
  await writeFile(
    join(app, "package.json"),
    JSON.stringify({ name: "fresh-app", private: true, type: "module" }, null, 2),
  );
  await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", TARBALL], { cwd: app });
});

after(async () => {
  if (app) await rm(app, { recursive: true, force: true });
});

test("the package installs with npm, and its declarations and the guides' examples type-check with skipLibCheck off", async () => {
  const installed = JSON.parse(await readFile(join(app, "node_modules/mcp-worker/package.json"), "utf8"));
  assert.equal(installed.name, "mcp-worker");
  for (const entry of [".", "./client", "./art", "./oauth-popup", "./wasm"]) {
    assert.ok(installed.exports[entry]?.types, `export ${entry} has types`);
  }
  // What ships: the licenses and the one-file redirect page; no build stamps.
  const shipped = await readdir(join(app, "node_modules/mcp-worker"));
  for (const file of ["LICENSE-MIT", "LICENSE-APACHE", "oauth-callback.html", "README.md"]) {
    assert.ok(shipped.includes(file), `${file} ships: ${shipped}`);
  }
  assert.ok(!shipped.some((file) => file.startsWith(".")), `no dot files: ${shipped}`);
  assert.ok(!shipped.includes("oauth-callback.js"), "the redirect page's script is inline");
  const tsc = join(WORKSPACE, "node_modules/.bin/tsc");
  // The app's own tsconfig (a Vite TypeScript app's defaults) over every file: `exports.ts`, and the examples.
  if (EXAMPLES) assert.ok((await readdir(join(app, "src/examples"))).length >= 8, "the guides' examples are there");
  const checked = await run(tsc, ["-p", join(app, "tsconfig.json")], { cwd: app }).then(
    () => "",
    (error) => `${error.stdout}${error.stderr}`,
  );
  assert.equal(checked, "", "tsc reports no error");
});

test("bundled with Vite, the app calls a server's tool and sees its status", async () => {
  const outDir = join(app, "dist-vite");
  await viteBuild({ root: app, configFile: false, logLevel: "warn", build: { outDir, emptyOutDir: true } });
  const wasm = (await readdir(join(outDir, "assets"))).filter((name) => name.endsWith(".wasm"));
  assert.equal(wasm.length, 1, "Vite emitted the package's wasm as an asset of its own");
  const redirectPage = await expectWorkingApp(outDir, "index.html");
  assert.match(redirectPage, /BroadcastChannel\("mcp-worker-oauth"\)/, "the OAuth redirect page was emitted whole");
});

test("bundled with esbuild, the app calls a server's tool and sees its status", async () => {
  const outDir = join(app, "dist-esbuild");
  await esbuild.build({
    absWorkingDir: app,
    entryPoints: ["src/esbuild-main.ts"],
    bundle: true,
    format: "esm",
    outdir: outDir,
    loader: { ".wasm": "file" },
    logLevel: "warning",
  });
  const html = (await readFile(join(app, "index.html"), "utf8")).replace("/src/vite-main.ts", "./esbuild-main.js");
  await writeFile(join(outDir, "index.html"), html);
  await expectWorkingApp(outDir, "index.html");
});

test("bundled with webpack 5, the app calls a server's tool and sees its status", async () => {
  const outDir = join(app, "dist-webpack");
  // webpack reads JavaScript: the app's module as esbuild writes it without its types, and an entry like Vite's.
  const { code } = await esbuild.transform(await readFile(join(app, "src/app.ts"), "utf8"), { loader: "ts", format: "esm" });
  await writeFile(join(app, "src/app.js"), code);
  await writeFile(
    join(app, "src/webpack-main.js"),
    'import init from "mcp-worker";\nimport { report, run } from "./app.js";\n\nreport(init().then(run));\n',
  );
  const stats = await new Promise((resolve, reject) => {
    const config = {
      mode: "production",
      context: app,
      entry: "./src/webpack-main.js",
      output: { path: outDir, filename: "main.js", clean: true },
      performance: { hints: false },
    };
    webpack(config, (error, result) => (error ? reject(error) : resolve(result)));
  });
  assert.ok(!stats.hasErrors(), stats.toString({ all: false, errors: true }));
  const wasm = (await readdir(outDir)).filter((name) => name.endsWith(".wasm"));
  assert.equal(wasm.length, 1, "webpack emitted the package's wasm, found through new URL(…, import.meta.url)");
  // A classic script, as webpack writes one (it finds its own URL, and so the wasm's, through document.currentScript).
  const html = (await readFile(join(app, "index.html"), "utf8")).replace(
    '<script type="module" src="/src/vite-main.ts"></script>',
    '<script src="./main.js"></script>',
  );
  assert.match(html, /main\.js/);
  await writeFile(join(outDir, "index.html"), html);
  await expectWorkingApp(outDir, "index.html");
});

/** Serves `dir` (with the echo bundle beside the app) and checks what the page reports. */
async function expectWorkingApp(dir, page) {
  await cp(join(BUNDLES, "echo"), join(dir, "bundles/echo"), { recursive: true });
  const server = await serveStatic(dir);
  const browser = await launchChromium();
  try {
    const tab = await browser.newPage();
    const errors = [];
    tab.on("pageerror", (error) => errors.push(String(error)));
    await tab.goto(`${server.url}/${page}`);
    await tab.waitForFunction(() => window.outcome !== undefined, null, { timeout: 30_000 });
    const outcome = await tab.evaluate(() => window.outcome);
    assert.equal(outcome.error, undefined, `the app failed: ${outcome.error}`);
    assert.equal(outcome.text, "hello from a fresh app");
    assert.ok(outcome.statuses.includes("connected"), `a serverStatus event said connected: ${outcome.statuses}`);
    assert.deepEqual(errors, []);
    // The OAuth redirect page as the app's bundle refers to it (when the app imports the popup module).
    return await tab.evaluate(async () => (window.callbackUrl ? (await fetch(window.callbackUrl)).text() : ""));
  } finally {
    await browser.close();
    server.close();
  }
}
