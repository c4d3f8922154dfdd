//! The `summarize_document` prompt: a request to summarize a document section by section, with the outline the
//! server computed so the model follows the document's real structure instead of guessing it.

use crate::document::check_size;
use crate::outline::{OutlineArgs, as_text, outline};
use crate::stats::{StatsArgs, stats};
use mcp_worker_sdk::PromptDef;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
struct SummaryArgs {
    /// The Markdown document to summarize.
    markdown: String,
    /// What the summary should focus on or who it is for (optional), e.g. "decisions and open questions".
    focus: Option<String>,
}

pub(crate) fn prompt() -> PromptDef {
    PromptDef::new("summarize_document", |args: SummaryArgs| async move {
        check_size(&args.markdown)?;
        let outline = outline(&OutlineArgs { markdown: args.markdown.clone(), max_level: Some(3) })?;
        let stats = stats(&StatsArgs { markdown: args.markdown.clone(), words_per_minute: None })?;
        let mut structure = String::new();
        as_text(&outline.headings, 0, &mut structure);
        if structure.is_empty() {
            structure.push_str("(no headings)\n");
        }
        let focus = args.focus.map(|focus| format!(" Focus on: {focus}.")).unwrap_or_default();
        Ok::<_, String>(format!(
            "Summarize the Markdown document below, one short paragraph per top-level section in the order of its \
             outline, then a one-sentence overall summary.{focus}\n\nOutline ({} words, {} to read):\n{structure}\n\
             Document:\n\n{}",
            stats.words, stats.reading_time, args.markdown
        ))
    })
    .title("Summarize a Markdown document")
    .description("Asks for a section-by-section summary of a Markdown document, with its outline and length given")
}
