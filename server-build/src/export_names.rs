//! Short names for what a server's or host package's module exports, and no export its glue does not use.
//!
//! wasm-bindgen names the exports that invoke a Rust closure after the closure's types and the crates' hashes
//! (`wasm_bindgen_e44edd6d937718a7___convert__closures_____invoke___web_sys_867ff20a0cbcb1f1___features__gen_MessageEvent__MessageEvent______true_`),
//! and the glue calls each through a function of the same name. A bundle's glue is its own (no page imports it to
//! reach the module's exports: a host starts `bootstrap.js`, node runs `serve.mjs`), so [`shorten`] renames every
//! export the glue reaches (`wasm.<name>`) to a short name, in the module and the glue, and the glue's own functions
//! named after one (not a name the glue exports) to `$<short name>`. An export the glue never reaches (a `static` of
//! wasm-bindgen's runtime, the deallocator once no glue function frees a string) is left out, so that wasm-opt can
//! remove what only it kept.
//!
//! A host package's glue hands the exports to whoever calls its `init()`, as the `InitOutput` its declarations
//! describe: there the memory keeps its name (the one export a page has a use for: how much the host holds), the
//! others are renamed all the same (each is a raw function of wasm-bindgen's calling convention, which only the glue
//! can call), and [`declarations`] rewrites the declarations to match.

use std::collections::HashMap;
use std::path::Path;

use wasmparser::{Parser, Payload};

use crate::import_names::{identifier_positions, section_bytes, short_names};

/// Part of a build's fingerprint: bundles made before this step existed are made again.
pub const FORM: &str = "exports the glue reaches renamed, the others left out";

/// What [`shorten`] made.
#[derive(Debug)]
pub struct Shortened {
    /// The module's bytes.
    pub wasm: Vec<u8>,
    /// The glue's text.
    pub glue: String,
    /// The exports renamed: each old name with its new one.
    pub renamed: HashMap<String, String>,
    /// The exports left out, by their names.
    pub dropped: Vec<String>,
}

/// [`shorten`] on the files wasm-bindgen wrote, `wasm` and its glue, rewritten in place. Returns the exports renamed
/// (old name, new name) and those left out, or `None` (both files left as they were) when the glue is not of the
/// form this knows.
pub fn shorten_files(wasm: &Path, glue: &Path, keep: &[&str]) -> crate::Result<Option<Renaming>> {
    crate::module_files::rewrite(wasm, glue, |bytes, text| {
        Ok(shorten(bytes, text, keep)?
            .map(|shortened| (shortened.wasm, shortened.glue, (shortened.renamed, shortened.dropped))))
    })
}

/// The exports [`shorten`] renamed (each old name with its new one), and those it left out.
pub type Renaming = (HashMap<String, String>, Vec<String>);

/// Renames the exports of `wasm` that `glue` reaches and leaves out the others (see the module's description),
/// except those named in `keep`, which stay as they are. `Ok(None)` when the glue is not of the form this knows: it
/// must take the exports once (`wasm = instance.exports`) and reach them only as `wasm.<name>`. `Err` when `wasm`
/// cannot be read as a module.
pub fn shorten(wasm: &[u8], glue: &str, keep: &[&str]) -> Result<Option<Shortened>, String> {
    if glue.matches(".exports").count() != 1 || !glue.contains("wasm = instance.exports;") || glue.contains("wasm[") {
        return Ok(None);
    }
    let unreadable = |e: &dyn std::fmt::Display| format!("the wasm module cannot be read: {e}");
    let mut names: HashMap<String, String> = HashMap::new();
    let mut dropped = Vec::new();
    let mut short = short_names();
    let mut out = wasm_encoder::Module::new();
    for payload in Parser::new(0).parse_all(wasm) {
        let payload = payload.map_err(|e| unreadable(&e))?;
        let Some((id, range)) = payload.as_section() else { continue };
        let Payload::ExportSection(reader) = payload else {
            out.section(&wasm_encoder::RawSection { id, data: section_bytes(wasm, range)? });
            continue;
        };
        let mut exports = wasm_encoder::ExportSection::new();
        for export in reader {
            let export = export.map_err(|e| unreadable(&e))?;
            if keep.contains(&export.name) {
                exports.export(export.name, wasm_encoder::ExportKind::from(export.kind), export.index);
                continue;
            }
            if reached(glue, export.name).next().is_none() {
                dropped.push(export.name.to_owned());
                continue;
            }
            let name = names.entry(export.name.to_owned()).or_insert_with(|| short.next().unwrap_or_default());
            exports.export(name, wasm_encoder::ExportKind::from(export.kind), export.index);
        }
        out.section(&exports);
    }
    let Some(glue) = renamed_in_glue(glue, &names) else { return Ok(None) };
    Ok(Some(Shortened { wasm: out.finish(), glue, renamed: names, dropped }))
}

