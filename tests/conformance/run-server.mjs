#!/usr/bin/env node
// Runs the MCP conformance suite's server scenarios against the everything server, served over Streamable HTTP by
// its bundle's Node entry point (`node <bundles>/everything/serve.mjs --http 0`, one process for the whole run, a
// session per scenario), one scenario at a time, and prints a table: scenario -> pass/fail, with a one-line reason.
//
//   node tests/conformance/run-server.mjs [scenario ...]
//
// Environment (defaults in brackets):
//   MCP_WORKER_BUNDLES     the built bundles [<repo>/target/bundles]
//   MCP_CONFORMANCE_SCENARIO_TIMEOUT_MS  how long one scenario may take [60000]
// and those of suite.mjs: MCP_CONFORMANCE_NODE, MCP_CONFORMANCE_SUITE, MCP_CONFORMANCE_SPEC, MCP_CONFORMANCE_OUT.
// The server runs under the node running this script (serve.mjs needs Node >= 20), the suite under Node >= 22.
//
// A scenario passes when none of its checks is a FAILURE or a WARNING (the suite itself fails only on FAILURE, but
// some of what a server SHOULD do, such as resuming a stream, is checked as a WARNING).
// Exit code: 0 when every scenario passed, else 1.

import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { OUT, REPO, SPEC, SUITE, checkSuite, fatal, oneLine, readChecks, report, runSuite, scenarioDir, scenarios } from "./suite.mjs";

const BUNDLES = process.env.MCP_WORKER_BUNDLES || path.join(REPO, "target/bundles");
const SCENARIO_TIMEOUT_MS = Number(process.env.MCP_CONFORMANCE_SCENARIO_TIMEOUT_MS || 60_000);

// Starts `serve.mjs --http 0` of the everything bundle; resolves to `{ url, exited(), stop() }` once it listens.
function startServer(bundle, logFile) {
  const entry = path.join(bundle, "serve.mjs");
  if (!fs.existsSync(entry)) fatal(`no ${entry}: build the bundles first (cargo xtask build)`);
  const child = spawn(process.execPath, [entry, "--http", "0"], { stdio: ["ignore", "ignore", "pipe"] });
  const log = fs.createWriteStream(logFile);
  let stderr = "";
  let exit = null;
  return new Promise((resolve) => {
    const timer = setTimeout(() => fatal(`serve.mjs printed no URL within 10 s:\n${stderr}`), 10_000);
    child.stderr.on("data", (chunk) => {
      log.write(chunk);
      stderr += chunk;
      const url = stderr.match(/(http:\/\/\S+\/mcp)/)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url, exited: () => exit, stop: () => child.kill() });
      }
    });
    child.on("exit", (code, signal) => {
      exit = `serve.mjs exited (${signal ?? code}); see ${logFile}`;
      if (!stderr.includes("/mcp")) fatal(`serve.mjs exited (${signal ?? code}) before listening:\n${stderr}`);
    });
  });
}

async function runScenario(scenario, server) {
  const dir = scenarioDir(scenario);
  const started = Date.now();
  const args = ["server", "--url", server.url, "--scenario", scenario, "--spec-version", SPEC, "-o", dir];
  const { code, timedOut } = await runSuite(args, dir, { timeoutMs: SCENARIO_TIMEOUT_MS });
  const { found, counts, reason: checksReason } = readChecks(dir);
  const pass = code === 0 && found && counts.failure === 0 && counts.warning === 0 && !server.exited();
  let reason = "";
  if (!pass) {
    if (server.exited()) reason = server.exited();
    else if (checksReason) reason = checksReason;
    else if (timedOut) reason = `the scenario took over ${SCENARIO_TIMEOUT_MS} ms`;
    else reason = `suite exited ${code}${found ? "" : " without checks (see suite.log)"}`;
  }
  const category = pass ? "pass" : timedOut ? "timeout" : "fail";
  return { scenario, pass, category, reason: oneLine(reason), checks: counts, ms: Date.now() - started, dir };
}

async function main() {
  const nodeVersion = checkSuite();
  const selected = scenarios("server");
  fs.mkdirSync(OUT, { recursive: true });
  const server = await startServer(path.join(BUNDLES, "everything"), path.join(OUT, "serve.log"));
  console.log(`everything served at ${server.url} by ${path.join(BUNDLES, "everything", "serve.mjs")}`);
  console.log(`suite ${SUITE} (node ${nodeVersion}), spec ${SPEC}: ${selected.length} server scenarios; results in ${OUT}`);
  const started = Date.now();
  const rows = [];
  try {
    for (const s of selected) {
      const r = await runScenario(s, server);
      console.log(`${r.pass ? "PASS" : "FAIL"} ${s} (${(r.ms / 1000).toFixed(1)}s)${r.pass ? "" : ": " + r.reason}`);
      rows.push(r);
    }
  } finally {
    server.stop();
  }
  const failed = report(rows, Date.now() - started, {
    side: "server",
    logs: "Per-scenario logs: <dir>/suite.log, <dir>/*/checks.json; the server's stderr: serve.log.",
  });
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
