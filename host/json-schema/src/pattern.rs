//! `pattern` and `patternProperties`, on `regex-lite`: a finite-automaton engine whose matching takes time linear
//! in the text (times the size of the compiled pattern), in wasm and natively alike. The browser's `RegExp`
//! backtracks, and a server's `^(a+)+$` against 27 characters froze the page for most of a second.
//!
//! The engine reads the ECMA-262 syntax tool schemas use (classes, `\d`/`\w`/`\s`, anchors, groups, counted
//! repetition, `\uXXXX`, named groups). A pattern it cannot compile (lookaround `(?=`/`(?!`/`(?<=`, backreferences
//! `\1`, `\p{…}`, `[^]`), or longer than [`Limits::max_pattern_length`](crate::Limits::max_pattern_length), or
//! whose compiled size is over [`Limits::max_pattern_size`](crate::Limits::max_pattern_size), is not checked: it matches everything, as a malformed pattern always did. That is the safe side here: refusing would
//! block every call of the tool over a pattern the page cannot read, while the server, which validates its own
//! arguments, still can.
//!
//! Costs, in steps of the validation's budget (see `work.rs`): compiling, once per pattern in a validation, for each
//! size limit tried, [`PARSE_STEPS_PER_BYTE`] a byte of pattern and a step per [`BUILD_BYTES_PER_STEP`] bytes of
//! compiled size; a match, [`MATCH`] steps plus the compiled size times the text's length over
//! [`MATCH_BYTES_PER_STEP`], the engine's worst case for a pattern of that size. Work the budget cannot pay for is
//! not done.

use crate::work::Work;
use regex_lite::{Regex, RegexBuilder};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// The compiled-size limit a pattern is first tried at; it doubles up to the largest allowed, so that the limit a
/// pattern compiles at bounds its size within a factor of two.
const FIRST_SIZE: usize = 256;
/// Steps of a match whatever its text (the engine's set-up: about 250 ns natively).
const MATCH: u64 = 8;
/// Bytes of compiled size times bytes of text per step of a match (the engine's worst case is about 0.5 ns per
/// byte of each, natively).
const MATCH_BYTES_PER_STEP: u64 = 64;
/// Steps per byte of pattern parsed (the parser takes up to about 160 ns a byte natively).
const PARSE_STEPS_PER_BYTE: u64 = 6;
/// Bytes of compiled size built per step (about 2.5 ns a byte natively).
const BUILD_BYTES_PER_STEP: u64 = 8;
/// The cache of compiled patterns holds at most this many compiled bytes (a bound, not a measure), and this many
/// patterns; past either it starts again empty.
const CACHE_BYTES: usize = 4 << 20;
const CACHE_PATTERNS: usize = 512;

/// A pattern, compiled or found not to be.
#[derive(Debug)]
struct Compiled {
    /// `None`: the engine cannot read it, or it is too large; it is not checked.
    regex: Option<Regex>,
    /// The compiled-size limit it compiled under (an upper bound of its size).
    size: usize,
    /// The steps compiling it took.
    cost: u64,
}

#[derive(Debug, Default)]
struct Cache {
    patterns: HashMap<(String, usize), Rc<Compiled>>,
    bytes: usize,
}

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

/// The patterns of one validation: which have been paid for.
#[derive(Debug, Default)]
pub(crate) struct Patterns {
    paid: HashSet<usize>,
}

impl Patterns {
    /// Whether `text` matches `pattern` anywhere (JSON Schema patterns are not anchored). A pattern that is not
    /// checked, or that the budget cannot pay for, matches (and in the second case the validation has failed).
    pub(crate) fn matches(&mut self, pattern: &str, text: &str, work: &mut Work) -> bool {
        if work.exhausted() || pattern.len() > work.limits.max_pattern_length {
            return true;
        }
        let first_use = self.paid.insert(pattern.as_ptr() as usize);
        let Some(compiled) = compiled(pattern, work, first_use) else { return true };
        let Some(regex) = &compiled.regex else { return true };
        let cost = (compiled.size as u64).saturating_mul(text.len() as u64) / MATCH_BYTES_PER_STEP;
        if !work.spend(MATCH + cost) {
            return true;
        }
        regex.is_match(text)
    }
}

