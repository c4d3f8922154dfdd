//! `regex_find`: every match of a pattern, with where it is and what its groups captured.

use crate::limits::{MAX_TEXT_BYTES, check_text};
use crate::pattern::{MAX_PATTERN_BYTES, PatternArgs};
use crate::positions::Cursor;
use mcp_worker_sdk::JsonWithText;
use mcp_worker_sdk::ToolDef;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Matches returned when the caller does not say.
const DEFAULT_MATCHES: usize = 100;
/// The most matches one call returns.
const MAX_MATCHES: usize = 1000;

#[derive(Deserialize, JsonSchema)]
struct FindArgs {
    #[serde(flatten)]
    pattern: PatternArgs,
    /// The text to search.
    text: String,
    /// The most matches to return (1 to 1000; 100 when left out).
    max_matches: Option<usize>,
}

/// One match.
#[derive(Debug, Serialize, JsonSchema)]
struct Found {
    /// The matched text.
    text: String,
    /// Where it starts, in characters from 0.
    start: usize,
    /// Where it ends (exclusive), in characters from 0.
    end: usize,
    /// The line it starts on, from 1.
    line: usize,
    /// The column it starts at, in characters from 1.
    column: usize,
    /// Capture groups 1, 2, …, in order: the captured text, or null for a group that did not take part.
    groups: Vec<Option<String>>,
    /// Named groups that took part, by name.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    named: std::collections::BTreeMap<String, String>,
}

/// Every match, in order.
#[derive(Debug, Serialize, JsonSchema)]
struct Matches {
    /// The matches, in the order they occur.
    matches: Vec<Found>,
    /// How many matches were returned.
    count: usize,
    /// True when there were more matches than `max_matches`.
    truncated: bool,
}

pub(crate) fn tool() -> ToolDef {
    ToolDef::new("regex_find", |args: FindArgs| async move { find(&args) })
        .title("Find regex matches")
        .description(format!(
            "Finds every match of a regular expression (Rust `regex` syntax: Perl-like, with Unicode classes, no \
             look-around or backreferences) in a text, with each match's text, character offsets, line and column, \
             and its capture groups (numbered and named). Matching is linear-time, so any pattern is safe. Limits: \
             text {MAX_TEXT_BYTES} bytes, pattern {MAX_PATTERN_BYTES} bytes, {MAX_MATCHES} matches \
             ({DEFAULT_MATCHES} by default)."
        ))
        .read_only()
        .idempotent()
}

fn find(args: &FindArgs) -> Result<JsonWithText<Matches>, String> {
    check_text("text", &args.text)?;
    let regex = args.pattern.compile()?;
    let max = args.max_matches.unwrap_or(DEFAULT_MATCHES).clamp(1, MAX_MATCHES);
    let names: Vec<Option<&str>> = regex.capture_names().skip(1).collect();
    let mut cursor = Cursor::new(&args.text);
    let mut matches = Vec::new();
    let mut truncated = false;
    for captures in regex.captures_iter(&args.text) {
        if matches.len() == max {
            truncated = true;
            break;
        }
        let Some(whole) = captures.get(0) else { continue };
        let start = cursor.place(whole.start());
        let length = whole.as_str().chars().count();
        let groups: Vec<Option<String>> =
            (1..captures.len()).map(|i| captures.get(i).map(|g| g.as_str().to_owned())).collect();
        let named =
            names.iter().zip(&groups).filter_map(|(name, group)| Some(((*name)?.to_owned(), group.clone()?))).collect();
        matches.push(Found {
            text: whole.as_str().to_owned(),
            start: start.char_index,
            end: start.char_index + length,
            line: start.line,
            column: start.column,
            groups,
            named,
        });
    }
    let text = describe(&matches, truncated);
    Ok(JsonWithText { text, data: Matches { count: matches.len(), matches, truncated } })
}

/// One line a match: where, what, and the groups.
fn describe(matches: &[Found], truncated: bool) -> String {
    if matches.is_empty() {
        return "no match".to_owned();
    }
    let mut lines: Vec<String> = vec![format!("{} match(es):", matches.len())];
    for m in matches {
        let mut line = format!(
            "{}:{} (chars {}..{}): {}",
            m.line,
            m.column,
            m.start,
            m.end,
            mcp_worker_sdk::protocol::quoted::quoted(&m.text)
        );
        if !m.groups.is_empty() {
            let groups: Vec<String> = m
                .groups
                .iter()
                .map(|g| g.as_ref().map_or_else(|| "null".to_owned(), |g| mcp_worker_sdk::protocol::quoted::quoted(g)))
                .collect();
            line.push_str(&format!(" groups [{}]", groups.join(", ")));
        }
        lines.push(line);
    }
    if truncated {
        lines.push("… more matches follow (raise max_matches to see them)".to_owned());
    }
    lines.join("\n")
}
