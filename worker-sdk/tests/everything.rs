//! The everything sample server, natively: every fixture of the official conformance suite's server scenarios
//! answers as the suite expects, and every frame it writes is valid against the official MCP 2025-11-25 schema
//! (tests/support/harness.rs checks each one).

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
#![allow(clippy::disallowed_methods, reason = "tests read JSON with serde_json itself")]

#[path = "support/harness.rs"]
mod harness;
#[path = "support/schema.rs"]
mod schema;

use harness::{Harness, call, request, response, text};
use mcp_worker_sdk::Env;
use serde_json::{Value, json};

const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==";

const CONFORMANCE_TOOLS: &[&str] = &[
    "test_simple_text",
    "test_image_content",
    "test_audio_content",
    "test_embedded_resource",
    "test_multiple_content_types",
    "test_tool_with_logging",
    "test_error_handling",
    "test_tool_with_progress",
    "test_sampling",
    "test_elicitation",
    "test_reconnection",
];

fn everything(capabilities: Value) -> Harness {
    let mut h = Harness::new(everything_server::server(&Env::default()));
    h.initialize(capabilities);
    h
}

#[test]
fn it_declares_every_capability() {
    let mut h = Harness::new(everything_server::server(&Env::default()));
    let init = h.initialize(json!({}));
    assert_eq!(init["result"]["serverInfo"]["name"], "everything");
    assert_eq!(
        init["result"]["capabilities"],
        json!({"tools": {"listChanged": true}, "logging": {}, "completions": {},
               "resources": {"subscribe": true, "listChanged": true}, "prompts": {"listChanged": true}})
    );
}

#[test]
fn every_conformance_tool_is_listed_with_a_description_and_a_valid_name() {
    let mut h = everything(json!({}));
    let listed = h.request(1, "tools/list", json!({}));
    let tools = listed["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    for name in CONFORMANCE_TOOLS {
        assert!(names.contains(name), "{name} missing from {names:?}");
    }
    for tool in tools {
        let name = tool["name"].as_str().unwrap();
        // The suite's tools-list check: a description, and 1-64 characters of [A-Za-z0-9_./-].
        assert!(tool["description"].as_str().is_some_and(|d| !d.is_empty()), "{name} has no description");
        assert!(name.len() <= 64 && name.chars().all(|c| c.is_ascii_alphanumeric() || "_./-".contains(c)), "{name}");
    }
    let sampling = tools.iter().find(|t| t["name"] == "test_sampling").unwrap();
    assert_eq!(sampling["inputSchema"]["required"], json!(["prompt"]));
    let schema_tool = tools.iter().find(|t| t["name"] == "json_schema_2020_12_tool").unwrap();
    assert_eq!(schema_tool["inputSchema"]["$defs"]["address"]["type"], "object");
}

