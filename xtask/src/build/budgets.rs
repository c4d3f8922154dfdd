//! Size budgets: what each package a user downloads may weigh, gzip, in a release build. Sizes are deterministic,
//! so `cargo xtask test` fails when one goes over its budget. `size-budgets.json` (at the repository's root) holds,
//! for each package, the files counted, its budget (the ceiling now: lowered as work shrinks the package, never
//! raised without saying why in the commit) and its target (where it is meant to end up). A file name that ends in `/`
//! names a directory: every script under it counts (the host's snippets, which wasm-bindgen writes in directories
//! named by a hash).

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::build::gzip_len;
use crate::{Result, display, root};

/// The budget file, at the repository's root.
pub(crate) const FILE: &str = "size-budgets.json";

/// One package's weight against its budget.
#[derive(Debug, PartialEq)]
pub(crate) struct Weighed {
    pub(crate) package: String,
    pub(crate) gzip: usize,
    pub(crate) budget: usize,
    pub(crate) target: Option<usize>,
}

impl Weighed {
    fn over(&self) -> bool {
        self.gzip > self.budget
    }
}

/// Weighs every package of the budget file under `target` (`target/`).
pub(crate) fn weigh_all(target: &Path) -> Result<Vec<Weighed>> {
    weigh(&budget_file()?, target, |_| true)
}

/// Weighs the packages of the budget file that are among `built` (directories under `target`): a build of some
/// packages (`-p`) weighs those, and is not failed by the others it did not build.
pub(crate) fn weigh_built(target: &Path, built: &[PathBuf]) -> Result<Vec<Weighed>> {
    weigh(&budget_file()?, target, |package| built.iter().any(|dir| *dir == target.join(package)))
}

fn budget_file() -> Result<String> {
    let path = root().join(FILE);
    fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", display(&path)))
}

/// Prints each package's weight, budget and target.
pub(crate) fn print(weighed: &[Weighed]) {
    println!("sizes against {FILE} (gzip, release):");
    for w in weighed {
        let target = w.target.map(|t| format!(", target {}", kib(t))).unwrap_or_default();
        let verdict = if w.over() { "OVER BUDGET" } else { "ok" };
        println!("  {:<24} {:>10}  (budget {}{target})  {verdict}", w.package, kib(w.gzip), kib(w.budget));
    }
}

/// Fails naming each package over its budget.
pub(crate) fn verdict(weighed: &[Weighed]) -> Result {
    let over: Vec<String> = weighed
        .iter()
        .filter(|w| w.over())
        .map(|w| format!("{} is {} gzip, over its budget of {}", w.package, kib(w.gzip), kib(w.budget)))
        .collect();
    if over.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{}\n  every user downloads these bytes: find what grew (`cargo xtask build --release` prints each file's \
         size), or raise the budget in {FILE} and say why in the commit",
        over.join("\n  ")
    ))
}

/// The packages of a budget file's `text` that `wanted` names, weighed under `target`.
fn weigh(text: &str, target: &Path, wanted: impl Fn(&str) -> bool) -> Result<Vec<Weighed>> {
    let document: Value = serde_json::from_str(text).map_err(|e| format!("{FILE} is not JSON: {e}"))?;
    let packages = document
        .get("packages")
        .and_then(Value::as_object)
        .ok_or_else(|| format!("{FILE} needs a \"packages\" object"))?;
    let mut out = Vec::new();
    for (package, entry) in packages.iter().filter(|(package, _)| wanted(package)) {
        let field = |name: &str| entry.get(name).and_then(Value::as_f64);
        let budget = field("budgetKiB").ok_or_else(|| format!("{FILE}: {package} needs a budgetKiB"))?;
        let files = entry
            .get("files")
            .and_then(Value::as_array)
            .filter(|files| !files.is_empty())
            .ok_or_else(|| format!("{FILE}: {package} needs a list of files"))?;
        let mut gzip = 0;
        for file in files {
            let name = file.as_str().ok_or_else(|| format!("{FILE}: {package}: a file name is a string"))?;
            let path = target.join(package).join(name);
            let paths = if name.ends_with('/') { crate::build::files_under(&path, "js")? } else { vec![path] };
            for path in paths {
                let bytes = fs::read(&path).map_err(|e| format!("{package}: cannot read {}: {e}", display(&path)))?;
                gzip += gzip_len(&bytes)?;
            }
        }
        out.push(Weighed {
            package: package.clone(),
            gzip,
            budget: bytes_of(budget),
            target: field("targetKiB").map(bytes_of),
        });
    }
    Ok(out)
}

