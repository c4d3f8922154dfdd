//! `text_stats`: how long a text is, counted the ways people count (Unicode's rules for graphemes, words and
//! sentences).

use crate::limits::{MAX_TEXT_BYTES, check_text};
use mcp_worker_sdk::JsonWithText;
use mcp_worker_sdk::ToolDef;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use unicode_segmentation::UnicodeSegmentation;

/// Reading speed for the estimate: an adult's average silent reading of prose, in words a minute.
const WORDS_PER_MINUTE: usize = 238;
/// Speaking speed for the estimate, in words a minute.
const SPOKEN_WORDS_PER_MINUTE: usize = 150;
/// How many frequent words are listed.
const TOP_WORDS: usize = 10;

#[derive(Deserialize, JsonSchema)]
struct StatsArgs {
    /// The text to measure.
    text: String,
}

/// The counts.
#[derive(Debug, Serialize, JsonSchema)]
struct TextStats {
    /// Unicode scalar values (what most languages call characters).
    characters: usize,
    /// What a reader sees as characters (extended grapheme clusters: "é", "👍🏽" and "🇫🇷" each count 1).
    graphemes: usize,
    /// UTF-8 bytes.
    bytes: usize,
    /// Words, by Unicode's word boundaries (numbers count; punctuation does not).
    words: usize,
    /// Lines (a final newline does not start another).
    lines: usize,
    /// Sentences, by Unicode's sentence boundaries.
    sentences: usize,
    /// Paragraphs: runs of non-blank lines.
    paragraphs: usize,
    /// Characters that are not whitespace.
    non_whitespace_characters: usize,
    /// Distinct words, ignoring case.
    unique_words: usize,
    /// Average word length, in characters.
    average_word_length: f64,
    /// Estimated silent reading time, in seconds (at 238 words a minute).
    reading_seconds: usize,
    /// Estimated time to read aloud, in seconds (at 150 words a minute).
    speaking_seconds: usize,
    /// The most frequent words (ignoring case; ties in alphabetical order), up to 10.
    top_words: Vec<WordCount>,
}

/// A word and how often it occurs.
#[derive(Debug, Serialize, JsonSchema)]
struct WordCount {
    word: String,
    count: usize,
}

pub(crate) fn tool() -> ToolDef {
    ToolDef::new("text_stats", |args: StatsArgs| async move { stats(&args.text) })
        .title("Text statistics")
        .description(format!(
            "Counts a text's characters, graphemes, bytes, words, lines, sentences and paragraphs (Unicode's rules), \
             unique words and the 10 most frequent ones, and estimates reading and speaking time. At most \
             {MAX_TEXT_BYTES} bytes."
        ))
        .read_only()
        .idempotent()
}

fn stats(text: &str) -> Result<JsonWithText<TextStats>, String> {
    check_text("text", text)?;
    let words: Vec<&str> = text.unicode_words().collect();
    let mut frequency: HashMap<String, usize> = HashMap::new();
    for word in &words {
        *frequency.entry(word.to_lowercase()).or_default() += 1;
    }
    let unique_words = frequency.len();
    let mut top: Vec<(String, usize)> = frequency.into_iter().collect();
    top.sort_by(|(a, n), (b, m)| m.cmp(n).then_with(|| a.cmp(b)));
    let top_words = top.into_iter().take(TOP_WORDS).map(|(word, count)| WordCount { word, count }).collect();
    let word_chars: usize = words.iter().map(|w| w.chars().count()).sum();
    let stats = TextStats {
        characters: text.chars().count(),
        graphemes: text.graphemes(true).count(),
        bytes: text.len(),
        words: words.len(),
        lines: text.lines().count(),
        sentences: text.unicode_sentences().filter(|s| !s.trim().is_empty()).count(),
        paragraphs: paragraphs(text),
        non_whitespace_characters: text.chars().filter(|c| !c.is_whitespace()).count(),
        unique_words,
        average_word_length: if words.is_empty() { 0.0 } else { round2(word_chars as f64 / words.len() as f64) },
        reading_seconds: (words.len() * 60).div_ceil(WORDS_PER_MINUTE),
        speaking_seconds: (words.len() * 60).div_ceil(SPOKEN_WORDS_PER_MINUTE),
        top_words,
    };
    Ok(JsonWithText { text: describe(&stats), data: stats })
}

fn paragraphs(text: &str) -> usize {
    let mut count = 0;
    let mut in_paragraph = false;
    for line in text.lines() {
        let blank = line.trim().is_empty();
        if !blank && !in_paragraph {
            count += 1;
        }
        in_paragraph = !blank;
    }
    count
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// `x` (at most two decimals, as [`round2`] leaves it) as `f64`'s `Display` writes it: "4", "4.5", "4.25". Written
/// from integers: `f64`'s `Display` would link the standard library's float formatting (about 14 KB of wasm) for
/// this one number.
fn two_places(x: f64) -> String {
    #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a non-negative average")]
    let hundredths = (x * 100.0).round() as u64;
    match (hundredths / 100, hundredths % 100) {
        (whole, 0) => whole.to_string(),
        (whole, part) if part % 10 == 0 => format!("{whole}.{}", part / 10),
        (whole, part) => format!("{whole}.{part:02}"),
    }
}

/// "1 min 5 s", "40 s".
fn duration(seconds: usize) -> String {
    match (seconds / 60, seconds % 60) {
        (0, s) => format!("{s} s"),
        (m, 0) => format!("{m} min"),
        (m, s) => format!("{m} min {s} s"),
    }
}

fn describe(s: &TextStats) -> String {
    let top: Vec<String> = s.top_words.iter().map(|w| format!("{} ({})", w.word, w.count)).collect();
    format!(
        "characters: {}\ngraphemes: {}\nbytes: {}\nwords: {} ({} unique, {} characters on average)\nlines: {}\n\
         sentences: {}\nparagraphs: {}\nnon-whitespace characters: {}\nreading time: {}\nspeaking time: {}\n\
         most frequent words: {}",
        s.characters,
        s.graphemes,
        s.bytes,
        s.words,
        s.unique_words,
        two_places(s.average_word_length),
        s.lines,
        s.sentences,
        s.paragraphs,
        s.non_whitespace_characters,
        duration(s.reading_seconds),
        duration(s.speaking_seconds),
        if top.is_empty() { "none".to_owned() } else { top.join(", ") }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_average_reads_as_a_float_would() {
        for x in [0.0, 4.0, 4.5, 4.25, 4.05, 12.1, 123.99] {
            assert_eq!(two_places(x), x.to_string(), "{x}");
        }
    }
}
