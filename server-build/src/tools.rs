//! The external tools a build needs, found or installed: the wasm-bindgen CLI of the exact version a crate's lock
//! pins, wasm-opt and esbuild. What this installs goes under a cache directory of its own (`$MCP_WORKER_CACHE`, else
//! `$XDG_CACHE_HOME/mcp-worker`, else `~/.cache/mcp-worker`), one directory per version, so that projects pinning
//! different versions do not fight over `~/.cargo/bin`.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{Result, command};

/// The binaryen release whose wasm-opt is installed when none is on `PATH` (from npm, where it runs under Node).
pub const BINARYEN_VERSION: &str = "132.0.0";

/// The wasm-bindgen CLI of exactly `version`: on `PATH`, in the cache, or installed into the cache with
/// `cargo install` (a few minutes, once per version).
pub fn wasm_bindgen(version: &str) -> Result<PathBuf> {
    if let Some(path) = command::find("wasm-bindgen")
        && reports_version(&path, version)
    {
        return Ok(path);
    }
    let root = cache_dir()?.join(format!("wasm-bindgen-{version}"));
    let cached = root.join("bin/wasm-bindgen");
    if reports_version(&cached, version) {
        return Ok(cached);
    }
    println!(
        "installing: wasm-bindgen-cli {version} into {} (the crate's Cargo.lock pins wasm-bindgen {version}; takes a \
         few minutes, once)",
        root.display()
    );
    let exact = format!("={version}");
    let install = |locked: bool| {
        let mut cargo = command::cargo();
        cargo.args(["install", "wasm-bindgen-cli", "--version", &exact, "--root"]).arg(&root);
        if locked {
            cargo.arg("--locked");
        }
        command::run(&mut cargo)
    };
    if let Err(e) = install(true) {
        println!("note: {e}; retrying without --locked");
        install(false)
            .map_err(|e| format!("{e}\n  installing wasm-bindgen-cli {version} failed; check access to crates.io"))?;
    }
    if reports_version(&cached, version) {
        Ok(cached)
    } else {
        Err(format!("wasm-bindgen-cli {version} was installed, but {} does not report that version", cached.display()))
    }
}

/// wasm-opt: on `PATH`, in the cache, or installed into the cache from npm (binaryen); `None`, with a note, when
/// there is neither wasm-opt nor npm.
pub fn wasm_opt() -> Result<Option<PathBuf>> {
    npm_tool("wasm-opt", "binaryen", BINARYEN_VERSION, "the bundle is not optimized for size (install binaryen)")
}

/// The esbuild release installed when none is on `PATH`, to minify a bundle's `bootstrap.js`.
pub const ESBUILD_VERSION: &str = "0.28.2";

/// esbuild: on `PATH`, in the cache, or installed into the cache from npm; `None`, with a note, when there is
/// neither esbuild nor npm.
pub fn esbuild() -> Result<Option<PathBuf>> {
    npm_tool("esbuild", "esbuild", ESBUILD_VERSION, "the bundle's bootstrap.js is not minified (install esbuild)")
}

/// Program `bin` of npm package `package`: on `PATH`, in the cache, or installed into the cache with npm.
fn npm_tool(bin: &str, package: &str, version: &str, without: &str) -> Result<Option<PathBuf>> {
    if let Some(path) = command::find(bin) {
        return Ok(Some(path));
    }
    let root = cache_dir()?.join(format!("{package}-{version}"));
    let cached = root.join("node_modules/.bin").join(bin);
    if cached.is_file() {
        return Ok(Some(cached));
    }
    if command::find("npm").is_none() {
        println!("note: neither {bin} nor npm was found: {without}");
        return Ok(None);
    }
    println!("installing: {bin} (npm {package}@{version}) into {}", root.display());
    std::fs::create_dir_all(&root).map_err(|e| format!("cannot create {}: {e}", root.display()))?;
    command::run(
        Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--loglevel=error", "--prefix"])
            .arg(&root)
            .arg(format!("{package}@{version}")),
    )?;
    if cached.is_file() {
        Ok(Some(cached))
    } else {
        Err(format!("npm installed {package}, but {} is missing", cached.display()))
    }
}

/// Where installed tools are kept.
pub fn cache_dir() -> Result<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    var("MCP_WORKER_CACHE")
        .or_else(|| var("XDG_CACHE_HOME").map(|dir| dir.join("mcp-worker")))
        .or_else(|| var("HOME").map(|home| home.join(".cache/mcp-worker")))
        .ok_or_else(|| "no cache directory: set MCP_WORKER_CACHE (or HOME)".to_owned())
}

/// Whether `wasm-bindgen --version` says `wasm-bindgen <version>`.
fn reports_version(program: &Path, version: &str) -> bool {
    program.is_file()
        && command::probe(Command::new(program).arg("--version"))
            .is_some_and(|out| out.split_whitespace().nth(1) == Some(version))
}
