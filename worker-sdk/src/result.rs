//! What a tool function may return: anything that converts into a `CallToolResult`.

use mcp_worker_protocol::{CallToolResult, ContentBlock, JsonObject};
use schemars::JsonSchema;
use serde::Serialize;
use std::fmt::Display;

/// Converts a tool function's return value into the result sent to the client.
///
/// Implemented for text (`String`, `&str`), content blocks (one or several: text, image, audio, resource link,
/// embedded resource), [`CallToolResult`] itself, [`Json`] (structured content with an `outputSchema`), `()` (an
/// empty success) and `Result<T, E>` where `E: Display`: an `Err` becomes a result with `isError: true` whose text is
/// the error, so the model can read it and try again.
pub trait IntoCallToolResult {
    /// Performs the conversion.
    fn into_call_tool_result(self) -> CallToolResult;

    /// The JSON Schema of the `structuredContent` this type produces, listed as the tool's `outputSchema`.
    /// `None` (the default) for results without structured content.
    fn output_schema() -> Option<JsonObject> {
        None
    }
}

impl IntoCallToolResult for CallToolResult {
    fn into_call_tool_result(self) -> CallToolResult {
        self
    }
}

impl IntoCallToolResult for String {
    fn into_call_tool_result(self) -> CallToolResult {
        CallToolResult::text(self)
    }
}

impl IntoCallToolResult for &'static str {
    fn into_call_tool_result(self) -> CallToolResult {
        CallToolResult::text(self)
    }
}

impl IntoCallToolResult for () {
    fn into_call_tool_result(self) -> CallToolResult {
        CallToolResult::success(Vec::new())
    }
}

impl IntoCallToolResult for ContentBlock {
    fn into_call_tool_result(self) -> CallToolResult {
        CallToolResult::success(vec![self])
    }
}

impl IntoCallToolResult for Vec<ContentBlock> {
    fn into_call_tool_result(self) -> CallToolResult {
        CallToolResult::success(self)
    }
}

impl<T: IntoCallToolResult, E: Display> IntoCallToolResult for Result<T, E> {
    fn into_call_tool_result(self) -> CallToolResult {
        match self {
            Ok(value) => value.into_call_tool_result(),
            Err(err) => CallToolResult::error(err.to_string()),
        }
    }

    fn output_schema() -> Option<JsonObject> {
        T::output_schema()
    }
}

/// A structured result: sent as `structuredContent`, plus its JSON text in a text block for clients that read
/// only text (as the spec recommends). The tool lists `T`'s JSON Schema as its `outputSchema`.
///
/// MCP 2025-11-25 wants an object there. A `T` whose schema is not an object (a number, a list, an enum…) is sent
/// as `{"result": value}`, and the `outputSchema` says so.
#[derive(Debug, Clone)]
pub struct Json<T>(pub T);

impl<T: Serialize + JsonSchema> IntoCallToolResult for Json<T> {
    fn into_call_tool_result(self) -> CallToolResult {
        match serde_json::to_value(&self.0) {
            Ok(value) => {
                // `to_string` rather than `Display`, which links serde_json's pretty printer too.
                let text = serde_json::to_string(&value).unwrap_or_default();
                CallToolResult { structured_content: Some(value), ..CallToolResult::text(text) }
            }
            Err(err) => CallToolResult::error(format!("the tool's result could not be serialized: {err}")),
        }
    }

    fn output_schema() -> Option<JsonObject> {
        Some(crate::schema::output_schema::<T>())
    }
}

/// Structured content with a text of its own: `text` is the result's text block, for people and models; `data` its
/// `structuredContent`, whose schema is the tool's `outputSchema`. [`Json`] sends the JSON of the data as the text,
/// which reads worse than a sentence, and a value's own text (a JSON document with its key order, a number as
/// written) can say more.
#[derive(Debug)]
pub struct JsonWithText<T> {
    /// The text block.
    pub text: String,
    /// The structured content.
    pub data: T,
}

impl<T: Serialize + JsonSchema> IntoCallToolResult for JsonWithText<T> {
    fn into_call_tool_result(self) -> CallToolResult {
        match serde_json::to_value(&self.data) {
            Ok(value) => CallToolResult { structured_content: Some(value), ..CallToolResult::text(self.text) },
            Err(err) => CallToolResult::error(format!("the tool's result could not be serialized: {err}")),
        }
    }

    fn output_schema() -> Option<JsonObject> {
        Some(crate::schema::output_schema::<T>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_become_results_the_model_can_read() {
        let r: Result<String, String> = Err("no such city".into());
        let r = r.into_call_tool_result();
        assert!(r.is_error());
        assert_eq!(r.joined_text(), "no such city");
    }

    #[test]
    fn json_results_carry_structured_content_and_text() {
        let r = Json(serde_json::json!({"temp": 21})).into_call_tool_result();
        assert_eq!(r.structured_content, Some(serde_json::json!({"temp": 21})));
        assert_eq!(r.joined_text(), r#"{"temp":21}"#);
    }
}
