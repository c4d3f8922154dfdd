//! `cargo xtask setup`: checks each tool the build and tests need and installs only what is missing.
//! Idempotent: a second run prints only `ok:` lines.

use std::fs;
use std::path::Path;

use mcp_worker_build::lockfile::locked_version;

use crate::{Result, cmd, display, root};

const WASM_TARGET: &str = "wasm32-unknown-unknown";
const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const MIN_NODE_MAJOR: u32 = 20;

pub(crate) fn setup() -> Result {
    println!("== setup");
    disk_space();
    wasm_target()?;
    std_sources();
    wasm_bindgen_cli()?;
    chromium()?;
    npm_packages()?;
    crate::book::ensure_mdbook()?;
    Ok(())
}

/// The full run writes about 5 GB under `target/`; a disk with less free says so first, not as a build error later.
fn disk_space() {
    const NEEDED_GB: u64 = 6;
    let target = crate::target_dir();
    let probe_dir = if target.exists() { target } else { root().to_path_buf() };
    let Some(free_kb) = cmd::probe(cmd::new("df").args(["-Pk"]).arg(&probe_dir))
        .and_then(|out| out.lines().nth(1)?.split_whitespace().nth(3)?.parse::<u64>().ok())
    else {
        return;
    };
    let free_gb = free_kb / (1024 * 1024);
    if free_gb < NEEDED_GB {
        println!(
            "warning: {free_gb} GB free on the disk of {}; the full run needs about {NEEDED_GB} GB",
            display(&probe_dir)
        );
    } else {
        println!("ok: {free_gb} GB free on the disk of {}", display(&probe_dir));
    }
}

fn wasm_target() -> Result {
    let Some(installed) = cmd::probe(cmd::new("rustup").args(["target", "list", "--installed"])) else {
        return Err(format!(
            "`rustup target list --installed` failed: install Rust with rustup (https://rustup.rs), \
             then run `rustup target add {WASM_TARGET}`"
        ));
    };
    if installed.lines().any(|line| line.trim() == WASM_TARGET) {
        println!("ok: {WASM_TARGET} target present");
        return Ok(());
    }
    println!("installing: {WASM_TARGET} target (rustup target add {WASM_TARGET})");
    cmd::run(cmd::new("rustup").args(["target", "add", WASM_TARGET])).map_err(|e| {
        format!("{e}\n  the wasm32 standard library could not be installed; check network access to rustup")
    })
}

/// The standard library's sources, which release builds of the host packages and the servers' bundles compile for
/// size (`server-build/src/lean_std.rs`). Without them those builds link the prebuilt standard library, and say so:
/// the console still runs, and only the size budgets fail. So a failed install is a warning here.
fn std_sources() {
    if mcp_worker_build::lean_std::sources_present() {
        println!("ok: rust-src component present");
        return;
    }
    println!("installing: rust-src component (rustup component add rust-src): release builds of the host packages");
    println!("  and the servers' bundles compile the standard library for size from it");
    if let Err(e) = cmd::run(cmd::new("rustup").args(["component", "add", "rust-src"])) {
        println!(
            "warning: {e}\n  the standard library's sources could not be installed (check network access to \
             rustup): release builds of the host packages and bundles will be heavier than their size budgets allow"
        );
    }
}

fn wasm_bindgen_cli() -> Result {
    let lock_path = root().join("Cargo.lock");
    let lock = fs::read_to_string(&lock_path)
        .map_err(|e| format!("cannot read Cargo.lock ({e}): run `cargo generate-lockfile` in {}", root().display()))?;
    let Some(version) = locked_version(&lock, "wasm-bindgen")? else {
        println!("ok: wasm-bindgen-cli not needed yet (no crate in Cargo.lock depends on wasm-bindgen)");
        return Ok(());
    };
    let found = cmd::probe(cmd::new("wasm-bindgen").arg("--version"));
    let runner = cmd::probe(cmd::new("wasm-bindgen-test-runner").arg("--version"));
    let matches =
        |output: &Option<String>| output.as_deref().and_then(|o| o.split_whitespace().nth(1)) == Some(version.as_str());
    if matches(&found) && matches(&runner) {
        println!("ok: wasm-bindgen-cli {version} present (matches Cargo.lock)");
        return Ok(());
    }
    let have = found.as_deref().unwrap_or("none");
    println!("installing: wasm-bindgen-cli {version} (Cargo.lock pins {version}, found: {have}; takes a few minutes)");
    let exact = format!("={version}");
    let locked =
        cmd::run(cmd::cargo().args(["install", "wasm-bindgen-cli", "--version", &exact, "--locked", "--force"]));
    if let Err(e) = locked {
        println!("note: {e}; retrying without --locked");
        cmd::run(cmd::cargo().args(["install", "wasm-bindgen-cli", "--version", &exact, "--force"]))
            .map_err(|e| format!("{e}\n  installing wasm-bindgen-cli {version} failed; check access to crates.io"))?;
    }
    let after = cmd::probe(cmd::new("wasm-bindgen").arg("--version"));
    if !matches(&after) {
        return Err(format!(
            "wasm-bindgen-cli {version} was installed, but `wasm-bindgen --version` reports {}: \
             put ~/.cargo/bin first on PATH",
            after.as_deref().unwrap_or("nothing")
        ));
    }
    println!("ok: wasm-bindgen-cli {version} installed");
    Ok(())
}

