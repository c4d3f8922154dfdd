//! Release builds that link a standard library compiled for their size, not the one rustup ships: cargo's
//! `-Zbuild-std` compiles it from the toolchain's own sources (the `rust-src` component), with
//! - `optimize_for_size`, the standard library's own feature for it (a heapsort and a plain merge sort rather than
//!   ipnsort and driftsort, smaller tables);
//! - no source locations in the wasm (`-Zlocation-detail=none`): they only ever named where a panic came from;
//! - for the host packages only, panics that abort at once (`-Cpanic=immediate-abort`): no panic message is
//!   formatted, so none of the code that formats one is linked. A panic in the host had nothing to show anyway: the
//!   host installs no panic hook, and the standard library's default hook writes to a standard error that
//!   wasm32-unknown-unknown does not have. Either way a panic traps (`RuntimeError: unreachable`). A server's bundle
//!   keeps its panics' messages: the SDK's panic hook reports them to the host, and a server's author needs them.
//!   What a bundle loses is the file and line in the worker's console (a debug build has them).
//!
//! The workspace's release packages, as `cargo xtask sizes` weighs them: the full host 615.6 → 579.9 KiB of gzip, the
//! `McpClient`-only one 152.3 → 144.0. One flag at a time, on the full host's wasm alone: the panics 26.5 KiB, the
//! feature 7.6 more, the locations 2.8 more. The servers' bundles (their panics keep their messages): echo 113.3 →
//! 110.2, everything 205.5 → 200.1, calculator 282.9 → 266.0, csv-tools 186.6 → 175.5, json-query 598.5 → 571.4,
//! markdown 228.6 → 219.7, text-tools 545.2 → 505.5, time-zones 324.1 → 312.0; the locations alone are 2.4 KiB of
//! echo's and 4.2 of the everything server's and time-zones' (each measured on its own build), the rest the
//! feature.
//!
//! These are unstable flags of the stable toolchain, which `RUSTC_BOOTSTRAP=1` lets these builds use, and only them.
//! The workspace's release packages are built so (`cargo xtask build --release`); an author's crate only when the
//! author asks (`mcp-worker build --release --lean-std`). Every test build and every debug build uses the toolchain
//! as shipped.

use std::path::Path;
use std::process::Command;

use crate::{Result, WASM_TARGET, command};

/// The flags, on the command line of a cargo build for wasm in release.
const BUILD_STD: [&str; 2] = ["-Zbuild-std=std,panic_abort", "-Zbuild-std-features=optimize_for_size"];

/// What a package's panics keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Panics {
    /// Their messages, for a panic hook that reports them (a server's bundle).
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
pub fn sources_present() -> bool {
    command::probe(Command::new("rustc").args(["--print", "sysroot"]))
        .is_some_and(|sysroot| Path::new(sysroot.trim()).join("lib/rustlib/src/rust/library/std").is_dir())
}

/// Makes `cargo` (a `cargo build --target wasm32-unknown-unknown --release`) compile and link the lean standard
/// library, its panics keeping what `panics` says. The toolchain must have its sources ([`sources_present`]).
pub fn apply(cargo: &mut Command, panics: Panics) {
    let flags: Vec<String> = panics.rustflags().iter().map(|flag| format!("{flag:?}")).collect();
    let config = format!("target.{WASM_TARGET}.rustflags=[{}]", flags.join(", "));
    cargo.env("RUSTC_BOOTSTRAP", "1").args(BUILD_STD).arg("--config").arg(config);
}

/// Runs the build `plain` makes with the lean standard library ([`apply`], its panics keeping what `panics` says);
/// when that fails, runs it as `plain` makes it, with the prebuilt standard library, and returns why the lean one
/// failed (the flags are unstable: a toolchain that no longer takes them still builds, heavier). `Ok(None)` when the
/// lean build succeeded.
pub fn run_or_fall_back(panics: Panics, plain: impl Fn() -> Command) -> Result<Option<String>> {
    let mut lean = plain();
    apply(&mut lean, panics);
    let Err(error) = command::run(&mut lean) else { return Ok(None) };
    command::run(&mut plain())?;
    Ok(Some(error))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(cargo: &Command) -> Vec<String> {
        cargo.get_args().map(|arg| arg.to_string_lossy().into_owned()).collect()
    }

    #[test]
    fn a_lean_build_compiles_the_standard_library_with_the_flags_of_its_panics() {
        let mut server = Command::new("cargo");
        apply(&mut server, Panics::Reported);
        let server_args = args(&server);
        assert!(server_args.contains(&"-Zbuild-std=std,panic_abort".to_owned()), "{server_args:?}");
        assert!(server_args.contains(&"-Zbuild-std-features=optimize_for_size".to_owned()), "{server_args:?}");
        let config = server_args.last().cloned().unwrap_or_default();
        assert_eq!(
            config,
            r#"target.wasm32-unknown-unknown.rustflags=["-Zunstable-options", "-Zlocation-detail=none"]"#
        );
        let bootstrap = server.get_envs().find(|(name, _)| *name == "RUSTC_BOOTSTRAP").and_then(|(_, value)| value);
        assert_eq!(bootstrap, Some(std::ffi::OsStr::new("1")));

        let mut host = Command::new("cargo");
        apply(&mut host, Panics::Trap);
        assert!(args(&host).last().is_some_and(|config| config.contains("-Cpanic=immediate-abort")));
    }
}
