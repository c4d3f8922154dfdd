//! The json-query server: jq filters over JSON with jaq (a jq written in Rust), JSON validation that says where a
//! text breaks, a path listing to find one's way in a large document, and pretty-printing.
//!
//! Everything runs in the worker, offline. Inputs are bounded (1 MiB of JSON, 16 KiB of filter, 128 levels of
//! nesting) and so are outputs (1,000 values, 1 MiB of text); jaq has no step limit (see `run`).

// Tests read JSON with serde_json itself, to compare with it.
#![cfg_attr(test, allow(clippy::disallowed_methods))]

mod document;
mod format_tool;
mod jq_tool;
mod natives;
mod paths_tool;
mod position;
mod program;
mod run;
mod shape;
mod validate_tool;
mod writer;

use mcp_worker_sdk::{Env, Server};

/// Builds the json-query server.
pub fn server(_env: &Env) -> Server {
    Server::new("json-query", env!("CARGO_PKG_VERSION"))
        .title("JSON Query")
        .description("jq filters over JSON (jaq), JSON validation with line and column, path listing, pretty-printing")
        .instructions(
            "Use `jq` to extract or reshape JSON: pass the filter and the JSON text as `input`; every output value \
             comes back, one per line, and as `outputs`. The dialect is jaq's, close to jq 1.7: paths, `select`, \
             `map`, `group_by`, `sort_by`, `test`/`sub`/`gsub` regexes, `@csv`/`@base64`/`@uri` formats, dates in \
             UTC. When the document is large or unknown, call `json_paths` first to see its structure. Use \
             `validate_json` to find where a text stops being JSON, and `pretty_json`/`minify_json` to lay it out.",
        )
        .tool(jq_tool::tool())
        .tool(validate_tool::tool())
        .tool(paths_tool::tool())
        .tool(format_tool::pretty_tool())
        .tool(format_tool::minify_tool())
}

mcp_worker_sdk::export_server!(server);
