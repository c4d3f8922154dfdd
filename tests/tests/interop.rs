//! Interoperability with the official TypeScript SDK (v1), both ways, over the wire protocol of
//! docs/wire-protocol.md:
//! - our host drives a TS SDK `McpServer` in a worker (fixtures/src/ts-sdk-server.mjs);
//! - the TS SDK `Client` on the page drives our echo server's bundle (fixtures/src/ts-sdk-client.mjs).
//!
//! The fixtures are bundled by esbuild into fixtures/dist/ (`cargo xtask test` does it before these tests).
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use futures_util::future::join_all;
use mcp_worker_client::worker::WorkerSpec;
use mcp_worker_client::{CallOptions, Error, McpClient};
use mcp_worker_protocol::notifications::ProgressParams;
use mcp_worker_protocol::{CallToolResult, ContentBlock};
use mcp_worker_tests::{ECHO_URL, FIXTURES_BUNDLE_HINT, now_ms, run_fixture_module};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The TS SDK server's worker script, bundled.
const TS_SERVER_URL: &str = "/fixtures/dist/ts-sdk-server.js";

/// The module exporting `runClientAgainst(workerUrl)`, bundled.
const TS_CLIENT_URL: &str = "/fixtures/dist/ts-sdk-client.js";

async fn spawn_ts_server(spec: WorkerSpec) -> McpClient {
    McpClient::spawn(spec).await.unwrap_or_else(|e| panic!("the TS SDK server starts: {e}\n{FIXTURES_BUNDLE_HINT}"))
}

fn args(value: Value) -> Option<serde_json::Map<String, Value>> {
    value.as_object().cloned()
}

async fn call_with_options(
    client: &McpClient,
    name: &str,
    arguments: Value,
    options: CallOptions,
) -> Result<Value, Error> {
    let arguments = serde_json::value::to_raw_value(&arguments).unwrap();
    let raw = client.call_tool_raw(name, Some(&arguments), options).await?;
    Ok(serde_json::from_str(raw.get()).unwrap())
}

/// What the fixture's `stats` tool reports: `{cancelled: [requestId…], errors: [message…]}`.
async fn stats(client: &McpClient) -> Value {
    let result = client.call_tool("stats", None).await.unwrap();
    serde_json::from_str(&result.joined_text()).unwrap()
}

// ---- A. The TS SDK's McpServer in a worker, driven by our host ----

#[wasm_bindgen_test]
async fn a_ts_sdk_server_initializes_with_our_host() {
    let client = spawn_ts_server(mcp_worker_tests::page_spec("ts-sdk", TS_SERVER_URL)).await;
    let info = client.server_info();
    assert_eq!(info.server_info.name, "ts-sdk-fixture");
    assert_eq!(info.server_info.version, "1.0.0");
    assert_eq!(info.protocol_version, "2025-11-25", "the TS SDK accepts our version");
    assert!(info.capabilities.tools.is_some(), "{:?}", info.capabilities);
    client.ping().await.expect("ping");
    client.list_tools().await.expect("tools/list");
    // Nothing the host sent (initialize, notifications/initialized, ping, tools/list) upset the SDK.
    let stats = stats(&client).await;
    assert_eq!(stats["errors"], json!([]), "{stats}");
    client.close();
}

#[wasm_bindgen_test]
async fn a_ts_sdk_servers_tools_are_listed_with_their_zod_schemas() {
    let client = spawn_ts_server(mcp_worker_tests::page_spec("ts-sdk", TS_SERVER_URL)).await;
    let tools = client.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["greet", "sum", "slow", "stats"]);

    let greet = &tools[0];
    assert_eq!(greet.description.as_deref(), Some("Greets someone by name"));
    let schema = greet.input_schema.to_value();
    assert_eq!(schema["type"], json!("object"), "{schema}");
    assert_eq!(schema["properties"]["name"]["type"], json!("string"), "{schema}");
    assert_eq!(schema["properties"]["name"]["description"], json!("Who to greet"), "{schema}");
    assert_eq!(schema["required"], json!(["name"]), "{schema}");

    let sum = &tools[1];
    let input = sum.input_schema.to_value();
    assert_eq!(input["properties"]["a"]["type"], json!("number"), "{input}");
    assert_eq!(input["required"], json!(["a", "b"]), "{input}");
    let output = sum.output_schema.as_ref().expect("sum has an outputSchema").to_value();
    assert_eq!(output["properties"]["sum"]["type"], json!("number"), "{output}");
    assert_eq!(sum.annotations.as_ref().and_then(|a| a.read_only_hint), Some(true));

    // A tool registered without an input schema still gets an object schema, as MCP requires.
    assert_eq!(tools[3].input_schema.to_value()["type"], json!("object"));
    client.close();
}

