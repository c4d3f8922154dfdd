//! `mcp-worker dev`: the author's server in the console, rebuilt when its sources change.
//!
//! The console is this checkout's (`www/` and the host package `target/pkg/host/`, built by `cargo xtask build
//! --release`, or the package `$MCP_WORKER_HOST_PACKAGE` names). The site is assembled in cargo's target directory
//! (`mcp-worker-dev/`) with the author's bundle as the catalogue's only server, and served on 127.0.0.1 with the
//! console's Content-Security-Policy on its pages, as `cargo xtask demo` serves it. A change to `src/`, `Cargo.toml`
//! or `build.rs` rebuilds the bundle in place (a failed build keeps the last good one); restarting the server in the
//! console loads it.

use std::fs;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, SystemTime};

use mcp_worker_build::bundle::{copy_dir, remove_dir};
use mcp_worker_build::project::Project;
use mcp_worker_build::{policy, serve};
use serde_json::json;

use crate::Result;
use crate::args::Parsed;

const DEFAULT_PORT: u16 = 8090;
/// Where the host package is, when not in the checkout's `target/pkg/host/` (another cargo target directory).
const HOST_PACKAGE_VAR: &str = "MCP_WORKER_HOST_PACKAGE";
/// How often the sources are looked at.
const POLL: Duration = Duration::from_millis(500);

pub(crate) fn run(args: &Parsed) -> Result {
    if let Some(extra) = args.positional.first() {
        return Err(format!("dev: unexpected argument `{extra}`"));
    }
    let port = match args.option("--port") {
        Some(port) => port.parse().map_err(|_| format!("dev: `{port}` is not a port number"))?,
        None => DEFAULT_PORT,
    };
    let manifest = PathBuf::from(args.option("--manifest-path").unwrap_or("Cargo.toml"));
    let console = Console::of_checkout()?;
    let _ = PAGE_POLICY.set(console.page_policy()?);
    let project = Project::load(&manifest)?;
    let site = project.target_dir.join("mcp-worker-dev");
    console.assemble(&site, &project.package)?;
    let bundle = site.join("bundles").join(&project.package);
    crate::build::build(&manifest, crate::build::Options::default(), Some(bundle.clone()))?;
    let server = serve::serve(&site, SocketAddr::from(([127, 0, 0, 1], port)), headers)?;
    println!("\nconsole: {}  (your server is in its catalogue as `{}`)", server.url(), project.package);
    println!("watching {} for changes (Ctrl-C to stop)", project.dir.display());
    let mut seen = newest_source(&project.dir);
    loop {
        std::thread::sleep(POLL);
        let now = newest_source(&project.dir);
        if now == seen {
            continue;
        }
        seen = now;
        println!("\nchanged: rebuilding");
        match crate::build::build(&manifest, crate::build::Options::default(), Some(bundle.clone())) {
            Ok(_) => println!("rebuilt: restart `{}` in the console to run the new build", project.package),
            Err(e) => println!("the build failed (the console keeps the last good bundle):\n{e}"),
        }
    }
}

/// The console pages' policy, read from the checkout once (see [`Console::page_policy`]).
static PAGE_POLICY: OnceLock<String> = OnceLock::new();

/// Every file's headers as a bundle's ([`serve::bundle_headers`]), and the console's policy on its pages.
fn headers(path: &Path, content_type: &str) -> Vec<(&'static str, String)> {
    let mut headers = serve::bundle_headers(path, content_type);
    if content_type.starts_with("text/html")
        && let Some(policy) = PAGE_POLICY.get()
    {
        headers.push(("Content-Security-Policy", policy.clone()));
    }
    headers
}

/// The console of the checkout this command was built from.
struct Console {
    /// The checkout's root.
    checkout: PathBuf,
    www: PathBuf,
    host: PathBuf,
    /// The guides, when the checkout has built them (`cargo xtask demo` or `cargo xtask book`): the console links
    /// to them.
    book: Option<PathBuf>,
}

