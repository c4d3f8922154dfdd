//! Validation against the official MCP 2025-11-25 JSON Schema, vendored in the protocol crate
//! (`protocol/tests/schema/2025-11-25.json`).

use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

fn document() -> &'static Value {
    static DOCUMENT: OnceLock<Value> = OnceLock::new();
    DOCUMENT.get_or_init(|| {
        serde_json::from_str(include_str!("../../../protocol/tests/schema/2025-11-25.json"))
            .unwrap_or_else(|e| panic!("the vendored schema is not JSON: {e}"))
    })
}

/// A validator for one definition of the schema (compiled once), with formats asserted.
fn validator(def: &str) -> Arc<jsonschema::Validator> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<jsonschema::Validator>>>> = OnceLock::new();
    let mut cache = CACHE.get_or_init(Default::default).lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let compiled = cache.entry(def.to_owned()).or_insert_with(|| {
        assert!(document()["$defs"].get(def).is_some(), "the 2025-11-25 schema has no definition {def:?}");
        let mut schema = document().clone();
        schema["$ref"] = Value::String(format!("#/$defs/{def}"));
        let compiled = jsonschema::draft202012::options()
            .should_validate_formats(true)
            .build(&schema)
            .unwrap_or_else(|e| panic!("compiling {def}: {e}"));
        Arc::new(compiled)
    });
    Arc::clone(compiled)
}

/// Panics, listing every error with its instance path, unless `instance` is valid against `def`.
#[track_caller]
pub(crate) fn assert_valid(def: &str, instance: &Value) {
    let validator = validator(def);
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| {
            let path = e.instance_path().to_string();
            format!("{}: {e}", if path.is_empty() { "(root)" } else { &path })
        })
        .collect();
    assert!(
        errors.is_empty(),
        "not a valid {def} (MCP 2025-11-25):\n  {}\ninstance: {}",
        errors.join("\n  "),
        serde_json::to_string_pretty(instance).unwrap_or_default()
    );
}

/// The result definition of each request a client sends to a server.
fn result_def(method: &str) -> &'static str {
    match method {
        "initialize" => "InitializeResult",
        "ping" | "logging/setLevel" | "resources/subscribe" | "resources/unsubscribe" => "EmptyResult",
        "tools/list" => "ListToolsResult",
        "tools/call" => "CallToolResult",
        "resources/list" => "ListResourcesResult",
        "resources/templates/list" => "ListResourceTemplatesResult",
        "resources/read" => "ReadResourceResult",
        "prompts/list" => "ListPromptsResult",
        "prompts/get" => "GetPromptResult",
        "completion/complete" => "CompleteResult",
        other => panic!("a result for {other}, which no server answers"),
    }
}

/// The definition of each request a server sends to a client.
fn request_def(method: &str) -> &'static str {
    match method {
        "sampling/createMessage" => "CreateMessageRequest",
        "elicitation/create" => "ElicitRequest",
        "roots/list" => "ListRootsRequest",
        "ping" => "PingRequest",
        other => panic!("the server sent a request {other}, which servers do not send"),
    }
}

/// The definition of each notification a server sends.
fn notification_def(method: &str) -> &'static str {
    match method {
        "notifications/progress" => "ProgressNotification",
        "notifications/message" => "LoggingMessageNotification",
        "notifications/cancelled" => "CancelledNotification",
        "notifications/resources/updated" => "ResourceUpdatedNotification",
        "notifications/resources/list_changed" => "ResourceListChangedNotification",
        "notifications/tools/list_changed" => "ToolListChangedNotification",
        "notifications/prompts/list_changed" => "PromptListChangedNotification",
        // Not MCP: the SDK's hint to a Streamable HTTP transport that asked for them (Ctx::close_sse_stream).
        mcp_worker_sdk::CLOSE_SSE_STREAM => "JSONRPCNotification",
        other => panic!("the server sent a notification {other}, which servers do not send"),
    }
}

/// Checks one frame a server wrote: a JSON-RPC message, and the MCP definition of its kind. `method_of` gives the
/// method of the client request a response answers.
#[track_caller]
pub(crate) fn assert_server_frame(frame: &Value, method_of: impl Fn(&Value) -> Option<String>) {
    assert_valid("JSONRPCMessage", frame);
    if let Some(method) = frame.get("method").and_then(Value::as_str) {
        if frame.get("id").is_some() {
            assert_valid("JSONRPCRequest", frame);
            assert_valid(request_def(method), frame);
        } else {
            assert_valid("JSONRPCNotification", frame);
            assert_valid(notification_def(method), frame);
        }
    } else if frame.get("error").is_some() {
        assert_valid("JSONRPCErrorResponse", frame);
    } else {
        assert_valid("JSONRPCResultResponse", frame);
        let method = method_of(&frame["id"]).unwrap_or_else(|| panic!("a response to an unknown request: {frame}"));
        assert_valid(result_def(&method), &frame["result"]);
    }
}
