//! Bounds on what a server's tool list may put in the registry and, through it, before a model.
//!
//! Servers are untrusted: one could list a million tools, a megabyte of description, or terminal escapes and
//! other control characters meant to confuse whoever reads the text. So each list is bounded when it is
//! registered ([`ToolLimits`], each bound with a default an application can change):
//!
//! - at most [`ToolLimits::max_tools_per_server`] tools (1,000): the first ones listed are kept, the rest dropped;
//! - `description` cut to [`ToolLimits::max_description_chars`] (4,096) and `title` (and `annotations.title`) to
//!   [`ToolLimits::max_title_chars`] (256) characters, ending in [`TRUNCATION_MARKER`];
//! - control characters other than newline and tab removed from titles and descriptions, and from the `title` and
//!   `description` of every subschema of the input and output schemas (those also cut to the description bound).
//!   A tool's own name is kept as it is, since the server is called by it; the registry name the model sees never
//!   has control characters, and neither does any text the export writes about the tool.
//!
//! Every bound a list goes past is a [`LimitViolation`], reported with the server's name.

mod text;

pub use text::TRUNCATION_MARKER;
pub(crate) use text::shown;

use super::schema_prep::subschemas_mut;
use mcp_worker_protocol::quoted::quoted;
use mcp_worker_protocol::{JsonObject, ObjectText, Tool};
use serde::Serialize;
use serde_json::Value;
use std::fmt;
use text::{Cleaned, clean, has_controls};

/// The default of [`ToolLimits::max_tools_per_server`].
pub const DEFAULT_MAX_TOOLS_PER_SERVER: usize = 1_000;
/// The default of [`ToolLimits::max_description_chars`].
pub const DEFAULT_MAX_DESCRIPTION_CHARS: usize = 4_096;
/// The default of [`ToolLimits::max_title_chars`].
pub const DEFAULT_MAX_TITLE_CHARS: usize = 256;
/// How much of a tool's name a report shows.
const SHOWN_NAME_CHARS: usize = 128;
/// How deep the walk through a schema goes (JSON parsing stops at 128 levels anyway).
const MAX_SCHEMA_DEPTH: usize = 128;

/// Bounds on each server's tool list. The defaults suit most pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ToolLimits {
    /// Tools registered per server; those listed after are dropped ([`DEFAULT_MAX_TOOLS_PER_SERVER`]).
    pub max_tools_per_server: usize,
    /// Characters of a tool's `description`, and of each description inside its schemas
    /// ([`DEFAULT_MAX_DESCRIPTION_CHARS`]).
    pub max_description_chars: usize,
    /// Characters of a tool's `title` and `annotations.title` ([`DEFAULT_MAX_TITLE_CHARS`]).
    pub max_title_chars: usize,
}

impl Default for ToolLimits {
    fn default() -> Self {
        Self {
            max_tools_per_server: DEFAULT_MAX_TOOLS_PER_SERVER,
            max_description_chars: DEFAULT_MAX_DESCRIPTION_CHARS,
            max_title_chars: DEFAULT_MAX_TITLE_CHARS,
        }
    }
}

/// Which text of a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum TextField {
    /// Its own name.
    Name,
    /// `title` or `annotations.title`.
    Title,
    /// `description`.
    Description,
    /// A `title` or `description` inside `inputSchema`.
    InputSchema,
    /// A `title` or `description` inside `outputSchema`.
    OutputSchema,
}

impl fmt::Display for TextField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Name => "name",
            Self::Title => "title",
            Self::Description => "description",
            Self::InputSchema => "input schema",
            Self::OutputSchema => "output schema",
        })
    }
}

/// A bound a server's tool list went past, and what was done about it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
#[non_exhaustive]
pub enum LimitViolation {
    /// More tools than [`ToolLimits::max_tools_per_server`]: the first `kept` are registered.
    TooManyTools {
        /// How many the server listed.
        listed: usize,
        /// How many were kept.
        kept: usize,
    },
    /// A text was longer than its bound and was cut.
    Truncated {
        /// The tool's name (without control characters, at most 128 characters).
        tool: String,
        /// Which text (for a schema, its longest text).
        field: TextField,
        /// Its length in characters.
        chars: usize,
        /// The bound.
        max: usize,
    },
    /// A text had control characters; they were removed (from a name: where the name is shown to a model).
    ControlCharacters {
        /// The tool's name (without control characters, at most 128 characters).
        tool: String,
        /// Which text.
        field: TextField,
    },
}