fn chromium() -> Result {
    let missing: Vec<&str> = [CHROMIUM, CHROMEDRIVER].into_iter().filter(|path| !Path::new(path).is_file()).collect();
    if missing.is_empty() {
        let browser = cmd::probe(cmd::new(CHROMIUM).arg("--version"));
        let driver = cmd::probe(cmd::new(CHROMEDRIVER).arg("--version"));
        let major = |output: &Option<String>| {
            output
                .as_deref()
                .and_then(|o| o.split_whitespace().nth(1))
                .and_then(|v| v.split('.').next())
                .map(str::to_owned)
        };
        let (browser_major, driver_major) = (major(&browser), major(&driver));
        if browser_major != driver_major {
            println!(
                "warning: chromium ({}) and chromedriver ({}) differ in major version: \
                 run `apt-get install -y chromium chromium-driver` to update both",
                browser.as_deref().unwrap_or("?"),
                driver.as_deref().unwrap_or("?")
            );
        }
        println!(
            "ok: chromium and chromedriver present ({CHROMIUM}, {CHROMEDRIVER}, {})",
            browser_major.unwrap_or_default()
        );
        return Ok(());
    }
    let wanted = "apt-get update && apt-get install -y chromium chromium-driver";
    if !cmd::exists("apt-get") {
        return Err(format!(
            "{} missing and apt-get is not available: install Chromium and a chromedriver of the same major version \
             at {CHROMIUM} and {CHROMEDRIVER}",
            missing.join(" and ")
        ));
    }
    let is_root = cmd::probe(cmd::new("id").arg("-u")).as_deref() == Some("0");
    let prefix: &[&str] = if is_root {
        &[]
    } else if cmd::exists("sudo") {
        &["sudo"]
    } else {
        return Err(format!(
            "{} missing: run as root `{wanted}`, then rerun `cargo xtask setup`",
            missing.join(" and ")
        ));
    };
    println!("installing: chromium chromium-driver ({} missing) with apt-get", missing.join(", "));
    let apt = |args: &[&str]| {
        let mut full: Vec<&str> = prefix.to_vec();
        full.push("apt-get");
        full.extend_from_slice(args);
        let mut command = cmd::new(full[0]);
        command.args(&full[1..]).env("DEBIAN_FRONTEND", "noninteractive");
        cmd::run(&mut command).map_err(|e| format!("{e}\n  to install by hand: `{wanted}` (as root)"))
    };
    apt(&["update"])?;
    apt(&["install", "-y", "chromium", "chromium-driver"])?;
    for path in [CHROMIUM, CHROMEDRIVER] {
        if !Path::new(path).is_file() {
            return Err(format!("apt-get installed chromium, but {path} is still missing"));
        }
    }
    println!("ok: chromium and chromedriver installed");
    Ok(())
}

fn npm_packages() -> Result {
    let node = cmd::probe(cmd::new("node").arg("--version"));
    let npm = cmd::probe(cmd::new("npm").arg("--version"));
    let (Some(node), Some(npm)) = (node, npm) else {
        return Err(format!(
            "node and npm are required (node >= {MIN_NODE_MAJOR}): install Node.js {MIN_NODE_MAJOR} or later with npm \
             (nodejs.org, NodeSource or nvm; Debian 12's own nodejs is too old), then rerun `cargo xtask setup`"
        ));
    };
    let major = node.trim_start_matches('v').split('.').next().and_then(|m| m.parse::<u32>().ok());
    if major.is_none_or(|m| m < MIN_NODE_MAJOR) {
        return Err(format!("node {node} is too old: install Node.js {MIN_NODE_MAJOR} or later"));
    }
    println!("ok: node {node}, npm {npm}");
    npm_install(root(), "npm packages")?;
    // The conformance suite and the Node >= 22 it runs on (a package of the registry), apart from the project's.
    npm_install(&root().join("tests/conformance"), "the MCP conformance suite and Node 22")
}

