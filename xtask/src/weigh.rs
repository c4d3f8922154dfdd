//! `cargo xtask weigh`: what each release package's wasm is made of, by crate and by function, so that a cut starts
//! from what is big. The release build writes a copy of each optimized module with its functions' names kept
//! (`mcp_worker_build::bundle::optimize_named`) under `target/weigh/`; this reads them
//! (`mcp_worker_build::weigh`). The figures are bytes of wasm before gzip.

use crate::build::{self, BuildArgs, Profile};
use crate::{Result, target_dir};
use mcp_worker_build::weigh;
use std::fs;
use std::path::{Path, PathBuf};

/// How many crates and functions each package lists unless told (`--top N`).
const DEFAULT_TOP: usize = 12;

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
    for copy in copies(&dir) {
        let bytes = fs::read(&copy).map_err(|e| format!("cannot read {}: {e}", copy.display()))?;
        let weighed = weigh::weigh(&bytes).map_err(|e| format!("{}: {e}", copy.display()))?;
        let package = copy.strip_prefix(&dir).unwrap_or(&copy).with_extension("");
        print!("{}", weigh::report(&package.to_string_lossy(), &weighed, args.top));
    }
    Ok(())
}

/// The named copies under `dir`, in order.
fn copies(dir: &Path) -> Vec<PathBuf> {
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
    copies
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
