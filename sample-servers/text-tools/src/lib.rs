//! The text-tools server: regex find and replace (the `regex` crate: linear time, so any pattern is safe), diffs
//! of lines or words (`similar`), text statistics by Unicode's rules, and case conversion.
//!
//! Every tool bounds its input (1 MiB of text, 512 KiB a side for diffs) and its output.

mod case_tool;
mod diff_tool;
mod find_tool;
mod limits;
mod pattern;
mod positions;
mod replace_tool;
mod stats_tool;

use mcp_worker_sdk::{Env, Server};

/// Builds the text-tools server.
pub fn server(_env: &Env) -> Server {
    Server::new("text-tools", env!("CARGO_PKG_VERSION"))
        .title("Text Tools")
        .description("Regex find and replace, unified and word diffs, text statistics, case conversion")
        .instructions(
            "Exact text work that models get wrong by hand. `regex_find` lists matches with line, column and capture \
             groups; `regex_replace` rewrites them (`$1`, `${name}`); set `literal` to search plain text. `diff` \
             compares two texts (a unified diff, or `mode: words` for inline changes). `text_stats` counts \
             characters, words, sentences and reading time. `case_convert` turns identifiers into snake_case, \
             camelCase, kebab-case and more, a line at a time. Regexes use Rust syntax: no look-around or \
             backreferences.",
        )
        .tool(find_tool::tool())
        .tool(replace_tool::tool())
        .tool(diff_tool::tool())
        .tool(stats_tool::tool())
        .tool(case_tool::tool())
}

mcp_worker_sdk::export_server!(server);
