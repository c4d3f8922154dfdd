//! `cargo xtask test`: the full CI run, step by step, stopping at the first failure.

use std::ffi::OsString;
use std::fs;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use crate::build::{self, Profile, copy_dir, remove_dir};
use crate::{Result, cmd, display, layering, root, setup, site, target_dir};

const TESTS_PACKAGE: &str = "mcp-worker-tests";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Selection {
    All,
    NativeOnly,
    BrowserOnly,
}

impl Selection {
    pub(crate) fn from_args(args: &[String]) -> Result<Self> {
        match args {
            [] => Ok(Self::All),
            [flag] if flag == "--native-only" => Ok(Self::NativeOnly),
            [flag] if flag == "--browser-only" => Ok(Self::BrowserOnly),
            _ => Err(format!(
                "test: unexpected arguments `{}` (expected `--native-only` or `--browser-only`)",
                args.join(" ")
            )),
        }
    }
}

type Step = (&'static str, fn() -> Result);

const SETUP: Step = ("setup", setup::setup);
const NATIVE: &[Step] = &[
    ("fmt", fmt),
    ("module layering", layering::check),
    ("clippy (native)", clippy_native),
    ("clippy (wasm32)", clippy_wasm),
    ("docs", docs),
    ("native tests", native_tests),
    ("crates package", package_crates),
];
const BROWSER: &[Step] = &[
    ("build --release", build_bundles),
    ("node servers", node_servers),
    ("js fixtures", js_fixtures),
    ("types (tsc)", type_check),
    ("npm package", npm_package),
    ("server CLI", server_cli),
    ("book", book),
    ("browser tests", browser_tests),
    ("end-to-end tests", end_to_end),
    ("conformance (client scenarios)", conformance),
    ("conformance (server scenarios)", conformance_servers),
];

pub(crate) fn run(selection: Selection) -> Result {
    let mut steps = vec![SETUP];
    if selection != Selection::BrowserOnly {
        steps.extend_from_slice(NATIVE);
    }
    if selection != Selection::NativeOnly {
        steps.extend_from_slice(BROWSER);
    }
    let mut timings: Vec<(&str, Duration)> = Vec::new();
    for (name, step) in steps {
        println!("\n==== step: {name}");
        let start = Instant::now();
        let result = step();
        timings.push((name, start.elapsed()));
        if let Err(error) = result {
            eprintln!("{error}");
            print_timings(&timings);
            return Err(format!("FAILED: {name}"));
        }
    }
    print_timings(&timings);
    println!("all steps passed");
    Ok(())
}

fn print_timings(timings: &[(&str, Duration)]) {
    println!("\nstep timings:");
    for (name, elapsed) in timings {
        println!("  {name:<20} {:>7.1} s", elapsed.as_secs_f64());
    }
    let total: Duration = timings.iter().map(|(_, elapsed)| *elapsed).sum();
    println!("  {:<20} {:>7.1} s", "total", total.as_secs_f64());
}

fn fmt() -> Result {
    cmd::run(cmd::cargo().args(["fmt", "--all", "--", "--check"]))
        .map_err(|e| format!("{e}\n  run `cargo fmt --all` and commit the result"))
}

fn clippy_native() -> Result {
    cmd::run(cmd::cargo().args(["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]))
}

fn clippy_wasm() -> Result {
    cmd::run(cmd::cargo().args([
        "clippy",
        "--workspace",
        "--exclude",
        "xtask",
        "--all-targets",
        "--target",
        "wasm32-unknown-unknown",
        "--",
        "-D",
        "warnings",
    ]))?;
    // The host package's lighter builds: without the vault, and McpClient alone (`pkg/host-client/`).
    for features in [&["--no-default-features", "--features", "runtime"][..], &["--no-default-features"][..]] {
        let mut cargo = cmd::cargo();
        cargo.args(["clippy", "-p", "mcp-worker-host", "--target", "wasm32-unknown-unknown"]).args(features);
        cmd::run(cargo.args(["--", "-D", "warnings"]))?;
    }
    Ok(())
}

/// The crate docs, as docs.rs builds them: natively, and for wasm32 (where the browser parts are), warnings denied.
fn docs() -> Result {
    for target in [None, Some("wasm32-unknown-unknown")] {
        let mut cargo = cmd::cargo();
        cargo.args(["doc", "--workspace", "--no-deps", "--exclude", "xtask", "--exclude", TESTS_PACKAGE]);
        if let Some(target) = target {
            cargo.args(["--target", target]);
        }
        cargo.env("RUSTDOCFLAGS", "-D warnings");
        cmd::run(&mut cargo)?;
    }
    Ok(())
}

/// The crates published to crates.io: every workspace member without `publish = false`.
const PUBLISHED_CRATES: &[&str] = &[
    "mcp-worker-protocol",
    "mcp-worker-client",
    "mcp-worker-json-schema",
    "mcp-worker-runtime",
    "mcp-worker-vault",
    "mcp-worker-host",
    "mcp-worker-sdk",
    "mcp-worker-build",
    "mcp-worker-cli",
];

/// `cargo package` of every published crate, together (each resolves its siblings from the others' packages): the
/// metadata crates.io requires, every file a crate needs inside it, and each packaged crate building on its own.
fn package_crates() -> Result {
    forget_unpacked_crates()?;
    let mut cargo = cmd::cargo();
    cargo.args(["package", "--allow-dirty"]);
    for name in PUBLISHED_CRATES {
        cargo.args(["-p", name]);
    }
    cmd::run(&mut cargo)
}

/// Makes cargo forget the published crates as it packaged them before. `cargo package` verifies each crate against
/// the others as packaged, through a local registry that cargo unpacks under `$CARGO_HOME/registry/src/` and builds
/// in our target directory; a registry crate of a given version never changes, so cargo reuses both the unpacked
/// copy and its build from an earlier run, and a crate changed since (at the same version) would be verified against
/// its old sources. Their fingerprints go too (the crates' own builds are redone; their dependencies' are kept).
fn forget_unpacked_crates() -> Result {
    let fingerprints = target_dir().join("debug/.fingerprint");
    if let Ok(entries) = fs::read_dir(&fingerprints) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if is_published_crate_dir(&name, |hash| hash.chars().all(|c| c.is_ascii_hexdigit())) {
                remove_dir(&entry.path())?;
            }
        }
    }
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| std::path::Path::new(&home).join(".cargo")));
    let Some(sources) = cargo_home.map(|home| home.join("registry/src")) else { return Ok(()) };
    let Ok(registries) = fs::read_dir(&sources) else { return Ok(()) };
    for registry in registries.flatten() {
        let Ok(unpacked) = fs::read_dir(registry.path()) else { continue };
        for krate in unpacked.flatten() {
            let name = krate.file_name().to_string_lossy().into_owned();
            if is_published_crate_dir(&name, |version| version.starts_with(|c: char| c.is_ascii_digit())) {
                remove_dir(&krate.path())?;
            }
        }
    }
    Ok(())
}

