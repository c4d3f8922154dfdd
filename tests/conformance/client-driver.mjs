#!/usr/bin/env node
// The client command the MCP conformance suite starts for each client scenario:
//
//   conformance client --command "node tests/conformance/client-driver.mjs" --scenario <name>
//
// The suite appends the scenario server's URL as the last argument and sets MCP_CONFORMANCE_SCENARIO (and, for some
// auth scenarios, MCP_CONFORMANCE_CONTEXT, a JSON object). This driver opens headless Chromium on a blank page of
// the built site, loads the host package (/pkg/host/mcp_worker_host.js), creates a McpRuntime, adds the server as a
// remote (`type: "http"`) server, connects, lists its tools and makes the tool calls the scenario expects (PLANS
// below), then prints what it did and exits 0 (everything the plan asked for worked) or 1.
//
// Environment:
//   MCP_WORKER_SITE_URL     the served site (e.g. http://127.0.0.1:8080/); or
//   MCP_WORKER_SITE_DIR     a site directory to serve itself when no URL is given
//   CHROMIUM_PATH           default /usr/bin/chromium
//   PLAYWRIGHT_CORE         default /work/main/node_modules/playwright-core/index.mjs (or the one beside this repo)
//   MCP_DRIVER_TIMEOUT_MS   the driver's own deadline (default 25000, under the suite's 30000)
//   MCP_DRIVER_ELICITATION  override the plan's elicitation answer: accept-empty | accept-defaults | decline | cancel
//   MCP_DRIVER_CORS         how the page may reach the suite's servers, which send no CORS headers:
//                           "disable-web-security" (default: Chromium skips CORS, requests go to the server as they
//                           are) or "enforce" (normal browser CORS: every scenario then fails at the first request)
//   MCP_DRIVER_NETLOG       "0" to not log the page's HTTP exchanges to stderr (default: logged)

import path from "node:path";
import fs from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { CHROMIUM, CHROMIUM_ARGS as TEST_CHROMIUM_ARGS } from "../support/chromium.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "../..");