#[wasm_bindgen_test]
async fn a_ts_sdk_servers_tools_return_text_and_structured_content() {
    let client = spawn_ts_server(mcp_worker_tests::page_spec("ts-sdk", TS_SERVER_URL)).await;
    let greet = client.call_tool("greet", args(json!({"name": "Ada"}))).await.unwrap();
    assert_eq!(greet.content, vec![ContentBlock::text("Hello, Ada!")]);
    assert!(!greet.is_error());

    let sum = client.call_tool("sum", args(json!({"a": 2, "b": 40.5}))).await.unwrap();
    assert_eq!(sum.joined_text(), "42.5");
    assert_eq!(sum.structured_content, Some(json!({"sum": 42.5})));
    assert!(!sum.is_error());
    client.close();
}

#[wasm_bindgen_test]
async fn the_env_of_the_connect_message_reaches_a_ts_sdk_server() {
    let client = spawn_ts_server(mcp_worker_tests::page_spec("ts-sdk", TS_SERVER_URL).env("GREETING", "Bonjour")).await;
    let greet = client.call_tool("greet", args(json!({"name": "Ada"}))).await.unwrap();
    assert_eq!(greet.joined_text(), "Bonjour, Ada!");
    client.close();
}

#[wasm_bindgen_test]
async fn a_ts_sdk_server_that_posts_objects_instead_of_json_text_is_understood() {
    let client = spawn_ts_server(mcp_worker_tests::page_spec("ts-sdk", TS_SERVER_URL).env("FRAMES", "objects")).await;
    assert_eq!(client.server_info().server_info.name, "ts-sdk-fixture");
    let sum = client.call_tool("sum", args(json!({"a": 1, "b": 2}))).await.unwrap();
    assert_eq!(sum.structured_content, Some(json!({"sum": 3})));
    client.close();
}

#[wasm_bindgen_test]
async fn bad_arguments_and_unknown_tools_are_tool_errors_from_a_ts_sdk_v1_server() {
    let client = spawn_ts_server(mcp_worker_tests::page_spec("ts-sdk", TS_SERVER_URL).request_timeout_ms(5_000)).await;
    let started = now_ms();

    // The v1 McpServer validates with zod and answers with an isError result the model can read.
    let bad: CallToolResult = client.call_tool("sum", args(json!({"a": "two", "b": 1}))).await.unwrap();
    assert!(bad.is_error(), "{bad:?}");
    let text = bad.joined_text();
    // e.g. "MCP error -32602: Input validation error: Invalid arguments for tool sum: Expected number, received
    // string at a"
    assert!(text.contains("Invalid arguments for tool sum"), "{text}");
    assert!(text.contains("Expected number, received string"), "says what is wrong: {text}");

    let missing = client.call_tool("greet", None).await.unwrap();
    assert!(missing.is_error(), "{missing:?}");
    assert!(missing.joined_text().contains("name"), "{}", missing.joined_text());

    // v1 also wraps an unknown tool as an isError result (a v2 server answers JSON-RPC -32602 instead):
    // either way the caller gets an answer, not a hang.
    let unknown = client.call_tool("nope", None).await.unwrap();
    assert!(unknown.is_error(), "{unknown:?}");
    assert!(unknown.joined_text().contains("Tool nope not found"), "{}", unknown.joined_text());

    assert!(now_ms() - started < 5_000.0, "answered promptly");
    // The connection is still healthy afterwards.
    client.ping().await.unwrap();
    client.close();
}

#[wasm_bindgen_test]
async fn progress_from_a_ts_sdk_server_reaches_the_caller() {
    let client = spawn_ts_server(mcp_worker_tests::page_spec("ts-sdk", TS_SERVER_URL)).await;
    // (progress, total, message) of each notification.
    type Seen = Vec<(f64, Option<f64>, Option<String>)>;
    let seen: Rc<RefCell<Seen>> = Rc::default();
    let sink = seen.clone();
    let mut options = CallOptions::default();
    options.on_progress =
        Some(Rc::new(move |p: &ProgressParams| sink.borrow_mut().push((p.progress, p.total, p.message.clone()))));
    let result = call_with_options(&client, "slow", json!({"steps": 3, "ms": 0}), options).await.unwrap();
    assert_eq!(result["content"][0]["text"], json!("done"), "{result}");
    let seen = seen.borrow();
    assert_eq!(
        *seen,
        [
            (1.0, Some(3.0), Some("step 1".to_owned())),
            (2.0, Some(3.0), Some("step 2".to_owned())),
            (3.0, Some(3.0), Some("step 3".to_owned()))
        ]
    );
    client.close();
}