/// Whether `name` is `<published crate>-<rest>` with a `rest` that `fits`.
fn is_published_crate_dir(name: &str, fits: impl Fn(&str) -> bool) -> bool {
    PUBLISHED_CRATES
        .iter()
        .any(|published| name.strip_prefix(published).and_then(|rest| rest.strip_prefix('-')).is_some_and(&fits))
}

fn native_tests() -> Result {
    cmd::run(cmd::cargo().args(["test", "--workspace", "--exclude", TESTS_PACKAGE]))
}

/// Release bundles and host, and a copy of the bundles in `tests/bundles/` for the wasm-bindgen test runner,
/// which serves files only from the package directory.
fn build_bundles() -> Result {
    build::build(Profile::Release)?;
    build::budgets::verdict(&build::budgets::weigh_all(&target_dir())?)?;
    let bundles = target_dir().join("bundles");
    let tests_bundles = root().join("tests/bundles");
    remove_dir(&tests_bundles)?;
    if bundles.is_dir() {
        copy_dir(&bundles, &tests_bundles)?;
        println!("copied {} to {}", display(&bundles), display(&tests_bundles));
    }
    Ok(())
}

/// The bundles' Node entry point (`serve.mjs`) under the official TypeScript SDK's client, over stdio and
/// Streamable HTTP (`tests/node/`).
fn node_servers() -> Result {
    let dir = root().join("tests/node");
    let files = if dir.is_dir() { files_with_suffix(&dir, ".test.mjs")? } else { Vec::new() };
    if files.is_empty() {
        println!("note: no tests/node/*.test.mjs: no node server tests to run");
        return Ok(());
    }
    cmd::run(cmd::new("node").arg("--test").args(files).env("MCP_WORKER_BUNDLES", target_dir().join("bundles")))
}

