//! Short names for what a wasm-bindgen module imports from its own glue and from its snippets.
//!
//! wasm-bindgen names each function a module imports from its glue after the JavaScript it calls and a hash
//! (`__wbg_postMessage_408dcc1ee376f42d`), and writes each name twice: in the module's import section, and as a key
//! of the import object in the glue (`server.js`, `mcp_worker_host.js`). Nothing else refers to them, and their hashes
//! do not compress: a module of 200 imports spends about 7 KiB of gzip on the two copies. Each import also names its
//! module (`./mcp_worker_host_bg.js`, `./snippets/mcp-worker-client-e78339027983cdbf/js/frames.js`), once per import
//! in the module and as a key of the glue's object of modules. [`shorten`] renames the functions of the glue's own
//! module and every module to short names (`a`, `b`, …, `aa`, …) in both, the way emscripten's `--minify-imports`
//! pass does for its own glue. The snippets' functions keep their names (they are their JavaScript functions'), and
//! every other section of the module is copied as it is.

use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;

use wasm_encoder::reencode::{Reencode, RoundtripReencoder};
use wasmparser::{Imports, Parser, Payload};

/// Part of a build's fingerprint: output made before this step existed is made again.
pub const FORM: &str = "the glue's own imports and every module renamed";

/// [`shorten`] on the files wasm-bindgen wrote: `wasm` (`<name>_bg.wasm`) and its glue, rewritten in place. Returns
/// how many of the glue's functions were renamed, or `None` (both files left as they were) when the glue is not of
/// the form this knows.
pub fn shorten_files(wasm: &Path, glue: &Path) -> crate::Result<Option<usize>> {
    let module = format!("./{}", wasm.with_extension("js").file_name().unwrap_or_default().to_string_lossy());
    crate::module_files::rewrite(wasm, glue, |bytes, text| {
        Ok(shorten(bytes, text, &module)?.map(|shortened| (shortened.wasm, shortened.glue, shortened.renamed)))
    })
}

/// A module and its glue with their imports renamed.
#[derive(Debug)]
pub struct Shortened {
    /// The module's bytes.
    pub wasm: Vec<u8>,
    /// The glue's text.
    pub glue: String,
    /// How many functions of the glue's own module were renamed.
    pub renamed: usize,
}

/// Renames the functions `wasm` imports from `module` (wasm-bindgen's `./<name>_bg.js`) and the modules it imports
/// from, in `wasm` and in `glue`. `Ok(None)` when the glue is not of the form this knows (the caller keeps both as
/// they were): each function's name once in it, as a whole identifier, and each module's only as a key (`"M": `) or
/// where it is imported (`from "M"`). `Err` when `wasm` cannot be read as a module.
pub fn shorten(wasm: &[u8], glue: &str, module: &str) -> Result<Option<Shortened>, String> {
    let unreadable = |e: &dyn std::fmt::Display| format!("the wasm module cannot be read: {e}");
    let mut names: HashMap<String, String> = HashMap::new();
    let mut modules: Vec<(String, String)> = Vec::new();
    let (mut short, mut short_modules) = (short_names(), short_names());
    let mut out = wasm_encoder::Module::new();
    for payload in Parser::new(0).parse_all(wasm) {
        let payload = payload.map_err(|e| unreadable(&e))?;
        let Some((id, range)) = payload.as_section() else { continue };
        let Payload::ImportSection(reader) = payload else {
            out.section(&wasm_encoder::RawSection { id, data: section_bytes(wasm, range)? });
            continue;
        };
        let mut imports = wasm_encoder::ImportSection::new();
        for group in reader {
            let Imports::Single(_, import) = group.map_err(|e| unreadable(&e))? else {
                // The compact encodings are not what wasm-bindgen writes: leave the module as it is.
                return Ok(None);
            };
            let ty = RoundtripReencoder.entity_type(import.ty).map_err(|e| unreadable(&e))?;
            let renamed_module = match modules.iter().find(|(old, _)| old == import.module) {
                Some((_, new)) => new.clone(),
                None => {
                    let new = short_modules.next().unwrap_or_default();
                    modules.push((import.module.to_owned(), new.clone()));
                    new
                }
            };
            if import.module == module && matches!(import.ty, wasmparser::TypeRef::Func(_)) {
                let name = names.entry(import.name.to_owned()).or_insert_with(|| short.next().unwrap_or_default());
                imports.import(&renamed_module, name, ty);
            } else {
                imports.import(&renamed_module, import.name, ty);
            }
        }
        out.section(&imports);
    }
    let Some(glue) = renamed_in_glue(glue, &names) else { return Ok(None) };
    let Some(glue) = modules_renamed_in_glue(glue, &modules) else { return Ok(None) };
    Ok(Some(Shortened { wasm: out.finish(), glue, renamed: names.len() }))
}

