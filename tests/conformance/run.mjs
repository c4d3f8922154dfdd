#!/usr/bin/env node
// Runs the MCP conformance suite's client scenarios against the host (client-driver.mjs in headless Chromium),
// one scenario at a time, and prints a table: scenario -> pass/fail, with a one-line reason.
//
//   node tests/conformance/run.mjs [scenario ...]
//
// Environment (defaults in brackets):
//   MCP_WORKER_SITE_URL    an already served site; or
//   MCP_WORKER_SITE_DIR    the site directory to serve on 127.0.0.1 [<repo>/target/site; better a copy of it]
//   MCP_CONFORMANCE_TIMEOUT_MS  the suite's per-scenario client timeout [30000]
// and those of suite.mjs: MCP_CONFORMANCE_NODE, MCP_CONFORMANCE_SUITE, MCP_CONFORMANCE_SPEC, MCP_CONFORMANCE_OUT.
// The driver itself runs under the node running this script (it only needs playwright-core), and reads its own
// variables (see client-driver.mjs).
//
// Exit code: 0 when every scenario passed, else 1.

import fs from "node:fs";
import path from "node:path";
import { startStaticServer } from "./static-server.mjs";
import {
  HERE,
  OUT,
  REPO,
  SPEC,
  SUITE,
  checkSuite,
  fatal,
  findFile,
  oneLine,
  readChecks,
  report,
  runSuite,
  scenarioDir,
  scenarios,
} from "./suite.mjs";

const TIMEOUT_MS = Number(process.env.MCP_CONFORMANCE_TIMEOUT_MS || 30_000);
const DRIVER = path.join(HERE, "client-driver.mjs");

function checkTools() {
  const version = checkSuite();
  // The suite splits --command on spaces.
  for (const p of [process.execPath, DRIVER]) if (/\s/.test(p)) fatal(`path with a space cannot be a --command: ${p}`);
  return version;
}

async function runScenario(scenario, siteUrl) {
  const dir = scenarioDir(scenario);
  const args = ["client", "--command", `${process.execPath} ${DRIVER}`, "--scenario", scenario];
  args.push("--timeout", String(TIMEOUT_MS), "-o", dir);
  const started = Date.now();
  const { code, log } = await runSuite(args, dir, { env: { MCP_WORKER_SITE_URL: siteUrl } });
  return summarize(scenario, dir, code, log, Date.now() - started);
}

function summarize(scenario, dir, code, log, ms) {
  const { counts, reason: checksReason } = readChecks(dir);
  const stdoutFile = findFile(dir, "stdout.txt");
  const driverOut = stdoutFile ? fs.readFileSync(stdoutFile, "utf8") : "";
  const driverLine = driverOut.match(/DRIVER RESULT: (.*)/)?.[1] ?? null;
  const timedOut = /CLIENT TIMED OUT/.test(log);
  const pass = code === 0;
  let reason = "";
  if (!pass) {
    if (checksReason) reason = checksReason;
    else if (timedOut) reason = `client timed out after ${TIMEOUT_MS}ms`;
    else if (driverLine && driverLine !== "PASS") reason = `driver: ${driverLine}`;
    else reason = `suite exited ${code}`;
    if (driverLine && driverLine !== "PASS" && !reason.startsWith("driver:")) reason += ` | driver: ${driverLine.replace(/^FAIL /, "")}`;
  }
  const category = pass ? "pass" : timedOut ? "timeout" : "fail";
  return { scenario, pass, category, reason: oneLine(reason), checks: counts, driver: driverLine, ms, dir };
}

async function main() {
  const nodeVersion = checkTools();
  const selected = scenarios("client");

  let siteUrl = process.env.MCP_WORKER_SITE_URL;
  let site;
  if (!siteUrl) {
    const dir = process.env.MCP_WORKER_SITE_DIR || path.join(REPO, "target/site");
    if (!fs.existsSync(path.join(dir, "pkg/host/mcp_worker_host.js"))) fatal(`no built host in ${dir}/pkg/host`);
    site = await startStaticServer(dir);
    siteUrl = site.url;
    console.log(`serving ${dir} at ${siteUrl}`);
  }
  fs.mkdirSync(OUT, { recursive: true });
  console.log(`suite ${SUITE} (node ${nodeVersion}), spec ${SPEC}: ${selected.length} client scenarios; results in ${OUT}`);

  const started = Date.now();
  const rows = [];
  try {
    for (const s of selected) {
      const r = await runScenario(s, siteUrl);
      console.log(`${r.pass ? "PASS" : "FAIL"} ${s} (${(r.ms / 1000).toFixed(1)}s)${r.pass ? "" : ": " + r.reason}`);
      rows.push(r);
    }
  } finally {
    await site?.close();
  }
  const failed = report(rows, Date.now() - started, {
    side: "client",
    logs: "Per-scenario logs: <dir>/suite.log, <dir>/*/stdout.txt (driver), stderr.txt (page + HTTP log), checks.json.",
  });
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
