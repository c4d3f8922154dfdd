//! Release builds link a standard library compiled for their size, not the one rustup ships: cargo's `-Zbuild-std`
//! compiles it from the toolchain's own sources (`rustup component add rust-src`, which `cargo xtask setup` does), with
//! - `optimize_for_size`, the standard library's own feature for it (a heapsort and a plain merge sort rather than
//!   ipnsort and driftsort, smaller tables);
//! - no source locations in the wasm (`-Zlocation-detail=none`): they only ever named where a panic came from;
//! - for the host packages only, panics that abort at once (`-Cpanic=immediate-abort`): no panic message is
//!   formatted, so none of the code that formats one is linked. A panic in the host had nothing to show anyway: the
//!   host installs no panic hook, and the standard library's default hook writes to a standard error that
//!   wasm32-unknown-unknown does not have. Either way a panic traps (`RuntimeError: unreachable`). The servers'
//!   bundles keep their panics' messages: the SDK's panic hook reports them to the host, and a server's author
//!   needs them. What a bundle loses is the file and line in the worker's console (a debug build has them).
//!
//! The release packages, as `cargo xtask sizes` weighs them: the full host 615.6 → 579.9 KiB of gzip, the
//! `McpClient`-only one 152.3 → 144.0. One flag at a time, on the full host's wasm alone: the panics 26.5 KiB, the
//! feature 7.6 more, the locations 2.8 more. The servers' bundles (their panics keep their messages): echo 113.3 →
//! 110.2, everything 205.5 → 200.1, calculator 282.9 → 266.0, csv-tools 186.6 → 175.5, json-query 598.5 → 571.4,
//! markdown 228.6 → 219.7, text-tools 545.2 → 505.5, time-zones 324.1 → 312.0; the locations alone are 2.4 KiB of
//! echo's and 4.2 of the everything server's and time-zones' (each measured on its own build), the rest the
//! feature.
//!
//! These are unstable flags of the stable toolchain, which `RUSTC_BOOTSTRAP=1` lets these builds use (and only them:
//! every test build, the servers' debug builds and what `mcp-worker build` builds for an author use the toolchain as
//! shipped).

use std::path::Path;
use std::process::Command;

use mcp_worker_build::WASM_TARGET;

use crate::cmd;

/// The flags, on the command line of a cargo build of the host for wasm in release.
const BUILD_STD: [&str; 2] = ["-Zbuild-std=std,panic_abort", "-Zbuild-std-features=optimize_for_size"];

/// What a package's panics keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Panics {
    /// Their messages, for a panic hook that reports them (the servers' bundles).
    Reported,
    /// Nothing: a panic traps at once (the host packages).
    Trap,
}

impl Panics {
    /// The compiler's flags, appended to the target's `rustflags` of `.cargo/config.toml` with `--config` (cargo
    /// joins arrays from its configuration sources; a `RUSTFLAGS` variable would replace them).
    fn rustflags(self) -> &'static [&'static str] {
        match self {
            Self::Reported => &["-Zunstable-options", "-Zlocation-detail=none"],
            Self::Trap => &["-Zunstable-options", "-Cpanic=immediate-abort", "-Zlocation-detail=none"],
        }
    }
}

/// Whether the toolchain has the standard library's sources to compile.
pub(crate) fn sources_present() -> bool {
    cmd::probe(cmd::new("rustc").args(["--print", "sysroot"]))
        .is_some_and(|sysroot| Path::new(sysroot.trim()).join("lib/rustlib/src/rust/library/std").is_dir())
}

/// Makes `cargo` (a `cargo build --target wasm32-unknown-unknown --release`) compile and link the lean standard
/// library, its panics keeping what `panics` says; or says why it cannot, and leaves it as it is.
pub(crate) fn apply(cargo: &mut Command, panics: Panics) -> bool {
    if !sources_present() {
        println!(
            "warning: the toolchain has no rust-src: release packages link the prebuilt standard library, heavier \
             than their budgets allow (the full host by about 36 KiB of gzip, each server's bundle by 3-12; \
             `rustup component add rust-src`, or `cargo xtask setup`)"
        );
        return false;
    }
    let flags: Vec<String> = panics.rustflags().iter().map(|flag| format!("{flag:?}")).collect();
    let config = format!("target.{WASM_TARGET}.rustflags=[{}]", flags.join(", "));
    cargo.env("RUSTC_BOOTSTRAP", "1").args(BUILD_STD).arg("--config").arg(config);
    true
}

/// Runs `lean` (a build that [`apply`] changed); when it fails, says so and runs `plain`, the same build with the
/// prebuilt standard library. The flags are unstable: a toolchain that no longer takes them still builds the
/// packages, heavier (and the size budgets say so).
pub(crate) fn run_or_fall_back(what: &str, lean: &mut Command, plain: impl FnOnce() -> Command) -> crate::Result {
    let Err(error) = crate::cmd::run(lean) else { return Ok(()) };
    crate::cmd::run(&mut plain())?;
    println!(
        "warning: {what} could not be built with the standard library compiled for size ({error}), and was built \
         with the prebuilt one: heavier than the budgets allow. This toolchain may have renamed an unstable flag of \
         xtask/src/build/lean_std.rs"
    );
    Ok(())
}