pub(crate) fn section_bytes(wasm: &[u8], range: Range<usize>) -> Result<&[u8], String> {
    wasm.get(range).ok_or_else(|| "the wasm module cannot be read: a section runs past its end".to_owned())
}

/// Short names, each an identifier: `a`…`z`, `A`…`Z`, then two letters and so on, leaving out the reserved words
/// of JavaScript that short (`do`, `if`, `in`).
pub(crate) fn short_names() -> impl Iterator<Item = String> {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    (0usize..)
        .map(|index| {
            let (mut n, mut name) = (index, Vec::new());
            loop {
                name.push(char::from(LETTERS[n % LETTERS.len()]));
                n /= LETTERS.len();
                if n == 0 {
                    break;
                }
                n -= 1;
            }
            name.iter().rev().collect::<String>()
        })
        .filter(|name| !matches!(name.as_str(), "do" | "if" | "in"))
}

/// `glue` with each of `names` replaced, or `None` unless each occurs exactly once in it, as a whole identifier.
fn renamed_in_glue(glue: &str, names: &HashMap<String, String>) -> Option<String> {
    let mut found: Vec<(usize, &str, &str)> = Vec::with_capacity(names.len());
    for (old, new) in names {
        let mut at = identifier_positions(glue, old);
        let first = at.next()?;
        if at.next().is_some() {
            return None;
        }
        found.push((first, old, new));
    }
    found.sort_unstable_by_key(|(at, _, _)| *at);
    let mut out = String::with_capacity(glue.len());
    let mut copied = 0;
    for (at, old, new) in found {
        out.push_str(&glue[copied..at]);
        out.push_str(new);
        copied = at + old.len();
    }
    out.push_str(&glue[copied..]);
    Some(out)
}

/// `glue` with each module's key (`"M": `) in its object of modules renamed, or `None` unless each module has at
/// least one key (wasm-bindgen writes a module once per import statement of it, all with the same key) and occurs
/// nowhere else but where it is imported (`from "M"`).
fn modules_renamed_in_glue(mut glue: String, modules: &[(String, String)]) -> Option<String> {
    for (old, new) in modules {
        let quoted = format!("\"{old}\"");
        let key = format!("{quoted}:");
        let keys = glue.matches(&key).count();
        if keys == 0 || glue.matches(&quoted).count() != keys + glue.matches(&format!("from {quoted}")).count() {
            return None;
        }
        glue = glue.replace(&key, &format!("\"{new}\":"));
    }
    Some(glue)
}

/// Where `name` occurs in `text` with no identifier character right before or after it.
pub(crate) fn identifier_positions<'a>(text: &'a str, name: &'a str) -> impl Iterator<Item = usize> + 'a {
    let part_of_identifier = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    text.match_indices(name).map(|(at, _)| at).filter(move |&at| {
        !part_of_identifier(text[..at].chars().next_back())
            && !part_of_identifier(text[at + name.len()..].chars().next())
    })
}

#[cfg(test)]
#[path = "import_names_tests.rs"]
mod tests;
