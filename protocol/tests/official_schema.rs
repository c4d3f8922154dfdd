//! What we put on the wire is valid against the official MCP 2025-11-25 JSON Schema: every frame as the generic
//! JSON-RPC message type and as the specific MCP message type, every result as its MCP result type.

#![allow(clippy::disallowed_methods, reason = "tests read JSON with serde_json itself")]

#[path = "support/frames.rs"]
mod frames;
#[path = "support/schema.rs"]
mod schema;

use frames::{assert_frame, assert_notification, assert_request, assert_result, object};
use mcp_worker_protocol::jsonrpc::{self, EmptyResult};
use mcp_worker_protocol::lifecycle::{ListChangedCapability, ResourcesCapability};
use mcp_worker_protocol::notifications::{CancelledParams, ProgressParams};
use mcp_worker_protocol::version::LATEST_PROTOCOL_VERSION;
use mcp_worker_protocol::{
    Annotations, CallToolParams, CallToolResult, ClientCapabilities, ContentBlock, EmbeddedResource, ErrorObject, Icon,
    Implementation, InitializeParams, InitializeResult, JsonObject, ListToolsResult, PaginatedParams, RequestId,
    Resource, ResourceContents, Role, ServerCapabilities, TextContent, Tool, ToolAnnotations, methods,
};
use schema::assert_valid;
use serde_json::json;

fn icon() -> Icon {
    Icon {
        src: "https://example.com/icon.png".into(),
        mime_type: Some("image/png".into()),
        sizes: Some(vec!["48x48".into()]),
        theme: Some("dark".into()),
    }
}

fn annotations() -> Annotations {
    Annotations {
        audience: Some(vec![Role::User, Role::Assistant]),
        priority: Some(0.25),
        last_modified: Some("2025-05-03T14:30:00Z".into()),
    }
}

#[test]
fn initialize_with_default_capabilities_is_a_valid_initialize_request() {
    let params = InitializeParams::new(Implementation::new("mcp-worker-host", "0.1.0"), ClientCapabilities::default());
    assert_request(methods::INITIALIZE, Some(&params), "InitializeRequest");
}

#[test]
fn initialize_with_sampling_elicitation_and_roots_is_a_valid_initialize_request() {
    let caps = ClientCapabilities {
        roots: Some(ListChangedCapability::new(true)),
        sampling: Some(object(json!({"tools": {}}))),
        elicitation: Some(object(json!({"form": {}, "url": {}}))),
        experimental: Some(object(json!({"com.example/feature": {"on": true}}))),
        ..Default::default()
    };
    let client = Implementation {
        title: Some("MCP in a Worker".into()),
        description: Some("Runs MCP servers in Web Workers".into()),
        icons: Some(vec![icon()]),
        website_url: Some("https://example.com/mcp-worker".into()),
        ..Implementation::new("mcp-worker-host", "0.1.0")
    };
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
        let call = CallToolParams { meta: Some(object(json!({"progressToken": token}))), ..call.clone() };
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
        let without_reason = CancelledParams { reason: None, ..params };
        assert_notification(methods::CANCELLED, Some(&without_reason), "CancelledNotification");
    }
}

#[test]
fn progress_is_a_valid_progress_notification() {
    let bare = ProgressParams::new(RequestId::from(3), 0.0);
    assert_notification(methods::PROGRESS, Some(&bare), "ProgressNotification");
    let full = ProgressParams {
        total: Some(10.0),
        message: Some("Reticulating splines".into()),
        ..ProgressParams::new(RequestId::from("progress-1"), 2.5)
    };
    assert_notification(methods::PROGRESS, Some(&full), "ProgressNotification");
}

#[test]
fn our_initialize_result_is_a_valid_initialize_result() {
    let bare =
        InitializeResult::new(LATEST_PROTOCOL_VERSION, ServerCapabilities::default(), Implementation::new("e", "1"));
    assert_result(&bare, "InitializeResult");

    let caps = ServerCapabilities {
        tools: Some(ListChangedCapability::new(true)),
        prompts: Some(ListChangedCapability::default()),
        resources: Some(ResourcesCapability { subscribe: Some(true), list_changed: Some(false) }),
        logging: Some(JsonObject::new()),
        completions: Some(JsonObject::new()),
        ..Default::default()
    };
    let server = Implementation { icons: Some(vec![icon()]), ..Implementation::new("echo", "1.0.0") };
    let result = InitializeResult {
        instructions: Some("Call echo with a text.".into()),
        ..InitializeResult::new(LATEST_PROTOCOL_VERSION, caps, server)
    };
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
    let full = Tool {
        title: Some("Echo".into()),
        output_schema: Some(object(json!({"type": "object", "properties": {"echoed": {"type": "string"}}})).into()),
        annotations: Some(ToolAnnotations {
            title: Some("Echo".into()),
            read_only_hint: Some(true),
            destructive_hint: Some(false),
            idempotent_hint: Some(true),
            open_world_hint: Some(false),
        }),
        execution: Some(object(json!({"taskSupport": "forbidden"}))),
        icons: Some(vec![icon()]),
        meta: Some(object(json!({"com.example/origin": "test"}))),
        ..Tool::new("echo", input).with_description("Echoes its input")
    };
    let bare = Tool::new("now", object(json!({"type": "object", "additionalProperties": false})));
    assert_result(&ListToolsResult::new(vec![full, bare], Some("page-2".into())), "ListToolsResult");
}

#[test]
fn every_content_kind_is_a_valid_call_tool_result() {
    let text = TextContent {
        text: "annotated text".into(),
        annotations: Some(annotations()),
        meta: Some(object(json!({"com.example/lang": "en"}))),
    };
    let link = Resource {
        uri: "file:///project/src/main.rs".into(),
        name: "main.rs".into(),
        title: Some("Entry point".into()),
        description: Some("The binary's main".into()),
        mime_type: Some("text/x-rust".into()),
        size: Some(42),
        annotations: Some(annotations()),
        icons: Some(vec![icon()]),
        meta: Some(JsonObject::new()),
    };
    let embedded_text = EmbeddedResource {
        resource: ResourceContents::Text {
            uri: "file:///notes.txt".into(),
            mime_type: Some("text/plain".into()),
            text: "notes".into(),
            meta: None,
        },
        annotations: Some(annotations()),
        meta: None,
    };
    let embedded_blob = EmbeddedResource {
        resource: ResourceContents::Blob {
            uri: "file:///a.bin".into(),
            mime_type: Some("application/octet-stream".into()),
            blob: "AAEC".into(),
            meta: None,
        },
        annotations: None,
        meta: None,
    };
    let blocks = vec![
        ContentBlock::Text(text),
        ContentBlock::text("plain text"),
        ContentBlock::image("iVBORw0KGgo=", "image/png"),
        ContentBlock::audio("UklGRiQAAABXQVZF", "audio/wav"),
        ContentBlock::ResourceLink(link),
        ContentBlock::Resource(embedded_text),
        ContentBlock::Resource(embedded_blob),
    ];
    for block in &blocks {
        assert_valid("ContentBlock", &serde_json::to_value(block).unwrap_or_else(|e| panic!("{block:?}: {e}")));
    }
    let result = CallToolResult::success(blocks);
    assert_result(&result, "CallToolResult");
    let full = CallToolResult {
        structured_content: Some(json!({"temperature": 22.5, "conditions": "Partly cloudy"})),
        is_error: Some(false),
        meta: Some(object(json!({"com.example/elapsedMs": 12}))),
        ..result
    };
    assert_result(&full, "CallToolResult");
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