#[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "budgets are small positive KiB counts")]
fn bytes_of(kib: f64) -> usize {
    (kib * 1024.0).round().max(0.0) as usize
}

fn kib(bytes: usize) -> String {
    format!("{:.1} KiB", bytes as f64 / 1024.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target_with(files: &[(&str, &[u8])]) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("mcp-worker-budgets-{}-{}", std::process::id(), files.len()));
        for (name, bytes) in files {
            let path = dir.join(name);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, bytes).unwrap();
        }
        dir
    }

    #[test]
    fn weighs_each_package_as_the_gzip_of_its_files() {
        // xorshift: bytes gzip cannot shrink.
        let mut state = 0x2545_f491_u32;
        let random: Vec<u8> = (0..4096)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                state.to_le_bytes()[0]
            })
            .collect();
        let target = target_with(&[("pkg/a.wasm", &random), ("pkg/a.js", b"export {}")]);
        let text = r#"{"packages": {"pkg": {"files": ["a.wasm", "a.js"], "budgetKiB": 1, "targetKiB": 0.5}}}"#;
        let weighed = weigh(text, &target, |_| true).unwrap();
        let expected = gzip_len(&random).unwrap() + gzip_len(b"export {}").unwrap();
        assert_eq!(weighed, [Weighed { package: "pkg".into(), gzip: expected, budget: 1024, target: Some(512) }]);
        assert!(weighed[0].over(), "4 KiB of noise does not fit in 1 KiB");
    }

    #[test]
    fn a_directory_counts_every_script_under_it() {
        let target = target_with(&[
            ("dir/pkg/a.js", b"export const a = 1;"),
            ("dir/pkg/snippets/x-0123/js/b.js", b"export const b = 2;"),
            ("dir/pkg/snippets/y-4567/c.js", b"export const c = 3;"),
            ("dir/pkg/snippets/y-4567/notes.txt", b"not a script"),
        ]);
        let text = r#"{"packages": {"dir/pkg": {"files": ["a.js", "snippets/"], "budgetKiB": 1}}}"#;
        let weighed = weigh(text, &target, |_| true).unwrap();
        let scripts: [&[u8]; 3] = [b"export const a = 1;", b"export const b = 2;", b"export const c = 3;"];
        let expected: usize = scripts.iter().map(|s| gzip_len(s).unwrap()).sum();
        assert_eq!(weighed[0].gzip, expected);
        let missing = r#"{"packages": {"dir/pkg": {"files": ["gone/"], "budgetKiB": 1}}}"#;
        assert!(weigh(missing, &target, |_| true).unwrap_err().contains("gone"));
    }

    #[test]
    fn a_broken_budget_file_or_a_missing_file_says_which() {
        let target = target_with(&[]);
        assert!(weigh("[]", &target, |_| true).unwrap_err().contains("\"packages\""));
        let no_budget = r#"{"packages": {"pkg": {"files": ["a.wasm"]}}}"#;
        assert!(weigh(no_budget, &target, |_| true).unwrap_err().contains("pkg needs a budgetKiB"));
        let missing = r#"{"packages": {"pkg": {"files": ["gone.wasm"], "budgetKiB": 1}}}"#;
        assert!(weigh(missing, &target, |_| true).unwrap_err().contains("gone.wasm"));
        let unbuilt = weigh(missing, &target, |package| package != "pkg").unwrap();
        assert!(unbuilt.is_empty(), "a package not asked for is not read");
    }
}
