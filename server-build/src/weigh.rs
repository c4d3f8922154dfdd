//! What a module's size is made of: each function's body and each data segment, read from a copy of the module that
//! kept its names (wasm-opt's `--debuginfo`, [`crate::bundle::optimize`]'s named copy), and each function counted
//! to the crate whose code it is ([`crate_of`]). `cargo xtask weigh` prints it for every package, to find what is
//! big before cutting.

use std::collections::BTreeMap;
use wasmparser::{KnownCustom, Name, Parser, Payload};

/// The bytes of one function's body, under its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// Its name as the name section gives it (`crate[hash]::path`), or `function N` without one.
    pub name: String,
    /// The bytes of its body in the code section, with its length before it.
    pub bytes: u64,
}

/// A module's size, by part.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Weighed {
    /// Every function the module defines, the largest first.
    pub functions: Vec<Function>,
    /// The bytes of its data segments (static data: strings, tables).
    pub data: u64,
    /// The bytes of every section but the code, data and custom ones (types, imports, exports, tables, …).
    pub other: u64,
}

/// What one crate's functions weigh together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrateShare {
    /// The crate (`core`, `serde_json`, …), or [`NO_CRATE`].
    pub name: String,
    /// How many functions.
    pub functions: usize,
    /// Their bodies' bytes.
    pub bytes: u64,
}

/// Where functions without a crate in their name go: wasm-bindgen's shims around the exports and imports (with what
/// wasm-opt inlined into them), and the runtime's own.
pub const NO_CRATE: &str = "(shims: wasm-bindgen's, and what wasm-opt inlined into them)";

/// The crates of the standard library: a function is counted to one of them only when its name names no other.
const STANDARD: [&str; 3] = ["core", "alloc", "std"];

/// Reads the parts of `wasm`. `Err` when it is not a module this can read.
pub fn weigh(wasm: &[u8]) -> Result<Weighed, String> {
    let unreadable = |e: wasmparser::BinaryReaderError| format!("the wasm module cannot be read: {e}");
    let (mut imported, mut bodies, mut names) = (0u32, Vec::new(), BTreeMap::new());
    let mut weighed = Weighed::default();
    for payload in Parser::new(0).parse_all(wasm) {
        match payload.map_err(unreadable)? {
            Payload::ImportSection(imports) => {
                weighed.other += section_len(&imports.range());
                for import in imports.into_imports() {
                    if matches!(import.map_err(unreadable)?.ty, wasmparser::TypeRef::Func(_)) {
                        imported += 1;
                    }
                }
            }
            Payload::CodeSectionEntry(body) => {
                // The body and the LEB128 of its length before it.
                let len = section_len(&body.range());
                bodies.push(len + leb128_len(len));
            }
            Payload::DataSection(segments) => weighed.data += section_len(&segments.range()),
            Payload::CustomSection(custom) => {
                if let KnownCustom::Name(reader) = custom.as_known() {
                    for subsection in reader {
                        let Name::Function(map) = subsection.map_err(unreadable)? else { continue };
                        for naming in map {
                            let naming = naming.map_err(unreadable)?;
                            names.insert(naming.index, naming.name.to_owned());
                        }
                    }
                }
            }
            Payload::CodeSectionStart { .. } | Payload::Version { .. } | Payload::End(_) => {}
            other => {
                if let Some((_, range)) = other.as_section() {
                    weighed.other += section_len(&range);
                }
            }
        }
    }
    weighed.functions = bodies
        .into_iter()
        .enumerate()
        .map(|(at, bytes)| {
            let index = imported + u32::try_from(at).unwrap_or(u32::MAX);
            let name = names.remove(&index).unwrap_or_else(|| format!("function {index}"));
            Function { name, bytes }
        })
        .collect();
    weighed.functions.sort_by(|a, b| b.bytes.cmp(&a.bytes).then_with(|| a.name.cmp(&b.name)));
    Ok(weighed)
}

fn section_len(range: &std::ops::Range<usize>) -> u64 {
    (range.end - range.start) as u64
}

/// The bytes of `value` as unsigned LEB128.
fn leb128_len(value: u64) -> u64 {
    u64::from((64 - value.leading_zeros()).max(1).div_ceil(7))
}