impl fmt::Display for LimitViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooManyTools { listed, kept } => {
                write!(f, "{listed} tools listed, at most {kept} are registered; the rest were dropped")
            }
            Self::Truncated { tool, field, chars, max } => {
                write!(f, "the {field} of tool {tool} has {chars} characters; cut to {max}", tool = quoted(tool))
            }
            Self::ControlCharacters { tool, field } => {
                write!(f, "the {field} of tool {tool} has control characters; removed", tool = quoted(tool))
            }
        }
    }
}

/// The bounds one server's tool list went past.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct LimitReport {
    /// The server.
    pub server: String,
    /// Each bound it went past.
    pub violations: Vec<LimitViolation>,
    /// The same in a sentence that names the server.
    pub message: String,
}

impl LimitReport {
    pub(super) fn new(server: &str, violations: Vec<LimitViolation>) -> Self {
        let message = format!("server {}: {}", quoted(server), describe(&violations));
        Self { server: server.to_owned(), violations, message }
    }
}

/// The first three violations, and how many more.
pub(super) fn describe(violations: &[LimitViolation]) -> String {
    const SHOWN: usize = 3;
    let mut text: Vec<String> = violations.iter().take(SHOWN).map(ToString::to_string).collect();
    if violations.len() > SHOWN {
        text.push(format!("and {} more", violations.len() - SHOWN));
    }
    text.join("; ")
}

/// `tools` within `limits`, and what was beyond them; `listed` is how many the server listed (at least
/// `tools.len()`: a caller may have decoded only the first ones).
pub(super) fn bound(mut tools: Vec<Tool>, listed: usize, limits: &ToolLimits) -> (Vec<Tool>, Vec<LimitViolation>) {
    let mut violations = Vec::new();
    let listed = listed.max(tools.len());
    if listed > limits.max_tools_per_server {
        tools.truncate(limits.max_tools_per_server);
        violations.push(LimitViolation::TooManyTools { listed, kept: limits.max_tools_per_server });
    }
    for tool in &mut tools {
        bound_tool(tool, limits, &mut violations);
    }
    (tools, violations)
}

fn bound_tool(tool: &mut Tool, limits: &ToolLimits, violations: &mut Vec<LimitViolation>) {
    let name = shown(&tool.name, SHOWN_NAME_CHARS);
    let mut report = |field: TextField, cleaned: Cleaned, max: usize| {
        if cleaned.controls {
            violations.push(LimitViolation::ControlCharacters { tool: name.clone(), field });
        }
        if let Some(chars) = cleaned.cut_from {
            violations.push(LimitViolation::Truncated { tool: name.clone(), field, chars, max });
        }
    };
    if has_controls(&tool.name) {
        report(TextField::Name, Cleaned { controls: true, cut_from: None }, 0);
    }
    let title = limits.max_title_chars;
    let annotation_title = tool.annotations.as_mut().and_then(|a| a.title.as_mut());
    for text in tool.title.iter_mut().chain(annotation_title) {
        report(TextField::Title, clean(text, title), title);
    }
    let description = limits.max_description_chars;
    if let Some(text) = &mut tool.description {
        report(TextField::Description, clean(text, description), description);
    }
    report(TextField::InputSchema, clean_schema(&mut tool.input_schema, description), description);
    if let Some(schema) = &mut tool.output_schema {
        report(TextField::OutputSchema, clean_schema(schema, description), description);
    }
}

/// Cleans the `title` and `description` of every subschema; what changed, over all of them. The text is read only
/// when it may hold such a keyword (a key spelled with escapes has a backslash), and written back only when changed.
fn clean_schema(schema: &mut ObjectText, max: usize) -> Cleaned {
    let text = schema.get();
    if !(text.contains("title") || text.contains("description") || text.contains('\\')) {
        return Cleaned::default();
    }
    let mut object = schema.to_object();
    let mut total = Cleaned::default();
    clean_subschema(&mut object, max, 0, &mut total);
    if total.controls || total.cut_from.is_some() {
        *schema = ObjectText::from(object);
    }
    total
}

fn clean_subschema(schema: &mut JsonObject, max: usize, depth: usize, total: &mut Cleaned) {
    for keyword in ["title", "description"] {
        if let Some(Value::String(text)) = schema.get_mut(keyword) {
            let cleaned = clean(text, max);
            total.controls |= cleaned.controls;
            total.cut_from = total.cut_from.max(cleaned.cut_from);
        }
    }
    if depth >= MAX_SCHEMA_DEPTH {
        return;
    }
    for sub in subschemas_mut(schema) {
        if let Value::Object(sub) = sub {
            clean_subschema(sub, max, depth + 1, total);
        }
    }
}

#[cfg(test)]
#[path = "limits_tests.rs"]
mod tests;
