//! The tool that reads a server's resources, for agents, on servers whose config opts in (`resourceTool: true`):
//! `read_resource` with a `uri` argument, registered beside the server's own tools (as `mcp__{server}__read_resource`)
//! when the server offers resources and lists no tool of that name itself. Its result is a tool result the model
//! reads like any other: each resource an embedded `resource` block; a read the server refuses is `isError`.

use mcp_worker_client::McpClient;
use mcp_worker_client::session::ListedTools;
use mcp_worker_protocol::{ReadResourceResult, Tool, ToolAnnotations};
use serde_json::{Value, json};

/// The tool's name on its server.
pub const RESOURCE_TOOL: &str = "read_resource";

/// Adds the tool to what `client`'s server listed, if it offers resources and has no tool of that name; whether
/// it did.
pub(super) fn add_resource_tool(listed: &mut ListedTools, client: &McpClient, server: &str) -> bool {
    if !client.offers_resources() || listed.tools.iter().any(|tool| tool.name == RESOURCE_TOOL) {
        return false;
    }
    listed.tools.push(definition(server));
    listed.total += 1;
    true
}

fn definition(server: &str) -> Tool {
    let schema = json!({
        "type": "object",
        "properties": {
            "uri": {"type": "string", "description": "The resource's URI, as the server lists it (or fills a template)"}
        },
        "required": ["uri"],
        "additionalProperties": false
    });
    let mut tool = Tool::new(RESOURCE_TOOL, schema.as_object().cloned().unwrap_or_default());
    tool.title = Some(format!("Read a resource of {server}"));
    tool.description = Some(format!(
        "Reads a resource of the MCP server {server} by its URI and returns its contents (text, or binary as base64)."
    ));
    tool.annotations =
        Some(ToolAnnotations { read_only_hint: Some(true), open_world_hint: Some(false), ..Default::default() });
    tool
}

/// The `uri` argument of a call, or what is wrong with the arguments.
pub(super) fn uri_argument(arguments: Option<&serde_json::value::RawValue>) -> Result<String, String> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Arguments {
        uri: String,
    }
    let text = arguments.map_or("{}", |raw| raw.get());
    mcp_worker_protocol::json::from_str::<Arguments>(text)
        .map(|arguments| arguments.uri)
        .map_err(|e| format!("{RESOURCE_TOOL} takes {{\"uri\": \"…\"}}: {e}"))
}

/// A read as a `CallToolResult`: each resource's contents an embedded resource.
pub(super) fn read_as_tool_result(read: &ReadResourceResult) -> Value {
    let content: Vec<Value> =
        read.contents.iter().map(|contents| json!({"type": "resource", "resource": contents})).collect();
    if content.is_empty() {
        return json!({"content": [{"type": "text", "text": "the resource has no contents"}]});
    }
    json!({"content": content})
}

/// A refused read as a `CallToolResult` the model reads.
pub(super) fn refusal_as_tool_result(message: &str) -> Value {
    json!({"content": [{"type": "text", "text": message}], "isError": true})
}
