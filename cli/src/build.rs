//! `mcp-worker build [--release]`: the crate's bundle, through `mcp_worker_build::bundle::assemble`, the path the
//! workspace's own servers are built by.

use std::path::{Path, PathBuf};
use std::process::Command;

use mcp_worker_build::project::Project;
use mcp_worker_build::{WASM_TARGET, bundle, command, prebuilt_schemas, tools};

use crate::Result;
use crate::args::Parsed;

/// Where the bundle goes unless `--out-dir` says otherwise: beside the crate's `Cargo.toml`.
const DEFAULT_OUT: &str = "bundle";

pub(crate) fn run(args: &Parsed) -> Result<PathBuf> {
    if let Some(extra) = args.positional.first() {
        return Err(format!("build: unexpected argument `{extra}`"));
    }
    let manifest = PathBuf::from(args.option("--manifest-path").unwrap_or("Cargo.toml"));
    let out_dir = args.option("--out-dir").map(PathBuf::from);
    build(&manifest, args.flag("--release"), args.flag("--prebuilt-schemas"), out_dir)
}

/// Builds the crate of `manifest` into its bundle, with its schemas made at build time when `prebuilt_schemas`
/// says so (`mcp_worker_build::prebuilt_schemas`); returns the bundle's directory.
pub(crate) fn build(
    manifest: &Path,
    release: bool,
    prebuilt_schemas: bool,
    out_dir: Option<PathBuf>,
) -> Result<PathBuf> {
    if !manifest.is_file() {
        return Err(format!(
            "no {} here: run this in a server crate, or pass --manifest-path (`mcp-worker new` makes one)",
            manifest.display()
        ));
    }
    wasm_target()?;
    let project = Project::load(manifest)?;
    let cargo = |release: bool| {
        let mut cargo = command::cargo();
        cargo.args(["build", "--lib", "--target", WASM_TARGET, "--manifest-path"]).arg(manifest);
        if release {
            cargo.arg("--release");
        }
        cargo
    };
    // With prebuilt schemas, they are recorded from a debug build (the same schemas, in a build kept apart from the
    // release one), then embedded.
    command::run(&mut cargo(release && !prebuilt_schemas))?;
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
        let mut second = cargo(release);
        prebuilt_schemas::second_build(&mut second, &dir);
        command::run(&mut second).map_err(|error| {
            format!(
                "{error}\n  --prebuilt-schemas builds the crate with the `prebuilt-schemas` feature of its \
                 mcp-worker-sdk, which must have it and be depended on under that name"
            )
        })?;
        Some(recorded)
    } else {
        None
    };
    bundle::assemble(&bundle::Assembly {
        wasm: &wasm,
        out_dir: &out_dir,
        sdk_js: &project.sdk_js,
        wasm_bindgen: &wasm_bindgen,
        wasm_opt: wasm_opt.as_deref(),
        esbuild: esbuild.as_deref(),
    })?;
    if let Some(recorded) = &recorded {
        prebuilt_schemas::verify(&out_dir, recorded)?;
    }
    let size = std::fs::metadata(out_dir.join("server_bg.wasm")).map(|m| m.len()).unwrap_or(0);
    println!(
        "bundle: {} ({} wasm, {:.1} KiB)",
        out_dir.display(),
        if release { "release" } else { "debug" },
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

fn kib(bytes: u64) -> f64 {
    bytes as f64 / 1024.0
}
