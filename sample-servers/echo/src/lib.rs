//! The echo server: the smallest useful MCP server, used by the console, the tests and the benchmarks.
//!
//! Tools: `echo` (returns its text), `add` (two numbers), `blob` (returns N bytes of text). With
//! `ECHO_EXTRA_TOOLS=N` in its environment it also lists N synthetic tools `synthetic_0 … synthetic_{N-1}`.

use mcp_worker_sdk::{Env, Json, NoArgs, Server, ToolDef};
use schemars::JsonSchema;
use serde::Deserialize;

/// The most bytes `blob` returns (64 MiB), so a typo cannot exhaust the worker's memory.
pub const MAX_BLOB_BYTES: usize = 64 << 20;

/// The most synthetic tools `ECHO_EXTRA_TOOLS` can add.
pub const MAX_EXTRA_TOOLS: usize = 100_000;

#[derive(Deserialize, JsonSchema)]
struct EchoArgs {
    /// The text to return.
    text: String,
}

#[derive(Deserialize, JsonSchema)]
struct AddArgs {
    /// The first number.
    a: f64,
    /// The second number.
    b: f64,
}

#[derive(Deserialize, JsonSchema)]
struct BlobArgs {
    /// How many bytes of text to return.
    bytes: usize,
}

/// Builds the echo server for the environment the host gave it.
pub fn server(env: &Env) -> Server {
    let mut server = Server::new("echo", env!("CARGO_PKG_VERSION"))
        .title("Echo")
        .instructions("Test server: `echo` returns its text, `add` adds two numbers, `blob` returns N bytes.")
        .tool(
            ToolDef::new("echo", |args: EchoArgs| async move { args.text }).description("Returns its text").read_only(),
        )
        .tool(
            ToolDef::new("add", |args: AddArgs| async move { Json(Sum { sum: args.a + args.b }) })
                .description("Adds two numbers")
                .read_only(),
        )
        .tool(
            ToolDef::new("blob", |args: BlobArgs| async move {
                if args.bytes > MAX_BLOB_BYTES {
                    return Err(format!("bytes must be at most {MAX_BLOB_BYTES}"));
                }
                Ok("x".repeat(args.bytes))
            })
            .description("Returns N bytes of text")
            .read_only(),
        );
    let extra = env.get("ECHO_EXTRA_TOOLS").and_then(|n| n.parse::<usize>().ok()).unwrap_or(0);
    for i in 0..extra.min(MAX_EXTRA_TOOLS) {
        server = server.tool(
            ToolDef::new(format!("synthetic_{i}"), |_: NoArgs| async { "synthetic" })
                .description("A synthetic tool for list benchmarks")
                .read_only(),
        );
    }
    server
}

/// The structured result of `add` (its schema is the tool's `outputSchema`).
#[derive(serde::Serialize, JsonSchema)]
struct Sum {
    sum: f64,
}

mcp_worker_sdk::export_server!(server);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extra_tools_come_from_the_environment() {
        assert_eq!(server(&Env::default()).tool_count(), 3);
        assert_eq!(server(&Env::from_pairs([("ECHO_EXTRA_TOOLS", "1000")])).tool_count(), 1003);
        assert_eq!(server(&Env::from_pairs([("ECHO_EXTRA_TOOLS", "lots")])).tool_count(), 3);
    }
}
