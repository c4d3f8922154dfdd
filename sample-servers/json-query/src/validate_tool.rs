//! The `validate_json` tool: is this text JSON, and if not, where does it break.

use crate::document::{self, JsonError, MAX_JSON_BYTES};
use crate::shape::{Shape, shape_of};
use mcp_worker_sdk::JsonWithText;
use mcp_worker_sdk::ToolDef;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, JsonSchema)]
struct ValidateArgs {
    /// The text to check: one JSON value.
    json: String,
}

/// The verdict.
#[derive(Debug, Serialize, JsonSchema)]
struct Validation {
    /// Whether the text is one valid JSON value.
    valid: bool,
    /// What the document holds, when it is valid.
    #[serde(skip_serializing_if = "Option::is_none")]
    shape: Option<Shape>,
    /// Where and why it breaks, when it is not.
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<JsonError>,
}

pub(crate) fn tool() -> ToolDef {
    ToolDef::new("validate_json", |args: ValidateArgs| async move { validate(&args.json) })
        .title("Validate JSON")
        .description(format!(
            "Checks that a text is one valid JSON value (RFC 8259). Valid: its type, how many values it holds and how \
             deep it nests. Invalid: the reason, the line and column, and the line with a caret under the problem. \
             At most {MAX_JSON_BYTES} bytes and 128 levels of nesting."
        ))
        .read_only()
        .idempotent()
}

fn validate(text: &str) -> Result<JsonWithText<Validation>, String> {
    document::check_size("json", text)?;
    Ok(match document::parse(text) {
        Ok(value) => {
            let shape = shape_of(&value);
            let text = format!(
                "valid JSON: {} ({} value(s), {} level(s) deep)",
                shape.description(),
                shape.values,
                shape.depth
            );
            JsonWithText { text, data: Validation { valid: true, shape: Some(shape), error: None } }
        }
        Err(error) => {
            let text = format!("invalid JSON: {error}");
            JsonWithText { text, data: Validation { valid: false, shape: None, error: Some(error) } }
        }
    })
}
