// What the two runners share: run.mjs (client scenarios, the host as the client) and run-server.mjs (server
// scenarios, the everything server as the server). Where the suite and the Node >= 22 it needs are, listing a spec
// version's scenarios, running the suite, reading its checks, and the result table and summary files.
//
// Environment (defaults in brackets):
//   MCP_CONFORMANCE_NODE   a Node >= 22 binary for the suite [tests/conformance/node_modules/node/bin/node]
//   MCP_CONFORMANCE_SUITE  the suite's CLI [tests/conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js]
// (both installed by `cargo xtask setup` from tests/conformance/package.json)
//   MCP_CONFORMANCE_SPEC   the spec version whose scenarios run [2025-11-25]
//   MCP_CONFORMANCE_OUT    where results go [/tmp/mcp-conformance-results/<time>]

import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const HERE = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(HERE, "../..");
export const NODE22 = process.env.MCP_CONFORMANCE_NODE || path.join(HERE, "node_modules/node/bin/node");
export const SUITE =
  process.env.MCP_CONFORMANCE_SUITE || path.join(HERE, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
export const SPEC = process.env.MCP_CONFORMANCE_SPEC || "2025-11-25";
export const OUT =
  process.env.MCP_CONFORMANCE_OUT ||
  path.join("/tmp/mcp-conformance-results", new Date().toISOString().replace(/[:.]/g, "-"));

export function fatal(msg) {
  console.error(`${path.basename(process.argv[1])}: ${msg}`);
  process.exit(2);
}

// Checks that the suite and its Node are installed; returns that Node's version.
export function checkSuite() {
  if (!fs.existsSync(NODE22)) fatal(`no Node >= 22 at ${NODE22} (see README.md; or set MCP_CONFORMANCE_NODE)`);
  if (!fs.existsSync(SUITE)) fatal(`no conformance suite at ${SUITE} (see README.md; or set MCP_CONFORMANCE_SUITE)`);
  const v = spawnSync(NODE22, ["--version"], { encoding: "utf8" }).stdout.trim();
  if (!/^v(2[2-9]|[3-9]\d)\./.test(v)) fatal(`${NODE22} is ${v || "not runnable"}; the suite needs Node >= 22`);
  return v;
}

// The scenarios of `SPEC` for `side` ("client" or "server"), narrowed to those named on the command line.
export function scenarios(side) {
  const r = spawnSync(NODE22, [SUITE, "list", `--${side}`, "--spec-version", SPEC], { encoding: "utf8" });
  if (r.status !== 0) fatal(`listing scenarios failed: ${r.stderr || r.stdout}`);
  const all = [...r.stdout.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
  const wanted = process.argv.slice(2);
  for (const w of wanted) if (!all.includes(w)) fatal(`unknown scenario ${w} (spec ${SPEC}: ${all.join(", ")})`);
  return wanted.length ? all.filter((s) => wanted.includes(s)) : all;
}

// A directory of its own under OUT for `scenario`.
export function scenarioDir(scenario) {
  const dir = path.join(OUT, scenario.replace(/[^A-Za-z0-9._-]/g, "_"));
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

// Runs the suite with `args` (killed after `timeoutMs`, if given); resolves to `{ code, log, timedOut }` once it
// exits, with its output also written to `<dir>/suite.log`.
export function runSuite(args, dir, { env = {}, timeoutMs } = {}) {
  return new Promise((resolve) => {
    const child = spawn(NODE22, [SUITE, ...args], {
      env: { ...process.env, ...env, FORCE_COLOR: "0", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let log = "";
    let timedOut = false;
    const timer = timeoutMs && setTimeout(() => ((timedOut = true), child.kill()), timeoutMs);
    child.stdout.on("data", (d) => (log += d));
    child.stderr.on("data", (d) => (log += d));
    child.on("close", (code) => {
      clearTimeout(timer);
      fs.writeFileSync(path.join(dir, "suite.log"), log);
      resolve({ code, log, timedOut });
    });
  });
}

export function findFile(dir, name) {
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

// The checks the suite wrote under `dir`, counted, with the first failure (else warning) as a one-line reason.
export function readChecks(dir) {
  const file = findFile(dir, "checks.json");
  const checks = file ? JSON.parse(fs.readFileSync(file, "utf8")) : [];
  const count = (s) => checks.filter((c) => c.status === s).length;
  const bad = [...checks.filter((c) => c.status === "FAILURE"), ...checks.filter((c) => c.status === "WARNING")];
  let reason = "";
  if (bad.length) {
    const first = bad[0];
    reason = `${first.status === "WARNING" ? "warning " : ""}${first.id}: ${first.errorMessage || first.details?.message || first.description}`;
    if (bad.length > 1) reason += ` (+${bad.length - 1} more)`;
  }
  return {
    found: file !== null,
    counts: { success: count("SUCCESS"), failure: count("FAILURE"), warning: count("WARNING") },
    reason,
  };
}

export const oneLine = (s) => s.replace(/\x1b\[[0-9;]*m/g, "").replace(/\s+/g, " ").trim();

export function table(rows) {
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

// Prints the table and the totals, writes `summary.json` and `summary.md` under OUT; returns how many failed.
export function report(rows, totalMs, { side, logs }) {
  console.log("\n" + table(rows));
  const failed = rows.filter((r) => !r.pass).length;
  console.log(`\nTotal time ${(totalMs / 1000).toFixed(1)}s. ${logs}`);
  console.log(`conformance (${side} scenarios): ${rows.length - failed} passed, ${failed} failed`);
  fs.writeFileSync(path.join(OUT, "summary.json"), JSON.stringify({ spec: SPEC, side, totalMs, rows }, null, 2));
  fs.writeFileSync(path.join(OUT, "summary.md"), table(rows) + "\n");
  return failed;
}
