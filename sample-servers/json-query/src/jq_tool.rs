//! The `jq` tool: a filter and JSON text in, every output value out.

use crate::document::{self, MAX_JSON_BYTES};
use crate::program::{self, MAX_FILTER_BYTES};
use crate::run::{self, MAX_OUTPUT_BYTES, MAX_OUTPUTS};
use crate::writer;
use jaq_json::Val;
use mcp_worker_sdk::JsonWithText;
use mcp_worker_sdk::ToolDef;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Deserialize, JsonSchema)]
struct JqArgs {
    /// The jq filter, e.g. `.items[] | select(.price > 10) | .name` or `map(.age) | add / length`.
    filter: String,
    /// The JSON text to run the filter on: one value, or several one after another (NDJSON), each run in turn.
    /// Leave it out to run the filter once on `null`, like `jq -n`.
    input: Option<String>,
    /// The most output values to return (1 to 1000; 1000 when left out).
    max_outputs: Option<usize>,
}

/// What the filter produced.
#[derive(Debug, Serialize, JsonSchema)]
struct JqResult {
    /// Every output value, in order.
    outputs: Vec<Value>,
    /// How many values `outputs` holds.
    count: usize,
    /// Present when the filter was stopped before it was done (a limit, or `halt`): says why.
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<String>,
}

pub(crate) fn tool() -> ToolDef {
    ToolDef::new("jq", |args: JqArgs| async move { jq(&args) })
        .title("Run a jq filter")
        .description(format!(
            "Runs a jq filter (jaq, a Rust jq) on JSON text and returns every output value, one compact JSON per line \
             in the text and as `outputs` in the structured result. Errors say where the filter or the input breaks \
             (line and column), or what failed at run time. Limits: input {MAX_JSON_BYTES} bytes, filter \
             {MAX_FILTER_BYTES} bytes, {MAX_OUTPUTS} outputs and {MAX_OUTPUT_BYTES} bytes of output (an endless \
             generator such as `repeat(1)` stops there). There is no step limit: a filter that loops without \
             producing output holds the server until the call times out. No `input`/`inputs`, `$ENV`, modules or \
             clock (`now`); local time is UTC."
        ))
        .read_only()
        .idempotent()
}

fn jq(args: &JqArgs) -> Result<JsonWithText<JqResult>, String> {
    let filter = program::compile(&args.filter)?;
    let inputs = match &args.input {
        None => vec![Val::Null],
        Some(text) => {
            document::check_size("input", text)?;
            if text.trim().is_empty() {
                return Err("`input` is empty: give JSON text, or leave `input` out to run the filter on null".into());
            }
            document::parse_stream(text).map_err(|e| format!("the input is not valid JSON: {e}"))?
        }
    };
    let max_outputs = args.max_outputs.unwrap_or(MAX_OUTPUTS).clamp(1, MAX_OUTPUTS);
    let run = run::run(&filter, inputs, max_outputs);
    let lines: Vec<&str> = run.outputs.iter().map(|(_, text)| text.as_str()).collect();
    if let Some(error) = run.error {
        let mut text = format!("jq error: {error}");
        if !lines.is_empty() {
            text.push_str(&format!("\n(after {} output(s):)\n{}", lines.len(), lines.join("\n")));
        }
        return Err(text);
    }
    let mut text = if lines.is_empty() { "(no output)".to_owned() } else { lines.join("\n") };
    if let Some(stopped) = &run.stopped {
        text.push_str(&format!("\n… {stopped}"));
    }
    let outputs = run
        .outputs
        .iter()
        .map(|(value, _)| writer::to_json(value))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    Ok(JsonWithText { text, data: JqResult { count: outputs.len(), outputs, stopped: run.stopped } })
}