impl Weighed {
    /// The functions' bytes by crate ([`crate_of`]), the heaviest first.
    pub fn by_crate(&self) -> Vec<CrateShare> {
        let mut shares: BTreeMap<&str, (usize, u64)> = BTreeMap::new();
        for function in &self.functions {
            let share = shares.entry(crate_of(&function.name).unwrap_or(NO_CRATE)).or_default();
            share.0 += 1;
            share.1 += function.bytes;
        }
        let mut shares: Vec<CrateShare> = shares
            .into_iter()
            .map(|(name, (functions, bytes))| CrateShare { name: name.to_owned(), functions, bytes })
            .collect();
        shares.sort_by(|a, b| b.bytes.cmp(&a.bytes).then_with(|| a.name.cmp(&b.name)));
        shares
    }

    /// The bytes of every function body.
    pub fn code(&self) -> u64 {
        self.functions.iter().map(|f| f.bytes).sum()
    }
}

/// The crate whose code a function is, from its name (rustc's symbol, as `crate[hash]::path`): the first crate its
/// name names that is not the standard library's, else the standard library's first. Code made of generics goes to
/// the outermost crate: `serde_json`'s reader of `mcp_worker_protocol`'s struct is `serde_json`'s, a
/// `core::ptr::drop_in_place::<mcp_worker_client::Connection>` is `mcp_worker_client`'s, and an `async fn`'s
/// `Future::poll` its own crate's. `None` for a name that names no crate.
pub fn crate_of(name: &str) -> Option<&str> {
    let crates = crates_named(name);
    crates.iter().copied().find(|c| !STANDARD.contains(c)).or_else(|| crates.first().copied())
}

/// The crates a symbol names, in order: each identifier followed by `[hex]::`.
fn crates_named(name: &str) -> Vec<&str> {
    let bytes = name.as_bytes();
    let mut crates = Vec::new();
    let mut at = 0;
    while let Some(open) = bytes[at..].iter().position(|&b| b == b'[').map(|p| p + at) {
        let hex_end =
            bytes[open + 1..].iter().position(|b| !b.is_ascii_hexdigit()).map_or(bytes.len(), |p| p + open + 1);
        let closes = hex_end > open + 1 && bytes[hex_end..].starts_with(b"]::");
        let start = bytes[..open].iter().rposition(|&b| !(b.is_ascii_alphanumeric() || b == b'_')).map_or(0, |p| p + 1);
        if closes && start < open {
            crates.push(&name[start..open]);
        }
        at = open + 1;
    }
    crates
}

/// A symbol without its crates' hashes (`core[27cd…]::ptr` → `core::ptr`), for reading.
pub fn without_hashes(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        let hex = after.bytes().take_while(u8::is_ascii_hexdigit).count();
        out.push_str(&rest[..open]);
        if hex > 0 && after[hex..].starts_with("]::") {
            rest = &after[hex + 1..];
        } else {
            out.push('[');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// The widest a function's name is printed (the rest elided).
const NAME_CHARS: usize = 150;

/// One package's figures as text: its parts, its heaviest crates and its largest `top` functions.
pub fn report(package: &str, weighed: &Weighed, top: usize) -> String {
    let (code, data, other) = (weighed.code(), weighed.data, weighed.other);
    let total = code + data + other;
    let percent = |bytes: u64| if total == 0 { 0.0 } else { 100.0 * bytes as f64 / total as f64 };
    let mut out = format!(
        "\n{package}: {} of wasm: code {} ({:.1}%), data {} ({:.1}%), the rest {}\n",
        kib(total),
        kib(code),
        percent(code),
        kib(data),
        percent(data),
        kib(other)
    );
    out.push_str("  by crate (a function counts to the outermost crate its name names beyond core, alloc and std):\n");
    let shares = weighed.by_crate();
    for share in shares.iter().take(top) {
        let line = format!(
            "{:>10} {:>5.1}% {:>5} fn  {}\n",
            kib(share.bytes),
            percent(share.bytes),
            share.functions,
            share.name
        );
        out.push_str(&format!("  {line}"));
    }
    if shares.len() > top {
        let rest: u64 = shares[top..].iter().map(|s| s.bytes).sum();
        out.push_str(&format!("  {:>10} {:>5.1}%  in {} more crates\n", kib(rest), percent(rest), shares.len() - top));
    }
    out.push_str("  largest functions:\n");
    for function in weighed.functions.iter().take(top) {
        let name = elided(&without_hashes(&function.name), NAME_CHARS);
        out.push_str(&format!("  {:>10} {:>5.1}%  {name}\n", kib(function.bytes), percent(function.bytes)));
    }
    out
}

fn kib(bytes: u64) -> String {
    format!("{:.1} KiB", bytes as f64 / 1024.0)
}

/// `text` cut to `chars` characters, with `…` where it was cut.
fn elided(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
#[path = "weigh_tests.rs"]
mod tests;
