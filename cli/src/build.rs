//! `mcp-worker build [--release]`: the crate's bundle, through `mcp_worker_build::bundle::assemble`, the path the
//! workspace's own servers are built by.

use std::path::{Path, PathBuf};
use std::process::Command;

use mcp_worker_build::lean_std::{self, Panics};
use mcp_worker_build::project::Project;
use mcp_worker_build::{WASM_TARGET, bundle, command, prebuilt_schemas, tools};

use crate::Result;
use crate::args::Parsed;

/// How many crates and functions `--weigh` lists.
const WEIGH_TOP: usize = 15;

/// Where the bundle goes unless `--out-dir` says otherwise: beside the crate's `Cargo.toml`.
const DEFAULT_OUT: &str = "bundle";

pub(crate) fn run(args: &Parsed) -> Result<PathBuf> {
    if let Some(extra) = args.positional.first() {
        return Err(format!("build: unexpected argument `{extra}`"));
    }
    let manifest = PathBuf::from(args.option("--manifest-path").unwrap_or("Cargo.toml"));
    let out_dir = args.option("--out-dir").map(PathBuf::from);
    let options = Options {
        release: args.flag("--release"),
        prebuilt_schemas: args.flag("--prebuilt-schemas"),
        lean_std: args.flag("--lean-std"),
        weigh: args.flag("--weigh"),
    };
    build(&manifest, options, out_dir)
}

/// How `mcp-worker build` builds a crate.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Options {
    /// Optimized, and run through wasm-opt (`--release`).
    pub(crate) release: bool,
    /// Schemas made at build time (`--prebuilt-schemas`, `mcp_worker_build::prebuilt_schemas`).
    pub(crate) prebuilt_schemas: bool,
    /// The release build links a standard library compiled for its size (`--lean-std`,
    /// `mcp_worker_build::lean_std`).
    pub(crate) lean_std: bool,
    /// Print what the release bundle's wasm is made of (`--weigh`, `mcp_worker_build::weigh`).
    pub(crate) weigh: bool,
}

