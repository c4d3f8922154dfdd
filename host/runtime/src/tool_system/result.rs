//! ART's call and result shapes, and how an MCP `CallToolResult` maps onto a `ToolResult`.

use mcp_worker_json_schema as json_schema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

/// A tool call from the LLM, as ART's `ParsedToolCall`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ParsedToolCall {
    /// The LLM's id for the call; the result carries it back unchanged.
    pub call_id: String,
    /// The registry name of the tool.
    pub tool_name: String,
    /// The arguments: an object, or a JSON text of one (as OpenAI sends them). Absent or null means `{}`.
    #[serde(default)]
    pub arguments: Value,
}

impl ParsedToolCall {
    /// A call of `tool_name` with `arguments`.
    pub fn new(call_id: impl Into<String>, tool_name: impl Into<String>, arguments: Value) -> Self {
        Self { call_id: call_id.into(), tool_name: tool_name.into(), arguments }
    }
}

/// `success` or `error` (ART's `suspended`, for human-in-the-loop tools, is not produced by this host).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ToolStatus {
    /// The tool ran and succeeded.
    Success,
    /// The call was refused, failed, or the tool reported an error (`isError: true`).
    Error,
}

/// The outcome of one call, as ART's `ToolResult`.
///
/// For an MCP tool, `output` is `{content, structuredContent?}`: every content block as the server sent it (text,
/// images, audio, resource links, embedded resources), nothing flattened away. For a native tool, `output` is what
/// the tool returned. `metadata` has `source` (`mcp` or `native`), `tool` (the tool's own name), `server`,
/// `durationMs`, `errorCode` for host errors, and `rawResult` when asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolResult {
    /// The call's id, as the LLM gave it.
    pub call_id: String,
    /// The registry name of the tool.
    pub tool_name: String,
    /// `success` or `error`.
    pub status: ToolStatus,
    /// What the tool returned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
    /// What went wrong, for the model to read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Where and how long it ran.
    #[serde(default)]
    pub metadata: Map<String, Value>,
}

impl ToolResult {
    pub(super) fn refused(call: &ParsedToolCall, error: String) -> Self {
        Self {
            call_id: call.call_id.clone(),
            tool_name: call.tool_name.clone(),
            status: ToolStatus::Error,
            output: None,
            error: Some(error),
            metadata: Map::new(),
        }
    }

    /// Whether the call succeeded.
    pub fn is_success(&self) -> bool {
        self.status == ToolStatus::Success
    }
}

/// What an MCP result becomes: status, output and error text.
pub(super) struct Mapped {
    pub(super) status: ToolStatus,
    pub(super) output: Value,
    pub(super) error: Option<String>,
    /// The `errorCode` of an error: the tool's own failure, or output that does not match its schema.
    pub(super) code: Option<&'static str>,
}

/// Maps a `CallToolResult` (JSON). `isError: true` is an error whose text is the result's text; structured content
/// is checked against the tool's output schema when it has one, within `limits`.
pub(super) fn map_mcp_result(
    result: &Value,
    tool: &str,
    output_schema: Option<&Value>,
    limits: &json_schema::Limits,
) -> Mapped {
    let content = result.get("content").cloned().unwrap_or_else(|| json!([]));
    let structured = result.get("structuredContent").cloned();
    let mut output = Map::new();
    output.insert("content".into(), content.clone());
    if let Some(structured) = &structured {
        output.insert("structuredContent".into(), structured.clone());
    }
    let output = Value::Object(output);
    if result.get("isError").and_then(Value::as_bool) == Some(true) {
        let text = joined_text(&content);
        let error = if text.is_empty() { format!("tool {tool} reported an error without text") } else { text };
        return Mapped { status: ToolStatus::Error, output, error: Some(error), code: Some(super::TOOL_FAILED) };
    }
    let problem = match (output_schema, &structured) {
        (Some(schema), Some(structured)) => {
            output_problem(json_schema::validate_with(schema, structured, limits), tool, "structured content")
        }
        (Some(_), None) => Some(format!("tool {tool} declares an output schema but returned no structured content")),
        (None, _) => None,
    };
    match problem {
        Some(error) => {
            Mapped { status: ToolStatus::Error, output, error: Some(error), code: Some(super::INVALID_OUTPUT) }
        }
        None => Mapped { status: ToolStatus::Success, output, error: None, code: None },
    }
}

/// Why a tool's `returned` value (its output, or structured content) is not accepted, after its `checked` against
/// the output schema: it does not match, or the schema is too costly to check, so the value cannot be trusted (a
/// check that gives up fails closed).
pub(super) fn output_problem(checked: json_schema::Result, tool: &str, returned: &str) -> Option<String> {
    match checked.err()? {
        json_schema::Error::TooCostly(exceeded) => Some(format!(
            "tool {tool} returned {returned} that cannot be checked: its output schema is too costly to check \
             ({exceeded})"
        )),
        invalid => Some(format!("tool {tool} returned {returned} that does not match its output schema: {invalid}")),
    }
}

fn joined_text(content: &Value) -> String {
    let texts: Vec<&str> = content
        .as_array()
        .into_iter()
        .flatten()
        .filter(|block| block.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|block| block.get("text").and_then(Value::as_str))
        .collect();
    texts.join("\n")
}