/// The compiled `pattern`, paid for when `first_use` in this validation: from the cache at the steps its compiling
/// took, so that a validation costs the same every time; otherwise compiled, each attempt paid before it runs.
/// `None` when the budget ran out.
fn compiled(pattern: &str, work: &mut Work, first_use: bool) -> Option<Rc<Compiled>> {
    let max_size = work.limits.max_pattern_size;
    let key = (pattern.to_owned(), max_size);
    if let Some(compiled) = CACHE.with(|cache| cache.borrow().patterns.get(&key).cloned()) {
        return (!first_use || work.spend(compiled.cost)).then_some(compiled);
    }
    let compiled = Rc::new(compile(pattern, max_size, work)?);
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        let bytes = compiled.size + pattern.len();
        if cache.patterns.len() >= CACHE_PATTERNS || cache.bytes + bytes > CACHE_BYTES {
            cache.patterns.clear();
            cache.bytes = 0;
        }
        cache.bytes += bytes;
        cache.patterns.insert(key, Rc::clone(&compiled));
    });
    Some(compiled)
}

fn compile(pattern: &str, max_size: usize, work: &mut Work) -> Option<Compiled> {
    let mut size = FIRST_SIZE.min(max_size);
    let mut cost = 0;
    loop {
        let attempt = pattern.len() as u64 * PARSE_STEPS_PER_BYTE + size as u64 / BUILD_BYTES_PER_STEP;
        if !work.spend(attempt) {
            return None;
        }
        cost += attempt;
        match RegexBuilder::new(pattern).size_limit(size).build() {
            Ok(regex) => return Some(Compiled { regex: Some(regex), size, cost }),
            // Too large for this limit, or not a pattern the engine reads: try larger until the largest allowed.
            Err(_) if size < max_size => size = size.saturating_mul(2).min(max_size),
            Err(_) => return Some(Compiled { regex: None, size: 0, cost }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Limits;
    use std::time::{Duration, Instant};

    fn matches(pattern: &str, text: &str) -> bool {
        Patterns::default().matches(pattern, text, &mut Work::new(Limits::default()))
    }

    #[test]
    fn ecma_syntax_of_tool_schemas_compiles() {
        assert!(matches(r"^\d{4}-\d{2}-\d{2}$", "2024-01-31"));
        assert!(!matches(r"^\d{4}-\d{2}-\d{2}$", "2024-1-31"));
        assert!(matches(r"^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$", "a.b@example.org"));
        assert!(matches(r"^https?:\/\/\S+$", "https://example.org/x"));
        assert!(matches(r"^caf\u00e9$", "café"));
        assert!(matches(r"^(?<word>\w+)$", "word_1"));
        assert!(!matches(r"^\w+$", "é"), "\\w is ASCII, as in ECMA-262");
    }

    #[test]
    fn what_the_engine_cannot_read_is_not_checked() {
        assert!(matches(r"^(?=.*[A-Z]).{8,}$", "short"), "lookahead");
        assert!(matches(r"^(a)\1$", "ab"), "backreference");
        assert!(matches(r"^\p{L}+$", "123"), "Unicode property");
        assert!(matches("(unclosed", "x"));
    }

    #[test]
    fn a_catastrophic_backtracking_pattern_runs_in_linear_time() {
        let text = format!("{}!", "a".repeat(27));
        let start = Instant::now();
        assert!(!matches("^(a+)+$", &text));
        assert!(matches("^(a+)+$", &"a".repeat(27)));
        assert!(start.elapsed() < Duration::from_millis(100), "{:?}", start.elapsed());
    }

    #[test]
    fn a_match_the_budget_cannot_pay_for_is_not_run() {
        let mut work = Work::new(Limits::default().steps(100));
        let text = "a".repeat(100_000);
        assert!(Patterns::default().matches("^b", &text, &mut work), "not run: as if it matched");
        assert!(work.exhausted());
    }

    #[test]
    fn a_pattern_over_the_size_limit_is_not_checked() {
        let mut work = Work::new(Limits::default().pattern_size(1024));
        assert!(Patterns::default().matches("^a{1000}$", "b", &mut work));
        assert!(!work.exhausted());
        assert!(!matches("^a{1000}$", "b"), "under the default limit it is checked");
    }
}
