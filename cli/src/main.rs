//! `mcp-worker`: the command line of a server author.
//!
//! - `new <dir>`: a server crate from the template, ready to build.
//! - `build [--release]`: the crate's bundle (`bundle/`), through the same build path as the workspace's own
//!   servers (`mcp-worker-build`).
//! - `dev`: builds the bundle, serves it in the console, and rebuilds it when its sources change.
//! - `inspect <bundle>`: a bundle's manifest and tools, read by running it under Node.

#![allow(clippy::disallowed_methods, reason = "a native command line: what it reads is not shipped to a browser")]

mod args;
mod build;
mod dev;
mod inspect;
mod new;

use std::process::ExitCode;

/// Errors are messages for a person: what failed and what to do about it.
pub(crate) type Result<T = ()> = std::result::Result<T, String>;

const USAGE: &str = "\
usage: mcp-worker <command> [options]

commands:
  new <dir> [--name NAME]    a new MCP server crate in <dir>, from the template
  build [--release] [--prebuilt-schemas] [--lean-std] [--weigh] [--manifest-path PATH] [--out-dir DIR]
                             the crate's bundle for the browser (default: bundle/ beside Cargo.toml): server.js,
                             server_bg.wasm, bootstrap.js, manifest.json and the Node entry serve.mjs;
                             --prebuilt-schemas makes the schemas at build time (a lighter bundle: every argument
                             type must appear with an empty environment, see the SDK's README);
                             --lean-std (with --release) compiles the standard library for size (a lighter bundle,
                             through unstable flags of the toolchain; panics keep their messages, not their lines);
                             --weigh (with --release) prints what the wasm is made of, by crate and by function
  dev [--port 8090] [--manifest-path PATH]
                             build, serve the bundle in the console on http://127.0.0.1:<port>/, rebuild on change
  inspect <bundle dir>       the bundle's manifest and tools (runs the server under Node)
  help                       this text";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match dispatch(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn dispatch(args: &[String]) -> Result {
    let Some((command, rest)) = args.split_first() else {
        println!("{USAGE}");
        return Ok(());
    };
    match command.as_str() {
        "new" => new::run(&args::Parsed::parse(rest, &["--name"], &[])?),
        "build" => build::run(&args::Parsed::parse(
            rest,
            &["--manifest-path", "--out-dir"],
            &["--release", "--prebuilt-schemas", "--lean-std", "--weigh"],
        )?)
        .map(drop),
        "dev" => dev::run(&args::Parsed::parse(rest, &["--port", "--manifest-path"], &[])?),
        "inspect" => inspect::run(&args::Parsed::parse(rest, &[], &[])?),
        "help" | "-h" | "--help" => {
            println!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown command `{other}`\n\n{USAGE}")),
    }
}
