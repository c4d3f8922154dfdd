//! The browser tests: each test binary of `mcp-worker-tests` under wasm-bindgen-test-runner in headless Chromium, one
//! at a time, with a watchdog for the one way the runner stalls without any fault of the tests.
//!
//! The stall: the runner's file server (tiny_http 0.12) hands each new connection to a pool of threads, and a
//! connection that arrives in a burst, while the pool still counts as idle a thread that has just been given another
//! one, waits in the queue until a thread frees up. Every thread is then reading a keep-alive connection of the same
//! page, so the queued request (one of the scripts the page imports, all fetched at once) is not answered for
//! minutes. The page stays at "Loading scripts…", no test starts, and the runner waits for the page to load until
//! ChromeDriver gives up, 300 s later (`WASM_BINDGEN_TEST_TIMEOUT` only counts once the page has loaded). Fewer
//! script files make the burst smaller (the host's page-side JavaScript is one module per crate for this reason), and
//! this watchdog handles what is left: the runner streams the page's output as it comes, and the page's first line
//! is the harness's `running N tests`, so a binary whose page has printed nothing after [`START_WITHIN`] has
//! stalled before its tests. The watchdog stops it (runner, driver and browser, one process group) and runs it once
//! more. A binary whose tests started is never rerun: a test that fails, fails.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use crate::{Result, cmd, display, root};

/// How long a test page may take to start its tests (a few seconds normally, on a loaded 2-core machine too).
const START_WITHIN: Duration = Duration::from_secs(90);

/// How many times a binary whose page never started its tests is run in all.
const ATTEMPTS: u32 = 2;

/// Builds the package's browser test binaries, then runs each.
pub(crate) fn run(package: &str) -> Result {
    let package_dir = root().join("tests");
    let binaries = build(package, &package_dir)?;
    if binaries.is_empty() {
        return Err(format!("`cargo test -p {package}` built no test binary for wasm32"));
    }
    let mut failed = Vec::new();
    for binary in &binaries {
        if let Err(error) = run_binary(binary, &package_dir) {
            eprintln!("{error}");
            failed.push(test_name(binary));
        }
    }
    if failed.is_empty() { Ok(()) } else { Err(format!("browser tests failed in: {}", failed.join(", "))) }
}

/// `cargo test --no-run` for wasm32, returning the test binaries it built.
fn build(package: &str, package_dir: &Path) -> Result<Vec<PathBuf>> {
    let mut command = cmd::cargo();
    command.args([
        "test",
        "-p",
        package,
        "--target",
        "wasm32-unknown-unknown",
        "--no-run",
        "--message-format=json-render-diagnostics",
    ]);
    // In the package's directory, so that cargo reads its `.cargo/config.toml` (what it builds optimized).
    command.current_dir(package_dir);
    let line = cmd::command_line(&command);
    println!("$ {line}");
    let output = command.stderr(Stdio::inherit()).output().map_err(|e| format!("`{line}` could not start: {e}"))?;
    if !output.status.success() {
        return Err(format!("`{line}` failed ({})", output.status));
    }
    Ok(test_executables(&String::from_utf8_lossy(&output.stdout)))
}

/// The test executables named in cargo's JSON messages, in a stable order.
fn test_executables(messages: &str) -> Vec<PathBuf> {
    let mut executables: Vec<PathBuf> = messages
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|message| message["reason"] == "compiler-artifact" && message["profile"]["test"] == true)
        .filter_map(|message| message["executable"].as_str().map(PathBuf::from))
        .collect();
    executables.sort_by_key(|path| test_name(path));
    executables.dedup();
    executables
}

/// A test binary's name without cargo's hash: `target/…/deps/hostile-0123abcd.wasm` → `hostile`.
fn test_name(binary: &Path) -> String {
    let stem = binary.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    match stem.rsplit_once('-') {
        Some((name, hash)) if hash.chars().all(|c| c.is_ascii_hexdigit()) => name.to_owned(),
        _ => stem,
    }
}

fn run_binary(binary: &Path, package_dir: &Path) -> Result {
    let name = test_name(binary);
    let mut attempt = 1;
    loop {
        println!("\n---- browser tests: {name} ({})", display(binary));
        match run_watched(binary, package_dir)? {
            Outcome::Passed => return Ok(()),
            Outcome::Failed(status) => return Err(format!("browser tests `{name}` failed ({status})")),
            Outcome::NeverStarted(why) if attempt >= ATTEMPTS => {
                return Err(format!(
                    "browser tests `{name}`: the test page never started its tests, {ATTEMPTS} times ({why})"
                ));
            }
            Outcome::NeverStarted(why) => println!(
                "note: the test page of `{name}` never started its tests ({why}); this is the test runner's \
                 page-load stall, not a test failure: running `{name}` again"
            ),
        }
        attempt += 1;
    }
}

enum Outcome {
    Passed,
    Failed(String),
    NeverStarted(String),
}

