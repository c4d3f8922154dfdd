//! `outline`: the headings of a document as a tree.

use crate::document::check_size;
use crate::headings::{Heading, headings};
use mcp_worker_sdk::{Json, ToolDef};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, JsonSchema)]
pub(crate) struct OutlineArgs {
    /// The Markdown (at most 1 MiB).
    pub(crate) markdown: String,
    /// The deepest heading level to include, 1 to 6 (6 when left out).
    pub(crate) max_level: Option<u8>,
}

/// The outline of a document.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Outline {
    /// The text of the first level-1 heading, the document's usual title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) title: Option<String>,
    /// How many headings the outline holds.
    pub(crate) heading_count: usize,
    /// The top-level headings, each with the headings under it.
    pub(crate) headings: Vec<OutlineNode>,
}

/// A heading and the headings under it.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct OutlineNode {
    /// 1 (`#`) to 6 (`######`).
    pub(crate) level: u8,
    /// The heading's text, without markup.
    pub(crate) text: String,
    /// Its anchor, GitHub-style and unique in the document: link to it as "#anchor".
    pub(crate) anchor: String,
    /// The line it is on, from 1.
    pub(crate) line: usize,
    /// The headings under it (of a deeper level, up to the next heading of its level or higher).
    pub(crate) children: Vec<OutlineNode>,
}

pub(crate) fn tool() -> ToolDef {
    ToolDef::new("outline", |args: OutlineArgs| async move { outline(&args).map(Json) })
        .title("Outline of a Markdown document")
        .description(
            "The headings of a Markdown document (ATX # and underlined styles) as a nested tree, each with its \
             level, text, GitHub-style anchor and line number. At most 1 MiB of Markdown.",
        )
        .read_only()
}

pub(crate) fn outline(args: &OutlineArgs) -> Result<Outline, String> {
    check_size(&args.markdown)?;
    let max_level = args.max_level.unwrap_or(6);
    if !(1..=6).contains(&max_level) {
        return Err(format!("max_level must be 1 to 6, not {max_level}"));
    }
    let kept: Vec<Heading> = headings(&args.markdown).into_iter().filter(|h| h.level <= max_level).collect();
    Ok(Outline {
        title: kept.iter().find(|h| h.level == 1).map(|h| h.text.clone()),
        heading_count: kept.len(),
        headings: nest(&kept),
    })
}

/// Each heading takes the following deeper ones as its children.
fn nest(flat: &[Heading]) -> Vec<OutlineNode> {
    let mut nodes = Vec::new();
    let mut rest = flat;
    while let Some((first, after)) = rest.split_first() {
        let end = after.iter().position(|h| h.level <= first.level).unwrap_or(after.len());
        nodes.push(OutlineNode {
            level: first.level,
            text: first.text.clone(),
            anchor: first.slug.clone(),
            line: first.line,
            children: nest(&after[..end]),
        });
        rest = &after[end..];
    }
    nodes
}

/// The outline as indented text: "- Title (#title)" lines, for prompts.
pub(crate) fn as_text(nodes: &[OutlineNode], depth: usize, out: &mut String) {
    for node in nodes {
        out.push_str(&"  ".repeat(depth));
        out.push_str(&format!("- {} (#{})\n", node.text, node.anchor));
        as_text(&node.children, depth + 1, out);
    }
}