#[wasm_bindgen_test]
async fn a_timed_out_call_is_cancelled_inside_a_ts_sdk_server() {
    let client = spawn_ts_server(mcp_worker_tests::page_spec("ts-sdk", TS_SERVER_URL)).await;
    let mut options = CallOptions::default();
    options.timeout_ms = Some(300);
    let started = now_ms();
    let err = call_with_options(&client, "slow", json!({"steps": 0, "ms": 60_000}), options).await.unwrap_err();
    assert!(matches!(err, Error::Timeout { ms: 300, .. }), "{err}");
    assert!(now_ms() - started < 2_000.0);

    // The host sent notifications/cancelled; the SDK aborted the handler's signal, which the tool recorded.
    let stats = stats(&client).await;
    assert_eq!(stats["cancelled"].as_array().map(Vec::len), Some(1), "{stats}");
    assert_eq!(stats["errors"], json!([]), "{stats}");
    client.close();
}

#[wasm_bindgen_test]
async fn concurrent_calls_to_a_ts_sdk_server_each_get_their_own_answer() {
    let client = spawn_ts_server(mcp_worker_tests::page_spec("ts-sdk", TS_SERVER_URL)).await;
    let calls = (0..200).map(|i| {
        let client = &client;
        async move { (i, client.call_tool("greet", args(json!({"name": format!("n{i}")}))).await) }
    });
    for (i, answer) in join_all(calls).await {
        assert_eq!(answer.unwrap().joined_text(), format!("Hello, n{i}!"));
    }
    assert_eq!(client.connection().pending_count(), 0);
    client.close();
}

// ---- B. The TS SDK's Client on the page, talking to our echo server ----

/// Runs the bundled client module's `runClientAgainst(worker_url)`; returns its report.
async fn run_ts_client(worker_url: &str) -> Value {
    run_fixture_module(TS_CLIENT_URL, "runClientAgainst", worker_url).await
}

/// The value of a step that must have succeeded.
fn ok<'a>(report: &'a Value, step: &str) -> &'a Value {
    assert_eq!(report[step]["ok"], json!(true), "step {step} failed: {}\nreport: {report:#}", report[step]);
    &report[step]["value"]
}

#[wasm_bindgen_test]
async fn the_ts_sdk_client_talks_to_our_echo_server() {
    let report = run_ts_client(ECHO_URL).await;
    assert_eq!(report["boot"]["ok"], json!(true), "{report:#}");
    ok(&report, "connect");
    assert_eq!(report["protocolVersion"], json!("2025-11-25"), "{report:#}");
    assert_eq!(report["serverVersion"]["name"], json!("echo"), "{report:#}");
    assert!(report["serverCapabilities"]["tools"].is_object(), "{report:#}");

    let tools = ok(&report, "listTools")["tools"].as_array().expect("tools");
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(names, ["echo", "add", "blob"]);

    let echo = ok(&report, "echo");
    assert_eq!(echo["content"], json!([{"type": "text", "text": "hi"}]), "{echo}");
    assert_ne!(echo["isError"], json!(true));

    // Our `add` declares no outputSchema, so the SDK passes structuredContent through unvalidated.
    let add = ok(&report, "add");
    // (JSON.stringify writes 42.0 as 42.)
    assert_eq!(add["structuredContent"]["sum"].as_f64(), Some(42.0), "{add}");

    let blob = ok(&report, "blob");
    assert_eq!(blob["length"], json!(1000), "{blob}");
    assert_ne!(blob["isError"], json!(true), "{blob}");

    let bad = ok(&report, "badArguments");
    assert_eq!(bad["isError"], json!(true), "{bad}");
    assert!(
        bad["content"][0]["text"].as_str().unwrap_or_default().contains("Invalid arguments for tool add: /a: "),
        "{bad}"
    );

    ok(&report, "ping");

    // Our server answers an unknown tool with JSON-RPC -32602, which the SDK throws as an McpError.
    let unknown = &report["unknownTool"];
    assert_eq!(unknown["ok"], json!(false), "{report:#}");
    assert_eq!(unknown["error"]["code"], json!(-32602), "{unknown}");
    assert_eq!(unknown["error"]["name"], json!("McpError"), "{unknown}");

    assert_eq!(report["frameTypes"], json!(["string"]), "our server sends JSON text: {report:#}");
    assert_eq!(report["transportErrors"], json!([]), "{report:#}");
    assert_eq!(report["fatal"], json!([]), "{report:#}");
}