fn js_fixtures() -> Result {
    let src = root().join("tests/fixtures/src");
    let entries = if src.is_dir() { files_with_suffix(&src, ".mjs")? } else { Vec::new() };
    if entries.is_empty() {
        println!("note: no tests/fixtures/src/*.mjs: nothing to bundle");
        return Ok(());
    }
    let mut esbuild = cmd::npm_bin("esbuild")?;
    esbuild.args(["--bundle", "--format=esm", "--platform=browser", "--outdir=tests/fixtures/dist"]).args(entries);
    cmd::run(&mut esbuild)
}

/// The host package's generated TypeScript declarations, type-checked against the usage examples in
/// `tests/types/`. They import `mcp-worker-host/*`, which `tests/types/tsconfig.json` maps to `target/pkg/host/`;
/// a generated config maps it to the real target directory (`CARGO_TARGET_DIR` may move it).
fn type_check() -> Result {
    let base = root().join("tests/types/tsconfig.json");
    if !base.is_file() {
        println!("note: no tests/types/tsconfig.json: nothing to type-check");
        return Ok(());
    }
    let pkg = target_dir().join("pkg/host/*");
    let config = target_dir().join("types-tsconfig.json");
    let text = format!(
        "{{\"extends\": {base:?}, \"compilerOptions\": {{\"paths\": {{\"mcp-worker-host/*\": [{pkg:?}]}}}}}}\n",
        base = base.display().to_string(),
        pkg = pkg.display().to_string(),
    );
    std::fs::write(&config, text).map_err(|e| format!("cannot write {}: {e}", display(&config)))?;
    let mut tsc = cmd::npm_bin("tsc")?;
    tsc.arg("--noEmit").arg("-p").arg(&config);
    cmd::run(&mut tsc)
}

/// The host's npm package, installed into a fresh app outside the workspace, type-checked with the guides' examples,
/// bundled with Vite and esbuild and run in headless Chromium (`tests/npm/`).
fn npm_package() -> Result {
    let pkg = target_dir().join("pkg");
    let tarball = crate::npm::pack(&pkg.join("host"), &pkg.join("host-client"))?;
    let examples = target_dir().join("guide-examples");
    let count = crate::snippets::write_examples(&examples)?;
    println!("{count} examples of the guides to type-check in the app, in {}", display(&examples));
    cmd::run(
        cmd::new("node")
            .arg("--test")
            .arg(root().join("tests/npm/package.test.mjs"))
            .env("MCP_WORKER_NPM_TARBALL", &tarball)
            .env("MCP_WORKER_GUIDE_EXAMPLES", &examples)
            .env("MCP_WORKER_BUNDLES", target_dir().join("bundles")),
    )
}

/// The server author's command line outside the workspace: `new`, `build`, `inspect`, and the host calling the
/// bundle's tool in headless Chromium (`tests/cli/`). The crates it builds share a target directory under ours, so
/// a second run compiles only the new crate.
fn server_cli() -> Result {
    cmd::run(cmd::cargo().args(["build", "-p", "mcp-worker-cli"]))?;
    cmd::run(
        cmd::new("node")
            .arg("--test")
            .arg(root().join("tests/cli/cli.test.mjs"))
            .env("MCP_WORKER_CLI", target_dir().join("debug/mcp-worker"))
            .env("MCP_WORKER_HOST_PKG", target_dir().join("pkg/host-client"))
            .env("MCP_WORKER_HOST_PACKAGE", target_dir().join("pkg/host"))
            .env("MCP_WORKER_SCREENSHOTS", screenshots()?)
            .env("CARGO_TARGET_DIR", target_dir().join("author-crates")),
    )
}

