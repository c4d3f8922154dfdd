//! Running external programs with messages that say what failed.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::Result;

/// `cargo`: the one running this program when cargo started it (`$CARGO`), else the one on `PATH`.
pub fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// Prints the command line, runs it with inherited stdio and fails unless it exits successfully.
pub fn run(command: &mut Command) -> Result {
    let line = line(command);
    println!("$ {line}");
    let status = command.status().map_err(|e| spawn_error(&line, &e))?;
    if status.success() { Ok(()) } else { Err(format!("`{line}` failed ({status})")) }
}

/// Runs the command quietly and returns its trimmed stdout, or `None` if it cannot start or fails.
pub fn probe(command: &mut Command) -> Option<String> {
    let output = command.stdin(Stdio::null()).stderr(Stdio::null()).output().ok()?;
    output.status.success().then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

/// The program's path if it can be started: a path that names a file, or a name found on `PATH`.
pub fn find(program: &str) -> Option<std::path::PathBuf> {
    if program.contains('/') {
        return Path::new(program).is_file().then(|| program.into());
    }
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths).map(|dir| dir.join(program)).find(|path| path.is_file())
}

/// The command as a person would type it, with paths under the current directory made relative to it.
pub fn line(command: &Command) -> String {
    let here = std::env::current_dir().unwrap_or_default();
    let show = |arg: &std::ffi::OsStr| {
        let path = Path::new(arg);
        match path.strip_prefix(&here) {
            Ok(relative) if path.is_absolute() && !here.as_os_str().is_empty() => relative.display().to_string(),
            _ => arg.to_string_lossy().into_owned(),
        }
    };
    let mut line = show(command.get_program());
    for arg in command.get_args() {
        line.push(' ');
        line.push_str(&show(arg));
    }
    line
}

fn spawn_error(line: &str, error: &std::io::Error) -> String {
    if error.kind() == std::io::ErrorKind::NotFound {
        format!("`{line}` could not start: program not found (install it, or put it on PATH)")
    } else {
        format!("`{line}` could not start: {error}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_under_the_current_directory_are_shown_relative() {
        let here = std::env::current_dir().unwrap();
        let mut command = Command::new(here.join("bin/tool"));
        command.arg("--flag").arg(here.join("a/b.wasm")).arg("/elsewhere/c");
        assert_eq!(line(&command), "bin/tool --flag a/b.wasm /elsewhere/c");
    }
}
