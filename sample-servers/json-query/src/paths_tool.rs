//! The `json_paths` tool: every path of a document as a jq expression, with its type, for finding one's way in a
//! large document before writing a filter.

use crate::document::{self, MAX_JSON_BYTES};
use crate::shape::type_name;
use crate::writer::{self, Layout};
use jaq_json::Val;
use mcp_worker_sdk::JsonWithText;
use mcp_worker_sdk::ToolDef;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Paths listed when the caller does not say.
const DEFAULT_PATHS: usize = 200;
/// The most paths one call lists.
const MAX_PATHS: usize = 5000;
/// Characters of a scalar's JSON shown beside its path.
const PREVIEW_CHARS: usize = 60;

#[derive(Deserialize, JsonSchema)]
struct PathsArgs {
    /// The JSON document.
    json: String,
    /// The most paths to list (1 to 5000; 200 when left out). Paths come in document order, parents first.
    max_paths: Option<usize>,
    /// List only scalars (strings, numbers, booleans, nulls), not the objects and arrays around them.
    leaves_only: Option<bool>,
}

/// One path of the document.
#[derive(Debug, Serialize, JsonSchema)]
struct PathEntry {
    /// The path as a jq expression, e.g. `.store.books[0]."first name"`; `.` is the document itself.
    path: String,
    /// The value's type: object, array, string, number, boolean or null.
    #[serde(rename = "type")]
    kind: &'static str,
    /// Scalars: their JSON, cut to 60 characters. Objects and arrays: their number of keys or items.
    summary: String,
}

/// The listing.
#[derive(Debug, Serialize, JsonSchema)]
struct PathListing {
    /// The paths, in document order.
    paths: Vec<PathEntry>,
    /// True when there were more paths than `max_paths`.
    truncated: bool,
}

pub(crate) fn tool() -> ToolDef {
    ToolDef::new("json_paths", |args: PathsArgs| async move { list(&args) })
        .title("List the paths of a JSON document")
        .description(format!(
            "Lists the paths of a JSON document as jq expressions (`.a.b[0]`), in document order, with each value's \
             type and a short summary (scalars: their value; objects and arrays: their size): a map of a large \
             document, to write a jq filter against. At most {MAX_PATHS} paths ({DEFAULT_PATHS} by default) and \
             {MAX_JSON_BYTES} bytes of JSON; `leaves_only` lists scalars only."
        ))
        .read_only()
        .idempotent()
}

fn list(args: &PathsArgs) -> Result<JsonWithText<PathListing>, String> {
    document::check_size("json", &args.json)?;
    let value = document::parse(&args.json).map_err(|e| format!("the JSON is not valid: {e}"))?;
    let mut walk = Walk {
        max: args.max_paths.unwrap_or(DEFAULT_PATHS).clamp(1, MAX_PATHS),
        leaves_only: args.leaves_only.unwrap_or(false),
        paths: Vec::new(),
        truncated: false,
    };
    walk.visit(&value, &mut String::new());
    let mut text: Vec<String> = walk.paths.iter().map(|p| format!("{}  {}  {}", p.path, p.kind, p.summary)).collect();
    if walk.truncated {
        text.push(format!("… more paths follow (listed the first {})", walk.max));
    }
    Ok(JsonWithText { text: text.join("\n"), data: PathListing { paths: walk.paths, truncated: walk.truncated } })
}

struct Walk {
    max: usize,
    leaves_only: bool,
    paths: Vec<PathEntry>,
    truncated: bool,
}

impl Walk {
    /// Lists `value` at `path`, then its children (depth is bounded by the parser's 128 levels).
    fn visit(&mut self, value: &Val, path: &mut String) {
        if self.truncated {
            return;
        }
        let container = matches!(value, Val::Arr(_) | Val::Obj(_));
        if !(container && self.leaves_only) {
            if self.paths.len() == self.max {
                self.truncated = true;
                return;
            }
            let shown = if path.is_empty() { ".".to_owned() } else { path.clone() };
            self.paths.push(PathEntry { path: shown, kind: type_name(value), summary: summary(value) });
        }
        let len = path.len();
        match value {
            Val::Arr(items) => {
                for (i, item) in items.iter().enumerate() {
                    path.push_str(&format!("[{i}]"));
                    self.visit(item, path);
                    path.truncate(len);
                }
            }
            Val::Obj(map) => {
                for (key, item) in map.iter() {
                    push_key(path, key);
                    self.visit(item, path);
                    path.truncate(len);
                }
            }
            _ => {}
        }
    }
}

/// `.name` for identifiers, `."any key"` for the rest, as jq writes them.
fn push_key(path: &mut String, key: &Val) {
    let key = match key {
        Val::TStr(bytes) | Val::BStr(bytes) => String::from_utf8_lossy(bytes).into_owned(),
        other => writer::to_text(other, Layout::Compact).unwrap_or_default(),
    };
    let mut chars = key.chars();
    let identifier = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    path.push('.');
    if identifier {
        path.push_str(&key);
    } else {
        path.push_str(&writer::to_text(&Val::utf8_str(key.into_bytes()), Layout::Compact).unwrap_or_default());
    }
}

fn summary(value: &Val) -> String {
    match value {
        Val::Arr(items) => format!("{} item(s)", items.len()),
        Val::Obj(map) => format!("{} key(s)", map.len()),
        scalar => {
            let text = writer::to_text(scalar, Layout::Compact).unwrap_or_default();
            let mut chars = text.chars();
            let head: String = chars.by_ref().take(PREVIEW_CHARS).collect();
            if chars.next().is_some() { format!("{head}…") } else { head }
        }
    }
}
