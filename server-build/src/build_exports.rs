//! The exports only the build calls. `export_server!` exports `mcp_worker_manifest()` and `mcp_worker_schemas()`
//! beside `mcp_worker_connect`: the build calls them in node on the module wasm-bindgen wrote (to write
//! `manifest.json`, and to check the schemas a release build embeds), and no host ever does. [`drop_files`] then
//! takes their functions out of the glue; the glue then reaches neither export, so [`crate::export_names`] leaves
//! both out of the module and wasm-opt removes their code (the manifest's writer, the schema table's recorder): 1.1
//! KiB of gzip off each bundle.

use std::fs;
use std::ops::Range;
use std::path::Path;

/// What [`drop_files`] takes out of a bundle.
pub const BUILD_ONLY: [&str; 2] = ["mcp_worker_manifest", "mcp_worker_schemas"];

/// Part of a build's fingerprint: bundles made before this step existed are made again.
pub const FORM: &str = "mcp_worker_manifest and mcp_worker_schemas dropped once read";

/// [`drop`] on the glue wasm-bindgen wrote, rewritten in place. `Ok(false)` (left as it was) when it is not of the
/// form this knows.
pub fn drop_files(glue: &Path, names: &[&str]) -> crate::Result<bool> {
    let text = fs::read_to_string(glue).map_err(|e| format!("cannot read {}: {e}", glue.display()))?;
    let Some(text) = drop(&text, names) else { return Ok(false) };
    fs::write(glue, text).map_err(|e| format!("cannot write {}: {e}", glue.display()))?;
    Ok(true)
}

/// The glue without the function of each of `names` (`export function <name>(` at the start of a line, through
/// the first line that is `}` alone, with the doc comment right before it); `None` unless each is there once and
/// the name occurs nowhere else.
pub fn drop(glue: &str, names: &[&str]) -> Option<String> {
    let mut glue = glue.to_owned();
    for name in names {
        let span = function_span(&glue, name)?;
        glue.replace_range(span, "");
        if glue.contains(name) {
            return None;
        }
    }
    Some(glue)
}

/// Where the exported function `name` is written in `glue`, from its doc comment (if one ends on the line before
/// it) through the line that closes it.
fn function_span(glue: &str, name: &str) -> Option<Range<usize>> {
    let head = format!("export function {name}(");
    let mut starts = glue.match_indices(&head).map(|(at, _)| at).filter(|&at| at == 0 || glue[..at].ends_with('\n'));
    let start = starts.next()?;
    if starts.next().is_some() {
        return None;
    }
    let end = start + closing_line_end(&glue[start..])?;
    let before = &glue[..start];
    let start = match before.strip_suffix(" */\n").and_then(|text| text.rfind("/**")) {
        Some(doc) if glue[..doc].is_empty() || glue[..doc].ends_with('\n') => doc,
        _ => start,
    };
    Some(start..end)
}

/// Where the line `}` that closes the function `text` starts with ends (after its newline); `None` when a line of
/// the function's body is not indented (then the function is not written as wasm-bindgen writes one).
fn closing_line_end(text: &str) -> Option<usize> {
    let mut at = text.find('\n')? + 1;
    for line in text[at..].split_inclusive('\n') {
        at += line.len();
        match line.trim_end_matches('\n') {
            "}" => return line.ends_with('\n').then_some(at),
            body if body.is_empty() || body.starts_with(' ') => {}
            _ => return None,
        }
    }
    None
}

#[cfg(test)]
#[path = "build_exports_tests.rs"]
mod tests;
