//! `regex_replace`: a pattern's matches replaced, with `$1` and `${name}` for what the groups captured.

use crate::limits::{MAX_TEXT_BYTES, check_text};
use crate::pattern::PatternArgs;
use mcp_worker_sdk::JsonWithText;
use mcp_worker_sdk::ToolDef;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The most text a replacement may produce: 4 MiB (a short text with many matches can grow a lot).
const MAX_RESULT_BYTES: usize = 4 << 20;

#[derive(Deserialize, JsonSchema)]
struct ReplaceArgs {
    #[serde(flatten)]
    pattern: PatternArgs,
    /// The text to change.
    text: String,
    /// What each match becomes: `$1`, `${2}` or `${name}` insert a group's capture, `$0` the whole match, `$$` a
    /// dollar sign. Write `${1}x` rather than `$1x` when a letter, digit or `_` follows.
    replacement: String,
    /// Replace only the first N matches (all when left out or 0).
    limit: Option<usize>,
}

/// The changed text.
#[derive(Debug, Serialize, JsonSchema)]
struct Replaced {
    /// The text after the replacement.
    text: String,
    /// How many matches were replaced.
    replacements: usize,
}

pub(crate) fn tool() -> ToolDef {
    ToolDef::new("regex_replace", |args: ReplaceArgs| async move { replace(&args) })
        .title("Replace regex matches")
        .description(format!(
            "Replaces the matches of a regular expression (Rust `regex` syntax) in a text; the replacement may use \
             `$1`, `${{name}}` and `$0` for captures. Returns the new text (the whole text block) and the number of \
             replacements. Limits: text {MAX_TEXT_BYTES} bytes, result {MAX_RESULT_BYTES} bytes."
        ))
        .read_only()
        .idempotent()
}

fn replace(args: &ReplaceArgs) -> Result<JsonWithText<Replaced>, String> {
    check_text("text", &args.text)?;
    check_text("replacement", &args.replacement)?;
    let regex = args.pattern.compile()?;
    let limit = match args.limit {
        None | Some(0) => usize::MAX,
        Some(n) => n,
    };
    // Each `$` may insert a capture, and a capture is never longer than its match: that bounds every expansion
    // before it is made, so `$0$0$0…` on a long match cannot exhaust the worker's memory.
    let references = args.replacement.matches('$').count();
    let (text, replacements) = (args.text.as_str(), args.replacement.as_str());
    let mut out = String::new();
    let mut count = 0;
    let mut last = 0;
    for captures in regex.captures_iter(text).take(limit) {
        let Some(whole) = captures.get(0) else { continue };
        out.push_str(&text[last..whole.start()]);
        let worst = replacements.len().saturating_add(references.saturating_mul(whole.len()));
        if out.len().saturating_add(worst) > MAX_RESULT_BYTES {
            return Err(too_long());
        }
        captures.expand(replacements, &mut out);
        last = whole.end();
        count += 1;
    }
    out.push_str(&text[last..]);
    if out.len() > MAX_RESULT_BYTES {
        return Err(too_long());
    }
    Ok(JsonWithText { text: out.clone(), data: Replaced { text: out, replacements: count } })
}

fn too_long() -> String {
    format!("the result would be longer than {MAX_RESULT_BYTES} bytes (the limit)")
}
