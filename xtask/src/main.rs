//! `cargo xtask …`: build orchestration for mcp-worker.
//!
//! Subcommands: `setup`, `build [--release]`, `demo [--port N]`, `test [--native-only|--browser-only]`,
//! `bench [-- args for run.mjs]`, `book`, `package`, `sizes`, `weigh`. Every subcommand but `sizes` runs `setup` first, which installs only what
//! is missing.

#![allow(clippy::disallowed_methods, reason = "a native build and test tool: nothing it reads ships to a browser")]

mod bench;
mod book;
mod browser_tests;
mod build;
mod cmd;
mod layering;
mod npm;
mod setup;
mod site;
mod snippets;
mod test;
mod weigh;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Errors are messages for a human: what failed and what to do about it.
pub(crate) type Result<T = ()> = std::result::Result<T, String>;

const USAGE: &str = "\
usage: cargo xtask <command> [options]

commands:
  setup                      install what is missing: wasm32 target, wasm-bindgen-cli, chromium, npm packages
  build [--release] [-p <server>]...
                             build the sample-server bundles (target/bundles) and the host (target/pkg/host);
                             with -p, only the servers named (`-p host`: the host packages)
  demo [--port 8080] [--proxy-allow ORIGIN]...
                             release build, assemble target/site, serve it on http://127.0.0.1:<port>/, and a
                             development proxy for remote servers without CORS on <port + 1> (allowlist: ORIGIN...)
  test [--native-only | --browser-only]
                             the full CI run: fmt, clippy, native tests, browser tests, end-to-end tests
  bench [-- <run.mjs args>]  release build, serve the site, run tests/bench/run.mjs against it
  book                       the guides (docs/book) into target/book, their links and includes checked
  package                    release build, then the host as an npm package: target/npm/mcp-worker-<version>.tgz
  sizes                      the release packages in target/ against size-budgets.json (no build)
  weigh [-p <server> | -p host]... [--top N]
                             release build, then what each package's wasm is made of, by crate and by function
  help                       this text";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match dispatch(&args) {
        Ok(()) => ExitCode::SUCCESS,
        // `test` reports its own "FAILED: <step>" line.
        Err(message) if message.starts_with("FAILED:") => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
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
        "setup" => {
            no_options(command, rest)?;
            setup::setup()
        }
        "build" => {
            let args = build::BuildArgs::from_args(rest)?;
            setup::setup()?;
            build::build_selected(&args).map(drop)
        }
        "demo" => {
            let (port, proxy_allow) = parse_demo_args(rest)?;
            site::demo(port, &proxy_allow)
        }
        "book" => {
            no_options(command, rest)?;
            book::ensure_mdbook()?;
            book::build(&target_dir().join("book"))
        }
        "package" => {
            no_options(command, rest)?;
            setup::setup()?;
            npm::package().map(drop)
        }
        "test" => test::run(test::Selection::from_args(rest)?),
        "sizes" => {
            no_options(command, rest)?;
            let weighed = build::budgets::weigh_all(&target_dir())?;
            build::budgets::print(&weighed);
            build::budgets::verdict(&weighed)
        }
        "weigh" => {
            let args = weigh::WeighArgs::from_args(rest)?;
            setup::setup()?;
            weigh::run(&args)
        }
        "bench" => {
            let passthrough = match rest.split_first() {
                None => &[][..],
                Some((dashes, tail)) if dashes == "--" => tail,
                Some((other, _)) => return Err(format!("bench: unknown option `{other}` (use `-- <args>`)")),
            };
            bench::run(passthrough)
        }
        "help" | "-h" | "--help" => {
            println!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown command `{other}`\n\n{USAGE}")),
    }
}

fn no_options(command: &str, rest: &[String]) -> Result {
    match rest.first() {
        None => Ok(()),
        Some(option) => Err(format!("{command}: unexpected argument `{option}`")),
    }
}

/// `--port N` (default 8080) and any number of `--proxy-allow ORIGIN`, each also as `--flag=value`.
fn parse_demo_args(args: &[String]) -> Result<(u16, Vec<String>)> {
    let mut port = 8080;
    let mut allow = Vec::new();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) => (flag, Some(value.to_owned())),
            None => (arg.as_str(), None),
        };
        let mut value =
            || inline.clone().or_else(|| iter.next().cloned()).ok_or(format!("demo: `{flag}` needs a value"));
        match flag {
            "--port" => {
                let value = value()?;
                port = value.parse().map_err(|_| format!("demo: `{value}` is not a port number"))?;
            }
            "--proxy-allow" => {
                let origin = value()?;
                if !(origin.starts_with("https://") || origin.starts_with("http://")) {
                    return Err(format!("demo: `--proxy-allow {origin}`: an origin is http(s)://host[:port]"));
                }
                allow.push(origin);
            }
            _ => {
                return Err(format!("demo: unexpected argument `{arg}` (expected `--port N`, `--proxy-allow ORIGIN`)"));
            }
        }
    }
    Ok((port, allow))
}

/// The workspace root (the parent of this crate's directory).
pub(crate) fn root() -> &'static Path {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir.parent().unwrap_or(manifest_dir)
}

/// Cargo's target directory: `$CARGO_TARGET_DIR` if set, else `<root>/target`.
pub(crate) fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => root().join(dir),
        _ => root().join("target"),
    }
}

/// A path relative to the workspace root when it is inside it, for shorter messages.
pub(crate) fn display(path: &Path) -> String {
    match path.strip_prefix(root()) {
        Ok(relative) if relative.as_os_str().is_empty() => "the workspace root".to_owned(),
        Ok(relative) => relative.display().to_string(),
        Err(_) => path.display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[&str]) -> Vec<String> {
        args.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn demo_arguments() {
        let port = |args: &[&str]| parse_demo_args(&strings(args)).map(|(port, _)| port);
        assert_eq!(port(&[]), Ok(8080));
        assert_eq!(port(&["--port", "9000"]), Ok(9000));
        assert_eq!(port(&["--port=1234"]), Ok(1234));
        assert!(port(&["--port"]).is_err());
        assert!(port(&["--port", "x"]).is_err());
        assert!(port(&["--verbose"]).is_err());
        let allowed =
            parse_demo_args(&strings(&["--proxy-allow", "https://a.example", "--proxy-allow=http://127.0.0.1:9"]));
        assert_eq!(allowed, Ok((8080, strings(&["https://a.example", "http://127.0.0.1:9"]))));
        assert!(parse_demo_args(&strings(&["--proxy-allow", "a.example"])).is_err(), "an origin has a scheme");
    }

    #[test]
    fn root_holds_the_workspace_manifest() {
        assert!(root().join("Cargo.toml").is_file());
        assert!(root().join("xtask").is_dir());
    }
}