/// The file in `node_modules` that records what it was installed from: a hash of `package.json` and
/// `package-lock.json`.
const INSTALLED_FROM: &str = ".mcp-worker-installed-from";

/// `npm ci` in `dir` unless its `node_modules` was installed from exactly this `package.json` and lock (by content:
/// a fresh clone's timestamps say nothing). Never through a symlinked `node_modules`, which `npm ci` would empty.
fn npm_install(dir: &Path, what: &str) -> Result {
    let lock = dir.join("package-lock.json");
    let modules = dir.join("node_modules");
    let wanted = inputs_hash(&[dir.join("package.json"), lock.clone()]);
    let recorded = fs::read_to_string(modules.join(INSTALLED_FROM)).ok();
    let shown = display(&modules);
    if recorded.as_deref().map(str::trim) == Some(wanted.as_str()) {
        println!("ok: {shown} installed from this package.json and package-lock.json ({what})");
        return Ok(());
    }
    if fs::symlink_metadata(&modules).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(format!(
            "{shown} is a symlink, and npm ci would empty the directory it points to: replace it with a directory \
             (or install there yourself with `npm ci`), then rerun `cargo xtask setup`"
        ));
    }
    let packages = package_names(&dir.join("package.json"));
    let mut npm_cmd = cmd::new("npm");
    npm_cmd.current_dir(dir);
    if lock.is_file() {
        println!("installing: {what} ({packages}) with npm ci in {}", display(dir));
        npm_cmd.args(["ci", "--no-audit", "--no-fund"]);
        cmd::run(&mut npm_cmd).map_err(|e| {
            format!("{e}\n  if package.json changed, run `npm install` to update package-lock.json and commit it")
        })?;
    } else {
        println!("installing: {what} ({packages}) with npm install in {}; no package-lock.json yet", display(dir));
        npm_cmd.args(["install", "--no-audit", "--no-fund"]);
        cmd::run(&mut npm_cmd).map_err(|e| format!("{e}\n  check access to the npm registry"))?;
    }
    let stamp = modules.join(INSTALLED_FROM);
    fs::write(&stamp, format!("{}\n", inputs_hash(&[dir.join("package.json"), lock])))
        .map_err(|e| format!("cannot write {}: {e}", display(&stamp)))
}

/// The packages a `package.json` asks for, by name, for the message that says what is installed.
fn package_names(package_json: &Path) -> String {
    let text = fs::read_to_string(package_json).unwrap_or_default();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    let names: Vec<&str> = ["dependencies", "devDependencies"]
        .iter()
        .filter_map(|key| value[key].as_object())
        .flat_map(|deps| deps.keys().map(String::as_str))
        .collect();
    if names.is_empty() { "no dependencies".to_owned() } else { names.join(", ") }
}

/// A fingerprint of the files' contents, in hex; a missing file counts as empty.
fn inputs_hash(files: &[std::path::PathBuf]) -> String {
    let mut fingerprint = mcp_worker_build::fingerprint::Fingerprint::default();
    for file in files {
        fingerprint.add_file(file);
    }
    fingerprint.hex()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_install_stamp_follows_the_contents_not_the_times() {
        let dir = std::env::temp_dir().join(format!("xtask-stamp-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let (json, lock) = (dir.join("package.json"), dir.join("package-lock.json"));
        fs::write(&json, r#"{"devDependencies": {"vite": "8.3.8", "esbuild": "0.28.2"}}"#).unwrap();
        fs::write(&lock, "{}").unwrap();
        let first = inputs_hash(&[json.clone(), lock.clone()]);
        fs::write(&lock, "{}").unwrap();
        assert_eq!(inputs_hash(&[json.clone(), lock.clone()]), first, "rewritten, same content");
        fs::write(&lock, "{ }").unwrap();
        assert_ne!(inputs_hash(&[json.clone(), lock]), first);
        assert_eq!(package_names(&json), "esbuild, vite");
        let _ = fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_symlinked_node_modules_is_never_emptied() {
        let dir = std::env::temp_dir().join(format!("xtask-symlink-{}", std::process::id()));
        let elsewhere = dir.join("elsewhere");
        fs::create_dir_all(&elsewhere).unwrap();
        fs::write(elsewhere.join("keep.txt"), "mine").unwrap();
        fs::write(dir.join("package.json"), "{}").unwrap();
        std::os::unix::fs::symlink(&elsewhere, dir.join("node_modules")).unwrap();
        let error = npm_install(&dir, "test packages").unwrap_err();
        assert!(error.contains("is a symlink"), "{error}");
        assert_eq!(fs::read_to_string(elsewhere.join("keep.txt")).unwrap(), "mine");
        let _ = fs::remove_dir_all(&dir);
    }
}
