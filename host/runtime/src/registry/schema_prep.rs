//! Input schemas made acceptable to each LLM API.
//!
//! MCP servers send JSON Schema 2020-12; LLM APIs accept a subset and answer a whole request with an error when one
//! tool's schema has something they reject. So each export prepares the schema for its target: it strips what the
//! target rejects, translates what can be expressed otherwise (with a note in `description`), keeps what it
//! accepts, and refuses, with a clear reason, what cannot be made acceptable. Preparation only ever *loosens* a
//! schema: arguments are still validated against the tool's original schema before any call.
//!
//! | | OpenAI | Anthropic | ART (ajv, draft-07) | MCP |
//! |---|---|---|---|---|
//! | `$schema`, `$id`, `$comment`, `$anchor`, … | stripped | stripped | stripped | kept |
//! | `exclusiveMinimum`/`exclusiveMaximum` | → `minimum`/`maximum` | → `minimum`/`maximum` | → `minimum`/`maximum` | kept |
//! | `anyOf`/`oneOf`/`allOf` at the root | merged into the root | merged into the root | kept | kept |
//! | `format` | kept | kept | → description (ajv has no formats by default) | kept |
//! | `prefixItems`, `dependentRequired` | kept | kept | → `items` array, `dependencies` | kept |
//! | other keywords | kept | kept | stripped unless ajv knows them | kept |
//! | property names outside `^[a-zA-Z0-9_.-]{1,64}$` | kept | refused | kept | kept |
//! | root not an object | refused | refused | refused | kept |

mod keywords;
mod root;

pub(super) use keywords::subschemas_mut;

use mcp_worker_protocol::JsonObject;
use mcp_worker_protocol::quoted::quoted;
use serde_json::Value;

/// Where a schema is going.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SchemaTarget {
    /// OpenAI function tools (`parameters`).
    OpenAi,
    /// Anthropic tools (`input_schema`).
    Anthropic,
    /// ART `ToolSchema` (`inputSchema`, validated by ajv in ART and sent to any of its providers).
    Art,
    /// MCP `Tool` (unchanged).
    Mcp,
}

/// A schema ready for a target, with what was changed (one line per change, with its JSON pointer).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct PreparedSchema {
    /// The schema to send.
    pub schema: JsonObject,
    /// What preparation changed, e.g. `/properties/n: exclusiveMinimum 0 → minimum 1`.
    pub changes: Vec<String>,
}

/// Why a schema cannot be sent to a target.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SchemaError {
    /// The root does not describe an object (MCP requires one; LLM APIs take named arguments only).
    #[error("the input schema's root must describe an object, but it has type {found}")]
    RootNotObject {
        /// The root's `type`.
        found: String,
    },
    /// A property name the target refuses.
    #[error("property {name} at {path} is not accepted by {target:?} (names must match ^[a-zA-Z0-9_.-]{{1,64}}$)", name = quoted(.name))]
    PropertyName {
        /// The name.
        name: String,
        /// Where (JSON pointer of the `properties` object).
        path: String,
        /// The target.
        target: SchemaTarget,
    },
}

/// Prepares an input schema for `target`.
pub fn prepare_input_schema(schema: &JsonObject, target: SchemaTarget) -> Result<PreparedSchema, SchemaError> {
    let mut prepared = PreparedSchema { schema: schema.clone(), changes: Vec::new() };
    if target == SchemaTarget::Mcp {
        return Ok(prepared);
    }
    root::normalize(&mut prepared, target)?;
    let mut value = Value::Object(std::mem::take(&mut prepared.schema));
    keywords::walk(&mut value, "", target, &mut prepared.changes)?;
    if let Value::Object(object) = value {
        prepared.schema = object;
    }
    Ok(prepared)
}

/// Prepares an output schema for `target`: the same keyword rules, without the root rules (only ART carries
/// output schemas; the others get `None`).
pub fn prepare_output_schema(schema: &JsonObject, target: SchemaTarget) -> Option<JsonObject> {
    match target {
        SchemaTarget::Mcp => Some(schema.clone()),
        SchemaTarget::Art => {
            let mut value = Value::Object(schema.clone());
            keywords::walk(&mut value, "", target, &mut Vec::new()).ok()?;
            match value {
                Value::Object(object) => Some(object),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Appends a sentence to a schema's description.
fn note(schema: &mut JsonObject, sentence: &str) {
    let text = match schema.get("description").and_then(Value::as_str) {
        Some(existing) if !existing.is_empty() => format!("{existing} ({sentence})"),
        _ => format!("({sentence})"),
    };
    schema.insert("description".into(), Value::String(text));
}

#[cfg(test)]
#[path = "schema_prep_tests.rs"]
mod tests;
