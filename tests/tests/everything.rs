//! The everything sample server in a real worker, driven through our host: every content kind, structured output,
//! progress, logging notifications, errors, resources, prompts and completion (as raw requests), requests to the
//! client, cancellation, tools added at run time, credentials, the manifest, and a panic reported as a crash.
//!
//! The frames the server writes are checked against the official MCP schema natively, by the same server in
//! worker-sdk/tests/everything.rs; here the point is that they cross a real worker boundary intact.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use mcp_worker_client::worker::WorkerSpec;
use mcp_worker_client::{CallOptions, Error, McpClient, RequestOptions};
use mcp_worker_protocol::notifications::ProgressParams;
use mcp_worker_protocol::{ContentBlock, Notification, ResourceContents};
use mcp_worker_tests::now_ms;
use serde_json::{Value, json};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The everything server's worker script, as the test runner serves it.
const EVERYTHING_URL: &str = "/bundles/everything/bootstrap.js";

async fn spawn(spec: WorkerSpec) -> McpClient {
    McpClient::spawn(spec)
        .await
        .unwrap_or_else(|e| panic!("the everything server starts: {e} (build the bundles first)"))
}

/// The everything server, spoken to in the handshake era: these tests send that era's raw requests
/// (`logging/setLevel`, `resources/subscribe`) and read its answers (-32002, a tool that hears its client lacks a
/// capability). The modern era is tested natively (worker-sdk/tests/session/modern.rs) and end to end
/// (tests/e2e/modern.test.mjs).
async fn everything() -> McpClient {
    let spec = mcp_worker_tests::page_spec("everything", EVERYTHING_URL).request_timeout_ms(10_000);
    spawn(spec.protocol(mcp_worker_client::Protocol::Handshake)).await
}

fn args(value: Value) -> Option<serde_json::Map<String, Value>> {
    value.as_object().cloned()
}

/// A request the host has no typed method for yet, sent raw.
async fn raw(client: &McpClient, method: &str, params: Value) -> Result<Value, Error> {
    let result = client.connection().request(method, Some(&params), RequestOptions::timeout(10_000)).await?;
    Ok(serde_json::from_str(result.get()).unwrap())
}

/// Every notification other than progress, as (method, params).
fn record_notifications(client: &McpClient) -> Rc<RefCell<Vec<(String, Value)>>> {
    let seen: Rc<RefCell<Vec<(String, Value)>>> = Rc::default();
    let sink = seen.clone();
    client.connection().set_notification_handler(Some(Rc::new(move |n: &Notification| {
        let params = n.params.as_ref().map_or(Value::Null, |p| serde_json::from_str(p.get()).unwrap());
        sink.borrow_mut().push((n.method.clone(), params));
    })));
    seen
}

fn rpc_code(err: &Error) -> Option<i64> {
    match err {
        Error::Rpc { error, .. } => Some(error.code),
        _ => None,
    }
}

#[wasm_bindgen_test]
async fn it_starts_with_every_capability_and_lists_its_tools() {
    let client = everything().await;
    let info = client.server_info();
    assert_eq!(info.server_info.name, "everything");
    let caps = serde_json::to_value(&info.capabilities).unwrap();
    assert_eq!(
        caps,
        json!({"tools": {"listChanged": true}, "logging": {}, "completions": {},
               "resources": {"subscribe": true, "listChanged": true}, "prompts": {"listChanged": true}})
    );
    client.ping().await.unwrap();
    let tools = client.list_tools().await.unwrap();
    for name in ["test_simple_text", "test_tool_with_progress", "test_sampling", "test_elicitation", "crash"] {
        assert!(tools.iter().any(|t| t.name == name), "{name}");
    }
    assert!(tools.iter().all(|t| t.description.as_deref().is_some_and(|d| !d.is_empty())));
    let weather = tools.iter().find(|t| t.name == "structured_weather").unwrap();
    let output = weather.output_schema.as_ref().unwrap().to_value();
    assert_eq!(output["required"], json!(["city", "temperature", "conditions"]), "{output}");
    client.close();
}

