//! The everything server: every MCP server feature in one worker.
//!
//! It implements every fixture of the official MCP conformance suite's server scenarios under the names the suite
//! expects (tools `test_*`, resources `test://…`, prompts `test_*_prompt…`), so that clients can be checked against
//! it, plus tools that exercise what the suite does not: structured output, cancellation, subscriptions, tools
//! added at run time, roots, declared credentials, and a crash.

mod extras;
mod fixtures;
mod modern;
mod prompts;
mod resources;
mod tools;

use mcp_worker_sdk::{Credential, Env, Server};
use std::cell::Cell;
use std::rc::Rc;

/// The optional credential the server declares (see the `credential_status` tool).
pub const API_KEY: &str = "EVERYTHING_API_KEY";

/// What the server's tools share while it runs.
#[derive(Debug, Default)]
pub(crate) struct Shared {
    /// The version of `test://watched-resource`, bumped by `update_watched_resource`.
    watched_version: Cell<u32>,
    /// Calls of `slow_operation` that started, finished, and were cancelled.
    slow_started: Cell<u32>,
    slow_completed: Cell<u32>,
    slow_cancelled: Cell<u32>,
}

/// Builds the everything server.
pub fn server(_env: &Env) -> Server {
    let shared = Rc::new(Shared::default());
    let server = Server::new("everything", env!("CARGO_PKG_VERSION"))
        .title("Everything")
        .description("Every MCP server feature, with the fixtures of the official conformance suite")
        .instructions(
            "A test server. Tools named test_* are the MCP conformance fixtures; the others exercise structured \
             output, cancellation, subscriptions, run-time tools, roots and credentials.",
        )
        .credential(Credential::optional(
            API_KEY,
            "An example secret. The credential_status tool says whether it was provided, never its value.",
        ));
    let server = tools::register(server);
    let server = extras::register(server, &shared);
    let server = resources::register(server, &shared);
    let server = prompts::register(server);
    modern::register(server)
}

mcp_worker_sdk::export_server!(server);