/// Builds the crate of `manifest` into its bundle as `options` say; returns the bundle's directory.
pub(crate) fn build(manifest: &Path, options: Options, out_dir: Option<PathBuf>) -> Result<PathBuf> {
    let Options { release, prebuilt_schemas, lean_std, weigh } = options;
    if !manifest.is_file() {
        return Err(format!(
            "no {} here: run this in a server crate, or pass --manifest-path (`mcp-worker new` makes one)",
            manifest.display()
        ));
    }
    if lean_std && !release {
        return Err("--lean-std compiles the standard library for a release build's size: add --release".into());
    }
    if weigh && !release {
        return Err("--weigh weighs the optimized wasm of a release build: add --release".into());
    }
    wasm_target()?;
    let lean_std = lean_std && std_sources();
    let project = Project::load(manifest)?;
    let cargo = |release: bool| {
        let mut cargo = command::cargo();
        cargo.args(["build", "--lib", "--target", WASM_TARGET, "--manifest-path"]).arg(manifest);
        if release {
            cargo.arg("--release");
        }
        cargo
    };
    // The release build, the one the bundle is made from: with the schemas embedded, and the lean standard library,
    // when the options say so. Returns whether the standard library was compiled for size.
    let final_build = |recorded_in: Option<&Path>| -> Result<bool> {
        let plain = || {
            let mut cargo = cargo(release);
            if let Some(dir) = recorded_in {
                prebuilt_schemas::second_build(&mut cargo, dir);
            }
            cargo
        };
        if !lean_std {
            return command::run(&mut plain()).map(|()| false);
        }
        let Some(error) = lean_std::run_or_fall_back(Panics::Reported, plain)? else { return Ok(true) };
        println!(
            "warning: the build with the standard library compiled for size failed ({error}); built again with the \
             prebuilt one. This toolchain may no longer take one of the unstable flags --lean-std passes"
        );
        Ok(false)
    };
    // With prebuilt schemas, they are recorded from a debug build (the same schemas, in a build kept apart from the
    // release one), then embedded.
    let mut lean_built = false;
    if prebuilt_schemas {
        command::run(&mut cargo(false))?;
    } else {
        lean_built = final_build(None)?;
    }
    let wasm_bindgen = tools::wasm_bindgen(&project.wasm_bindgen)?;
    let wasm_opt = if release { tools::wasm_opt()? } else { None };
    let esbuild = if release { tools::esbuild()? } else { None };
    let out_dir = out_dir.unwrap_or_else(|| project.dir.join(DEFAULT_OUT));
    let wasm = project.wasm(if release { "release" } else { "debug" });
    let recorded = if prebuilt_schemas {
        let dir = project.target_dir.join("mcp-worker-schemas");
        let scratch = dir.join(format!("{}.glue", project.package));
        let debug_wasm = project.wasm("debug");
        let recorded = prebuilt_schemas::record(&wasm_bindgen, &debug_wasm, &scratch, &dir, &project.package)?;
        lean_built = final_build(Some(&dir)).map_err(|error| {
            format!(
                "{error}\n  --prebuilt-schemas builds the crate with the `prebuilt-schemas` feature of its \
                 mcp-worker-sdk, which must have it and be depended on under that name"
            )
        })?;
        Some(recorded)
    } else {
        None
    };
    // A copy of the optimized wasm that keeps its names, made anew (the bundle is assembled again for it).
    if weigh && wasm_opt.is_none() {
        return Err("--weigh weighs the wasm wasm-opt optimized, and there is no wasm-opt (install binaryen)".into());
    }
    let named_copy = weigh.then(|| project.target_dir.join("mcp-worker-weigh").join("server_bg.wasm"));
    if let Some(copy) = named_copy.as_deref().filter(|copy| copy.exists()) {
        std::fs::remove_file(copy).map_err(|e| format!("cannot remove {}: {e}", copy.display()))?;
    }
    bundle::assemble(&bundle::Assembly {
        wasm: &wasm,
        out_dir: &out_dir,
        sdk_js: &project.sdk_js,
        wasm_bindgen: &wasm_bindgen,
        wasm_opt: wasm_opt.as_deref(),
        esbuild: esbuild.as_deref(),
        recorded: recorded.as_ref(),
        named_copy: named_copy.as_deref(),
    })?;
    if let Some(copy) = &named_copy {
        let bytes = std::fs::read(copy).map_err(|e| format!("cannot read {}: {e}", copy.display()))?;
        let weighed = mcp_worker_build::weigh::weigh(&bytes).map_err(|e| format!("{}: {e}", copy.display()))?;
        print!("{}", mcp_worker_build::weigh::report(&project.package, &weighed, WEIGH_TOP));
    }
    let size = std::fs::metadata(out_dir.join("server_bg.wasm")).map(|m| m.len()).unwrap_or(0);
    println!(
        "bundle: {} ({} wasm{}, {:.1} KiB)",
        out_dir.display(),
        if release { "release" } else { "debug" },
        if lean_built { ", standard library compiled for size" } else { "" },
        kib(size)
    );
    println!(
        "  a host starts it from {}/bootstrap.js; serve the directory with Access-Control-Allow-Origin: *",
        out_dir.display()
    );
    Ok(out_dir)
}

/// The wasm32 standard library, added with rustup when it is missing.
fn wasm_target() -> Result {
    let Some(installed) = command::probe(Command::new("rustup").args(["target", "list", "--installed"])) else {
        // Not a rustup toolchain: cargo says what is missing if the target is.
        return Ok(());
    };
    if installed.lines().any(|line| line.trim() == WASM_TARGET) {
        return Ok(());
    }
    println!("installing: the {WASM_TARGET} target (rustup target add {WASM_TARGET})");
    command::run(Command::new("rustup").args(["target", "add", WASM_TARGET]))
}

/// Whether the toolchain has the standard library's sources that `--lean-std` compiles, added with rustup when
/// they are missing. Without them the build goes on with the prebuilt standard library, and says so.
fn std_sources() -> bool {
    if lean_std::sources_present() {
        return true;
    }
    println!("installing: the standard library's sources, for --lean-std (rustup component add rust-src)");
    if let Err(error) = command::run(Command::new("rustup").args(["component", "add", "rust-src"])) {
        println!("warning: {error}; building with the prebuilt standard library instead");
        return false;
    }
    lean_std::sources_present()
}

fn kib(bytes: u64) -> f64 {
    bytes as f64 / 1024.0
}
