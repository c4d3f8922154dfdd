//! Running external programs with messages that say what failed.

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::{Result, root};

/// A command that runs in the workspace root.
pub(crate) fn new(program: impl AsRef<OsStr>) -> Command {
    let mut command = Command::new(program);
    command.current_dir(root());
    command
}

/// `cargo`, the same binary that runs xtask when invoked through `cargo xtask`.
///
/// On CI (`CI` set) incremental compilation is off: a build there is never repeated, and its cache would take
/// gigabytes of a disk that is not ours.
pub(crate) fn cargo() -> Command {
    let mut cargo = new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    if std::env::var_os("CI").is_some() && std::env::var_os("CARGO_INCREMENTAL").is_none() {
        cargo.env("CARGO_INCREMENTAL", "0");
    }
    cargo
}

/// A tool installed by npm into `node_modules/.bin`.
pub(crate) fn npm_bin(name: &str) -> Result<Command> {
    let path = root().join("node_modules/.bin").join(name);
    if !path.exists() {
        return Err(format!("{} is missing: run `cargo xtask setup` (it runs `npm ci`)", crate::display(&path)));
    }
    Ok(new(path))
}

/// Prints the command line, runs it with inherited stdio and fails unless it exits successfully.
pub(crate) fn run(command: &mut Command) -> Result {
    let line = command_line(command);
    println!("$ {line}");
    let status = command.status().map_err(|e| spawn_error(&line, &e))?;
    if status.success() { Ok(()) } else { Err(format!("`{line}` failed ({status})")) }
}

/// Runs the command quietly and returns its trimmed stdout, or `None` if it cannot start or fails.
/// For probes such as `wasm-bindgen --version`.
pub(crate) fn probe(command: &mut Command) -> Option<String> {
    let output = command.stdin(Stdio::null()).stderr(Stdio::null()).output().ok()?;
    output.status.success().then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

/// Whether a program can be started (found on PATH or at the given path).
pub(crate) fn exists(program: &str) -> bool {
    if program.contains('/') {
        return Path::new(program).is_file();
    }
    std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

pub(crate) fn command_line(command: &Command) -> String {
    let program = Path::new(command.get_program());
    // Toolchain binaries (`$CARGO` is an absolute path) are shown by name.
    let mut line = match program.file_name() {
        Some(name) if program.is_absolute() && !program.starts_with(root()) => name.to_string_lossy().into_owned(),
        _ => shorten(program.as_os_str()),
    };
    for arg in command.get_args() {
        line.push(' ');
        line.push_str(&shorten(arg));
    }
    line
}

fn shorten(arg: &OsStr) -> String {
    let text = arg.to_string_lossy();
    let path = Path::new(&*text);
    if path.is_absolute() && path.starts_with(root()) { crate::display(path) } else { text.into_owned() }
}

fn spawn_error(line: &str, error: &std::io::Error) -> String {
    if error.kind() == std::io::ErrorKind::NotFound {
        format!(
            "`{line}` could not start: program not found (run `cargo xtask setup`, or install it and put it on PATH)"
        )
    } else {
        format!("`{line}` could not start: {error}")
    }
}