/// Where the glue reaches the export `name`: each `wasm.<name>`, by the position of the name.
fn reached<'a>(glue: &'a str, name: &'a str) -> impl Iterator<Item = usize> + 'a {
    identifier_positions(glue, name).filter(|&at| {
        let identifier = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
        glue[..at].strip_suffix("wasm.").is_some_and(|before| !before.ends_with(identifier))
    })
}

/// `glue` with each `wasm.<old>` of `names` made `wasm.<new>`, and the glue's own function named `<old>` (if any)
/// made `$<new>`, every occurrence of it. `None` when a `$<new>` is in the glue already.
fn renamed_in_glue(glue: &str, names: &HashMap<String, String>) -> Option<String> {
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    for (old, new) in names {
        let reached: Vec<usize> = reached(glue, old).collect();
        let local: Vec<usize> = identifier_positions(glue, old).filter(|at| !reached.contains(at)).collect();
        if !local.is_empty() && local_binding(glue, old, &local) {
            let dollar = format!("${new}");
            if identifier_positions(glue, &dollar).next().is_some() {
                return None;
            }
            edits.extend(local.into_iter().map(|at| (at, old.len(), dollar.clone())));
        }
        edits.extend(reached.into_iter().map(|at| (at, old.len(), new.clone())));
    }
    edits.sort_unstable_by_key(|(at, _, _)| *at);
    let mut out = String::with_capacity(glue.len());
    let mut copied = 0;
    for (at, len, new) in edits {
        out.push_str(&glue[copied..at]);
        out.push_str(&new);
        copied = at + len;
    }
    out.push_str(&glue[copied..]);
    Some(out)
}

/// Whether the occurrences `at` of `name` (none of them `wasm.<name>`) are all of one binding of the glue's own,
/// which may be renamed: none is a property (`x.<name>`), a key (`<name>:`) or in a string, and no line that names
/// it exports from the glue.
fn local_binding(glue: &str, name: &str, at: &[usize]) -> bool {
    let plain = at.iter().all(|&at| {
        !glue[..at].ends_with(['.', '\'', '"', '`']) && !glue[at + name.len()..].starts_with([':', '\'', '"', '`'])
    });
    let exported = glue
        .lines()
        .any(|line| line.trim_start().starts_with("export") && identifier_positions(line, name).next().is_some());
    plain && !exported
}

/// A package's declarations after [`shorten`]: in `InitOutput` (the glue's, `<name>.d.ts`) and in the module's
/// own (`<name>_bg.wasm.d.ts`, a line `export const <name>: …` per export), each export renamed is named anew and
/// each left out goes. `renamed` and `dropped` are what [`shorten`] made.
pub fn declarations(text: &str, renamed: &HashMap<String, String>, dropped: &[String]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_init_output = false;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with("export interface InitOutput") {
            in_init_output = true;
        } else if in_init_output && trimmed.starts_with('}') {
            in_init_output = false;
        }
        let member =
            if in_init_output { trimmed.strip_prefix("readonly ") } else { trimmed.strip_prefix("export const ") };
        let named = member.and_then(|rest| rest.split_once(':')).map(|(name, _)| name.trim());
        match named {
            Some(name) if dropped.iter().any(|gone| gone == name) => {}
            Some(name) => match renamed.get(name) {
                Some(new) => out.push_str(&line.replacen(&format!("{name}:"), &format!("{new}:"), 1)),
                None => out.push_str(line),
            },
            None => out.push_str(line),
        }
    }
    out
}

#[cfg(test)]
#[path = "export_names_tests.rs"]
mod tests;
