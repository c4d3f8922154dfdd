//! The markdown server: Markdown rendered to HTML, its outline, links, plain text and statistics, with
//! pulldown-cmark (CommonMark with GitHub's extensions).

mod document;
mod headings;
mod links;
mod outline;
mod plain_text;
mod render;
mod slug;
mod stats;
mod summary_prompt;

use mcp_worker_sdk::{Env, Server};

/// Builds the markdown server.
pub fn server(_env: &Env) -> Server {
    Server::new("markdown", env!("CARGO_PKG_VERSION"))
        .title("Markdown")
        .description(
            "Markdown tools: render to HTML, outline, links, plain text, word count and reading time \
             (CommonMark with GitHub tables, task lists, strikethrough and footnotes)",
        )
        .instructions(
            "Pass the Markdown text itself (up to 1 MiB) to each tool. outline gives the heading tree with anchors; \
             extract_links lists links and images and flags anchors that match no heading and undefined \
             references; to_plain_text strips markup; document_stats counts words and reading time; render_html \
             gives HTML that is not sanitized (set drop_raw_html for content from others).",
        )
        .tool(render::tool())
        .tool(outline::tool())
        .tool(links::tool())
        .tool(plain_text::tool())
        .tool(stats::tool())
        .prompt(summary_prompt::prompt())
}

mcp_worker_sdk::export_server!(server);
