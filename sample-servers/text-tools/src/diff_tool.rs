//! `diff`: what changed between two texts, as a unified diff of lines or an inline diff of words.

use crate::limits::check_len;
use mcp_worker_sdk::JsonWithText;
use mcp_worker_sdk::ToolDef;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use similar::{ChangeTag, TextDiff};

/// The longest text each side may be: 512 KiB (the diff's work grows with both sides).
const MAX_SIDE_BYTES: usize = 512 << 10;
/// The widest context asked for.
const MAX_CONTEXT: usize = 100;

/// What the texts are compared by.
#[derive(Debug, Clone, Copy, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Granularity {
    /// Whole lines: a unified diff (`diff -u`, `git diff`).
    #[default]
    Lines,
    /// Words: the text with `[-removed-]` and `{+added+}` inline (`git diff --word-diff`).
    Words,
}

#[derive(Deserialize, JsonSchema)]
struct DiffArgs {
    /// The original text.
    old: String,
    /// The changed text.
    new: String,
    /// `lines` (a unified diff, the default) or `words` (changes marked inline).
    mode: Option<Granularity>,
    /// Unchanged lines (words in `words` mode) kept around each change: 3 when left out, at most 100.
    context: Option<usize>,
    /// The name of the original in the diff's header (`old` when left out).
    old_name: Option<String>,
    /// The name of the changed text in the diff's header (`new` when left out).
    new_name: Option<String>,
}

/// A summary of the changes.
#[derive(Debug, Serialize, JsonSchema)]
struct DiffSummary {
    /// True when the texts are the same.
    identical: bool,
    /// Lines (or words) only in the changed text.
    added: usize,
    /// Lines (or words) only in the original.
    removed: usize,
    /// Groups of nearby changes (hunks), each shown with its context.
    hunks: usize,
    /// How alike the texts are, from 0 (nothing in common) to 1 (the same), to 4 decimals.
    similarity: f64,
    /// The diff itself (also the result's text).
    diff: String,
}

pub(crate) fn tool() -> ToolDef {
    ToolDef::new("diff", |args: DiffArgs| async move { diff(&args) })
        .title("Diff two texts")
        .description(format!(
            "Compares two texts. `lines` mode (the default) gives a unified diff with `@@` hunks, like `git diff`; \
             `words` mode marks changes inline as `[-removed-]{{+added+}}`. Also counts what was added and removed \
             and how similar the texts are. Each text at most {MAX_SIDE_BYTES} bytes; context at most {MAX_CONTEXT}."
        ))
        .read_only()
        .idempotent()
}

fn diff(args: &DiffArgs) -> Result<JsonWithText<DiffSummary>, String> {
    check_len("old", &args.old, MAX_SIDE_BYTES)?;
    check_len("new", &args.new, MAX_SIDE_BYTES)?;
    let context = args.context.unwrap_or(3).min(MAX_CONTEXT);
    let mode = args.mode.unwrap_or_default();
    let text_diff = match mode {
        Granularity::Lines => TextDiff::from_lines(args.old.as_str(), args.new.as_str()),
        Granularity::Words => TextDiff::from_words(args.old.as_str(), args.new.as_str()),
    };
    let (mut added, mut removed) = (0, 0);
    for change in text_diff.iter_all_changes() {
        match change.tag() {
            ChangeTag::Insert => added += 1,
            ChangeTag::Delete => removed += 1,
            ChangeTag::Equal => {}
        }
    }
    let groups = text_diff.grouped_ops(context);
    let hunks = groups.iter().filter(|ops| !ops.is_empty()).count();
    let identical = added == 0 && removed == 0;
    let diff = match mode {
        _ if identical => String::new(),
        Granularity::Lines => {
            let old_name = args.old_name.as_deref().unwrap_or("old");
            let new_name = args.new_name.as_deref().unwrap_or("new");
            text_diff.unified_diff().context_radius(context).header(old_name, new_name).to_string()
        }
        Granularity::Words => word_diff(&text_diff, &groups),
    };
    let text = if identical { "the texts are identical".to_owned() } else { diff.clone() };
    let summary = DiffSummary {
        identical,
        added,
        removed,
        hunks,
        similarity: (f64::from(text_diff.ratio()) * 1e4).round() / 1e4,
        diff,
    };
    Ok(JsonWithText { text, data: summary })
}

/// Each group of changes as running text, removals as `[-…-]` and additions as `{+…+}`; groups apart are separated
/// by a line with `…`.
fn word_diff(text_diff: &TextDiff<'_, '_, str>, groups: &[Vec<similar::DiffOp>]) -> String {
    let mut parts = Vec::new();
    for group in groups.iter().filter(|ops| !ops.is_empty()) {
        let mut out = String::new();
        let mut open: Option<ChangeTag> = None;
        for op in group {
            for change in text_diff.iter_changes(op) {
                let tag = change.tag();
                if open != Some(tag) {
                    close(&mut out, open);
                    match tag {
                        ChangeTag::Delete => out.push_str("[-"),
                        ChangeTag::Insert => out.push_str("{+"),
                        ChangeTag::Equal => {}
                    }
                    open = Some(tag);
                }
                out.push_str(change.value());
            }
        }
        close(&mut out, open);
        parts.push(out);
    }
    parts.join("\n…\n")
}

fn close(out: &mut String, open: Option<ChangeTag>) {
    match open {
        Some(ChangeTag::Delete) => out.push_str("-]"),
        Some(ChangeTag::Insert) => out.push_str("+}"),
        _ => {}
    }
}
