//! What we put on the wire is valid against the official MCP 2025-11-25 JSON Schema: every frame as the generic
//! JSON-RPC message type and as the specific MCP message type, every result as its MCP result type.

#[path = "support/schema.rs"]
mod schema;

use mcp_worker_protocol::jsonrpc::{self, EmptyResult};
use mcp_worker_protocol::lifecycle::{ListChangedCapability, ResourcesCapability};
use mcp_worker_protocol::notifications::{CancelledParams, ProgressParams};
use mcp_worker_protocol::version::LATEST_PROTOCOL_VERSION;
use mcp_worker_protocol::{
    Annotations, CallToolParams, CallToolResult, ClientCapabilities, ContentBlock, EmbeddedResource, ErrorObject, Icon,
    Implementation, InitializeParams, InitializeResult, JsonObject, ListToolsResult, Message, PaginatedParams,
    RequestId, Resource, Role, ServerCapabilities, Tool, ToolAnnotations, methods,
};
use schema::assert_valid;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

/// Builds one of our types from JSON, for the ones that have no public constructor.
fn from_json<T: DeserializeOwned>(value: Value) -> T {
    serde_json::from_value(value).unwrap()
}

/// A frame we wrote is valid as a JSON-RPC message, as each of `defs`, and reads back through [`Message::parse`].
#[track_caller]
fn assert_frame(frame: &str, defs: &[&str]) {
    let value: Value = serde_json::from_str(frame).unwrap();
    assert_valid("JSONRPCMessage", &value);
    for def in defs {
        assert_valid(def, &value);
    }
    if let Err(e) = Message::parse(frame) {
        panic!("our own frame {frame} does not parse: {e}");
    }
}

#[track_caller]
fn assert_request<P: Serialize>(method: &str, params: Option<&P>, def: &str) {
    for id in [RequestId::Number(1), RequestId::from("req-1")] {
        let frame = jsonrpc::encode_request(&id, method, params).unwrap();
        assert_frame(&frame, &["JSONRPCRequest", def]);
    }
}

#[track_caller]
fn assert_notification<P: Serialize>(method: &str, params: Option<&P>, def: &str) {
    let frame = jsonrpc::encode_notification(method, params).unwrap();
    assert_frame(&frame, &["JSONRPCNotification", def]);
}

/// A result we send is valid inside a response frame, and on its own as `def`.
#[track_caller]
fn assert_result<R: Serialize>(result: &R, def: &str) {
    let frame = jsonrpc::encode_result(&RequestId::from(42), result).unwrap();
    assert_frame(&frame, &["JSONRPCResultResponse"]);
    assert_valid(def, &serde_json::from_str::<Value>(&frame).unwrap()["result"]);
}

fn icon() -> Icon {
    from_json(
        json!({"src": "https://example.com/icon.png", "mimeType": "image/png", "sizes": ["48x48"], "theme": "dark"}),
    )
}

fn annotations() -> Annotations {
    let mut a = Annotations::default();
    a.audience = Some(vec![Role::User, Role::Assistant]);
    a.priority = Some(0.25);
    a.last_modified = Some("2025-05-03T14:30:00Z".into());
    a
}

#[test]
fn initialize_with_default_capabilities_is_a_valid_initialize_request() {
    let params = InitializeParams::new(Implementation::new("mcp-worker-host", "0.1.0"), ClientCapabilities::default());
    assert_request(methods::INITIALIZE, Some(&params), "InitializeRequest");
}

#[test]
fn initialize_with_sampling_elicitation_and_roots_is_a_valid_initialize_request() {
    let mut caps = ClientCapabilities::default();
    caps.roots = Some(ListChangedCapability::new(true));
    caps.sampling = Some(object(json!({"tools": {}})));
    caps.elicitation = Some(object(json!({"form": {}, "url": {}})));
    caps.experimental = Some(object(json!({"com.example/feature": {"on": true}})));
    let mut client = Implementation::new("mcp-worker-host", "0.1.0");
    client.title = Some("MCP in a Worker".into());
    client.description = Some("Runs MCP servers in Web Workers".into());
    client.icons = Some(vec![icon()]);
    client.website_url = Some("https://example.com/mcp-worker".into());
    assert_request(methods::INITIALIZE, Some(&InitializeParams::new(client, caps)), "InitializeRequest");
}