#[wasm_bindgen_test]
async fn every_content_kind_arrives_through_the_host() {
    let client = everything().await;
    let text = client.call_tool("test_simple_text", None).await.unwrap();
    assert_eq!(text.content, vec![ContentBlock::text("This is a simple text response for testing.")]);
    let image = client.call_tool("test_image_content", None).await.unwrap();
    assert!(matches!(&image.content[..], [ContentBlock::Image(i)] if i.mime_type == "image/png"), "{image:?}");
    let audio = client.call_tool("test_audio_content", None).await.unwrap();
    assert!(matches!(&audio.content[..], [ContentBlock::Audio(a)] if a.mime_type == "audio/wav"), "{audio:?}");
    let embedded = client.call_tool("test_embedded_resource", None).await.unwrap();
    let [ContentBlock::Resource(resource)] = &embedded.content[..] else { panic!("{embedded:?}") };
    assert!(
        matches!(&resource.resource, ResourceContents::Text { text, .. } if text == "This is an embedded resource content.")
    );
    let link = client.call_tool("resource_link_content", None).await.unwrap();
    assert!(matches!(&link.content[1], ContentBlock::ResourceLink(r) if r.uri == "test://static-text"), "{link:?}");
    let mixed = client.call_tool("test_multiple_content_types", None).await.unwrap();
    assert!(matches!(&mixed.content[..], [ContentBlock::Text(_), ContentBlock::Image(_), ContentBlock::Resource(_)]));
    let weather = client.call_tool("structured_weather", args(json!({"city": "Oslo"}))).await.unwrap();
    assert_eq!(weather.structured_content, Some(json!({"city": "Oslo", "temperature": 21.5, "conditions": "sunny"})));
    client.close();
}

#[wasm_bindgen_test]
async fn errors_are_results_or_rpc_errors_as_the_spec_says() {
    let client = everything().await;
    let failed = client.call_tool("test_error_handling", None).await.unwrap();
    assert!(failed.is_error());
    assert_eq!(failed.joined_text(), "This tool intentionally returns an error for testing");
    let bad = client.call_tool("structured_weather", args(json!({"city": 7}))).await.unwrap();
    assert!(
        bad.is_error() && bad.joined_text().contains("structured_weather: /city: expected string, got number 7"),
        "{bad:?}"
    );
    let unknown = client.call_tool("nope", None).await.unwrap_err();
    assert_eq!(rpc_code(&unknown), Some(-32602), "{unknown}");
    let method = raw(&client, "resources/teleport", json!({})).await.unwrap_err();
    assert_eq!(rpc_code(&method), Some(-32601), "{method}");
    client.ping().await.unwrap();
    client.close();
}

#[wasm_bindgen_test]
async fn progress_and_log_messages_reach_the_caller() {
    let client = everything().await;
    type Seen = Vec<(f64, Option<f64>)>;
    let seen: Rc<RefCell<Seen>> = Rc::default();
    let sink = seen.clone();
    let mut options = CallOptions::default();
    options.on_progress = Some(Rc::new(move |p: &ProgressParams| sink.borrow_mut().push((p.progress, p.total))));
    let result = client.call_tool_raw("test_tool_with_progress", None, options).await.unwrap();
    assert!(result.get().contains("Progress test completed"));
    assert_eq!(*seen.borrow(), [(0.0, Some(100.0)), (50.0, Some(100.0)), (100.0, Some(100.0))]);

    let notifications = record_notifications(&client);
    let logged = client.call_tool("test_tool_with_logging", None).await.unwrap();
    assert_eq!(logged.joined_text(), "Logging test completed");
    let messages: Vec<Value> = notifications
        .borrow()
        .iter()
        .filter(|(m, _)| m == "notifications/message")
        .map(|(_, p)| p["data"].clone())
        .collect();
    assert_eq!(
        messages,
        [json!("Tool execution started"), json!("Tool processing data"), json!("Tool execution completed")]
    );

    // logging/setLevel is honoured.
    assert_eq!(raw(&client, "logging/setLevel", json!({"level": "error"})).await.unwrap(), json!({}));
    notifications.borrow_mut().clear();
    client.call_tool("test_tool_with_logging", None).await.unwrap();
    assert!(notifications.borrow().is_empty(), "{:?}", notifications.borrow());
    client.close();
}