impl Console {
    fn of_checkout() -> Result<Self> {
        let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let host = std::env::var_os(HOST_PACKAGE_VAR).map_or_else(|| checkout.join("target/pkg/host"), PathBuf::from);
        let book = checkout.join("target/book");
        let console = Self {
            www: checkout.join("www"),
            host,
            book: book.join("index.html").is_file().then_some(book),
            checkout: checkout.clone(),
        };
        if !console.www.join("index.html").is_file() || !console.host.join("mcp_worker_host.js").is_file() {
            return Err(format!(
                "the console is not built: run `cargo xtask build --release` in {} once (it builds the host package \
                 the console runs on)",
                checkout.canonicalize().unwrap_or(checkout).display()
            ));
        }
        Ok(console)
    }

    /// The console pages' Content-Security-Policy, with the hashes of the scripts it must allow as the checkout's
    /// sources declare them (the sandboxed frame's, the OAuth redirect page's).
    fn page_policy(&self) -> Result<String> {
        let read = |file: &str| {
            let path = self.checkout.join(file);
            fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))
        };
        let sandbox = read("host/client/src/sandbox.rs")?;
        let popup = read("host/js/oauth-popup.mjs")?;
        let frame = policy::hash_after(&sandbox, policy::FRAME_HASH_MARKER);
        let callback = policy::hash_after(&popup, policy::CALLBACK_HASH_MARKER);
        if frame.is_empty() || callback.is_empty() {
            return Err("the checkout's sources name no script hashes for the console's policy".into());
        }
        Ok(policy::console_page_policy(frame, callback))
    }

    /// `site/`: the console's pages, the host package as `pkg/host/`, and a catalogue of the one server.
    fn assemble(&self, site: &Path, server: &str) -> Result {
        remove_dir(site)?;
        copy_dir(&self.www, site)?;
        copy_dir(&self.host, &site.join("pkg/host"))?;
        if let Some(book) = &self.book {
            copy_dir(book, &site.join("book"))?;
        }
        let entry = json!({
            "id": server,
            "name": server,
            "description": "The server you are writing, rebuilt by mcp-worker dev whenever its sources change.",
            "tags": ["yours"],
            "needs": { "credentials": [], "network": [] },
            "config": { "name": server, "workerUrl": format!("./bundles/{server}/bootstrap.js") },
        });
        let catalogue = serde_json::to_string_pretty(&json!({ "servers": [entry] })).unwrap_or_default();
        let path = site.join("catalogue.json");
        fs::write(&path, catalogue + "\n").map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

/// The latest modification time of the crate's sources (`src/`, `Cargo.toml`, `build.rs`).
fn newest_source(dir: &Path) -> Option<SystemTime> {
    fn walk(path: &Path, newest: &mut Option<SystemTime>) {
        let Ok(meta) = fs::metadata(path) else { return };
        if let Ok(modified) = meta.modified() {
            *newest = (*newest).max(Some(modified));
        }
        if meta.is_dir()
            && let Ok(entries) = fs::read_dir(path)
        {
            for entry in entries.flatten() {
                walk(&entry.path(), newest);
            }
        }
    }
    let mut newest = None;
    for part in ["src", "Cargo.toml", "build.rs"] {
        walk(&dir.join(part), &mut newest);
    }
    newest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_source_change_is_seen() {
        let dir = std::env::temp_dir().join(format!("mcp-worker-dev-watch-{}", std::process::id()));
        fs::create_dir_all(dir.join("src")).unwrap();
        fs::write(dir.join("src/lib.rs"), "a").unwrap();
        let before = newest_source(&dir);
        std::thread::sleep(Duration::from_millis(20));
        fs::write(dir.join("src/lib.rs"), "b").unwrap();
        let after = newest_source(&dir);
        let _ = fs::remove_dir_all(&dir);
        assert!(before.is_some() && after > before);
    }
}
