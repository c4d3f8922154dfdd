// The bench page: runs the bench on click, or at once with `?auto=1`; numeric settings come from the URL.
import { runBench, renderResults, DEFAULT_CONFIG, QUICK_CONFIG } from "./bench.js";
import { linkToRunner } from "./runner-link.js";

const params = new URLSearchParams(location.search);
const config = { ...(params.get("quick") === "1" ? QUICK_CONFIG : DEFAULT_CONFIG), profile: params.get("profile") === "1" };
// Any numeric setting can be overridden from the URL, e.g. `&seqRounds=1&coldN=20`.
for (const [key, value] of params) {
  if (typeof config[key] === "number" && Number.isFinite(Number(value))) config[key] = Number(value);
}
// A remote MCP server for the Streamable HTTP row (tests/bench/run.mjs starts one).
config.remoteUrl = params.get("remoteUrl");
// Run by tests/bench/run.mjs in a browser with no DevTools client attached: results and marks go to the runner.
const runner = params.get("report") ? linkToRunner(params.get("report")) : null;
const button = document.getElementById("run");
const results = document.getElementById("results");

async function run() {
  button.disabled = true;
  window.__benchResults = undefined;
  let result;
  try {
    result = await runBench(config);
  } catch (error) {
    console.error(error);
    result = { ok: false, error: String((error && error.stack) || error) };
    document.getElementById("status").textContent = "failed";
  }
  renderResults(result, results);
  window.__benchResults = result;
  button.disabled = false;
  await runner?.done(result);
}

button.addEventListener("click", run);
if (params.get("auto") === "1") run();
