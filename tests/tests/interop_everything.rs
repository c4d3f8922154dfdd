//! The official TypeScript SDK's `Client` (v1) on the page, connected to the everything sample server in a
//! worker (fixtures/src/ts-sdk-everything.mjs): what another MCP client sees of a Rust SDK server must be right,
//! not only what our host sees. The client declares elicitation and sampling and answers them.
//!
//! The fixture is bundled by esbuild into fixtures/dist/ (`cargo xtask test` does it before these tests).
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use mcp_worker_tests::run_fixture_module;
use serde_json::{Value, json};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const EVERYTHING_URL: &str = "/bundles/everything/bootstrap.js";

/// The module exporting `runEverything(workerUrl)`, bundled.
const MODULE_URL: &str = "/fixtures/dist/ts-sdk-everything.js";

async fn run() -> Value {
    run_fixture_module(MODULE_URL, "runEverything", EVERYTHING_URL).await
}

/// The value of a step that must have succeeded.
#[track_caller]
fn ok<'a>(report: &'a Value, step: &str) -> &'a Value {
    let entry = report.pointer(step).unwrap_or(&Value::Null);
    assert_eq!(entry["ok"], json!(true), "step {step} failed: {entry}");
    &entry["value"]
}

/// The error of a step that must have failed.
#[track_caller]
fn failed<'a>(report: &'a Value, step: &str) -> &'a Value {
    let entry = report.pointer(step).unwrap_or(&Value::Null);
    assert_eq!(entry["ok"], json!(false), "step {step} should have failed: {entry}");
    &entry["error"]
}

#[wasm_bindgen_test]
async fn the_ts_sdk_client_sees_everything_right() {
    let report = run().await;
    assert_eq!(report["boot"]["ok"], json!(true), "{report:#}");
    ok(&report, "/connect");
    assert_eq!(report["serverVersion"]["name"], "everything");
    let caps = &report["serverCapabilities"];
    assert!(caps["resources"]["subscribe"] == true && caps["prompts"].is_object() && caps["completions"].is_object());
    assert!(report["instructions"].as_str().is_some_and(|i| i.contains("conformance")));

    // Tools, every content kind, structured output (validated by the SDK against the output schema).
    let names = ok(&report, "/listTools").as_array().unwrap();
    assert!(names.contains(&json!("test_simple_text")) && names.contains(&json!("structured_weather")));
    let content = |tool: &str| ok(&report, &format!("/content/{tool}"))["content"].clone();
    assert_eq!(
        content("test_simple_text"),
        json!([{"type": "text", "text": "This is a simple text response for testing."}])
    );
    assert_eq!(content("test_image_content")[0]["mimeType"], "image/png");
    assert_eq!(content("test_audio_content")[0]["type"], "audio");
    assert_eq!(content("test_embedded_resource")[0]["resource"]["uri"], "test://embedded-resource");
    assert_eq!(content("test_multiple_content_types").as_array().map(Vec::len), Some(3));
    assert_eq!(content("resource_link_content")[1]["type"], "resource_link");
    assert_eq!(ok(&report, "/content/test_error_handling")["isError"], true);
    let structured = ok(&report, "/structured");
    assert_eq!(structured["structuredContent"], json!({"city": "Lyon", "temperature": 21.5, "conditions": "sunny"}));

    // Progress and logging.
    let progress = ok(&report, "/progress");
    assert_eq!(progress["seen"], json!([[0, 100], [50, 100], [100, 100]]));
    assert_eq!(progress["text"], "Progress test completed");
    ok(&report, "/setLevel");
    ok(&report, "/logging");
    assert_eq!(
        report["logsAtDebug"],
        json!(["Tool execution started", "Tool processing data", "Tool execution completed"])
    );
    assert_eq!(report["logsAfterError"], 0, "logging/setLevel error silences info messages");

    // Resources.
    assert_eq!(
        *ok(&report, "/listResources"),
        json!(["test://static-text", "test://static-binary", "test://watched-resource"])
    );
    assert_eq!(*ok(&report, "/listTemplates"), json!(["test://template/{id}/data"]));
    assert_eq!(ok(&report, "/readText")["contents"][0]["text"], "This is the content of the static text resource.");
    assert!(ok(&report, "/readBinary")["contents"][0]["blob"].as_str().is_some_and(|b| !b.is_empty()));
    assert!(ok(&report, "/readTemplate")["contents"][0]["text"].as_str().unwrap().contains("Data for ID: 7"));
    let missing = failed(&report, "/readMissing");
    assert_eq!((missing["name"].clone(), missing["code"].clone()), (json!("McpError"), json!(-32002)), "{missing}");
    ok(&report, "/subscribe");
    ok(&report, "/unsubscribe");
    assert_eq!(report["updates"], json!(["test://watched-resource"]), "one update while subscribed, none after");

    // Prompts and completion.
    let prompts = ok(&report, "/listPrompts").as_array().unwrap();
    assert_eq!(prompts.len(), 5);
    assert_eq!(
        prompts[1]["arguments"][0],
        json!({"name": "arg1", "description": "First test argument", "required": true})
    );
    assert_eq!(ok(&report, "/getSimple")["messages"][0]["content"]["text"], "This is a simple test prompt.");
    assert_eq!(
        ok(&report, "/getWithArguments")["messages"][0]["content"]["text"],
        "Prompt with arguments: arg1='one', arg2='two'"
    );
    assert_eq!(ok(&report, "/getEmbedded")["messages"][0]["content"]["resource"]["uri"], "test://example-resource");
    assert_eq!(ok(&report, "/getImage")["messages"][1]["content"]["type"], "image");
    assert_eq!(failed(&report, "/getMissingArgument")["code"], -32602);
    assert_eq!(ok(&report, "/complete")["completion"]["values"], json!(["test", "testing"]));

    // Cancellation: the SDK gave up, and the server dropped the handler (and sent nothing for it).
    let cancelled = failed(&report, "/cancelled");
    assert!(cancelled["message"].as_str().unwrap().contains("gave up"), "{cancelled}");
    assert_eq!(ok(&report, "/slowStats")["structuredContent"], json!({"started": 1, "completed": 0, "cancelled": 1}));

    // Elicitation and sampling, answered by the client.
    let elicited = &report["elicitations"][0];
    assert_eq!(elicited["message"], "Please provide your information");
    assert_eq!(elicited["requestedSchema"]["required"], json!(["username", "email"]));
    assert_eq!(
        ok(&report, "/elicitation")["content"][0]["text"],
        r#"User response: action=accept, content={"email":"ada@example.com","username":"ada"}"#
    );
    assert_eq!(report["samplings"][0]["messages"][0]["content"]["text"], "Say hello");
    assert_eq!(ok(&report, "/sampling")["content"][0]["text"], "LLM response: Hello from the page");

    // A tool added at run time.
    assert_eq!(ok(&report, "/addTool")["content"][0]["text"], "added dynamic_tool");
    assert!(report["listChanged"].as_u64().unwrap() >= 1);
    assert!(ok(&report, "/toolsAfterAdd").as_array().unwrap().contains(&json!("dynamic_tool")));
    assert_eq!(ok(&report, "/dynamic")["content"][0]["text"], "I was added at run time");

    ok(&report, "/ping");
    assert_eq!(report["frameTypes"], json!(["string"]));
    assert_eq!(report["transportErrors"], json!([]), "{report:#}");
    assert_eq!(report["fatal"], json!([]), "{report:#}");
}
