//! Requests from servers to the host (elicitation, sampling, roots) through the manager, with the `everything`
//! sample server in a real worker: answered by the application's handlers, and not offered without them.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use mcp_worker_client::server_requests::{ServerRequest, ServerRequestHandlers};
use mcp_worker_client::session::CallOptions;
use mcp_worker_runtime::manager::{ManagerOptions, McpTransportManager, browser};
use mcp_worker_runtime::registry::ToolRegistry;
use serde_json::{Value, json};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const EVERYTHING_URL: &str = "/bundles/everything/bootstrap.js";

async fn call(manager: &McpTransportManager, tool: &str, args: Value) -> Value {
    let raw = serde_json::value::to_raw_value(&args).unwrap();
    let result = manager.call_tool("everything", tool, Some(&raw), CallOptions::default()).await.unwrap();
    serde_json::from_str(result.get()).unwrap()
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap()
}

#[wasm_bindgen_test]
async fn the_applications_handlers_answer_elicitation_sampling_and_roots() {
    let asked: Rc<RefCell<Vec<ServerRequest>>> = Rc::new(RefCell::new(Vec::new()));
    let log = |answer: Value| {
        let asked = asked.clone();
        Rc::new(move |request: ServerRequest| {
            asked.borrow_mut().push(request);
            let answer = answer.clone();
            Box::pin(async move { Ok(answer) }) as mcp_worker_client::server_requests::HandlerFuture
        })
    };
    let handlers = ServerRequestHandlers::new(browser::spawner())
        .on_elicitation(log(json!({"action": "accept", "content": {"username": "ada", "email": "ada@example.com"}})))
        .on_sampling(log(
            json!({"role": "assistant", "content": {"type": "text", "text": "forty-two"}, "model": "test"}),
        ))
        .on_roots(log(json!({"roots": [{"uri": "file:///workspace", "name": "workspace"}]})));
    let mut options = ManagerOptions::default();
    options.server_requests = Some(handlers);
    let (manager, _) = McpTransportManager::for_browser(Rc::new(ToolRegistry::new()), options);
    manager.add(mcp_worker_tests::wasm_config("everything", EVERYTHING_URL)).unwrap();

    let elicited = call(&manager, "test_elicitation", json!({"message": "Who are you?"})).await;
    assert_eq!(
        text(&elicited),
        r#"User response: action=accept, content={"email":"ada@example.com","username":"ada"}"#
    );
    let sampled = call(&manager, "test_sampling", json!({"prompt": "The answer?"})).await;
    assert_eq!(text(&sampled), "LLM response: forty-two");
    let roots = call(&manager, "list_roots", json!({})).await;
    assert_eq!(text(&roots), "file:///workspace");

    let asked = asked.borrow();
    let methods: Vec<&str> = asked.iter().map(|r| r.method.as_str()).collect();
    assert_eq!(methods, ["elicitation/create", "sampling/createMessage", "roots/list"]);
    assert!(asked.iter().all(|r| r.server == "everything"));
    assert_eq!(asked[0].params["message"], "Who are you?");
}

#[wasm_bindgen_test]
async fn without_handlers_the_capabilities_are_not_declared() {
    // In MCP 2026-07-28 (what the runtime speaks to an SDK server) a call that needs a capability the host did not
    // declare fails with -32021 naming it.
    let (manager, _) = McpTransportManager::for_browser(Rc::new(ToolRegistry::new()), ManagerOptions::default());
    manager.add(mcp_worker_tests::wasm_config("everything", EVERYTHING_URL)).unwrap();
    for (tool, capability) in [("test_elicitation", "elicitation"), ("test_sampling", "sampling")] {
        let args = serde_json::value::to_raw_value(&json!({"message": "Who are you?", "prompt": "x"})).unwrap();
        let refused = manager.call_tool("everything", tool, Some(&args), CallOptions::default()).await.unwrap_err();
        let message = refused.to_string();
        assert!(message.contains("-32021") && message.contains(capability), "{message}");
    }
}