/// Where end-to-end tests leave screenshots of what a user would see (`target/e2e/`).
fn screenshots() -> Result<std::path::PathBuf> {
    let dir = target_dir().join("e2e");
    fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", display(&dir)))?;
    Ok(dir)
}

/// The guides (`docs/book/`), built with mdBook; a broken link or include fails the run.
fn book() -> Result {
    crate::book::build(&target_dir().join("book"))
}

fn browser_tests() -> Result {
    if !root().join("tests/Cargo.toml").is_file() {
        println!("note: tests/Cargo.toml does not exist yet: no browser tests to run");
        return Ok(());
    }
    crate::browser_tests::run(TESTS_PACKAGE)
}

fn end_to_end() -> Result {
    let dir = root().join("tests/e2e");
    let files = if dir.is_dir() { files_with_suffix(&dir, ".test.mjs")? } else { Vec::new() };
    if files.is_empty() {
        println!("note: no tests/e2e/*.test.mjs yet: skipping the end-to-end tests");
        return Ok(());
    }
    let site_dir = assemble_test_site()?;
    // The hand-written servers, served by the site so that sandboxed workers can load them.
    copy_dir(&root().join("tests/fixtures"), &site_dir.join("e2e-fixtures"))?;
    let server = site::serve(&site_dir, SocketAddr::from(([127, 0, 0, 1], 0)))?;
    println!("serving {} at {}", display(&site_dir), server.url());
    // Files are passed one by one: `node --test <dir>` means different things in node 20 and 22.
    cmd::run(cmd::new("node").arg("--test").args(files).env("MCP_WORKER_SITE_URL", server.url()))
}

/// The site with what the tests add: the page the runtime's end-to-end tests load the host into, a real file of the
/// site so that the browser knows its address (a page made up by the test driver has none, and loopback requests
/// from its sandboxed servers would be refused by Local Network Access).
fn assemble_test_site() -> Result<std::path::PathBuf> {
    let site_dir = site::assemble()?;
    let blank = site_dir.join("e2e-blank.html");
    fs::write(&blank, "<!doctype html><meta charset=utf-8><title>e2e</title>\n")
        .map_err(|e| format!("cannot write {}: {e}", display(&blank)))?;
    Ok(site_dir)
}

/// The official MCP conformance suite's client scenarios (2025-11-25), with the host in headless Chromium as the
/// client (`tests/conformance/`): fails when any scenario fails.
fn conformance() -> Result {
    let site_dir = assemble_test_site()?;
    let server = site::serve(&site_dir, SocketAddr::from(([127, 0, 0, 1], 0)))?;
    cmd::run(
        cmd::new("node")
            .arg(root().join("tests/conformance/run.mjs"))
            .env("MCP_WORKER_SITE_URL", server.url())
            .env("MCP_CONFORMANCE_OUT", crate::target_dir().join("conformance")),
    )
}

/// The official MCP conformance suite's server scenarios, of both revisions (2025-11-25 over sessions, 2026-07-28
/// stateless), against the everything server, served over Streamable HTTP by its bundle's `serve.mjs`
/// (`tests/conformance/run-server.mjs`): fails when any scenario fails.
fn conformance_servers() -> Result {
    for spec in ["2025-11-25", "2026-07-28"] {
        cmd::run(
            cmd::new("node")
                .arg(root().join("tests/conformance/run-server.mjs"))
                .env("MCP_WORKER_BUNDLES", target_dir().join("bundles"))
                .env("MCP_CONFORMANCE_SPEC", spec)
                .env("MCP_CONFORMANCE_OUT", target_dir().join("conformance-server").join(spec)),
        )?;
    }
    Ok(())
}

