//! JSON text in, a jaq value out: the one parser every tool uses, with its size limit and errors that say where the
//! text breaks.
//!
//! serde_json does the parsing (into jaq's order-preserving value): it stops at 128 levels of nesting, so a hostile
//! `[[[[…` cannot overflow the worker's stack, and its errors carry a line and a column.

use jaq_json::Val;
use schemars::JsonSchema;
use serde::Serialize;

/// The largest JSON text (or jq filter input) a tool accepts: 1 MiB.
pub(crate) const MAX_JSON_BYTES: usize = 1 << 20;

/// How much of the broken line an error shows on each side of the column.
const EXCERPT_CHARS: usize = 40;

/// Where and why a JSON text is not valid.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct JsonError {
    /// What is wrong, e.g. "expected `:`" or "EOF while parsing an object".
    pub(crate) message: String,
    /// The line of the problem, from 1.
    pub(crate) line: usize,
    /// The column of the problem in characters, from 1.
    pub(crate) column: usize,
    /// The broken line around the problem, and a caret under it.
    pub(crate) excerpt: String,
}

impl std::fmt::Display for JsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at line {}, column {}:\n{}", self.message, self.line, self.column, self.excerpt)
    }
}

/// Refuses a text over [`MAX_JSON_BYTES`], naming the field it came in.
pub(crate) fn check_size(field: &str, text: &str) -> Result<(), String> {
    if text.len() > MAX_JSON_BYTES {
        return Err(format!("`{field}` is {} bytes; the limit is {MAX_JSON_BYTES} bytes (1 MiB)", text.len()));
    }
    Ok(())
}

/// Parses exactly one JSON value.
pub(crate) fn parse(text: &str) -> Result<Val, JsonError> {
    mcp_worker_sdk::protocol::json::from_str::<Val>(text).map_err(|e| locate(text, &e))
}

/// Parses a sequence of JSON values, one after another (whitespace or newlines between them, as in NDJSON).
pub(crate) fn parse_stream(text: &str) -> Result<Vec<Val>, JsonError> {
    serde_json::Deserializer::from_str(text)
        .into_iter::<Val>()
        .map(|value| value.map_err(|e| locate(text, &e)))
        .collect()
}

/// Turns serde_json's error into a [`JsonError`] with a character column and an excerpt of the line.
pub(crate) fn locate(text: &str, error: &serde_json::Error) -> JsonError {
    let full = error.to_string();
    let message = match full.rsplit_once(" at line ") {
        Some((message, _)) => message.to_owned(),
        None => full,
    };
    let line = error.line().max(1);
    let line_text = text.split('\n').nth(line - 1).unwrap_or_default().trim_end_matches('\r');
    // serde_json counts the column in bytes; a person counts characters.
    let mut byte_column = error.column().saturating_sub(1).min(line_text.len());
    while !line_text.is_char_boundary(byte_column) {
        byte_column -= 1;
    }
    let column = line_text[..byte_column].chars().count() + 1;
    JsonError { message, line, column, excerpt: excerpt(line_text, column) }
}

/// The line cut to [`EXCERPT_CHARS`] characters on each side of `column`, with a caret under the column.
fn excerpt(line: &str, column: usize) -> String {
    let start = column.saturating_sub(EXCERPT_CHARS + 1);
    let shown: String = line.chars().skip(start).take(2 * EXCERPT_CHARS).collect();
    let lead = if start > 0 { "…" } else { "" };
    let caret_at = column - 1 - start + lead.chars().count();
    format!("{lead}{shown}\n{}^", " ".repeat(caret_at))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests fail loudly")]
    use super::*;

    #[test]
    fn errors_point_at_the_character() {
        let e = parse("{\"é\": 1,\n \"b\" 2}").unwrap_err();
        assert_eq!((e.message.as_str(), e.line, e.column), ("expected `:`", 2, 6));
        assert_eq!(e.excerpt, " \"b\" 2}\n     ^");
        let e = parse("{\"é\" 1}").unwrap_err();
        assert_eq!(e.column, 6);
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = "[".repeat(100_000);
        assert!(parse(&deep).unwrap_err().message.contains("recursion limit"));
    }
}