#[wasm_bindgen_test]
async fn resources_are_listed_read_and_watched() {
    let client = everything().await;
    let listed = raw(&client, "resources/list", json!({})).await.unwrap();
    assert_eq!(listed["resources"].as_array().map(Vec::len), Some(3), "{listed}");
    let templates = raw(&client, "resources/templates/list", json!({})).await.unwrap();
    assert_eq!(templates["resourceTemplates"][0]["uriTemplate"], "test://template/{id}/data");
    let text = raw(&client, "resources/read", json!({"uri": "test://static-text"})).await.unwrap();
    assert_eq!(text["contents"][0]["text"], "This is the content of the static text resource.");
    let binary = raw(&client, "resources/read", json!({"uri": "test://static-binary"})).await.unwrap();
    assert_eq!(binary["contents"][0]["mimeType"], "image/png");
    assert!(binary["contents"][0]["blob"].as_str().is_some_and(|b| b.starts_with("iVBOR")));
    let templated = raw(&client, "resources/read", json!({"uri": "test://template/42/data"})).await.unwrap();
    assert!(templated["contents"][0]["text"].as_str().unwrap().contains("Data for ID: 42"));
    let missing = raw(&client, "resources/read", json!({"uri": "test://nowhere"})).await.unwrap_err();
    assert_eq!(rpc_code(&missing), Some(-32002), "{missing}");

    let notifications = record_notifications(&client);
    assert_eq!(
        raw(&client, "resources/subscribe", json!({"uri": "test://watched-resource"})).await.unwrap(),
        json!({})
    );
    client.call_tool("update_watched_resource", None).await.unwrap();
    assert_eq!(
        *notifications.borrow(),
        [("notifications/resources/updated".to_owned(), json!({"uri": "test://watched-resource"}))]
    );
    raw(&client, "resources/unsubscribe", json!({"uri": "test://watched-resource"})).await.unwrap();
    let after = client.call_tool("update_watched_resource", None).await.unwrap();
    assert_eq!(after.joined_text(), "version 2; subscribers notified: false");
    assert_eq!(notifications.borrow().len(), 1);
    client.close();
}

#[wasm_bindgen_test]
async fn prompts_and_completion_answer_raw_requests() {
    let client = everything().await;
    let listed = raw(&client, "prompts/list", json!({})).await.unwrap();
    assert_eq!(listed["prompts"].as_array().map(Vec::len), Some(5));
    let got = raw(&client, "prompts/get", json!({"name": "test_prompt_with_arguments", "arguments": {"arg1": "a"}}))
        .await
        .unwrap();
    assert_eq!(got["messages"][0]["content"]["text"], "Prompt with arguments: arg1='a', arg2=''");
    let image = raw(&client, "prompts/get", json!({"name": "test_prompt_with_image"})).await.unwrap();
    assert_eq!(image["messages"][1]["content"]["type"], "image");
    let missing = raw(&client, "prompts/get", json!({"name": "test_prompt_with_arguments"})).await.unwrap_err();
    assert_eq!(rpc_code(&missing), Some(-32602), "{missing}");
    let completed = raw(
        &client,
        "completion/complete",
        json!({"ref": {"type": "ref/prompt", "name": "test_prompt_with_arguments"}, "argument": {"name": "arg1", "value": "pa"}}),
    )
    .await
    .unwrap();
    assert_eq!(completed["completion"]["values"], json!(["paris", "park", "party"]));
    client.close();
}

#[wasm_bindgen_test]
async fn requests_to_a_client_without_the_capability_fail_clearly_in_the_tool() {
    // Our host declares no sampling or elicitation, so the server does not even ask: the tool says why.
    // (tests/tests/interop_everything.rs has a client that answers them.)
    let client = everything().await;
    let sampled = client.call_tool("test_sampling", args(json!({"prompt": "hi"}))).await.unwrap();
    assert!(sampled.is_error());
    assert!(sampled.joined_text().contains("did not declare the `sampling` capability"), "{}", sampled.joined_text());
    let elicited = client.call_tool("test_elicitation", args(json!({"message": "Who?"}))).await.unwrap();
    assert!(elicited.is_error());
    assert!(elicited.joined_text().contains("`elicitation.form` capability"), "{}", elicited.joined_text());
    let roots = client.call_tool("list_roots", None).await.unwrap();
    assert!(roots.is_error() && roots.joined_text().contains("`roots`"), "{}", roots.joined_text());
    client.close();
}

