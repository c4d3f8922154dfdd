//! `cargo xtask weigh`: what each release package's wasm is made of, by crate and by function, so that a cut starts
//! from what is big. The release build writes a copy of each optimized module with its functions' names kept
//! (`mcp_worker_build::bundle::optimize_named`) under `target/weigh/`; this reads them
//! (`mcp_worker_build::weigh`). The figures are bytes of wasm before gzip.

use crate::build::{self, BuildArgs, Profile};
use crate::{Result, target_dir};
use mcp_worker_build::weigh::{self, Weighed};
use std::fs;
use std::path::{Path, PathBuf};

/// How many crates and functions each package lists unless told (`--top N`).
const DEFAULT_TOP: usize = 12;

/// The widest a function's name is printed (the rest elided).
const NAME_CHARS: usize = 150;

/// What `cargo xtask weigh` was asked for.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct WeighArgs {
    /// As `build -p`: sample servers and `host`; empty: every package.
    only: Vec<String>,
    /// How many crates and functions to list.
    top: usize,
}

impl WeighArgs {
    pub(crate) fn from_args(args: &[String]) -> Result<Self> {
        let mut parsed = Self { only: Vec::new(), top: DEFAULT_TOP };
        let mut iter = args.iter();
        while let Some(arg) = iter.next() {
            match arg.as_str() {
                "-p" | "--package" => match iter.next() {
                    Some(name) => parsed.only.push(name.clone()),
                    None => return Err(format!("weigh: `{arg}` needs a server's name (or `host`)")),
                },
                "--top" => {
                    let value = iter.next().ok_or("weigh: `--top` needs a number")?;
                    parsed.top = value.parse().map_err(|_| format!("weigh: `{value}` is not a number"))?;
                }
                other => {
                    return Err(format!(
                        "weigh: unexpected argument `{other}` (expected `[-p <server> | -p host]... \
                                        [--top N]`)"
                    ));
                }
            }
        }
        Ok(parsed)
    }
}

/// Builds the packages asked for in release with named copies, then prints what each is made of.
pub(crate) fn run(args: &WeighArgs) -> Result {
    let dir = target_dir().join("weigh");
    // Every copy is made anew: a package whose copy is missing is assembled again (the same package as before).
    if dir.exists() {
        fs::remove_dir_all(&dir).map_err(|e| format!("cannot remove {}: {e}", dir.display()))?;
    }
    let build_args = BuildArgs { profile: Profile::Release, only: args.only.clone(), named_copies: Some(dir.clone()) };
    build::build_selected(&build_args)?;
    println!("== what the packages' wasm is made of (bytes before gzip, of a copy that kept its names)");
    for copy in copies(&dir)? {
        let bytes = fs::read(&copy).map_err(|e| format!("cannot read {}: {e}", copy.display()))?;
        let weighed = weigh::weigh(&bytes).map_err(|e| format!("{}: {e}", copy.display()))?;
        let package = copy.strip_prefix(&dir).unwrap_or(&copy).with_extension("");
        print!("{}", report(&package.to_string_lossy(), &weighed, args.top));
    }
    Ok(())
}

/// The named copies under `dir`, in order.
fn copies(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut copies = Vec::new();
    for kind in ["pkg", "bundles"] {
        let Ok(entries) = fs::read_dir(dir.join(kind)) else { continue };
        let mut found: Vec<PathBuf> = entries
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.extension().is_some_and(|e| e == "wasm"))
            .collect();
        found.sort();
        copies.extend(found);
    }
    Ok(copies)
}

/// One package's figures: its parts, its heaviest crates and its largest functions.
fn report(package: &str, weighed: &Weighed, top: usize) -> String {
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
        let name = elided(&weigh::without_hashes(&function.name), NAME_CHARS);
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
mod tests {
    use super::*;
    use mcp_worker_build::weigh::Function;

    #[test]
    fn arguments() {
        let parse = |args: &[&str]| WeighArgs::from_args(&args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>());
        assert_eq!(parse(&[]), Ok(WeighArgs { only: vec![], top: DEFAULT_TOP }));
        assert_eq!(
            parse(&["-p", "echo", "--top", "30", "-p", "host"]),
            Ok(WeighArgs { only: vec!["echo".into(), "host".into()], top: 30 })
        );
        assert!(parse(&["--top", "many"]).unwrap_err().contains("`many` is not a number"));
        assert!(parse(&["--release"]).unwrap_err().contains("unexpected argument `--release`"));
    }

    #[test]
    fn a_report_lists_the_heaviest_crates_and_functions_and_what_it_left_out() {
        let function = |name: &str, bytes| Function { name: name.to_owned(), bytes };
        let weighed = Weighed {
            functions: vec![
                function("serde_json[1a]::de::parse", 3072),
                function("a[2b]::f", 1024),
                function("b[3c]::g", 512),
            ],
            data: 1024,
            other: 512,
        };
        let text = report("bundles/echo", &weighed, 2);
        assert!(text.contains("bundles/echo: 6.0 KiB of wasm: code 4.5 KiB (75.0%), data 1.0 KiB (16.7%)"), "{text}");
        assert!(text.contains("3.0 KiB  50.0%     1 fn  serde_json\n"), "{text}");
        assert!(text.contains("0.5 KiB   8.3%  in 1 more crates"), "{text}");
        assert!(text.contains("serde_json::de::parse\n"), "hashes taken out: {text}");
        assert!(!text.contains("b::g"), "only the two largest functions: {text}");
    }

    #[test]
    fn long_names_are_elided() {
        assert_eq!(elided("abcdef", 3), "abc…");
        assert_eq!(elided("abc", 3), "abc");
    }
}
