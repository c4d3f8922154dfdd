//! `document_stats`: word count, reading time and what a document is made of.

use crate::document::{check_size, parser};
use mcp_worker_sdk::{Json, ToolDef};
use pulldown_cmark::{Event, Tag, TagEnd};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A common adult reading speed for prose on a screen.
const DEFAULT_WORDS_PER_MINUTE: u32 = 200;

#[derive(Deserialize, JsonSchema)]
pub(crate) struct StatsArgs {
    /// The Markdown (at most 1 MiB).
    pub(crate) markdown: String,
    /// The reading speed for the reading time, 50 to 1000 words per minute (200 when left out).
    pub(crate) words_per_minute: Option<u32>,
}

/// What a document is made of.
#[derive(Debug, Default, Serialize, JsonSchema)]
pub(crate) struct Stats {
    /// Words of prose (headings, paragraphs, lists, tables, inline code), split on whitespace; code blocks and
    /// raw HTML are not counted.
    pub(crate) words: usize,
    /// Characters of that prose, spaces included.
    pub(crate) characters: usize,
    /// Minutes to read the prose at the given speed, to one decimal.
    pub(crate) reading_minutes: f64,
    /// The reading time in words: "about 4 minutes".
    pub(crate) reading_time: String,
    pub(crate) headings: usize,
    pub(crate) paragraphs: usize,
    pub(crate) list_items: usize,
    /// Task list items ("- [ ] …"), and how many are checked.
    pub(crate) tasks: usize,
    pub(crate) tasks_done: usize,
    pub(crate) links: usize,
    pub(crate) images: usize,
    pub(crate) tables: usize,
    pub(crate) code_blocks: usize,
    /// Lines inside code blocks.
    pub(crate) code_lines: usize,
}

pub(crate) fn tool() -> ToolDef {
    ToolDef::new("document_stats", |args: StatsArgs| async move { stats(&args).map(Json) })
        .title("Word count and reading time")
        .description(
            "Counts the words of a Markdown document's prose (code blocks apart) and estimates its reading time \
             (200 words per minute unless told), with counts of headings, paragraphs, list items, tasks done, \
             links, images, tables and code blocks. At most 1 MiB of Markdown.",
        )
        .read_only()
}

pub(crate) fn stats(args: &StatsArgs) -> Result<Stats, String> {
    check_size(&args.markdown)?;
    let speed = args.words_per_minute.unwrap_or(DEFAULT_WORDS_PER_MINUTE);
    if !(50..=1000).contains(&speed) {
        return Err(format!("words_per_minute must be 50 to 1000, not {speed}"));
    }
    let mut stats = Stats::default();
    let mut prose = String::new();
    let mut in_code_block = false;
    for event in parser(&args.markdown) {
        match event {
            Event::Start(Tag::Heading { .. }) => stats.headings += 1,
            Event::Start(Tag::Paragraph) => stats.paragraphs += 1,
            Event::Start(Tag::Item) => stats.list_items += 1,
            Event::TaskListMarker(done) => {
                stats.tasks += 1;
                stats.tasks_done += usize::from(done);
            }
            Event::Start(Tag::Link { .. }) => stats.links += 1,
            Event::Start(Tag::Image { .. }) => stats.images += 1,
            Event::Start(Tag::Table(_)) => stats.tables += 1,
            Event::Start(Tag::CodeBlock(_)) => {
                stats.code_blocks += 1;
                in_code_block = true;
            }
            Event::End(TagEnd::CodeBlock) => in_code_block = false,
            Event::Text(text) if in_code_block => stats.code_lines += text.lines().count(),
            Event::Text(text) | Event::Code(text) | Event::InlineMath(text) | Event::DisplayMath(text) => {
                prose.push_str(&text);
            }
            // Blocks and breaks separate words that no space separates in the source.
            Event::End(
                TagEnd::Paragraph
                | TagEnd::Heading(_)
                | TagEnd::Item
                | TagEnd::TableCell
                | TagEnd::BlockQuote(_)
                | TagEnd::FootnoteDefinition,
            )
            | Event::SoftBreak
            | Event::HardBreak => prose.push(' '),
            _ => {}
        }
    }
    let words: Vec<&str> = prose.split_whitespace().collect();
    stats.words = words.len();
    stats.characters = words.iter().map(|w| w.chars().count()).sum::<usize>() + words.len().saturating_sub(1);
    #[allow(clippy::cast_precision_loss, reason = "word counts far below 2^52")]
    let minutes = stats.words as f64 / f64::from(speed);
    stats.reading_minutes = (minutes * 10.0).round() / 10.0;
    stats.reading_time = reading_time(minutes);
    Ok(stats)
}

/// "less than a minute", "about 1 minute", "about 12 minutes".
fn reading_time(minutes: f64) -> String {
    match minutes.round() {
        rounded if rounded < 1.0 => "less than a minute".to_owned(),
        rounded if rounded < 1.5 => "about 1 minute".to_owned(),
        // As a whole number: `f64`'s `Display` would link the standard library's float formatting (about 14 KB of
        // wasm) for this one message.
        #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a positive, rounded count")]
        rounded => format!("about {} minutes", rounded as u64),
    }
}
