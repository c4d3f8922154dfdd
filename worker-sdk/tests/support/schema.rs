//! Validation against the official MCP JSON Schemas of 2025-11-25 and 2026-07-28, vendored in the protocol crate
//! (`protocol/tests/schema/`).

use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The revision whose schema a frame is checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Revision {
    /// 2025-11-25, the handshake era.
    Handshake,
    /// 2026-07-28, the modern era.
    Modern,
}

impl Revision {
    fn name(self) -> &'static str {
        match self {
            Self::Handshake => "2025-11-25",
            Self::Modern => "2026-07-28",
        }
    }
}

fn document(revision: Revision) -> &'static Value {
    static HANDSHAKE: OnceLock<Value> = OnceLock::new();
    static MODERN: OnceLock<Value> = OnceLock::new();
    let parse =
        |text: &str| serde_json::from_str(text).unwrap_or_else(|e| panic!("the vendored schema is not JSON: {e}"));
    match revision {
        Revision::Handshake => {
            HANDSHAKE.get_or_init(|| parse(include_str!("../../../protocol/tests/schema/2025-11-25.json")))
        }
        Revision::Modern => {
            MODERN.get_or_init(|| parse(include_str!("../../../protocol/tests/schema/2026-07-28.json")))
        }
    }
}

/// Compiled validators, by revision and definition.
type Validators = Mutex<HashMap<(Revision, String), Arc<jsonschema::Validator>>>;

/// A validator for one definition of the schema (compiled once), with formats asserted.
fn validator(revision: Revision, def: &str) -> Arc<jsonschema::Validator> {
    static CACHE: OnceLock<Validators> = OnceLock::new();
    let mut cache = CACHE.get_or_init(Default::default).lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let compiled = cache.entry((revision, def.to_owned())).or_insert_with(|| {
        let document = document(revision);
        assert!(document["$defs"].get(def).is_some(), "the {} schema has no definition {def:?}", revision.name());
        let mut schema = document.clone();
        schema["$ref"] = Value::String(format!("#/$defs/{def}"));
        let compiled = jsonschema::draft202012::options()
            .should_validate_formats(true)
            .build(&schema)
            .unwrap_or_else(|e| panic!("compiling {def}: {e}"));
        Arc::new(compiled)
    });
    Arc::clone(compiled)
}

/// Panics, listing every error with its instance path, unless `instance` is valid against `def` of `revision`.
#[track_caller]
pub(crate) fn assert_valid_in(revision: Revision, def: &str, instance: &Value) {
    let validator = validator(revision, def);
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| {
            let path = e.instance_path().to_string();
            format!("{}: {e}", if path.is_empty() { "(root)" } else { &path })
        })
        .collect();
    assert!(
        errors.is_empty(),
        "not a valid {def} (MCP {}):\n  {}\ninstance: {}",
        revision.name(),
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
        "server/discover" => "DiscoverResult",
        "subscriptions/listen" => "SubscriptionsListenResult",
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
        "notifications/subscriptions/acknowledged" => "SubscriptionsAcknowledgedNotification",
        // Not MCP: the SDK's hint to a Streamable HTTP transport that asked for them (Ctx::close_sse_stream).
        mcp_worker_sdk::CLOSE_SSE_STREAM => "JSONRPCNotification",
        other => panic!("the server sent a notification {other}, which servers do not send"),
    }
}

/// The error definitions of the modern era, by code.
fn error_def(revision: Revision, code: Option<i64>) -> &'static str {
    match (revision, code) {
        (Revision::Modern, Some(-32020)) => "HeaderMismatchError",
        (Revision::Modern, Some(-32021)) => "MissingRequiredClientCapabilityError",
        (Revision::Modern, Some(-32022)) => "UnsupportedProtocolVersionError",
        _ => "JSONRPCErrorResponse",
    }
}

/// Checks one frame a server wrote: a JSON-RPC message of `revision`, and the MCP definition of its kind.
/// `method_of` gives the method of the client request a response answers.
#[track_caller]
pub(crate) fn assert_server_frame(revision: Revision, frame: &Value, method_of: impl Fn(&Value) -> Option<String>) {
    let valid = |def: &str, instance: &Value| assert_valid_in(revision, def, instance);
    valid("JSONRPCMessage", frame);
    if let Some(method) = frame.get("method").and_then(Value::as_str) {
        if frame.get("id").is_some() {
            assert!(revision == Revision::Handshake, "a server of 2026-07-28 sends no requests: {frame}");
            valid("JSONRPCRequest", frame);
            valid(request_def(method), frame);
        } else {
            valid("JSONRPCNotification", frame);
            valid(notification_def(method), frame);
        }
    } else if frame.get("error").is_some() {
        valid(error_def(revision, frame["error"]["code"].as_i64()), frame);
    } else {
        valid("JSONRPCResultResponse", frame);
        let method = method_of(&frame["id"]).unwrap_or_else(|| panic!("a response to an unknown request: {frame}"));
        match frame["result"]["resultType"].as_str() {
            Some("input_required") => valid("InputRequiredResult", &frame["result"]),
            _ => valid(result_def(&method), &frame["result"]),
        }
    }
}
