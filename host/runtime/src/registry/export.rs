//! The registry's tools in the formats LLM APIs and agent frameworks take.

use super::ToolEntry;
use super::limits::{ToolLimits, shown};
use super::schema_prep::{SchemaError, SchemaTarget, prepare_input_schema, prepare_output_schema};
use serde_json::value::{RawValue, to_raw_value};
use serde_json::{Map, Value, json};

/// A tool-list format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ExportFormat {
    /// OpenAI Chat Completions function tools: `{type: "function", function: {name, description, parameters}}`.
    OpenAi,
    /// Anthropic Messages tools: `{name, description, input_schema}`.
    Anthropic,
    /// ART `ToolSchema`: `{name, description, inputSchema, outputSchema?}`.
    Art,
    /// MCP `Tool` as the server listed it (texts bounded, see [`super::limits`]), renamed to its registry name.
    Mcp,
}

impl ExportFormat {
    fn target(self) -> SchemaTarget {
        match self {
            Self::OpenAi => SchemaTarget::OpenAi,
            Self::Anthropic => SchemaTarget::Anthropic,
            Self::Art => SchemaTarget::Art,
            Self::Mcp => SchemaTarget::Mcp,
        }
    }
}

/// How tools are written out, beyond their format.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExportOptions {
    /// Begin each MCP tool's description with its server's name in brackets (`[github] Search issues`), as
    /// browser IDEs show tools of several servers to a model. Native tools have no server and no prefix.
    pub server_prefix: bool,
}

impl ExportOptions {
    /// With (or without) the `[server]` prefix on descriptions.
    pub fn server_prefix(mut self, prefix: bool) -> Self {
        self.server_prefix = prefix;
        self
    }
}

/// An exported tool list.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Export {
    /// The tools, in registry-name order, each as its JSON text: a list of thousands is a few hundred bytes per tool,
    /// not a tree of maps.
    pub tools: Vec<Box<RawValue>>,
    /// Tools left out because their schema cannot be made acceptable to the target, with why.
    pub skipped: Vec<(String, SchemaError)>,
}

pub(super) fn export(
    entries: &[ToolEntry],
    format: ExportFormat,
    options: ExportOptions,
    limits: &ToolLimits,
) -> Export {
    let mut out = Export::default();
    for entry in entries {
        match export_one(entry, format, options, limits) {
            // A value without non-string keys always serializes.
            Ok(tool) => out.tools.push(to_raw_value(&tool).unwrap_or_else(|_| RawValue::NULL.to_owned())),
            Err(error) => out.skipped.push((entry.name.clone(), error)),
        }
    }
    out
}

fn export_one(
    entry: &ToolEntry,
    format: ExportFormat,
    options: ExportOptions,
    limits: &ToolLimits,
) -> Result<Value, SchemaError> {
    let definition = &entry.definition;
    let prefixed = |description: String| match entry.server() {
        Some(server) if options.server_prefix => format!("[{server}] {description}"),
        _ => description,
    };
    if format == ExportFormat::Mcp {
        let mut tool = serde_json::to_value(definition.as_ref()).unwrap_or_else(|_| json!({}));
        if let Value::Object(fields) = &mut tool {
            fields.insert("name".into(), Value::String(entry.name.clone()));
            if options.server_prefix && entry.server().is_some() {
                let description = fields.get("description").and_then(Value::as_str).map(str::to_owned);
                fields.insert("description".into(), Value::String(prefixed(description.unwrap_or_default())));
            }
        }
        return Ok(tool);
    }
    let target = format.target();
    let parameters = Value::Object(prepare_input_schema(&definition.input_schema.to_object(), target)?.schema);
    let description = Value::String(prefixed(description(entry, limits)));
    let name = Value::String(entry.name.clone());
    Ok(match format {
        ExportFormat::OpenAi => {
            json!({"type": "function", "function": {"name": name, "description": description, "parameters": parameters}})
        }
        ExportFormat::Anthropic => json!({"name": name, "description": description, "input_schema": parameters}),
        _ => {
            let mut schema = Map::new();
            schema.insert("name".into(), name);
            schema.insert("description".into(), description);
            schema.insert("inputSchema".into(), parameters);
            let output = definition.output_schema.as_ref().and_then(|s| prepare_output_schema(&s.to_object(), target));
            if let Some(output) = output {
                schema.insert("outputSchema".into(), Value::Object(output));
            }
            Value::Object(schema)
        }
    })
}

/// The tool's description; ART requires one and the models do better with one, so a tool without gets its title
/// or a sentence naming it and its server. (An MCP tool's description and title were bounded when it was
/// registered; the names in the sentence are bounded here.)
fn description(entry: &ToolEntry, limits: &ToolLimits) -> String {
    let definition = &entry.definition;
    let title = definition.title.as_ref().or_else(|| definition.annotations.as_ref().and_then(|a| a.title.as_ref()));
    let sentence = match (&definition.description, title, entry.server()) {
        (Some(description), _, _) if !description.trim().is_empty() => return description.clone(),
        (_, Some(title), _) if !title.trim().is_empty() => return title.clone(),
        (_, _, Some(server)) => format!("Tool {} of MCP server {server}", definition.name),
        (_, _, None) => format!("Tool {}", definition.name),
    };
    shown(&sentence, limits.max_description_chars)
}
