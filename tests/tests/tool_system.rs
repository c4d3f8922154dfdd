//! The ToolSystem over the manager with real servers in real workers: what an agent's tool calls become.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use mcp_worker_runtime::manager::{ManagerOptions, McpTransportManager};
use mcp_worker_runtime::registry::{ExportFormat, ToolFilter, ToolRegistry};
use mcp_worker_runtime::tool_system::{ExecuteOptions, ExecutionEvent, ParsedToolCall, ToolStatus, ToolSystem};
use mcp_worker_tests::{ECHO_URL, now_ms};
use serde_json::json;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

async fn system() -> (McpTransportManager, ToolSystem) {
    let (manager, _) = McpTransportManager::for_browser(Rc::new(ToolRegistry::new()), ManagerOptions::default());
    manager.add(mcp_worker_tests::wasm_config("echo", ECHO_URL)).unwrap();
    manager.add(mcp_worker_tests::wasm_config("js", "/fixtures/misbehaving-server.js")).unwrap();
    manager.start_all().await;
    let registry = manager.registry().clone();
    registry.set_thread_tools("thread-1", ["mcp__echo__*", "mcp__js__slow", "mcp__js__hang"]);
    let system = ToolSystem::new(registry, Rc::new(manager.clone()), Rc::new(js_sys::Date::now));
    (manager, system)
}

#[wasm_bindgen_test]
async fn an_llm_turn_of_tool_calls_runs_concurrently_and_comes_back_in_order() {
    let (_manager, system) = system().await;
    let observed = Rc::new(RefCell::new(Vec::new()));
    let log = observed.clone();
    system.subscribe(Rc::new(move |event: &ExecutionEvent| log.borrow_mut().push(event.clone())));
    let calls = vec![
        ParsedToolCall::new("call_slow", "mcp__js__slow", json!({"ms": 300})),
        ParsedToolCall::new("call_add", "mcp__echo__add", json!("{\"a\": 2, \"b\": 3}")),
        ParsedToolCall::new("call_bad", "mcp__echo__add", json!({"a": "two"})),
        ParsedToolCall::new("call_off", "mcp__js__work", json!({})),
        ParsedToolCall::new("call_echo", "mcp__echo__echo", json!({"text": "hi"})),
    ];
    let started = now_ms();
    let results = system.execute_tools(calls, "thread-1", &ExecuteOptions::default().trace("trace-9")).await;
    let elapsed = now_ms() - started;

    let ids: Vec<&str> = results.iter().map(|r| r.call_id.as_str()).collect();
    assert_eq!(ids, ["call_slow", "call_add", "call_bad", "call_off", "call_echo"]);
    assert_eq!(results[0].output.as_ref().unwrap()["content"][0]["text"], "slow done");
    assert_eq!(results[1].output.as_ref().unwrap()["structuredContent"], json!({"sum": 5.0}));
    assert_eq!(results[2].status, ToolStatus::Error);
    let bad = results[2].error.as_deref().unwrap();
    assert!(bad.contains("/a: expected number") && bad.contains("missing required property \"b\""), "{bad}");
    assert_eq!(results[3].error.as_deref(), Some("Tool mcp__js__work is not enabled for this conversation."));
    assert_eq!(results[4].metadata["server"], "echo");
    assert!(elapsed < 1_000.0, "the 300 ms call did not hold the others back ({elapsed} ms)");
    let finished: Vec<ExecutionEvent> =
        observed.borrow().iter().filter(|e| matches!(e, ExecutionEvent::Finished(_))).cloned().collect();
    assert_eq!(finished.len(), 5, "one finished record per call");
    assert_eq!(observed.borrow().len(), 10, "and one started record per call");
    assert!(
        finished
            .iter()
            .all(|e| matches!(e, ExecutionEvent::Finished(f) if f.call.trace_id.as_deref() == Some("trace-9")))
    );
}

#[wasm_bindgen_test]
async fn a_timed_out_call_is_an_error_result_naming_the_server() {
    let (_manager, system) = system().await;
    let mut options = ExecuteOptions::default();
    options.timeout_ms = Some(200);
    let calls = vec![ParsedToolCall::new("c", "mcp__js__hang", json!({}))];
    let results = system.execute_tools(calls, "thread-1", &options).await;
    assert_eq!(results[0].status, ToolStatus::Error);
    assert_eq!(results[0].metadata["errorCode"], "TIMEOUT");
    assert_eq!(results[0].error.as_deref(), Some("server js: tools/call timed out after 200 ms"));
}

#[wasm_bindgen_test]
async fn the_registry_exports_every_format_from_live_servers() {
    let (manager, _system) = system().await;
    let registry = manager.registry();
    let all = ToolFilter::everything();
    for format in [ExportFormat::OpenAi, ExportFormat::Anthropic, ExportFormat::Art, ExportFormat::Mcp] {
        let export = registry.export(format, &all);
        assert_eq!(export.tools.len(), 10, "{format:?}");
        assert!(export.skipped.is_empty(), "{format:?}: {:?}", export.skipped);
    }
    let openai: Vec<serde_json::Value> = registry
        .export(ExportFormat::OpenAi, &ToolFilter::for_thread("thread-1"))
        .tools
        .iter()
        .map(|t| serde_json::from_str(t.get()).unwrap())
        .collect();
    let names: Vec<&str> = openai.iter().map(|t| t["function"]["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["mcp__echo__add", "mcp__echo__blob", "mcp__echo__echo", "mcp__js__hang", "mcp__js__slow"]);
    assert!(openai[0]["function"]["parameters"].get("$schema").is_none());
}
