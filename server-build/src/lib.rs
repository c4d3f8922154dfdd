//! Builds an MCP server crate written with `mcp-worker-sdk` into a bundle, the four files a browser host loads:
//!
//! - `server.js` and `server_bg.wasm`: the crate's wasm through wasm-bindgen (`--target web`), and through
//!   wasm-opt when optimizing;
//! - `bootstrap.js`: the worker script a host starts (the SDK's own, from the SDK version the crate is built with,
//!   with the glue in the same module: [`worker_entry`]), with `serve.mjs` and its companions, which run the same
//!   server under Node;
//! - `manifest.json`: what a host reads before starting the server, written by the server itself
//!   (`mcp_worker_manifest()`, exported by `export_server!`), run once in Node; the bundle then loses that export
//!   ([`build_exports`]).
//!
//! The workspace's `cargo xtask` and the `mcp-worker` command line both build through [`bundle::assemble`], so a
//! bundle is the same whoever builds it. Errors are messages for a person: what failed and what to do.

#![allow(
    clippy::disallowed_methods,
    reason = "a native build tool: its JSON is cargo's and its own, not shipped to a browser"
)]

pub mod build_exports;
pub mod bundle;
pub mod command;
pub mod export_names;
pub mod fingerprint;
pub mod import_names;
pub mod lean_std;
pub mod lockfile;
pub mod low_memory;
pub mod manifest;
mod module_files;
pub mod policy;
pub mod prebuilt_schemas;
pub mod project;
pub mod serve;
pub mod tools;
pub mod weigh;
pub mod worker_entry;

#[cfg(test)]
mod test_modules;

/// A result whose error is a message for a person.
pub type Result<T = ()> = std::result::Result<T, String>;

/// The target every server and host compiles to.
pub const WASM_TARGET: &str = "wasm32-unknown-unknown";
