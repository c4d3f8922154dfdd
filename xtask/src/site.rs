//! The demo site: `target/site/` assembled from `www/`, the bundles, the host package and the guides (`book/`),
//! and a small static file server for it (used by `demo`, the end-to-end tests and the bench).

use std::fs;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

pub(crate) use mcp_worker_build::serve::ServerHandle;

mod catalogue;
mod headers;

use crate::build::{self, Profile, copy_dir, remove_dir};
use crate::{Result, cmd, display, root, setup, target_dir};

/// `cargo xtask demo`: setup, release build, assemble, serve until interrupted.
pub(crate) fn demo(port: u16, proxy_allow: &[String]) -> Result {
    setup::setup()?;
    build::build(Profile::Release)?;
    let site = assemble()?;
    let handle = serve(&site, SocketAddr::from(([127, 0, 0, 1], port)))?;
    let proxy = start_dev_proxy(port, proxy_allow)?;
    println!("mcp-worker console: {}", handle.url());
    println!("the guides: {}book/", handle.url());
    println!("serving {} (Ctrl-C to stop)", display(&site));
    handle.wait();
    drop(proxy);
    Ok(())
}

/// The development proxy (`xtask/dev-proxy.mjs`) on the next port, for the console's pages only; stopped with
/// the demo.
fn start_dev_proxy(port: u16, allow: &[String]) -> Result<ChildGuard> {
    let proxy_port = port.checked_add(1).ok_or("demo: no port after 65535 for the development proxy")?;
    let mut command = cmd::new("node");
    command.arg(root().join("xtask/dev-proxy.mjs")).args([
        "--port",
        &proxy_port.to_string(),
        "--origin",
        &format!("http://127.0.0.1:{port}"),
    ]);
    for origin in allow {
        command.args(["--allow", origin]);
    }
    let child = command.spawn().map_err(|e| format!("cannot start the development proxy (node): {e}"))?;
    Ok(ChildGuard(child))
}

/// A child process killed when dropped.
struct ChildGuard(std::process::Child);

impl Drop for ChildGuard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Builds `target/site/`: a copy of `www/*`, `target/bundles` as `bundles/`, `target/pkg` as `pkg/`, the
/// servers' `catalogue.json`, and the guides as `book/`.
pub(crate) fn assemble() -> Result<PathBuf> {
    let site = target_dir().join("site");
    println!("== assemble {}", display(&site));
    remove_dir(&site)?;
    fs::create_dir_all(&site).map_err(|e| format!("cannot create {}: {e}", display(&site)))?;
    let www = root().join("www");
    if www.is_dir() {
        copy_dir(&www, &site)?;
    } else {
        println!("note: no www/ directory yet: the site has no pages");
    }
    for (from, to) in [("bundles", "bundles"), ("pkg", "pkg")] {
        let from = target_dir().join(from);
        if from.is_dir() {
            copy_dir(&from, &site.join(to))?;
        } else {
            println!("note: {} missing (nothing built yet)", display(&from));
        }
    }
    catalogue::write(&site, &target_dir().join("bundles"))?;
    crate::book::build(&site.join("book"))?;
    Ok(site)
}

/// Serves the site under `root` on `addr` (port 0 picks a free port), with the site's headers (`headers`).
pub(crate) fn serve(root: &Path, addr: SocketAddr) -> Result<ServerHandle> {
    mcp_worker_build::serve::serve(root, addr, headers::for_file)
}
