//! jaq values out: as JSON text (compact or indented, in the document's key order) and as `serde_json` values for
//! structured results.
//!
//! jaq's own printer may write what is not JSON (NaN, byte strings, non-string keys); these writers always give
//! JSON, as jq does: NaN is `null`, ±infinity the largest finite double, byte strings and invalid UTF-8 are decoded
//! lossily, and a key that is not a string is written as the JSON text of its value.

use jaq_json::{Num, Val};
use serde_json::Value;
use std::fmt::Write;

/// The deepest value the writers follow (values a filter builds can nest deeper than any parsed input).
pub(crate) const MAX_DEPTH: usize = 256;

/// A value nested deeper than [`MAX_DEPTH`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TooDeep;

impl std::fmt::Display for TooDeep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the value is nested deeper than {MAX_DEPTH} levels")
    }
}

/// How to lay the text out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// No whitespace at all, like `jq -c`.
    Compact,
    /// One item a line, indented by this many spaces, like `jq`.
    Indented(usize),
}

/// The JSON text of a value.
pub(crate) fn to_text(value: &Val, layout: Layout) -> Result<String, TooDeep> {
    let mut out = String::new();
    write_value(&mut out, value, layout, 0)?;
    Ok(out)
}

fn write_value(out: &mut String, value: &Val, layout: Layout, depth: usize) -> Result<(), TooDeep> {
    if depth > MAX_DEPTH {
        return Err(TooDeep);
    }
    match value {
        Val::Null => out.push_str("null"),
        Val::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Val::Num(n) => write_number(out, n),
        Val::TStr(bytes) | Val::BStr(bytes) => write_string(out, &String::from_utf8_lossy(bytes)),
        Val::Arr(items) => {
            write_items(out, ('[', ']'), items.iter(), layout, depth, |out, item| {
                write_value(out, item, layout, depth + 1)
            })?;
        }
        Val::Obj(map) => {
            write_items(out, ('{', '}'), map.iter(), layout, depth, |out, (key, item)| {
                write_string(out, &key_text(key)?);
                out.push(':');
                if layout != Layout::Compact {
                    out.push(' ');
                }
                write_value(out, item, layout, depth + 1)
            })?;
        }
    }
    Ok(())
}

/// Writes `[…]` or `{…}`: empty on one line, else one item a line when indented.
fn write_items<T>(
    out: &mut String,
    (open, close): (char, char),
    items: impl ExactSizeIterator<Item = T>,
    layout: Layout,
    depth: usize,
    mut write_item: impl FnMut(&mut String, T) -> Result<(), TooDeep>,
) -> Result<(), TooDeep> {
    out.push(open);
    let empty = items.len() == 0;
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push(',');
        }
        if let Layout::Indented(width) = layout {
            out.push('\n');
            out.push_str(&" ".repeat(width * (depth + 1)));
        }
        write_item(out, item)?;
    }
    if let (Layout::Indented(width), false) = (layout, empty) {
        out.push('\n');
        out.push_str(&" ".repeat(width * depth));
    }
    out.push(close);
    Ok(())
}

/// An object key as text: a string as it is, anything else as its compact JSON.
fn key_text(key: &Val) -> Result<String, TooDeep> {
    match key {
        Val::TStr(bytes) | Val::BStr(bytes) => Ok(String::from_utf8_lossy(bytes).into_owned()),
        other => to_text(other, Layout::Compact),
    }
}

fn write_number(out: &mut String, number: &Num) {
    match number {
        Num::Float(f) => out.push_str(&float_json(*f).to_string()),
        // Integers, big integers and decimal literals print as their digits, which is JSON.
        other => {
            let _ = write!(out, "{other}");
        }
    }
}

/// A double as a JSON number, as jq maps the ones JSON lacks.
fn float_json(f: f64) -> Value {
    if f.is_nan() {
        return Value::Null;
    }
    let finite = if f.is_infinite() { f64::MAX.copysign(f) } else { f };
    serde_json::Number::from_f64(finite).map_or(Value::Null, Value::Number)
}

/// A JSON string literal, escaped as JSON requires.
fn write_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            c if u32::from(c) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A value as `serde_json`, for structured results. Object keys come out sorted (the workspace's `serde_json` keeps
/// maps sorted); the text of a result keeps the document's order.
pub(crate) fn to_json(value: &Val) -> Result<Value, TooDeep> {
    to_json_at(value, 0)
}

fn to_json_at(value: &Val, depth: usize) -> Result<Value, TooDeep> {
    if depth > MAX_DEPTH {
        return Err(TooDeep);
    }
    Ok(match value {
        Val::Null => Value::Null,
        Val::Bool(b) => Value::Bool(*b),
        Val::Num(Num::Float(f)) => float_json(*f),
        Val::Num(Num::Int(i)) => Value::from(*i as i64),
        // Big integers and decimal literals: the nearest double, as a JSON reader would take them.
        Val::Num(other) => mcp_worker_sdk::protocol::json::from_str(&other.to_string()).unwrap_or(Value::Null),
        Val::TStr(bytes) | Val::BStr(bytes) => Value::String(String::from_utf8_lossy(bytes).into_owned()),
        Val::Arr(items) => {
            Value::Array(items.iter().map(|item| to_json_at(item, depth + 1)).collect::<Result<_, _>>()?)
        }
        Val::Obj(map) => Value::Object(
            map.iter()
                .map(|(key, item)| Ok((key_text(key)?, to_json_at(item, depth + 1)?)))
                .collect::<Result<_, TooDeep>>()?,
        ),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests fail loudly")]
    use super::*;

    fn val(text: &str) -> Val {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn text_keeps_the_key_order() {
        let v = val(r#"{"b": [1, 2.5, {}], "a": "x\ny", "c": []}"#);
        assert_eq!(to_text(&v, Layout::Compact).unwrap(), r#"{"b":[1,2.5,{}],"a":"x\ny","c":[]}"#);
        assert_eq!(
            to_text(&v, Layout::Indented(2)).unwrap(),
            "{\n  \"b\": [\n    1,\n    2.5,\n    {}\n  ],\n  \"a\": \"x\\ny\",\n  \"c\": []\n}"
        );
    }

    #[test]
    fn what_json_lacks_is_mapped_as_jq_does() {
        assert_eq!(to_text(&Val::Num(Num::Float(f64::NAN)), Layout::Compact).unwrap(), "null");
        assert_eq!(to_text(&Val::Num(Num::Float(f64::INFINITY)), Layout::Compact).unwrap(), "1.7976931348623157e+308");
        assert_eq!(to_json(&val(r#"{"k": 1}"#)).unwrap(), serde_json::json!({"k": 1}));
    }

    #[test]
    fn depth_is_bounded() {
        let mut v = Val::Null;
        for _ in 0..=MAX_DEPTH + 1 {
            v = Val::Arr(jaq_json::Rc::new(vec![v]));
        }
        assert_eq!(to_text(&v, Layout::Compact), Err(TooDeep));
        assert_eq!(to_json(&v), Err(TooDeep));
    }
}
