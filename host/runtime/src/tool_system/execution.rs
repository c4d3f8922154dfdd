//! What the tool system reports about each execution, as typed records: one when a call starts, one when it
//! finishes. The status socket turns them into `toolExecutionStarted` and `toolExecutionFinished` events; a finished
//! record carries a summary of the output (content kinds and sizes), never the output itself, so that a history of
//! events does not keep every result a server sent.

use super::result::{ToolResult, ToolStatus};
use serde::Serialize;
use serde_json::Value;

/// Where a tool runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ToolOrigin {
    /// On an MCP server.
    Mcp,
    /// In the page (a native tool).
    Native,
}

/// The call an execution record is about. A call refused before it reached a tool (unknown, not enabled, invalid
/// arguments) has no `tool`, `server` or `origin` when the name is not registered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ExecutionCall {
    /// The model's call id.
    pub call_id: String,
    /// The registry name the model called.
    pub tool_name: String,
    /// The tool's own name (on its server).
    pub tool: Option<String>,
    /// The tool's server, for an MCP tool.
    pub server: Option<String>,
    /// Where the tool runs (`source` in JSON: `mcp` or `native`).
    #[serde(rename = "source")]
    pub origin: Option<ToolOrigin>,
    /// The agent thread.
    pub thread_id: String,
    /// The agent run's trace, when given.
    pub trace_id: Option<String>,
}

/// One content block of an output: its kind and its size.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ContentSummary {
    /// The block's `type` (`text`, `image`, `audio`, `resource_link`, `resource`), or `json` for a native tool's
    /// output.
    pub kind: String,
    /// Its size in bytes as JSON text (for text and binary blocks, the text or the base64 data).
    pub bytes: usize,
}

/// What an output was, without the output.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct OutputSummary {
    /// Each content block, in order.
    pub content: Vec<ContentSummary>,
    /// The size of `structuredContent` as JSON text, when there is one.
    pub structured_bytes: Option<usize>,
}

impl OutputSummary {
    /// The summary of a [`ToolResult`]'s output, from a tool that runs at `origin`: MCP content blocks, or a native
    /// tool's value as one `json` block.
    pub fn of(result: &ToolResult, origin: Option<ToolOrigin>) -> Self {
        let Some(output) = &result.output else { return Self::default() };
        match output.get("content").and_then(Value::as_array) {
            Some(blocks) if origin == Some(ToolOrigin::Mcp) => Self {
                content: blocks.iter().map(block_summary).collect(),
                structured_bytes: output.get("structuredContent").map(json_len),
            },
            _ => Self {
                content: vec![ContentSummary { kind: "json".into(), bytes: json_len(output) }],
                ..Self::default()
            },
        }
    }
}

fn block_summary(block: &Value) -> ContentSummary {
    let kind = block.get("type").and_then(Value::as_str).unwrap_or("unknown").to_owned();
    let payload = ["text", "data", "blob"].iter().find_map(|key| block.get(*key).and_then(Value::as_str));
    let bytes = match (payload, block.get("resource")) {
        (Some(text), _) => text.len(),
        (None, Some(resource)) => {
            ["text", "blob"].iter().find_map(|key| resource.get(*key).and_then(Value::as_str)).map_or(0, str::len)
        }
        (None, None) => json_len(block),
    };
    ContentSummary { kind, bytes }
}

fn json_len(value: &Value) -> usize {
    serde_json::to_string(value).map_or(0, |text| text.len())
}

/// A call finished: how, how long it took, and what its output was.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ExecutionFinished {
    /// The call.
    #[serde(flatten)]
    pub call: ExecutionCall,
    /// `success` or `error`.
    pub status: ToolStatus,
    /// What went wrong, as the model reads it.
    pub error: Option<String>,
    /// The host error's code, when the call failed in the host (a timeout, a crashed server, …).
    pub error_code: Option<String>,
    /// How long the call took, in milliseconds.
    pub duration_ms: f64,
    /// What the output was.
    pub output: OutputSummary,
}

/// What the tool system reports.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ExecutionEvent {
    /// A call is about to be checked and run.
    Started(ExecutionCall),
    /// A call is done.
    Finished(ExecutionFinished),
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn result(output: Value) -> ToolResult {
        let mut result: ToolResult =
            mcp_worker_protocol::json::from_value(json!({"callId": "c", "toolName": "t", "status": "success"}))
                .unwrap();
        result.output = Some(output);
        result
    }

    #[test]
    fn an_mcp_output_is_summarised_by_block_kind_and_size() {
        let output = json!({
            "content": [
                {"type": "text", "text": "héllo"},
                {"type": "image", "data": "AAAA", "mimeType": "image/png"},
                {"type": "resource", "resource": {"uri": "file:///a", "text": "abc"}},
                {"type": "resource_link", "uri": "file:///b", "name": "b"}
            ],
            "structuredContent": {"n": 1}
        });
        let summary = OutputSummary::of(&result(output), Some(ToolOrigin::Mcp));
        let kinds: Vec<(&str, usize)> = summary.content.iter().map(|c| (c.kind.as_str(), c.bytes)).collect();
        let link = r#"{"name":"b","type":"resource_link","uri":"file:///b"}"#.len();
        assert_eq!(kinds, [("text", 6), ("image", 4), ("resource", 3), ("resource_link", link)]);
        assert_eq!(summary.structured_bytes, Some(7));
    }

    #[test]
    fn a_native_output_is_one_json_block() {
        let summary = OutputSummary::of(&result(json!({"now": 1000})), Some(ToolOrigin::Native));
        assert_eq!(summary.content, [ContentSummary { kind: "json".into(), bytes: 12 }]);
        assert_eq!(summary.structured_bytes, None);
    }

    #[test]
    fn no_output_is_an_empty_summary() {
        let mut refused = result(Value::Null);
        refused.output = None;
        assert_eq!(OutputSummary::of(&refused, None), OutputSummary::default());
    }
}
