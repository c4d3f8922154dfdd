#!/usr/bin/env node
// Runs the MCP conformance suite's client scenarios against the host (client-driver.mjs in headless Chromium),
// one scenario at a time, and prints a table: scenario -> pass/fail, with a one-line reason.
//
//   node tests/conformance/run.mjs [scenario ...]
//
// Environment (defaults in brackets):
//   MCP_WORKER_SITE_URL    an already served site; or
//   MCP_WORKER_SITE_DIR    the site directory to serve on 127.0.0.1 [<repo>/target/site; better a copy of it]
//   MCP_CONFORMANCE_NODE   a Node >= 22 binary for the suite [tests/conformance/node_modules/node/bin/node]
//   MCP_CONFORMANCE_SUITE  the suite's CLI [tests/conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js]
// (both installed by `cargo xtask setup` from tests/conformance/package.json)
//   MCP_CONFORMANCE_SPEC   the spec version whose client scenarios run [2025-11-25]
//   MCP_CONFORMANCE_OUT    where results go [/tmp/mcp-conformance-results/<time>]
//   MCP_CONFORMANCE_TIMEOUT_MS  the suite's per-scenario client timeout [30000]
// The driver itself runs under the node running this script (it only needs playwright-core), and reads its own
// variables (see client-driver.mjs).
//
// Exit code: 0 when every scenario passed, else 1.

import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startStaticServer } from "./static-server.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "../..");
const TOOLS = HERE;
const NODE22 = process.env.MCP_CONFORMANCE_NODE || path.join(TOOLS, "node_modules/node/bin/node");
const SUITE =
  process.env.MCP_CONFORMANCE_SUITE || path.join(TOOLS, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const SPEC = process.env.MCP_CONFORMANCE_SPEC || "2025-11-25";
const TIMEOUT_MS = Number(process.env.MCP_CONFORMANCE_TIMEOUT_MS || 30_000);
const OUT =
  process.env.MCP_CONFORMANCE_OUT ||
  path.join("/tmp/mcp-conformance-results", new Date().toISOString().replace(/[:.]/g, "-"));
const DRIVER = path.join(HERE, "client-driver.mjs");


function fatal(msg) {
  console.error(`run.mjs: ${msg}`);
  process.exit(2);
}

function checkTools() {
  if (!fs.existsSync(NODE22)) fatal(`no Node >= 22 at ${NODE22} (see README.md; or set MCP_CONFORMANCE_NODE)`);
  if (!fs.existsSync(SUITE)) fatal(`no conformance suite at ${SUITE} (see README.md; or set MCP_CONFORMANCE_SUITE)`);
  const v = spawnSync(NODE22, ["--version"], { encoding: "utf8" }).stdout.trim();
  if (!/^v(2[2-9]|[3-9]\d)\./.test(v)) fatal(`${NODE22} is ${v || "not runnable"}; the suite needs Node >= 22`);
  // The suite splits --command on spaces.
  for (const p of [process.execPath, DRIVER]) if (/\s/.test(p)) fatal(`path with a space cannot be a --command: ${p}`);
  return v;
}

function listScenarios() {
  const r = spawnSync(NODE22, [SUITE, "list", "--client", "--spec-version", SPEC], { encoding: "utf8" });
  if (r.status !== 0) fatal(`listing scenarios failed: ${r.stderr || r.stdout}`);
  return [...r.stdout.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
}

function findFile(dir, name) {
  if (!fs.existsSync(dir)) return null;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const found = findFile(p, name);
      if (found) return found;
    } else if (entry.name === name) return p;
  }
  return null;
}