/// Files in `dir` whose names end with `suffix`, sorted, as paths relative to the workspace root.
fn files_with_suffix(dir: &std::path::Path, suffix: &str) -> Result<Vec<OsString>> {
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", display(dir)))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("cannot list {}: {e}", display(dir)))?.path();
        if path.is_file() && path.to_string_lossy().ends_with(suffix) {
            files.push(path.strip_prefix(root()).unwrap_or(&path).as_os_str().to_owned());
        }
    }
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selection_arguments() {
        assert_eq!(Selection::from_args(&[]), Ok(Selection::All));
        assert_eq!(Selection::from_args(&["--native-only".to_owned()]), Ok(Selection::NativeOnly));
        assert_eq!(Selection::from_args(&["--browser-only".to_owned()]), Ok(Selection::BrowserOnly));
        assert!(Selection::from_args(&["--all".to_owned()]).is_err());
    }

    /// A new library crate is packaged too: the list is every member without `publish = false`.
    #[test]
    fn every_publishable_member_is_packaged() {
        let workspace = fs::read_to_string(root().join("Cargo.toml")).unwrap();
        let members = workspace.split("members = [").nth(1).and_then(|rest| rest.split(']').next()).unwrap();
        let mut publishable = Vec::new();
        for member in members.split(',').map(|m| m.trim().trim_matches('"')).filter(|m| !m.is_empty()) {
            let manifest = fs::read_to_string(root().join(member).join("Cargo.toml")).unwrap();
            if !manifest.lines().any(|line| line.replace(' ', "") == "publish=false") {
                publishable.push(mcp_worker_build::lockfile::toml_string(&manifest, "package", "name").unwrap());
            }
        }
        publishable.sort();
        let mut listed: Vec<String> = PUBLISHED_CRATES.iter().map(|name| (*name).to_owned()).collect();
        listed.sort();
        assert_eq!(publishable, listed);
    }

    /// Each published crate carries the texts of the licenses it declares (links to the workspace's, which
    /// `cargo package` packs as files).
    #[test]
    fn every_published_crate_carries_its_license_texts() {
        let workspace = fs::read_to_string(root().join("Cargo.toml")).unwrap();
        assert!(workspace.contains("license = \"MIT OR Apache-2.0\""));
        let members = workspace.split("members = [").nth(1).and_then(|rest| rest.split(']').next()).unwrap();
        for member in members.split(',').map(|m| m.trim().trim_matches('"')).filter(|m| !m.is_empty()) {
            let manifest = fs::read_to_string(root().join(member).join("Cargo.toml")).unwrap();
            if manifest.lines().any(|line| line.replace(' ', "") == "publish=false") {
                continue;
            }
            let mit = fs::read_to_string(root().join(member).join("LICENSE-MIT")).unwrap_or_default();
            let apache = fs::read_to_string(root().join(member).join("LICENSE-APACHE")).unwrap_or_default();
            assert!(mit.starts_with("MIT License"), "{member}/LICENSE-MIT");
            assert!(apache.contains("Apache License") && apache.contains("Version 2.0"), "{member}/LICENSE-APACHE");
        }
    }

    #[test]
    fn only_the_published_crates_unpacked_copies_and_fingerprints_are_forgotten() {
        let version = |rest: &str| rest.starts_with(|c: char| c.is_ascii_digit());
        assert!(is_published_crate_dir("mcp-worker-client-0.1.0", version));
        assert!(!is_published_crate_dir("mcp-worker-client-extra-0.1.0", version));
        assert!(!is_published_crate_dir("serde-1.0.0", version));
        let hash = |rest: &str| rest.chars().all(|c| c.is_ascii_hexdigit());
        assert!(is_published_crate_dir("mcp-worker-sdk-03f06b4c03362a5b", hash));
        assert!(!is_published_crate_dir("mcp-worker-tests-03f06b4c03362a5b", hash));
    }
}
