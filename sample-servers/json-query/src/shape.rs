//! A summary of a parsed document: its type, size and depth.

use jaq_json::Val;
use schemars::JsonSchema;
use serde::Serialize;

/// What a document holds.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Shape {
    /// The type of the top-level value: object, array, string, number, boolean or null.
    #[serde(rename = "type")]
    pub(crate) kind: &'static str,
    /// Keys of the top-level object, or items of the top-level array (absent for other types).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) length: Option<usize>,
    /// Every value in the document, the top-level one included.
    pub(crate) values: usize,
    /// Levels of nesting: 1 for a scalar, 2 for `[1]`, and so on.
    pub(crate) depth: usize,
}

impl Shape {
    /// "an object with 3 key(s)", "a string"…
    pub(crate) fn description(&self) -> String {
        match (self.kind, self.length) {
            ("object", Some(n)) => format!("an object with {n} key(s)"),
            ("array", Some(n)) => format!("an array of {n} item(s)"),
            (kind, _) => format!("a {kind}"),
        }
    }
}

/// The jq name of a value's type.
pub(crate) fn type_name(value: &Val) -> &'static str {
    match value {
        Val::Null => "null",
        Val::Bool(_) => "boolean",
        Val::Num(_) => "number",
        Val::TStr(_) | Val::BStr(_) => "string",
        Val::Arr(_) => "array",
        Val::Obj(_) => "object",
    }
}

/// The shape of a parsed document (nesting is bounded by the parser, so recursion is safe).
pub(crate) fn shape_of(value: &Val) -> Shape {
    let length = match value {
        Val::Arr(items) => Some(items.len()),
        Val::Obj(map) => Some(map.len()),
        _ => None,
    };
    let (values, depth) = count(value);
    Shape { kind: type_name(value), length, values, depth }
}

/// (values, depth) of a value.
fn count(value: &Val) -> (usize, usize) {
    let children: Box<dyn Iterator<Item = &Val>> = match value {
        Val::Arr(items) => Box::new(items.iter()),
        Val::Obj(map) => Box::new(map.values()),
        _ => return (1, 1),
    };
    children.map(count).fold((1, 1), |(values, depth), (v, d)| (values + v, depth.max(d + 1)))
}
