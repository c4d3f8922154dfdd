//! Compiling a jq filter with jaq: the standard library, minus what would reach outside a sandboxed worker, and
//! errors that say where the filter breaks.

use crate::natives::{self, REPLACED_NATIVES};
use crate::position::{Position, position_in};
use jaq_core::load::{self, Arena, File, Loader};
use jaq_core::{Compiler, data};
use jaq_json::Val;

/// The data jaq runs on: JSON values, and nothing but the compiled program as context.
pub(crate) type Data = data::JustLut<Val>;

/// A compiled filter.
pub(crate) type Filter = jaq_core::Filter<Data>;

/// The longest filter accepted: 16 KiB.
pub(crate) const MAX_FILTER_BYTES: usize = 16 << 10;

/// Native filters of jaq's standard library that this server replaces by definitions: the clock (`now`) and the
/// system's time zone (`localtime`, `strflocaltime`) do not exist in a worker (and `now` would abort it), and the
/// environment is the worker's, not the user's. `natives` replaces more with native filters of its own.
///
/// This hides them; it does not shrink the wasm: `jaq_std::funs` builds every native together, so jiff and its
/// bundled time-zone database (about 300 KiB) ship with the date functions whatever is filtered out here.
const REPLACED_BY_DEFS: &[&str] = &["now", "localtime", "strflocaltime", "env"];

/// The replacements by definition (local time is UTC here), and jq's `@csv` and `@tsv`, which jaq leaves to its
/// command line.
const EXTRA_DEFS: &str = r#"
def now: error("now is not available: this server has no clock");
def localtime: gmtime;
def strflocaltime(f): strftime(f);
def env: {};
def csv_tsv_field(escape):
  if isstring then escape
  elif . == null then ""
  elif isboolean or isnumber then tostring
  else error("cannot format \(type) as a CSV/TSV field: only strings, numbers, booleans and null") end;
def @csv:
  if isarray then map(csv_tsv_field("\"" + (split("\"") | join("\"\"")) + "\"")) | join(",")
  else error("@csv needs an array, not \(type)") end;
def @tsv:
  if isarray then map(csv_tsv_field(
    split("\\") | join("\\\\") | split("\t") | join("\\t") | split("\n") | join("\\n") | split("\r") | join("\\r")
  )) | join("\t")
  else error("@tsv needs an array, not \(type)") end;
"#;

/// Compiles a filter, or says why it cannot be.
pub(crate) fn compile(code: &str) -> Result<Filter, String> {
    if code.len() > MAX_FILTER_BYTES {
        return Err(format!("the filter is {} bytes; the limit is {MAX_FILTER_BYTES}", code.len()));
    }
    let extra = load::parse(EXTRA_DEFS, |p| p.defs()).unwrap_or_default();
    let defs = jaq_core::defs().chain(jaq_std::defs()).chain(jaq_json::defs()).chain(extra);
    let replaced = |name: &&str| REPLACED_BY_DEFS.contains(name) || REPLACED_NATIVES.contains(name);
    let funs = jaq_core::funs().chain(jaq_std::funs::<Data>()).chain(jaq_json::funs());
    let funs = funs.filter(|(name, _, _)| !replaced(name)).chain(natives::replacements::<Data>());
    let arena = Arena::default();
    let modules =
        Loader::new(defs).load(&arena, File { code, path: () }).map_err(|errors| describe_load_errors(code, errors))?;
    Compiler::default().with_funs(funs).compile(modules).map_err(|errors| describe_compile_errors(code, errors))
}

fn describe_load_errors(code: &str, errors: load::Errors<&str, ()>) -> String {
    let mut lines = Vec::new();
    for (_file, error) in errors {
        match error {
            load::Error::Lex(found) => lines.extend(found.into_iter().map(|(expected, at)| {
                let error = syntax_error(code, &format!("expected {}", lex_expectation(&expected)), at);
                // An unclosed delimiter is noticed at the end of the filter; where it opened is what helps.
                match expected {
                    load::lex::Expect::Delim(open) => match position_in(code, open) {
                        Some(opened) => format!("`{open}` at {opened} is never closed: {error}"),
                        None => error,
                    },
                    _ => error,
                }
            })),
            load::Error::Parse(found) => lines.extend(
                found
                    .into_iter()
                    .map(|(expected, at)| syntax_error(code, &format!("expected {}", expected.as_str()), at)),
            ),
            load::Error::Io(found) => {
                lines.extend(found.into_iter().map(|(path, why)| {
                    format!("cannot import {}: {why}", mcp_worker_sdk::protocol::quoted::quoted(path))
                }))
            }
        }
    }
    format!("the filter does not parse: {}", lines.join("; "))
}

fn describe_compile_errors(code: &str, errors: jaq_core::compile::Errors<&str, ()>) -> String {
    let lines: Vec<String> = errors
        .into_iter()
        .flat_map(|(_file, undefined)| undefined)
        .map(|(name, kind)| {
            let what = match kind {
                jaq_core::compile::Undefined::Filter(arity) => format!("undefined filter `{name}/{arity}`"),
                other => format!("undefined {} `{name}`", other.as_str()),
            };
            match position_in(code, name) {
                Some(at) => format!("{what} at {at}"),
                None => what,
            }
        })
        .collect();
    format!("the filter does not compile: {}", lines.join("; "))
}

/// "expected X at line L, column C, found `…`".
fn syntax_error(code: &str, expected: &str, found: &str) -> String {
    match position_in(code, found) {
        Some(Position { line, column }) if found.is_empty() => {
            format!("{expected} at line {line}, column {column}, found the end of the filter")
        }
        Some(at) => format!("{expected} at {at}, found `{}`", first_chars(found, 20)),
        None => expected.to_owned(),
    }
}

fn first_chars(text: &str, n: usize) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(n).collect();
    if chars.next().is_some() { format!("{head}…") } else { head }
}

/// What the lexer wanted, in words (jaq's own `as_str` panics on a delimiter it does not know).
fn lex_expectation(expected: &load::lex::Expect<&str>) -> &'static str {
    use load::lex::Expect;
    match expected {
        Expect::Digit => "a digit",
        Expect::Ident => "an identifier",
        Expect::Delim("(") => "a closing parenthesis",
        Expect::Delim("[") => "a closing bracket",
        Expect::Delim("{") => "a closing brace",
        Expect::Delim(_) => "a closing quote",
        Expect::Escape => "a string escape sequence",
        Expect::Unicode => "4 hexadecimal digits",
        _ => "a token",
    }
}