/// Runs one binary, forwarding its output, and stops it if its page has not started the tests in time.
fn run_watched(binary: &Path, package_dir: &Path) -> Result<Outcome> {
    let mut command = Command::new("wasm-bindgen-test-runner");
    command.arg(binary).current_dir(package_dir).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    own_process_group(&mut command);
    let line = cmd::command_line(&command);
    let mut child = command.spawn().map_err(|e| {
        format!("`{line}` could not start: {e} (`cargo xtask setup` installs wasm-bindgen-test-runner)")
    })?;
    let started = Arc::new(AtomicBool::new(false));
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let forwarders = [
        forward(child.stdout.take().map(|s| Box::new(s) as Box<dyn Read + Send>), &started, done_tx.clone(), false),
        forward(child.stderr.take().map(|s| Box::new(s) as Box<dyn Read + Send>), &started, done_tx, true),
    ];
    let launched = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| format!("`{line}`: {e}"))? {
            break Some(status);
        }
        if !started.load(Ordering::Relaxed) && launched.elapsed() >= START_WITHIN {
            stop_group(&mut child);
            break None;
        }
        // Wakes when an output stream closes or after a short wait, whichever comes first.
        let _ = done_rx.recv_timeout(Duration::from_millis(250));
    };
    for forwarder in forwarders.into_iter().flatten() {
        let _ = forwarder.join();
    }
    let page_started = started.load(Ordering::Relaxed);
    Ok(match status {
        None => Outcome::NeverStarted(format!("no output from the page after {} s", START_WITHIN.as_secs())),
        Some(status) if status.success() => Outcome::Passed,
        Some(status) if !page_started => Outcome::NeverStarted(format!("the runner exited ({status})")),
        Some(status) => Outcome::Failed(status.to_string()),
    })
}

/// Copies one output stream of the runner to ours, line by line, noting when the test harness has started.
fn forward(
    stream: Option<Box<dyn Read + Send>>,
    started: &Arc<AtomicBool>,
    done: mpsc::Sender<()>,
    to_stderr: bool,
) -> Option<thread::JoinHandle<()>> {
    let stream = stream?;
    let started = Arc::clone(started);
    Some(thread::spawn(move || {
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            if harness_started(&line) {
                started.store(true, Ordering::Relaxed);
            }
            if to_stderr { eprintln!("{line}") } else { println!("{line}") }
        }
        let _ = done.send(());
    }))
}

/// Whether a line of the runner's output shows that the page's test harness ran: it prints `running N tests` first.
fn harness_started(line: &str) -> bool {
    let line = line.trim_start();
    (line.starts_with("running ") && (line.ends_with(" tests") || line.ends_with(" test")))
        || line.contains("test result: ")
}

#[cfg(unix)]
fn own_process_group(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    command.process_group(0);
}

#[cfg(not(unix))]
fn own_process_group(_: &mut Command) {}

/// Stops the runner with the driver and browser it started (its process group), then reaps it.
fn stop_group(child: &mut Child) {
    #[cfg(unix)]
    {
        let group = format!("-{}", child.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).stderr(Stdio::null()).status();
    }
    let _ = child.kill();
    let _ = child.wait();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_binaries_are_read_from_cargo_messages_by_name() {
        let messages = [
            r#"{"reason":"compiler-artifact","profile":{"test":false},"executable":null}"#,
            r#"{"reason":"compiler-artifact","profile":{"test":true},"executable":"/t/deps/lifecycle-00ff.wasm"}"#,
            r#"{"reason":"compiler-message","message":{}}"#,
            r#"{"reason":"compiler-artifact","profile":{"test":true},"executable":"/t/deps/hostile-12ab.wasm"}"#,
            "not json",
            r#"{"reason":"build-finished","success":true}"#,
        ]
        .join("\n");
        let found = test_executables(&messages);
        assert_eq!(found, [PathBuf::from("/t/deps/hostile-12ab.wasm"), PathBuf::from("/t/deps/lifecycle-00ff.wasm")]);
    }

    #[test]
    fn a_test_name_drops_the_hash_only() {
        assert_eq!(test_name(Path::new("/t/deps/js_api-0123456789abcdef.wasm")), "js_api");
        assert_eq!(test_name(Path::new("/t/deps/interop_everything-9f.wasm")), "interop_everything");
        assert_eq!(test_name(Path::new("/t/deps/no-hash-here.wasm")), "no-hash-here");
    }

    #[test]
    fn the_harness_has_started_once_it_names_its_tests() {
        assert!(harness_started("running 12 tests"));
        assert!(harness_started("running 1 test"));
        assert!(harness_started("test result: ok. 3 passed; 0 failed"));
        assert!(!harness_started("Running headless tests in Chrome on `http://127.0.0.1:40123/`"));
        assert!(!harness_started("Loading scripts..."));
        assert!(!harness_started("Try find `webdriver.json` for configure browser's capabilities:"));
    }
}
