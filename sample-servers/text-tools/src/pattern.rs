//! Building a regex from what a caller sends: the pattern, its flags, and bounds on its size.
//!
//! The `regex` crate matches in time linear in the text whatever the pattern (no backtracking), so a hostile pattern
//! cannot hang the worker; the bounds here cap the pattern and the memory its compiled form may take.

use regex::{Regex, RegexBuilder};
use schemars::JsonSchema;
use serde::Deserialize;

/// The longest pattern accepted.
pub(crate) const MAX_PATTERN_BYTES: usize = 4096;

/// The most memory a compiled pattern (and its lazy DFA) may take: 4 MiB each.
const MAX_COMPILED_BYTES: usize = 4 << 20;

/// The pattern and how to read it, shared by `regex_find` and `regex_replace`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct PatternArgs {
    /// The regular expression, in Rust `regex` syntax (like Perl/PCRE without look-around and backreferences), e.g.
    /// `(\w+)@(\w+)\.com` or `(?P<year>\d{4})-(?P<month>\d{2})`.
    pub(crate) pattern: String,
    /// Take the pattern as plain text: every character matches itself.
    pub(crate) literal: Option<bool>,
    /// Ignore case (`(?i)`).
    pub(crate) case_insensitive: Option<bool>,
    /// `^` and `$` match at the start and end of every line, not only of the text (`(?m)`).
    pub(crate) multi_line: Option<bool>,
    /// `.` matches newlines too (`(?s)`).
    pub(crate) dot_matches_newline: Option<bool>,
}

impl PatternArgs {
    /// The compiled pattern, or a readable reason it is not one.
    pub(crate) fn compile(&self) -> Result<Regex, String> {
        crate::limits::check_len("pattern", &self.pattern, MAX_PATTERN_BYTES)?;
        let source = if self.literal.unwrap_or(false) { regex::escape(&self.pattern) } else { self.pattern.clone() };
        RegexBuilder::new(&source)
            .case_insensitive(self.case_insensitive.unwrap_or(false))
            .multi_line(self.multi_line.unwrap_or(false))
            .dot_matches_new_line(self.dot_matches_newline.unwrap_or(false))
            .size_limit(MAX_COMPILED_BYTES)
            .dfa_size_limit(MAX_COMPILED_BYTES)
            .build()
            .map_err(|e| format!("the pattern is not a valid regex:\n{e}"))
    }
}
