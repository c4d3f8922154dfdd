//! `cargo xtask bench`: release build, the assembled site on an ephemeral port, `node tests/bench/run.mjs`.

use std::net::SocketAddr;
use std::path::PathBuf;

use crate::build::{self, Profile, report_sizes};
use crate::{Result, cmd, display, root, setup, site};

const RUNNER: &str = "tests/bench/run.mjs";

pub(crate) fn run(passthrough: &[String]) -> Result {
    if !root().join(RUNNER).is_file() {
        return Err(format!(
            "{RUNNER} is missing: the bench runner (and www/bench.html) must exist before `cargo xtask bench`"
        ));
    }
    setup::setup()?;
    build::build(Profile::Release)?;
    let site_dir = site::assemble()?;

    println!("== wasm sizes (release, wasm-opt -Os)");
    let mut modules: Vec<PathBuf> = Vec::new();
    let host = site_dir.join("pkg/host/mcp_worker_host_bg.wasm");
    if host.is_file() {
        modules.push(host);
    } else {
        println!("note: {} missing", display(&host));
    }
    let bundles = site_dir.join("bundles");
    if bundles.is_dir() {
        let mut servers: Vec<PathBuf> = std::fs::read_dir(&bundles)
            .map_err(|e| format!("cannot list {}: {e}", display(&bundles)))?
            .filter_map(|entry| entry.ok().map(|entry| entry.path().join("server_bg.wasm")))
            .filter(|wasm| wasm.is_file())
            .collect();
        servers.sort();
        modules.extend(servers);
    }
    report_sizes(&modules)?;

    let server = site::serve(&site_dir, SocketAddr::from(([127, 0, 0, 1], 0)))?;
    println!("== bench against {}", server.url());
    cmd::run(cmd::new("node").arg(RUNNER).args(passthrough).env("MCP_WORKER_SITE_URL", server.url()))
}
