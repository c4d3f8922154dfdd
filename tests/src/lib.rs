//! Shared helpers of the browser tests: where the bundles and fixtures are served, and how to start them.

#![cfg(target_arch = "wasm32")]

use mcp_worker_host::worker::WorkerSpec;
use mcp_worker_host::{McpClient, Result};
use serde_json::Value;

/// The echo server's worker script, as the test runner serves it (from this package's directory).
pub const ECHO_URL: &str = "/bundles/echo/bootstrap.js";

/// The echo server's wasm.
pub const ECHO_WASM_URL: &str = "/bundles/echo/server_bg.wasm";

/// A hand-written JavaScript MCP server that can misbehave on purpose (see fixtures/js-server.js).
pub const JS_SERVER_URL: &str = "/fixtures/js-server.js";

/// Starts the echo server with default options.
pub async fn spawn_echo() -> Result<McpClient> {
    McpClient::spawn(WorkerSpec::new("echo", ECHO_URL)).await
}

/// Starts the JavaScript fixture server with a fault mode (`""` for none).
pub async fn spawn_js_server(fault: &str, request_timeout_ms: u32) -> Result<McpClient> {
    let spec = WorkerSpec::new("js-fixture", JS_SERVER_URL).env("FAULT", fault).request_timeout_ms(request_timeout_ms);
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