#[test]
fn content_tools_return_what_the_suite_expects() {
    let mut h = everything(json!({}));
    let r = h.one(&call(1, "test_simple_text", json!({})));
    assert_eq!(
        r["result"]["content"],
        json!([{"type": "text", "text": "This is a simple text response for testing."}])
    );
    let r = h.one(&call(2, "test_image_content", json!({})));
    assert_eq!(r["result"]["content"], json!([{"type": "image", "data": PNG, "mimeType": "image/png"}]));
    let r = h.one(&call(3, "test_audio_content", json!({})));
    assert_eq!(r["result"]["content"][0]["type"], "audio");
    assert_eq!(r["result"]["content"][0]["mimeType"], "audio/wav");
    let r = h.one(&call(4, "test_embedded_resource", json!({})));
    assert_eq!(
        r["result"]["content"],
        json!([{"type": "resource", "resource": {"uri": "test://embedded-resource", "mimeType": "text/plain",
                                                 "text": "This is an embedded resource content."}}])
    );
    let r = h.one(&call(5, "test_multiple_content_types", json!({})));
    let kinds: Vec<&str> =
        r["result"]["content"].as_array().unwrap().iter().map(|c| c["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["text", "image", "resource"]);
    assert_eq!(r["result"]["content"][2]["resource"]["text"], r#"{"test":"data","value":123}"#);
    let r = h.one(&call(7, "resource_link_content", json!({})));
    assert_eq!(
        r["result"]["content"][1],
        json!({"type": "resource_link", "uri": "test://static-text", "name": "Static Text Resource", "mimeType": "text/plain"})
    );
    let r = h.one(&call(6, "test_error_handling", json!({})));
    assert_eq!(
        r["result"],
        json!({"content": [{"type": "text", "text": "This tool intentionally returns an error for testing"}], "isError": true})
    );
}

#[test]
fn logging_and_progress_tools_notify_as_they_go() {
    let mut h = everything(json!({}));
    let mut frames = h.exchange(&call(1, "test_tool_with_logging", json!({})));
    frames.extend(h.settle());
    let logs: Vec<&Value> = frames.iter().filter(|f| f["method"] == "notifications/message").collect();
    let data: Vec<&str> = logs.iter().map(|f| f["params"]["data"].as_str().unwrap()).collect();
    assert_eq!(data, ["Tool execution started", "Tool processing data", "Tool execution completed"]);
    assert!(logs.iter().all(|f| f["params"]["level"] == "info" && f["params"]["logger"] == "everything"));
    assert_eq!(text(frames.last().unwrap()), "Logging test completed");

    // Honours the level the client sets.
    h.request(2, "logging/setLevel", json!({"level": "warning"}));
    let mut frames = h.exchange(&call(3, "test_tool_with_logging", json!({})));
    frames.extend(h.settle());
    assert_eq!(frames.len(), 1, "only the result: {frames:?}");

    let mut frames = h.exchange(&request(
        4,
        "tools/call",
        json!({"name": "test_tool_with_progress", "arguments": {}, "_meta": {"progressToken": "progress-test-1"}}),
    ));
    frames.extend(h.settle());
    let progress: Vec<(f64, f64)> = frames
        .iter()
        .filter(|f| f["method"] == "notifications/progress")
        .map(|f| (f["params"]["progress"].as_f64().unwrap(), f["params"]["total"].as_f64().unwrap()))
        .collect();
    assert_eq!(progress, [(0.0, 100.0), (50.0, 100.0), (100.0, 100.0)]);
    assert!(
        frames
            .iter()
            .filter(|f| f["method"] == "notifications/progress")
            .all(|f| f["params"]["progressToken"] == "progress-test-1")
    );
    assert_eq!(text(frames.last().unwrap()), "Progress test completed");
}

#[test]
fn test_reconnection_asks_an_http_transport_to_close_its_stream_then_answers() {
    let mut h = everything(json!({}));
    let mut frames = h.exchange(&call(1, "test_reconnection", json!({})));
    frames.extend(h.settle());
    assert_eq!(frames.len(), 1, "no hint unless the transport asked for them: {frames:?}");
    assert!(text(&frames[0]).starts_with("Reconnection test completed"));

    h.session.enable_sse_stream_hints();
    let frames = h.exchange(&call(2, "test_reconnection", json!({})));
    assert_eq!(
        frames,
        [json!({"jsonrpc": "2.0", "method": "mcp-worker/close_sse_stream", "params": {"requestId": 2}})]
    );
    let frames = h.settle();
    assert_eq!(frames[0]["id"], 2, "the result comes after the stream was closed: {frames:?}");
}

#[test]
fn sampling_and_elicitation_ask_the_client_or_say_why_they_cannot() {
    let mut h = everything(json!({"sampling": {}, "elicitation": {}}));
    let asked = h.exchange(&call(1, "test_sampling", json!({"prompt": "Test prompt for sampling"})));
    assert_eq!(asked[0]["method"], "sampling/createMessage");
    assert_eq!(asked[0]["params"]["maxTokens"], 100);
    assert_eq!(asked[0]["params"]["messages"][0]["content"]["text"], "Test prompt for sampling");
    let answer = json!({"role": "assistant", "content": {"type": "text", "text": "This is a test response from the client"},
                        "model": "test-model", "stopReason": "endTurn"});
    let r = h.one(&response(&asked[0]["id"], answer));
    assert_eq!(text(&r), "LLM response: This is a test response from the client");

    let asked = h.exchange(&call(2, "test_elicitation", json!({"message": "Please provide your information"})));
    assert_eq!(asked[0]["method"], "elicitation/create");
    assert_eq!(asked[0]["params"]["requestedSchema"]["required"], json!(["username", "email"]));
    let r = h.one(&response(
        &asked[0]["id"],
        json!({"action": "accept", "content": {"username": "testuser", "email": "test@example.com"}}),
    ));
    assert_eq!(text(&r), r#"User response: action=accept, content={"email":"test@example.com","username":"testuser"}"#);

    for (id, tool) in [(3, "test_elicitation_sep1034_defaults"), (4, "test_elicitation_sep1330_enums")] {
        let asked = h.exchange(&call(id, tool, json!({})));
        assert_eq!(asked[0]["method"], "elicitation/create", "{tool}");
        let r = h.one(&response(&asked[0]["id"], json!({"action": "decline"})));
        assert!(text(&r).ends_with("action=decline, content={}"), "{r}");
    }

    // A client without the capabilities: an error result that says which capability is missing.
    let mut h = everything(json!({}));
    let r = h.one(&call(1, "test_sampling", json!({"prompt": "x"})));
    assert_eq!(r["result"]["isError"], true);
    assert!(text(&r).starts_with("Sampling error:") && text(&r).contains("`sampling`"), "{r}");
    let r = h.one(&call(2, "test_elicitation", json!({"message": "x"})));
    assert!(text(&r).starts_with("Elicitation error:") && text(&r).contains("elicitation"), "{r}");
}

#[test]
fn resources_read_subscribe_and_fail_as_the_suite_expects() {
    let mut h = everything(json!({}));
    let listed = h.request(1, "resources/list", json!({}));
    let uris: Vec<&str> =
        listed["result"]["resources"].as_array().unwrap().iter().map(|r| r["uri"].as_str().unwrap()).collect();
    assert_eq!(uris, ["test://static-text", "test://static-binary", "test://watched-resource"]);
    let templates = h.request(2, "resources/templates/list", json!({}));
    assert_eq!(templates["result"]["resourceTemplates"][0]["uriTemplate"], "test://template/{id}/data");

    let r = h.request(3, "resources/read", json!({"uri": "test://static-text"}));
    assert_eq!(
        r["result"]["contents"],
        json!([{"uri": "test://static-text", "mimeType": "text/plain", "text": "This is the content of the static text resource."}])
    );
    let r = h.request(4, "resources/read", json!({"uri": "test://static-binary"}));
    assert_eq!(r["result"]["contents"], json!([{"uri": "test://static-binary", "mimeType": "image/png", "blob": PNG}]));
    let r = h.request(5, "resources/read", json!({"uri": "test://template/123/data"}));
    assert_eq!(r["result"]["contents"][0]["mimeType"], "application/json");
    let data: Value = serde_json::from_str(r["result"]["contents"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(data, json!({"id": "123", "templateTest": true, "data": "Data for ID: 123"}));
    let r = h.request(6, "resources/read", json!({"uri": "test://nonexistent-resource-for-conformance-testing"}));
    assert_eq!(r["error"]["code"], -32002);
    assert_eq!(r["error"]["data"]["uri"], "test://nonexistent-resource-for-conformance-testing");

    assert_eq!(h.request(7, "resources/subscribe", json!({"uri": "test://watched-resource"}))["result"], json!({}));
    let frames = h.exchange(&call(8, "update_watched_resource", json!({})));
    assert_eq!(
        frames[0],
        json!({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"uri": "test://watched-resource"}})
    );
    assert_eq!(text(&frames[1]), "version 1; subscribers notified: true");
    let r = h.request(9, "resources/read", json!({"uri": "test://watched-resource"}));
    assert_eq!(r["result"]["contents"][0]["text"], "Watched resource, version 1");
    assert_eq!(h.request(10, "resources/unsubscribe", json!({"uri": "test://watched-resource"}))["result"], json!({}));
    assert_eq!(text(&h.one(&call(11, "update_watched_resource", json!({})))), "version 2; subscribers notified: false");
}

#[test]
fn prompts_and_completion_answer_as_the_suite_expects() {
    let mut h = everything(json!({}));
    let listed = h.request(1, "prompts/list", json!({}));
    let names: Vec<&str> =
        listed["result"]["prompts"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "test_simple_prompt",
            "test_prompt_with_arguments",
            "test_prompt_with_embedded_resource",
            "test_prompt_with_image",
            "test_input_required_result_prompt"
        ]
    );
    assert_eq!(
        listed["result"]["prompts"][1]["arguments"],
        json!([{"name": "arg1", "description": "First test argument", "required": true},
               {"name": "arg2", "description": "Second test argument", "required": false}])
    );
    let r = h.request(2, "prompts/get", json!({"name": "test_simple_prompt"}));
    assert_eq!(
        r["result"]["messages"],
        json!([{"role": "user", "content": {"type": "text", "text": "This is a simple test prompt."}}])
    );
    let r = h.request(
        3,
        "prompts/get",
        json!({"name": "test_prompt_with_arguments", "arguments": {"arg1": "testValue1", "arg2": "testValue2"}}),
    );
    assert_eq!(
        r["result"]["messages"][0]["content"]["text"],
        "Prompt with arguments: arg1='testValue1', arg2='testValue2'"
    );
    let r = h.request(
        4,
        "prompts/get",
        json!({"name": "test_prompt_with_embedded_resource", "arguments": {"resourceUri": "test://example-resource"}}),
    );
    assert_eq!(r["result"]["messages"][0]["content"]["type"], "resource");
    assert_eq!(r["result"]["messages"][0]["content"]["resource"]["uri"], "test://example-resource");
    let r = h.request(9, "prompts/get", json!({"name": "test_prompt_with_embedded_resource"}));
    assert_eq!(r["error"]["code"], -32602, "resourceUri is required: {r}");
    let r = h.request(10, "prompts/get", json!({"name": "test_simple_prompt", "arguments": {"resourceUri": "x"}}));
    assert!(r["result"]["messages"].is_array(), "extra arguments are ignored: {r}");
    let r = h.request(5, "prompts/get", json!({"name": "test_prompt_with_image"}));
    assert_eq!(r["result"]["messages"][1]["content"], json!({"type": "image", "data": PNG, "mimeType": "image/png"}));
    assert_eq!(h.request(6, "prompts/get", json!({"name": "test_prompt_with_arguments"}))["error"]["code"], -32602);

    let r = h.request(
        7,
        "completion/complete",
        json!({"ref": {"type": "ref/prompt", "name": "test_prompt_with_arguments"},
                                                       "argument": {"name": "arg1", "value": "test"}}),
    );
    assert_eq!(r["result"]["completion"]["values"], json!(["test", "testing"]));
    let r = h.request(
        8,
        "completion/complete",
        json!({"ref": {"type": "ref/resource", "uri": "test://template/{id}/data"},
                                                       "argument": {"name": "id", "value": ""}}),
    );
    assert_eq!(r["result"]["completion"]["values"], json!(["1", "2", "3"]));
}

#[test]
fn extras_cover_structured_output_cancellation_run_time_tools_and_credentials() {
    let mut h = everything(json!({}));
    let r = h.one(&call(1, "structured_weather", json!({"city": "Paris"})));
    assert_eq!(r["result"]["structuredContent"], json!({"city": "Paris", "temperature": 21.5, "conditions": "sunny"}));

    assert!(h.exchange(&call(2, "slow_operation", json!({"steps": 10, "step_ms": 100}))).is_empty());
    h.advance(250);
    let cancel = r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"enough"}}"#;
    assert!(h.exchange(cancel).is_empty());
    assert!(h.settle().is_empty(), "no response to a cancelled call");
    h.exchange(&call(3, "slow_operation", json!({"steps": 1, "step_ms": 10})));
    assert_eq!(text(&h.settle()[0]), "done after 1 steps");
    let stats = h.one(&call(4, "slow_operation_stats", json!({})));
    assert_eq!(stats["result"]["structuredContent"], json!({"started": 2, "completed": 1, "cancelled": 1}));

    let frames = h.exchange(&call(5, "add_dynamic_tool", json!({})));
    assert_eq!(frames[0]["method"], "notifications/tools/list_changed");
    assert_eq!(text(&h.one(&call(6, "dynamic_tool", json!({})))), "I was added at run time");
    assert_eq!(h.exchange(&call(7, "remove_dynamic_tool", json!({})))[0]["method"], "notifications/tools/list_changed");
    assert_eq!(h.one(&call(8, "dynamic_tool", json!({})))["error"]["code"], -32602);

    assert_eq!(text(&h.one(&call(9, "credential_status", json!({})))), "EVERYTHING_API_KEY is not set");
    let mut with_key = Harness::with_env(
        everything_server::server(&Env::default()),
        Env::from_pairs([("EVERYTHING_API_KEY", "sk-12345")]),
    );
    assert_eq!(
        text(&with_key.one(&call(1, "credential_status", json!({})))),
        "EVERYTHING_API_KEY is set (8 characters)"
    );

    let r = h.one(&call(10, "list_roots", json!({})));
    assert!(r["result"]["isError"] == true && text(&r).contains("`roots`"), "{r}");
}

#[test]
fn the_manifest_declares_the_optional_credential() {
    let manifest: Value =
        serde_json::from_str(&everything_server::server(&Env::default()).manifest().to_json()).unwrap();
    assert_eq!(manifest["name"], "everything");
    assert_eq!(manifest["title"], "Everything");
    assert_eq!(manifest["credentials"][0]["name"], "EVERYTHING_API_KEY");
    assert_eq!(manifest["credentials"][0]["required"], false);
}
