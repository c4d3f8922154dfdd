//! Release builds of the host packages link a standard library compiled for their size, not the one rustup ships:
//! cargo's `-Zbuild-std` compiles it from the toolchain's own sources (`rustup component add rust-src`, which
//! `cargo xtask setup` does), with
//! - panics that abort at once (`-Cpanic=immediate-abort`): no panic message is formatted, so none of the code that
//!   formats one is linked. A panic in the host had nothing to show anyway: the host installs no panic hook, and the
//!   standard library's default hook writes to a standard error that wasm32-unknown-unknown does not have. Either
//!   way a panic traps (`RuntimeError: unreachable`).
//! - `optimize_for_size`, the standard library's own feature for it (a heapsort and a plain merge sort rather than
//!   ipnsort and driftsort, smaller tables);
//! - no source locations in the wasm (`-Zlocation-detail=none`): they only ever named where a panic came from.
//!
//! The release packages, as `cargo xtask sizes` weighs them: the full host 615.6 → 579.9 KiB of gzip, the
//! `McpClient`-only one 152.3 → 144.0. One flag at a time, on the full host's wasm alone: the panics 26.5 KiB, the
//! feature 7.6 more, the locations 2.8 more.
//!
//! These are unstable flags of the stable toolchain, which `RUSTC_BOOTSTRAP=1` lets these two builds use (and only
//! them: the servers' bundles and every test build use the toolchain as shipped). The servers' bundles keep their
//! panics' messages: the SDK's panic hook reports them to the host, and a server's author needs them.

use std::path::Path;
use std::process::Command;

use mcp_worker_build::WASM_TARGET;

use crate::cmd;

/// The flags, on the command line of a cargo build of the host for wasm in release.
const BUILD_STD: [&str; 2] = ["-Zbuild-std=std,panic_abort", "-Zbuild-std-features=optimize_for_size"];

/// The compiler's flags, appended to the target's `rustflags` of `.cargo/config.toml` with `--config` (cargo joins
/// arrays from its configuration sources; a `RUSTFLAGS` variable would replace them).
const RUSTFLAGS: [&str; 3] = ["-Zunstable-options", "-Cpanic=immediate-abort", "-Zlocation-detail=none"];

/// Whether the toolchain has the standard library's sources to compile.
pub(crate) fn sources_present() -> bool {
    cmd::probe(cmd::new("rustc").args(["--print", "sysroot"]))
        .is_some_and(|sysroot| Path::new(sysroot.trim()).join("lib/rustlib/src/rust/library/std").is_dir())
}

/// Makes `cargo` (a `cargo build --target wasm32-unknown-unknown --release` of the host) compile and link the lean
/// standard library, and says so; or says why it cannot, and leaves it as it is.
pub(crate) fn apply(cargo: &mut Command) -> bool {
    if !sources_present() {
        println!(
            "warning: the toolchain has no rust-src: the host packages link the prebuilt standard library, heavier \
             than their budgets allow (the full host by about 36 KiB of gzip; `rustup component add rust-src`, or \
             `cargo xtask setup`)"
        );
        return false;
    }
    let flags: Vec<String> = RUSTFLAGS.iter().map(|flag| format!("{flag:?}")).collect();
    let config = format!("target.{WASM_TARGET}.rustflags=[{}]", flags.join(", "));
    cargo.env("RUSTC_BOOTSTRAP", "1").args(BUILD_STD).arg("--config").arg(config);
    true
}

/// Says that a build with the lean standard library failed with `error` and the prebuilt one built the package.
pub(crate) fn fell_back(error: &str) {
    println!(
        "warning: the host could not be built with its standard library compiled for size ({error}), and was built \
         with the prebuilt one: the package is heavier than its budget allows. This toolchain may have renamed an \
         unstable flag of xtask/src/build/lean_std.rs"
    );
}