// What each scenario expects the client to do, beyond connecting (initialize + notifications/initialized) and
// listing tools. Matched in order; the first match wins.
//   calls:        tools to call, by the server's own tool name, with their arguments (each must be listed)
//   expectText:   a substring the call's text result must contain
//   elicitation:  how to answer `elicitation/create` (omitted: the capability is not declared)
//   echoSchema:   calls `via` with `{ schema }`, the inputSchema the host listed for `tool` (what it preserved)
const PLANS = [
  { match: "initialize", calls: [] },
  { match: "tools_call", calls: [{ tool: "add_numbers", args: { a: 5, b: 3 }, expectText: "8" }] },
  {
    // SEP-1034: the client answers with empty content; the client (the host) must fill in the schema's defaults.
    match: "elicitation-sep1034-client-defaults",
    elicitation: "accept-empty",
    calls: [{ tool: "test_client_elicitation_defaults", args: {} }],
  },
  // SEP-1699: the server closes the call's SSE stream after a priming event (id + retry: 500); the result comes on
  // the GET that resumes it.
  { match: "sse-retry", calls: [{ tool: "test_reconnection", args: {}, expectText: "Reconnection test completed" }] },
  { match: /^auth\//, calls: [{ tool: "test-tool", args: {} }] },
  // SEP-1613/SEP-2106: the host keeps every JSON Schema 2020-12 keyword of a tool's inputSchema.
  {
    match: "json-schema-2020-12-preservation",
    echoSchema: { tool: "json_schema_2020_12_tool", via: "json_schema_echo" },
    calls: [],
  },
  // Anything else: connect and list tools.
  { match: /.*/, calls: [] },
];

function planFor(scenario) {
  const found = PLANS.find((p) => (typeof p.match === "string" ? p.match === scenario : p.match.test(scenario)));
  const plan = structuredClone({ ...found, match: String(found.match) });
  if (process.env.MCP_DRIVER_ELICITATION) plan.elicitation = process.env.MCP_DRIVER_ELICITATION;
  return plan;
}

const CORS_MODE = process.env.MCP_DRIVER_CORS || "disable-web-security";
const CHROMIUM_ARGS = [...TEST_CHROMIUM_ARGS, ...(CORS_MODE === "disable-web-security" ? ["--disable-web-security"] : [])];
const DEADLINE_MS = Number(process.env.MCP_DRIVER_TIMEOUT_MS || 25_000);
const NETLOG = process.env.MCP_DRIVER_NETLOG !== "0";

const started = Date.now();
const stamp = () => `+${String(Date.now() - started).padStart(5)}ms`;
const out = (...a) => console.log(stamp(), ...a);
const err = (...a) => console.error(stamp(), ...a);
const short = (s, n = 400) => (s == null ? s : s.length > n ? s.slice(0, n) + `…(${s.length} chars)` : s);

function playwrightCorePath() {
  if (process.env.PLAYWRIGHT_CORE) return process.env.PLAYWRIGHT_CORE;
  for (const p of [
    path.join(REPO, "node_modules/playwright-core/index.mjs"),
    "/work/main/node_modules/playwright-core/index.mjs",
  ]) {
    if (fs.existsSync(p)) return p;
  }
  throw new Error("playwright-core not found: set PLAYWRIGHT_CORE");
}

// The page side: everything runs in the browser, against the public API only. Returns a report; never throws.
async function inPage({ serverUrl, plan }) {
  const t0 = performance.now();
  const steps = [];
  const note = (step, data = {}) => steps.push({ ms: Math.round(performance.now() - t0), step, ...data });
  const errorOf = (e) => ({ name: e?.name, code: e?.code, rpcCode: e?.rpcCode, message: String(e?.message ?? e) });
  const events = [];
  let ok = true;
  let failure = null;
  const fail = (why) => {
    ok = false;
    failure ??= why;
  };

  const defaultsOf = (schema) => {
    const content = {};
    for (const [k, v] of Object.entries(schema?.properties ?? {})) if (v && "default" in v) content[k] = v.default;
    return content;
  };
  const answerElicitation = (mode, params) => {
    switch (mode) {
      case "accept-defaults":
        return { action: "accept", content: defaultsOf(params.requestedSchema) };
      case "decline":
        return { action: "decline" };
      case "cancel":
        return { action: "cancel" };
      default:
        return { action: "accept", content: {} };
    }
  };

  let rt;
  try {
    const host = await import("/pkg/host/mcp_worker_host.js");
    await host.default();
    const options = {
      databaseName: `conf-${Date.now()}-${Math.random().toString(16).slice(2)}`,
      // One failure and the server stays down: no automatic restarts muddying the suite's request log.
      maxConsecutiveFailures: 1,
    };
    if (plan.elicitation) {
      options.elicitation = (request) => {
        const answer = answerElicitation(plan.elicitation, request.params);
        note("elicitation/create answered", { params: request.params, answer });
        return answer;
      };
    }
    if (plan.sampling) {
      options.sampling = {
        autoApprove: true,
        handler: (request) => {
          note("sampling/createMessage answered", { params: request.params });
          return { role: "assistant", content: { type: "text", text: plan.sampling }, model: "conformance-driver" };
        },
      };
    }
    if (plan.roots) options.roots = plan.roots;
    // OAuth: the suite's authorization server approves at once and redirects; the user's part (a popup) is played
    // by the driver, which follows that redirect outside the page and hands back where it leads.
    const context = plan.context ?? {};
    options.oauth = {
      redirectUri: new URL("oauth-callback.html", location.href).href,
      authorize: (url) => window.__authorize(url),
      clientName: "mcp-worker conformance driver",
      // The app's client ID metadata document: the URL the suite's basic-cimd scenario expects (it fetches nothing).
      clientMetadataUrl: "https://conformance-test.local/client-metadata.json",
      ...(context.client_id ? { clientId: context.client_id } : {}),
      ...(context.client_secret ? { clientSecret: context.client_secret } : {}),
    };
    rt = await host.McpRuntime.create(options);
    rt.subscribe((e) => {
      const { id, seq, timestamp, ...rest } = e;
      events.push({ ms: Math.round(performance.now() - t0), ...rest });
    });

    rt.addServer({ name: "srv", type: "http", url: serverUrl, ...(plan.headers ? { headers: plan.headers } : {}) });
    try {
      await rt.connectServer("srv");
      note("connected", { health: rt.server("srv") });
    } catch (e) {
      note("connect failed", { error: errorOf(e), health: rt.server("srv") });
      fail(`connect failed: ${e?.code ?? ""} ${e?.message ?? e}`);
      return { ok, failure, steps, events };
    }

    const listed = rt.listTools(undefined, { server: "srv", includeHidden: true }).tools;
    const tools = listed.map((t) => t.name);
    note("listed tools", { tools });
    if (plan.echoSchema) {
      const focal = listed.find((t) => t.name === `mcp__srv__${plan.echoSchema.tool}`);
      if (focal) plan.calls = [{ tool: plan.echoSchema.via, args: { schema: focal.inputSchema } }];
      else fail(`tool ${plan.echoSchema.tool} not listed`);
    }

    for (const call of plan.calls ?? []) {
      const registryName = `mcp__srv__${call.tool}`;
      if (!tools.includes(registryName)) {
        note("tool not listed", { tool: call.tool });
        fail(`tool ${call.tool} not listed (listed: ${tools.join(", ") || "none"})`);
        continue;
      }
      try {
        const progress = [];
        const result = await rt.callTool("srv", call.tool, call.args ?? {}, { onProgress: (p) => progress.push(p) });
        note(`called ${call.tool}`, { args: call.args, result, progress });
        const text = (result.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
        if (result.isError) fail(`${call.tool} returned isError: ${text}`);
        else if (call.expectText && !text.includes(call.expectText))
          fail(`${call.tool} answered ${JSON.stringify(text)}, expected it to contain ${JSON.stringify(call.expectText)}`);
      } catch (e) {
        note(`call ${call.tool} failed`, { error: errorOf(e), health: rt.server("srv") });
        fail(`call ${call.tool} failed: ${e?.code ?? ""} ${e?.message ?? e}`);
      }
    }
    note("final health", { health: rt.server("srv"), pending: rt.pendingRequests() });
  } catch (e) {
    note("driver error", { error: errorOf(e) });
    fail(`driver error: ${e?.code ?? ""} ${e?.message ?? e}`);
  } finally {
    try {
      rt?.close();
    } catch {}
  }
  return { ok, failure, steps, events };
}

async function main() {
  const serverUrl = process.argv[process.argv.length - 1];
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO || "";
  if (!serverUrl || !/^https?:\/\//.test(serverUrl)) {
    console.error("usage: MCP_CONFORMANCE_SCENARIO=<name> node client-driver.mjs <server-url>");
    return 2;
  }
  const plan = planFor(scenario);
  out(`scenario ${JSON.stringify(scenario)} server ${serverUrl}`);
  out(`plan ${JSON.stringify(plan)}`);
  if (process.env.MCP_CONFORMANCE_CONTEXT) out(`context ${process.env.MCP_CONFORMANCE_CONTEXT}`);

  let siteUrl = process.env.MCP_WORKER_SITE_URL;
  let site;
  if (!siteUrl) {
    if (!process.env.MCP_WORKER_SITE_DIR) {
      console.error("set MCP_WORKER_SITE_URL (a served site) or MCP_WORKER_SITE_DIR (a site directory)");
      return 2;
    }
    const { startStaticServer } = await import("./static-server.mjs");
    site = await startStaticServer(process.env.MCP_WORKER_SITE_DIR);
    siteUrl = site.url;
  }

  const { chromium } = await import(pathToFileURL(playwrightCorePath()).href);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  let timer;
  const deadline = new Promise((resolve) => {
    timer = setTimeout(() => resolve({ timedOut: true }), DEADLINE_MS);
  });
  let report;
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.on("console", (m) => err(`[console.${m.type()}] ${short(m.text(), 2000)}`));
    page.on("pageerror", (e) => err(`[page exception] ${e.stack || e}`));
    if (NETLOG) {
      const mine = (u) => !u.startsWith(siteUrl);
      context.on("request", (r) => {
        if (!mine(r.url())) return;
        const h = r.headers();
        const keep = ["accept", "content-type", "mcp-session-id", "mcp-protocol-version", "last-event-id", "authorization", "origin"];
        const hs = keep.filter((k) => h[k] !== undefined).map((k) => `${k}: ${h[k]}`).join("; ");
        err(`[net] -> ${r.method()} ${r.url()} {${hs}} ${short(r.postData() ?? "", 600)}`);
      });
      context.on("response", async (r) => {
        if (!mine(r.url())) return;
        const h = await r.allHeaders().catch(() => ({}));
        const keep = ["content-type", "mcp-session-id", "www-authenticate", "access-control-allow-origin"];
        const hs = keep.filter((k) => h[k] !== undefined).map((k) => `${k}: ${h[k]}`).join("; ");
        err(`[net] <- ${r.status()} ${r.request().method()} ${r.url()} {${hs}}`);
      });
      // ERR_ABORTED here is usually the host ending a response body it no longer needs (after reading it).
      context.on("requestfailed", (r) => {
        if (!mine(r.url())) return;
        err(`[net] xx ${r.method()} ${r.url()} ended: ${r.failure()?.errorText}`);
      });
    }
    // The user at the authorization server: follow its redirect, outside the page, and report where it goes.
    await page.exposeFunction("__authorize", async (url) => {
      err(`[oauth] authorize ${url}`);
      const answer = await fetch(url, { redirect: "manual" });
      const location = answer.headers.get("location");
      if (!location) throw new Error(`the authorization endpoint answered ${answer.status} without a redirect`);
      err(`[oauth] redirected to ${location}`);
      return location;
    });
    if (process.env.MCP_CONFORMANCE_CONTEXT) {
      try {
        plan.context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT);
      } catch {
        err("[oauth] MCP_CONFORMANCE_CONTEXT is not JSON");
      }
    }
    const blank = new URL("e2e-blank.html", siteUrl).href;
    const resp = await page.goto(blank);
    if (!resp?.ok()) throw new Error(`blank page did not load from ${blank}: ${resp?.status()}`);
    report = await Promise.race([page.evaluate(inPage, { serverUrl, plan }), deadline]);
  } catch (e) {
    report = { ok: false, failure: `driver error: ${e?.message ?? e}`, steps: [], events: [] };
  } finally {
    clearTimeout(timer);
    await Promise.race([browser.close().catch(() => {}), new Promise((r) => setTimeout(r, 5000))]);
    await site?.close();
  }

  if (report.timedOut) {
    out(`DRIVER RESULT: FAIL driver deadline of ${DEADLINE_MS}ms passed (the page had not finished)`);
    return 1;
  }
  for (const s of report.steps) out(`[step +${s.ms}ms] ${s.step} ${short(JSON.stringify({ ...s, ms: undefined, step: undefined }), 1500)}`);
  for (const e of report.events) out(`[event +${e.ms}ms] ${e.type} ${short(JSON.stringify({ ...e, ms: undefined, type: undefined }), 600)}`);
  out(`DRIVER RESULT: ${report.ok ? "PASS" : "FAIL " + report.failure}`);
  return report.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error("driver crashed:", e);
    process.exit(1);
  },
);