#[wasm_bindgen_test]
async fn a_timed_out_call_is_cancelled_in_the_server() {
    let client = everything().await;
    let mut options = CallOptions::default();
    options.timeout_ms = Some(300);
    let slow = serde_json::value::to_raw_value(&json!({"steps": 100, "step_ms": 100})).unwrap();
    let err = client.call_tool_raw("slow_operation", Some(&slow), options).await.unwrap_err();
    assert!(matches!(err, Error::Timeout { ms: 300, .. }), "{err}");
    let stats = client.call_tool("slow_operation_stats", None).await.unwrap();
    assert_eq!(stats.structured_content, Some(json!({"started": 1, "completed": 0, "cancelled": 1})));
    client.close();
}

#[wasm_bindgen_test]
async fn tools_added_at_run_time_are_announced_and_callable() {
    let client = everything().await;
    let listed = async || client.list_tools().await.unwrap().iter().any(|t| t.name == "dynamic_tool");
    // Listed first, so that the worker keeps this page (and its JavaScript string) before the change.
    assert!(!listed().await);
    assert!(!listed().await, "a kept page is answered again");
    let notifications = record_notifications(&client);
    client.call_tool("add_dynamic_tool", None).await.unwrap();
    assert_eq!(notifications.borrow().first().map(|(m, _)| m.as_str()), Some("notifications/tools/list_changed"));
    assert!(listed().await, "the page after the change lists the new tool");
    assert_eq!(client.call_tool("dynamic_tool", None).await.unwrap().joined_text(), "I was added at run time");
    client.call_tool("remove_dynamic_tool", None).await.unwrap();
    assert!(!listed().await, "the page after the removal does not list it");
    client.close();
}

#[wasm_bindgen_test]
async fn declared_credentials_reach_the_handler_and_the_manifest_lists_them() {
    let spec = mcp_worker_tests::page_spec("everything", EVERYTHING_URL).env("EVERYTHING_API_KEY", "sk-123456");
    let client = spawn(spec).await;
    let status = client.call_tool("credential_status", None).await.unwrap();
    assert_eq!(status.joined_text(), "EVERYTHING_API_KEY is set (9 characters)");
    client.close();

    let fetch =
        js_sys::Function::new_with_args("url", "return fetch(url).then((r) => r.ok ? r.text() : `HTTP ${r.status}`);");
    let promise = fetch.call1(&JsValue::NULL, &JsValue::from_str("/bundles/everything/manifest.json")).unwrap();
    let text = JsFuture::from(promise.dyn_into::<js_sys::Promise>().unwrap()).await.unwrap().as_string().unwrap();
    let manifest: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(manifest["name"], "everything");
    assert_eq!(
        manifest["credentials"][0],
        json!({"name": "EVERYTHING_API_KEY", "required": false,
        "description": "An example secret. The credential_status tool says whether it was provided, never its value."})
    );
}

#[wasm_bindgen_test]
async fn a_panicking_tool_is_reported_as_a_crash_not_a_hang() {
    let client = everything().await;
    let started = now_ms();
    let err = client.call_tool("crash", None).await.unwrap_err();
    assert!(matches!(err, Error::WorkerCrashed { ref server, .. } if server == "everything"), "{err}");
    let message = err.to_string();
    assert!(message.contains("panicked") && message.contains("the crash tool was called"), "{message}");
    assert!(!message.contains(".rs:") && !message.contains("src/"), "no source location reaches the host: {message}");
    assert!(now_ms() - started < 5_000.0, "reported at once");
    assert!(matches!(client.ping().await, Err(Error::WorkerCrashed { .. })), "later requests fail fast");
}
