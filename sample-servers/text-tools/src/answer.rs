//! A tool result with a text written for people and models, and structured content for programs.

use mcp_worker_sdk::protocol::JsonObject;
use mcp_worker_sdk::{CallToolResult, IntoCallToolResult, Json};
use schemars::JsonSchema;
use serde::Serialize;

/// `text` is the result's text block; `data` its `structuredContent`, whose schema is the tool's `outputSchema`.
/// ([`Json`] alone would send the JSON of `data` as the text, which reads worse than plain text.)
#[derive(Debug)]
pub(crate) struct Answer<T> {
    pub(crate) text: String,
    pub(crate) data: T,
}

impl<T: Serialize + JsonSchema> IntoCallToolResult for Answer<T> {
    fn into_call_tool_result(self) -> CallToolResult {
        match serde_json::to_value(&self.data) {
            Ok(value) => CallToolResult { structured_content: Some(value), ..CallToolResult::text(self.text) },
            Err(e) => CallToolResult::error(format!("the result could not be serialized: {e}")),
        }
    }

    fn output_schema() -> Option<JsonObject> {
        <Json<T> as IntoCallToolResult>::output_schema()
    }
}
