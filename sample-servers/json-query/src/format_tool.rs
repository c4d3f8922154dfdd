//! `pretty_json` and `minify_json`: the same document, laid out again (key order kept unless asked to sort).

use crate::document::{self, MAX_JSON_BYTES};
use crate::writer::{self, Layout};
use jaq_json::{Map, Rc, Val};
use mcp_worker_sdk::ToolDef;
use schemars::JsonSchema;
use serde::Deserialize;

/// The widest indent `pretty_json` takes.
const MAX_INDENT: u8 = 8;

#[derive(Deserialize, JsonSchema)]
struct PrettyArgs {
    /// The JSON document.
    json: String,
    /// Spaces per level (0 to 8; 2 when left out). 0 still puts one item a line.
    indent: Option<u8>,
    /// Sort every object's keys (the document's order is kept otherwise).
    sort_keys: Option<bool>,
}

#[derive(Deserialize, JsonSchema)]
struct MinifyArgs {
    /// The JSON document.
    json: String,
}

pub(crate) fn pretty_tool() -> ToolDef {
    ToolDef::new("pretty_json", |args: PrettyArgs| async move {
        let layout = Layout::Indented(usize::from(args.indent.unwrap_or(2).min(MAX_INDENT)));
        reformat(&args.json, layout, args.sort_keys.unwrap_or(false))
    })
    .title("Pretty-print JSON")
    .description(format!(
        "Indents a JSON document, one item a line, keeping its key order (or sorting keys with `sort_keys`). Invalid \
         JSON gets the line and column where it breaks. At most {MAX_JSON_BYTES} bytes."
    ))
    .read_only()
    .idempotent()
}

pub(crate) fn minify_tool() -> ToolDef {
    ToolDef::new("minify_json", |args: MinifyArgs| async move { reformat(&args.json, Layout::Compact, false) })
        .title("Minify JSON")
        .description(format!(
            "Removes every insignificant space and newline from a JSON document, keeping its key order. Invalid JSON \
             gets the line and column where it breaks. At most {MAX_JSON_BYTES} bytes."
        ))
        .read_only()
        .idempotent()
}

fn reformat(text: &str, layout: Layout, sort_keys: bool) -> Result<String, String> {
    document::check_size("json", text)?;
    let value = document::parse(text).map_err(|e| format!("the JSON is not valid: {e}"))?;
    let value = if sort_keys { sorted(value) } else { value };
    writer::to_text(&value, layout).map_err(|e| e.to_string())
}

/// The value with every object's keys sorted (parsed documents nest at most 128 levels, so recursion is safe).
fn sorted(value: Val) -> Val {
    match value {
        Val::Arr(items) => Val::Arr(Rc::new(items.iter().cloned().map(sorted).collect())),
        Val::Obj(map) => {
            let mut entries: Vec<(Val, Val)> = map.iter().map(|(k, v)| (k.clone(), sorted(v.clone()))).collect();
            entries.sort_by(|(a, _), (b, _)| a.cmp(b));
            Val::obj(entries.into_iter().collect::<Map>())
        }
        other => other,
    }
}
