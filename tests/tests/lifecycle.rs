//! The host and the real echo server in a real worker: lifecycle, discovery and calls.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use futures_util::future::join_all;
use gloo_timers::future::TimeoutFuture;
use mcp_worker_client::limits::WorkerLimits;
use mcp_worker_client::worker::compile_module;
use mcp_worker_client::{Error, McpClient};
use mcp_worker_protocol::ContentBlock;
use mcp_worker_tests::{
    ECHO_URL, ECHO_WASM_URL, forget_page_fetches, page_fetches, record_worker_urls, recorded_worker_urls, spawn_echo,
    text_args,
};
use serde_json::json;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn the_echo_server_starts_initializes_and_answers() {
    let client = spawn_echo().await.expect("echo starts");
    let info = client.server_info();
    assert_eq!(info.server_info.name, "echo");
    assert_eq!(info.protocol_version, "2026-07-28", "an SDK server is spoken to in the newest era");
    assert!(info.capabilities.tools.is_some());
    client.ping().await.expect("ping");

    let result = client.call_tool("echo", text_args("hello worker")).await.unwrap();
    assert_eq!(result.content, vec![ContentBlock::text("hello worker")]);
    assert!(!result.is_error());
    client.close();
}

#[wasm_bindgen_test]
async fn tools_are_listed_with_schemas_from_their_rust_types() {
    let client = spawn_echo().await.unwrap();
    let tools = client.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["echo", "add", "blob"]);
    let add = &tools[1];
    assert_eq!(add.description.as_deref(), Some("Adds two numbers"));
    assert_eq!(add.input_schema.to_value()["required"], json!(["a", "b"]));
    assert_eq!(add.input_schema.to_value()["properties"]["a"]["type"], json!("number"));
    assert_eq!(add.annotations.as_ref().and_then(|a| a.read_only_hint), Some(true));
    client.close();
}

#[wasm_bindgen_test]
async fn results_errors_and_structured_content_reach_the_caller() {
    let client = spawn_echo().await.unwrap();
    let add = client.call_tool("add", json!({"a": 2, "b": 40}).as_object().cloned()).await.unwrap();
    assert_eq!(add.structured_content, Some(json!({"sum": 42.0})));

    let blob = client.call_tool("blob", json!({"bytes": 100_000}).as_object().cloned()).await.unwrap();
    assert_eq!(blob.joined_text().len(), 100_000);

    // Arguments that do not fit: a result the model can read, naming the field.
    let bad = client.call_tool("add", json!({"a": "two", "b": 1}).as_object().cloned()).await.unwrap();
    assert!(bad.is_error());
    assert!(bad.joined_text().starts_with("Invalid arguments for tool add: /a: "), "{}", bad.joined_text());

    // An unknown tool: a JSON-RPC error naming the server.
    let err = client.call_tool("nope", None).await.unwrap_err();
    assert!(matches!(&err, Error::Rpc { error, .. } if error.code == -32602), "{err}");
    assert!(err.to_string().starts_with("server echo:"), "{err}");
    client.close();
}

#[wasm_bindgen_test]
async fn a_precompiled_module_is_used_by_the_worker() {
    let module = compile_module(ECHO_WASM_URL).await.expect("compiles");
    // Two workers share one compiled module.
    let a = McpClient::spawn(mcp_worker_tests::page_spec("echo-a", ECHO_URL).module(module.clone())).await.unwrap();
    let b = McpClient::spawn(mcp_worker_tests::page_spec("echo-b", ECHO_URL).module(module)).await.unwrap();
    assert_eq!(a.call_tool("echo", text_args("a")).await.unwrap().joined_text(), "a");
    assert_eq!(b.call_tool("echo", text_args("b")).await.unwrap().joined_text(), "b");
    a.close();
    b.close();
}

#[wasm_bindgen_test]
async fn an_sdk_bundle_on_the_page_origin_starts_from_its_own_url_and_its_guard_answers_the_heartbeat() {
    record_worker_urls();
    let limits = WorkerLimits::default().unresponsive_after_ms(300);
    let client = McpClient::spawn(mcp_worker_tests::page_spec("echo-own-url", ECHO_URL).limits(limits)).await.unwrap();
    let urls = recorded_worker_urls();
    assert_eq!(urls.len(), 1, "one worker, started once: {urls:?}");
    assert!(urls[0].starts_with("http") && urls[0].ends_with(ECHO_URL), "the bundle's own script: {urls:?}");
    // Silent for five times the heartbeat's limit: only the guard in the bundle's bootstrap answers the pings.
    TimeoutFuture::new(1_500).await;
    assert_eq!(client.call_tool("echo", text_args("still here")).await.unwrap().joined_text(), "still here");
    client.close();
}

#[wasm_bindgen_test]
async fn a_worker_on_the_page_origin_given_no_module_gets_one_the_page_compiles_as_it_starts() {
    forget_page_fetches();
    let client = McpClient::spawn(mcp_worker_tests::page_spec("echo-compiled-alongside", ECHO_URL)).await.unwrap();
    assert_eq!(page_fetches(ECHO_WASM_URL), 1, "the page fetched the bundle's wasm once, for the worker");
    assert_eq!(client.call_tool("echo", text_args("compiled")).await.unwrap().joined_text(), "compiled");
    client.close();
    // A bundle whose wasm is not where the SDK's layout puts it still starts: its worker fetches what it needs.
    forget_page_fetches();
    let js = mcp_worker_tests::spawn_js_server("", 30_000).await.unwrap();
    assert_eq!(page_fetches("/fixtures/server_bg.wasm"), 0, "the page fetched no wasm for it");
    assert!(js.list_tools().await.is_ok());
    js.close();
}

#[wasm_bindgen_test]
async fn a_thousand_tools_are_listed_across_pages() {
    let spec = mcp_worker_tests::page_spec("echo-many", ECHO_URL).env("ECHO_EXTRA_TOOLS", "1000");
    let client = McpClient::spawn(spec).await.unwrap();
    let mut pages = 0;
    let mut cursor = None;
    loop {
        let page = client.list_tools_page(cursor.take()).await.unwrap();
        pages += 1;
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    assert_eq!(pages, 2, "1,003 tools at the default 1,000 per page");
    let tools = client.list_tools().await.unwrap();
    assert_eq!(tools.len(), 1_003);
    let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), 1_003, "no tool listed twice");
    client.close();
}

#[wasm_bindgen_test]
async fn a_thousand_concurrent_calls_each_get_their_own_answer() {
    let client = spawn_echo().await.unwrap();
    let calls = (0..1_000).map(|i| {
        let client = &client;
        async move { (i, client.call_tool("echo", text_args(&format!("message {i}"))).await) }
    });
    let answers = join_all(calls).await;
    assert_eq!(answers.len(), 1_000);
    for (i, answer) in answers {
        assert_eq!(answer.unwrap().joined_text(), format!("message {i}"));
    }
    assert_eq!(client.connection().pending_count(), 0, "nothing left waiting");
    client.close();
}