#[test]
fn tools_list_with_and_without_a_cursor_is_a_valid_list_tools_request() {
    assert_request(methods::TOOLS_LIST, None::<&PaginatedParams>, "ListToolsRequest");
    assert_request(methods::TOOLS_LIST, Some(&PaginatedParams::default()), "ListToolsRequest");
    assert_request(methods::TOOLS_LIST, Some(&PaginatedParams::new(Some("page-2".into()))), "ListToolsRequest");
}

#[test]
fn tools_call_with_arguments_and_a_progress_token_is_a_valid_call_tool_request() {
    let call = CallToolParams::new("echo", Some(object(json!({"text": "hi", "times": 2}))));
    assert_request(methods::TOOLS_CALL, Some(&call), "CallToolRequest");
    assert_request(methods::TOOLS_CALL, Some(&CallToolParams::new("now", None)), "CallToolRequest");
    for token in [json!("progress-1"), json!(7)] {
        let mut call = call.clone();
        call.meta = Some(object(json!({"progressToken": token})));
        assert_request(methods::TOOLS_CALL, Some(&call), "CallToolRequest");
    }
}

#[test]
fn ping_without_params_is_a_valid_ping_request() {
    assert_request(methods::PING, None::<&()>, "PingRequest");
}

#[test]
fn initialized_is_a_valid_initialized_notification() {
    assert_notification(methods::INITIALIZED, None::<&()>, "InitializedNotification");
}

#[test]
fn cancellation_is_a_valid_cancelled_notification() {
    for id in [RequestId::from(7), RequestId::from("req-7")] {
        let params = CancelledParams::new(id, "the user pressed stop");
        assert_notification(methods::CANCELLED, Some(&params), "CancelledNotification");
        let mut without_reason = params.clone();
        without_reason.reason = None;
        assert_notification(methods::CANCELLED, Some(&without_reason), "CancelledNotification");
    }
}

#[test]
fn progress_is_a_valid_progress_notification() {
    let bare = ProgressParams::new(RequestId::from(3), 0.0);
    assert_notification(methods::PROGRESS, Some(&bare), "ProgressNotification");
    let mut full = ProgressParams::new(RequestId::from("progress-1"), 2.5);
    full.total = Some(10.0);
    full.message = Some("Reticulating splines".into());
    assert_notification(methods::PROGRESS, Some(&full), "ProgressNotification");
}

#[test]
fn our_initialize_result_is_a_valid_initialize_result() {
    let mut caps = ServerCapabilities::default();
    assert_result(
        &InitializeResult::new(LATEST_PROTOCOL_VERSION, caps.clone(), Implementation::new("echo", "1")),
        "InitializeResult",
    );

    caps.tools = Some(ListChangedCapability::new(true));
    caps.prompts = Some(ListChangedCapability::default());
    let mut resources = ResourcesCapability::default();
    resources.subscribe = Some(true);
    resources.list_changed = Some(false);
    caps.resources = Some(resources);
    caps.logging = Some(JsonObject::new());
    caps.completions = Some(JsonObject::new());
    let mut server = Implementation::new("echo", "1.0.0");
    server.icons = Some(vec![icon()]);
    let mut result = InitializeResult::new(LATEST_PROTOCOL_VERSION, caps, server);
    result.instructions = Some("Call echo with a text.".into());
    assert_result(&result, "InitializeResult");
}

#[test]
fn a_tools_page_with_every_tool_member_is_a_valid_list_tools_result() {
    assert_result(&ListToolsResult::default(), "ListToolsResult");

    let input = object(json!({
        "type": "object",
        "properties": {"text": {"type": "string", "description": "What to echo"}},
        "required": ["text"],
    }));
    let mut full = Tool::new("echo", input.clone()).with_description("Echoes its input");
    full.title = Some("Echo".into());
    full.output_schema = Some(object(json!({"type": "object", "properties": {"echoed": {"type": "string"}}})));
    let mut hints = ToolAnnotations::default();
    hints.title = Some("Echo".into());
    hints.read_only_hint = Some(true);
    hints.destructive_hint = Some(false);
    hints.idempotent_hint = Some(true);
    hints.open_world_hint = Some(false);
    full.annotations = Some(hints);
    full.execution = Some(object(json!({"taskSupport": "forbidden"})));
    full.icons = Some(vec![icon()]);
    full.meta = Some(object(json!({"com.example/origin": "test"})));
    let bare = Tool::new("now", object(json!({"type": "object", "additionalProperties": false})));
    assert_result(&ListToolsResult::new(vec![full, bare], Some("page-2".into())), "ListToolsResult");
}