function runScenario(scenario, siteUrl) {
  const dir = path.join(OUT, scenario.replace(/[^A-Za-z0-9._-]/g, "_"));
  fs.mkdirSync(dir, { recursive: true });
  const args = [
    SUITE,
    "client",
    "--command",
    `${process.execPath} ${DRIVER}`,
    "--scenario",
    scenario,
    "--timeout",
    String(TIMEOUT_MS),
    "-o",
    dir,
  ];
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(NODE22, args, {
      env: { ...process.env, MCP_WORKER_SITE_URL: siteUrl, FORCE_COLOR: "0", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let log = "";
    child.stdout.on("data", (d) => (log += d));
    child.stderr.on("data", (d) => (log += d));
    child.on("close", (code) => {
      fs.writeFileSync(path.join(dir, "suite.log"), log);
      resolve(summarize(scenario, dir, code, log, Date.now() - started));
    });
  });
}

const strip = (s) => s.replace(/\x1b\[[0-9;]*m/g, "");

function summarize(scenario, dir, code, log, ms) {
  const checksFile = findFile(dir, "checks.json");
  const checks = checksFile ? JSON.parse(fs.readFileSync(checksFile, "utf8")) : [];
  const stdoutFile = findFile(dir, "stdout.txt");
  const driverOut = stdoutFile ? fs.readFileSync(stdoutFile, "utf8") : "";
  const driverLine = driverOut.match(/DRIVER RESULT: (.*)/)?.[1] ?? null;
  const count = (s) => checks.filter((c) => c.status === s).length;
  const failures = checks.filter((c) => c.status === "FAILURE");
  const warnings = checks.filter((c) => c.status === "WARNING");
  const timedOut = /CLIENT TIMED OUT/.test(log);
  const pass = code === 0;
  let reason = "";
  if (!pass) {
    const first = failures[0] ?? warnings[0];
    if (first) {
      const more = failures.length + warnings.length - 1;
      reason = `${first.status === "WARNING" ? "warning " : ""}${first.id}: ${first.errorMessage || first.details?.message || first.description}`;
      if (more > 0) reason += ` (+${more} more)`;
    } else if (timedOut) reason = `client timed out after ${TIMEOUT_MS}ms`;
    else if (driverLine && driverLine !== "PASS") reason = `driver: ${driverLine}`;
    else reason = `suite exited ${code}`;
    if (driverLine && driverLine !== "PASS" && !reason.startsWith("driver:")) reason += ` | driver: ${driverLine.replace(/^FAIL /, "")}`;
  }
  const category = pass ? "pass" : timedOut ? "timeout" : "fail";
  return {
    scenario,
    pass,
    category,
    reason: strip(reason).replace(/\s+/g, " ").trim(),
    checks: { success: count("SUCCESS"), failure: count("FAILURE"), warning: count("WARNING") },
    driver: driverLine,
    ms,
    dir,
  };
}

function table(rows) {
  const head = ["scenario", "result", "checks ok/fail/warn", "time", "reason"];
  const body = rows.map((r) => [
    r.scenario,
    r.pass ? "PASS" : `FAIL (${r.category})`,
    `${r.checks.success}/${r.checks.failure}/${r.checks.warning}`,
    `${(r.ms / 1000).toFixed(1)}s`,
    r.reason.length > 160 ? r.reason.slice(0, 157) + "..." : r.reason,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) => "| " + cells.map((c, i) => c.padEnd(widths[i])).join(" | ") + " |";
  return [line(head), "|" + widths.map((w) => "-".repeat(w + 2)).join("|") + "|", ...body.map(line)].join("\n");
}

async function main() {
  const nodeVersion = checkTools();
  const all = listScenarios();
  const wanted = process.argv.slice(2);
  for (const w of wanted) if (!all.includes(w)) fatal(`unknown scenario ${w} (spec ${SPEC}: ${all.join(", ")})`);
  const scenarios = wanted.length ? all.filter((s) => wanted.includes(s)) : all;

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
  console.log(`suite ${SUITE} (node ${nodeVersion}), spec ${SPEC}: ${scenarios.length} client scenarios; results in ${OUT}`);

  const started = Date.now();
  const rows = [];
  try {
    for (const s of scenarios) {
      const r = await runScenario(s, siteUrl);
      console.log(`${r.pass ? "PASS" : "FAIL"} ${s} (${(r.ms / 1000).toFixed(1)}s)${r.pass ? "" : ": " + r.reason}`);
      rows.push(r);
    }
  } finally {
    await site?.close();
  }
  const total = Date.now() - started;

  console.log("\n" + table(rows));
  const passed = rows.filter((r) => r.pass).length;
  const unexpected = rows.filter((r) => !r.pass);
  console.log(`\nTotal time ${(total / 1000).toFixed(1)}s. Per-scenario logs: <dir>/suite.log, <dir>/*/stdout.txt (driver), stderr.txt (page + HTTP log), checks.json.`);
  console.log(`conformance: ${passed} passed, ${rows.length - passed} failed`);
  fs.writeFileSync(path.join(OUT, "summary.json"), JSON.stringify({ spec: SPEC, totalMs: total, rows }, null, 2));
  fs.writeFileSync(path.join(OUT, "summary.md"), table(rows) + "\n");
  process.exit(unexpected.length ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
