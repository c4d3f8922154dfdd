//! The tools of the conformance suite's `tools-*` scenarios, under the names and with the texts it expects.

use crate::fixtures::{EMBEDDED_TEXT, ERROR_TEXT, LOGGER, PNG, RECONNECTION_TEXT, SIMPLE_TEXT, WAV};
use mcp_worker_sdk::protocol::sampling::SamplingMessage;
use mcp_worker_sdk::{
    CallToolResult, ContentBlock, CreateMessageParams, Ctx, ElicitParams, LoggingLevel, NoArgs, ResourceContents,
    Server, ToolDef,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize, JsonSchema)]
struct SamplingArgs {
    /// The prompt to send
    prompt: String,
}

#[derive(Deserialize, JsonSchema)]
struct ElicitationArgs {
    /// The message to show
    message: String,
}

/// A schema written as JSON text. Read from text rather than built with `serde_json::json!`, whose `unwrap` of each
/// value's conversion links the standard library's Unicode tables into the bundle (through the `Debug` of
/// serde_json's error); text that is not an object reads as `{}`.
fn object(text: &str) -> mcp_worker_sdk::protocol::JsonObject {
    mcp_worker_sdk::protocol::json::from_str(text).unwrap_or_default()
}

pub(crate) fn register(server: Server) -> Server {
    server
        .tool(
            ToolDef::new("test_simple_text", |_: NoArgs| async { SIMPLE_TEXT })
                .description("Returns simple text content")
                .read_only(),
        )
        .tool(
            ToolDef::new("test_image_content", |_: NoArgs| async { ContentBlock::image(PNG, "image/png") })
                .description("Returns image content")
                .read_only(),
        )
        .tool(
            ToolDef::new("test_audio_content", |_: NoArgs| async { ContentBlock::audio(WAV, "audio/wav") })
                .description("Returns audio content")
                .read_only(),
        )
        .tool(
            ToolDef::new("test_embedded_resource", |_: NoArgs| async {
                ContentBlock::embedded(ResourceContents::text(
                    "test://embedded-resource",
                    Some("text/plain"),
                    EMBEDDED_TEXT,
                ))
            })
            .description("Returns embedded resource content")
            .read_only(),
        )
        .tool(
            ToolDef::new("test_multiple_content_types", |_: NoArgs| async {
                let json = r#"{"test":"data","value":123}"#;
                vec![
                    ContentBlock::text("Multiple content types test:"),
                    ContentBlock::image(PNG, "image/png"),
                    ContentBlock::embedded(ResourceContents::text(
                        "test://mixed-content-resource",
                        Some("application/json"),
                        json,
                    )),
                ]
            })
            .description("Returns multiple content types")
            .read_only(),
        )
        .tool(
            ToolDef::new("test_tool_with_logging", |ctx: Ctx, _: NoArgs| async move {
                for message in ["Tool execution started", "Tool processing data", "Tool execution completed"] {
                    ctx.log(LoggingLevel::Info, LOGGER, message);
                    ctx.sleep(50).await;
                }
                "Logging test completed"
            })
            .description("Sends logging notifications during execution")
            .read_only(),
        )
        .tool(
            ToolDef::new("test_error_handling", |_: NoArgs| async { CallToolResult::error(ERROR_TEXT) })
                .description("Always returns an error")
                .read_only(),
        )
        .tool(
            ToolDef::new("test_tool_with_progress", |ctx: Ctx, _: NoArgs| async move {
                for (progress, message) in [(0.0, "Starting"), (50.0, "Halfway"), (100.0, "Complete")] {
                    ctx.progress(progress, Some(100.0), Some(message));
                    ctx.sleep(50).await;
                }
                "Progress test completed"
            })
            .description("Reports progress notifications")
            .read_only(),
        )
        .tool(
            ToolDef::new("test_reconnection", |ctx: Ctx, _: NoArgs| async move {
                ctx.close_sse_stream();
                ctx.sleep(100).await;
                RECONNECTION_TEXT
            })
            .description(
                "Over Streamable HTTP, closes its SSE stream mid-call and answers once the client has reconnected \
                 (SEP-1699); answers at once elsewhere",
            )
            .read_only(),
        )
        .tool(
            ToolDef::new("test_sampling", |ctx: Ctx, args: SamplingArgs| async move {
                let request = CreateMessageParams::new(vec![SamplingMessage::user(args.prompt)], 100);
                match ctx.sample(request).await {
                    Ok(result) => CallToolResult::text(format!(
                        "LLM response: {}",
                        result.content.text().unwrap_or("No text response")
                    )),
                    Err(e) => CallToolResult::error(format!("Sampling error: {e}")),
                }
            })
            .description("Requests LLM sampling from client"),
        )
        .tool(
            ToolDef::new("test_elicitation", |ctx: Ctx, args: ElicitationArgs| async move {
                let schema = object(
                    r#"{
                    "type": "object",
                    "properties": {
                        "username": {"type": "string", "description": "User's response"},
                        "email": {"type": "string", "description": "User's email address"}
                    },
                    "required": ["username", "email"]
                }"#,
                );
                match ctx.elicit(ElicitParams::form(args.message, schema)).await {
                    Ok(result) => CallToolResult::text(format!(
                        "User response: action={}, content={}",
                        result.action,
                        serde_json::to_string(&result.content.unwrap_or_default()).unwrap_or_default()
                    )),
                    Err(e) => CallToolResult::error(format!("Elicitation error: {e}")),
                }
            })
            .description("Requests user input from client"),
        )
        .tool(
            ToolDef::new("test_elicitation_sep1034_defaults", |ctx: Ctx, _: NoArgs| async move {
                let schema = object(
                    r#"{
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "description": "User's name", "default": "John Doe"},
                        "age": {"type": "integer", "description": "User's age", "default": 30},
                        "score": {"type": "number", "description": "User's score", "default": 95.5},
                        "status": {"type": "string", "description": "User's status",
                                   "enum": ["active", "inactive", "pending"], "default": "active"},
                        "verified": {"type": "boolean", "description": "Whether user is verified", "default": true}
                    }
                }"#,
                );
                let params = ElicitParams::form("Please provide values (all have defaults)", schema);
                elicitation_outcome("Elicitation completed", ctx.elicit(params).await)
            })
            .description("Tests elicitation with default values (SEP-1034)"),
        )
        .tool(
            ToolDef::new("test_elicitation_sep1330_enums", |ctx: Ctx, _: NoArgs| async move {
                let schema = object(
                    r#"{
                    "type": "object",
                    "properties": {
                        "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
                        "titledSingle": {"type": "string", "oneOf": [
                            {"const": "value1", "title": "First Option"},
                            {"const": "value2", "title": "Second Option"},
                            {"const": "value3", "title": "Third Option"}]},
                        "legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"],
                                       "enumNames": ["Option One", "Option Two", "Option Three"]},
                        "untitledMulti": {"type": "array",
                                          "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
                        "titledMulti": {"type": "array", "items": {"anyOf": [
                            {"const": "value1", "title": "First Choice"},
                            {"const": "value2", "title": "Second Choice"},
                            {"const": "value3", "title": "Third Choice"}]}}
                    }
                }"#,
                );
                let params = ElicitParams::form("Test enum schema improvements", schema);
                elicitation_outcome("Enum elicitation completed", ctx.elicit(params).await)
            })
            .description("Tests enum schema improvements (SEP-1330)"),
        )
        .tool(
            ToolDef::new("json_schema_2020_12_tool", |args: Value| async move {
                format!("Hello, {}!", args.get("name").and_then(Value::as_str).unwrap_or("world"))
            })
            .description("Tool with JSON Schema 2020-12 features")
            .read_only()
            .input_schema(object(
                r##"{
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "$defs": {"address": {"$anchor": "addressDef", "type": "object", "properties": {
                    "street": {"type": "string"}, "city": {"type": "string"}}}},
                "properties": {
                    "name": {"type": "string"},
                    "address": {"$ref": "#/$defs/address"},
                    "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                    "phone": {"type": "string"},
                    "email": {"type": "string"}
                },
                "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
                "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
                "then": {"required": ["phone"]},
                "else": {"required": ["email"]},
                "additionalProperties": false
            }"##,
            )),
        )
}

fn elicitation_outcome(done: &str, outcome: mcp_worker_sdk::Result<mcp_worker_sdk::ElicitResult>) -> CallToolResult {
    match outcome {
        Ok(result) => CallToolResult::text(format!(
            "{done}: action={}, content={}",
            result.action,
            serde_json::to_string(&result.content.unwrap_or_default()).unwrap_or_default()
        )),
        Err(e) => CallToolResult::error(format!("Elicitation error: {e}")),
    }
}