#[test]
fn every_content_kind_is_a_valid_call_tool_result() {
    let mut text = ContentBlock::text("plain text");
    if let ContentBlock::Text(t) = &mut text {
        t.annotations = Some(annotations());
        t.meta = Some(object(json!({"com.example/lang": "en"})));
    }
    let link: Resource = from_json(json!({
        "uri": "file:///project/src/main.rs", "name": "main.rs", "title": "Entry point", "description": "main",
        "mimeType": "text/x-rust", "size": 42, "annotations": annotations(), "icons": [icon()],
    }));
    let embedded_text: EmbeddedResource = from_json(json!({
        "resource": {"uri": "file:///notes.txt", "mimeType": "text/plain", "text": "notes"},
        "annotations": annotations(),
    }));
    let embedded_blob: EmbeddedResource = from_json(
        json!({"resource": {"uri": "file:///a.bin", "mimeType": "application/octet-stream", "blob": "AAEC"}}),
    );
    let blocks = vec![
        text,
        ContentBlock::text("no annotations"),
        ContentBlock::image("iVBORw0KGgo=", "image/png"),
        ContentBlock::audio("UklGRiQAAABXQVZF", "audio/wav"),
        ContentBlock::ResourceLink(link),
        ContentBlock::Resource(embedded_text),
        ContentBlock::Resource(embedded_blob),
    ];
    for block in &blocks {
        assert_valid("ContentBlock", &serde_json::to_value(block).unwrap());
    }
    let mut result = CallToolResult::success(blocks);
    assert_result(&result, "CallToolResult");
    result.structured_content = Some(json!({"temperature": 22.5, "conditions": "Partly cloudy"}));
    result.is_error = Some(false);
    result.meta = Some(object(json!({"com.example/elapsedMs": 12})));
    assert_result(&result, "CallToolResult");
}

#[test]
fn a_failed_call_is_a_valid_call_tool_result() {
    assert_result(&CallToolResult::error("the tool failed: no such file"), "CallToolResult");
    assert_result(&CallToolResult::success(Vec::new()), "CallToolResult");
}

#[test]
fn the_ping_answer_is_a_valid_empty_result() {
    assert_result(&EmptyResult::default(), "EmptyResult");
}

#[test]
fn every_error_constructor_gives_a_valid_error_response() {
    let errors = [
        ErrorObject::parse_error("invalid JSON: EOF while parsing"),
        ErrorObject::invalid_request("a message must be a JSON object"),
        ErrorObject::method_not_found("prompts/list"),
        ErrorObject::invalid_params("Unknown tool: nope"),
        ErrorObject::internal_error("the worker crashed"),
        ErrorObject::resource_not_found("file:///missing.txt"),
        ErrorObject::new(-32042, "custom").with_data(json!([1, "two", null])),
    ];
    for error in &errors {
        assert_valid("Error", &serde_json::to_value(error).unwrap());
        for id in [None, Some(RequestId::from(9)), Some(RequestId::from("req-9"))] {
            assert_frame(&jsonrpc::encode_error(id.as_ref(), error), &["JSONRPCErrorResponse"]);
        }
    }
}

/// The checks above are only worth something if the validator rejects what the schema forbids.
#[test]
fn the_schema_check_rejects_frames_mcp_forbids() {
    let invalid = [
        ("JSONRPCRequest", json!({"jsonrpc": "2.0", "id": null, "method": "ping"})),
        ("JSONRPCRequest", json!({"jsonrpc": "1.0", "id": 1, "method": "ping"})),
        ("InitializeRequest", json!({"jsonrpc": "2.0", "id": 1, "method": "initialize"})),
        ("PingRequest", json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})),
        ("CallToolResult", json!({"structuredContent": {}})),
        ("CallToolResult", json!({"content": [{"type": "text"}]})),
        ("CallToolResult", json!({"content": [{"type": "image", "data": "AA=="}]})),
        ("Annotations", json!({"priority": 1.5})),
        ("Tool", json!({"name": "t", "inputSchema": {"type": "array"}})),
        ("Icon", json!({"src": "not a uri"})),
        ("JSONRPCErrorResponse", json!({"jsonrpc": "2.0", "id": 1, "error": {"code": 1.5, "message": "x"}})),
    ];
    for (def, instance) in invalid {
        assert!(!schema::errors(def, &instance).is_empty(), "{def} accepted {instance}");
    }
}
