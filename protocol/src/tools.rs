//! Tools: definitions, listing with cursors, calls and their results.

use crate::JsonObject;
use crate::ObjectText;
use crate::content::ContentBlock;
use crate::lifecycle::Icon;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Hints about a tool's behaviour. They are hints from the server and untrusted unless the server is.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool does not modify its environment (default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// The tool may perform destructive updates (default true; meaningful when not read-only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Repeating a call with the same arguments has no further effect (default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// The tool interacts with an open world of external entities (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
}

impl ToolAnnotations {
    /// Whether the hints, with the spec's defaults applied, say the tool may be destructive:
    /// a missing `destructiveHint` counts as true unless `readOnlyHint` is true.
    pub fn is_destructive(&self) -> bool {
        !self.read_only_hint.unwrap_or(false) && self.destructive_hint.unwrap_or(true)
    }
}

/// A tool definition as listed by `tools/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tool {
    /// Unique name within the server.
    pub name: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the tool does, for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// JSON Schema (2020-12 unless `$schema` says otherwise) of the arguments; root type object. Kept as text:
    /// a host stores many and reads each only when a call is checked or the tools are exported.
    pub input_schema: ObjectText,
    /// JSON Schema of `structuredContent`, when the tool returns it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<ObjectText>,
    /// Behaviour hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotations>,
    /// Task support and other execution properties.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub execution: Option<JsonObject>,
    /// Icons for display.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

impl Tool {
    /// A tool with a name and an input schema.
    pub fn new(name: impl Into<String>, input_schema: impl Into<ObjectText>) -> Self {
        Self {
            name: name.into(),
            title: None,
            description: None,
            input_schema: input_schema.into(),
            output_schema: None,
            annotations: None,
            execution: None,
            icons: None,
            meta: None,
        }
    }

    /// Sets the description.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }
}

/// Params of the paginated list methods (`tools/list` and others).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PaginatedParams {
    /// The opaque cursor from the previous page's `nextCursor`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
}

impl PaginatedParams {
    /// The page after `cursor` (or the first page).
    pub fn new(cursor: Option<String>) -> Self {
        Self { cursor }
    }
}

/// `tools/list` result.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListToolsResult {
    /// This page of tools.
    pub tools: Vec<Tool>,
    /// The cursor of the next page; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

impl ListToolsResult {
    /// A page of tools.
    pub fn new(tools: Vec<Tool>, next_cursor: Option<String>) -> Self {
        Self { tools, next_cursor }
    }
}

/// `tools/call` params.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CallToolParams {
    /// The tool's name.
    pub name: String,
    /// The arguments, an object matching the tool's `inputSchema`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<JsonObject>,
    /// Request metadata, e.g. `progressToken`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

impl CallToolParams {
    /// A call of `name` with `arguments`.
    pub fn new(name: impl Into<String>, arguments: Option<JsonObject>) -> Self {
        Self { name: name.into(), arguments, meta: None }
    }
}

/// `tools/call` result. Execution errors are results with `isError: true`, so the model can read them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToolResult {
    /// What the tool returned.
    pub content: Vec<ContentBlock>,
    /// A JSON object matching the tool's `outputSchema`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    /// Whether the call failed (absent means false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_error: Option<bool>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

impl CallToolResult {
    /// A successful result.
    pub fn success(content: Vec<ContentBlock>) -> Self {
        Self { content, ..Self::default() }
    }

    /// A failed result whose text tells the model what went wrong.
    pub fn error(message: impl Into<String>) -> Self {
        Self { content: vec![ContentBlock::text(message)], is_error: Some(true), ..Self::default() }
    }

    /// A successful result with one text block.
    pub fn text(text: impl Into<String>) -> Self {
        Self::success(vec![ContentBlock::text(text)])
    }

    /// Whether the call failed.
    pub fn is_error(&self) -> bool {
        self.is_error.unwrap_or(false)
    }

    /// The text blocks joined by newlines: what a text-only consumer sees.
    pub fn joined_text(&self) -> String {
        let texts: Vec<&str> = self
            .content
            .iter()
            .filter_map(|c| match c {
                ContentBlock::Text(t) => Some(t.text.as_str()),
                _ => None,
            })
            .collect();
        texts.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destructive_follows_the_spec_defaults() {
        assert!(ToolAnnotations::default().is_destructive(), "missing hints mean destructive");
        let read_only = ToolAnnotations { read_only_hint: Some(true), ..Default::default() };
        assert!(!read_only.is_destructive());
        let safe = ToolAnnotations { destructive_hint: Some(false), ..Default::default() };
        assert!(!safe.is_destructive());
        let both = ToolAnnotations { read_only_hint: Some(true), destructive_hint: Some(true), ..Default::default() };
        assert!(!both.is_destructive(), "destructiveHint only counts when not read-only");
    }

    #[test]
    fn an_absent_is_error_means_success() {
        let r: CallToolResult = crate::json::from_str(r#"{"content":[]}"#).unwrap();
        assert!(!r.is_error());
        assert!(CallToolResult::error("x").is_error());
    }
}
