//! Shared helpers of the browser tests: where the bundles and fixtures are served, and how to start them.

#![cfg(target_arch = "wasm32")]

use mcp_worker_client::sandbox::Isolation;
use mcp_worker_client::worker::WorkerSpec;
use mcp_worker_client::{McpClient, Result};
use serde_json::Value;

/// The echo server's worker script, as the test runner serves it (from this package's directory).
pub const ECHO_URL: &str = "/bundles/echo/bootstrap.js";

/// The echo server's wasm.
pub const ECHO_WASM_URL: &str = "/bundles/echo/server_bg.wasm";

/// A hand-written JavaScript MCP server that can misbehave on purpose (see fixtures/js-server.js).
pub const JS_SERVER_URL: &str = "/fixtures/js-server.js";

/// A server on the page's origin. The test runner's server sends no CORS headers, so the browser tests that are
/// not about the sandbox run servers on the page's origin; the sandbox is tested end to end through the site
/// (`tests/e2e/containment.test.mjs`), whose server sends them.
pub fn page_spec(name: &str, url: &str) -> WorkerSpec {
    WorkerSpec::new(name, url).isolation(Isolation::PageOrigin)
}

/// A wasm server config on the page's origin (see [`page_spec`]).
pub fn wasm_config(name: impl Into<String>, url: impl Into<String>) -> mcp_worker_runtime::config::ServerConfig {
    mcp_worker_runtime::config::ServerConfig::wasm(name, url).isolation(Isolation::PageOrigin)
}

/// Starts the echo server with default options.
pub async fn spawn_echo() -> Result<McpClient> {
    McpClient::spawn(page_spec("echo", ECHO_URL)).await
}

/// Starts the JavaScript fixture server with a fault mode (`""` for none).
pub async fn spawn_js_server(fault: &str, request_timeout_ms: u32) -> Result<McpClient> {
    let spec = page_spec("js-fixture", JS_SERVER_URL).env("FAULT", fault).request_timeout_ms(request_timeout_ms);
    McpClient::spawn(spec).await
}

/// `{"text": text}` as tool arguments.
pub fn text_args(text: &str) -> Option<serde_json::Map<String, Value>> {
    let mut map = serde_json::Map::new();
    map.insert("text".into(), Value::String(text.into()));
    Some(map)
}

/// Milliseconds since the page started.
pub fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// What to do when a bundled JS fixture is missing.
pub const FIXTURES_BUNDLE_HINT: &str = "bundle the fixtures first: node_modules/.bin/esbuild tests/fixtures/src/*.mjs \
                                        --bundle --format=esm --platform=browser --outdir=tests/fixtures/dist \
                                        (cargo xtask test does it)";

/// Imports a bundled fixture module at run time, calls its `export(workerUrl)` and returns the JSON report it
/// resolves with. A module that fails to load or run fails the test with the reason and the bundling hint.
pub async fn run_fixture_module(module_url: &str, export: &str, worker_url: &str) -> Value {
    use wasm_bindgen::{JsCast, JsValue};
    let run = js_sys::Function::new_with_args(
        "moduleUrl, name, workerUrl",
        "return import(moduleUrl).then((m) => m[name](workerUrl)).then((report) => JSON.stringify(report));",
    );
    let promise = run
        .call3(&JsValue::NULL, &module_url.into(), &export.into(), &worker_url.into())
        .ok()
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok());
    let Some(promise) = promise else { panic!("cannot import {module_url}\n{FIXTURES_BUNDLE_HINT}") };
    let report = wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .unwrap_or_else(|e| panic!("{module_url} {export}() failed: {e:?}\n{FIXTURES_BUNDLE_HINT}"));
    let text = report.as_string().unwrap_or_default();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{export}() reported no JSON ({e}): {text}"))
}

#[wasm_bindgen::prelude::wasm_bindgen(inline_js = "
const Original = globalThis.Worker;
let urls = [];
export function recordWorkerUrls() {
  urls = [];
  globalThis.Worker = class extends Original {
    constructor(url, options) { super(url, options); urls.push(String(url)); }
  };
}
export function recordedWorkerUrls() {
  globalThis.Worker = Original;
  return urls;
}")]
extern "C" {
    #[wasm_bindgen(js_name = recordWorkerUrls)]
    fn record_worker_urls_js();
    #[wasm_bindgen(js_name = recordedWorkerUrls)]
    fn recorded_worker_urls_js() -> Vec<String>;
}

/// Records the script URL of every worker the page starts from now on, until [`recorded_worker_urls`].
pub fn record_worker_urls() {
    record_worker_urls_js();
}

/// The script URLs of the workers started since [`record_worker_urls`], in order; stops recording.
pub fn recorded_worker_urls() -> Vec<String> {
    recorded_worker_urls_js()
}

#[wasm_bindgen::prelude::wasm_bindgen(inline_js = "
export function forgetPageFetches() { performance.clearResourceTimings(); }
export function pageFetches(url) {
  const name = new URL(url, location.href).href;
  return performance.getEntriesByType('resource').filter((entry) => entry.name === name).length;
}")]
extern "C" {
    #[wasm_bindgen(js_name = forgetPageFetches)]
    fn forget_page_fetches_js();
    #[wasm_bindgen(js_name = pageFetches)]
    fn page_fetches_js(url: &str) -> u32;
}

/// Forgets what the page has fetched so far (its resource timings).
pub fn forget_page_fetches() {
    forget_page_fetches_js();
}

/// How many times the page itself fetched `url` since [`forget_page_fetches`] (workers' fetches are their own).
pub fn page_fetches(url: &str) -> u32 {
    page_fetches_js(url)
}
