//! `render_html`: Markdown to HTML.

use crate::document::{check_size, parser};
use crate::headings::headings;
use mcp_worker_sdk::ToolDef;
use pulldown_cmark::{CowStr, Event, Tag, html};
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
pub(crate) struct RenderArgs {
    /// The Markdown (at most 1 MiB).
    pub(crate) markdown: String,
    /// Leave out HTML written in the Markdown (blocks and inline tags) and replace javascript:, vbscript: and
    /// data: link targets with "#": for output shown to someone other than its author. Still not a full
    /// sanitizer. False when left out.
    pub(crate) drop_raw_html: Option<bool>,
    /// Give each heading an id attribute with its anchor ("getting-started"), as the outline tool reports them.
    /// True when left out.
    pub(crate) heading_ids: Option<bool>,
}

pub(crate) fn tool() -> ToolDef {
    ToolDef::new("render_html", |args: RenderArgs| async move { render(&args) })
        .title("Render Markdown to HTML")
        .description(
            "Renders Markdown (CommonMark with GitHub tables, strikethrough, task lists, footnotes and alerts) to an \
             HTML fragment, headings with GitHub-style id anchors. The HTML is NOT sanitized: raw HTML in the \
             Markdown passes through unless drop_raw_html is set, so sanitize it before showing untrusted \
             content in a page. At most 1 MiB of Markdown.",
        )
        .read_only()
}

pub(crate) fn render(args: &RenderArgs) -> Result<String, String> {
    check_size(&args.markdown)?;
    let drop_raw_html = args.drop_raw_html.unwrap_or(false);
    let mut slugs = if args.heading_ids.unwrap_or(true) { headings(&args.markdown) } else { Vec::new() }.into_iter();
    let events = parser(&args.markdown).filter_map(|event| match event {
        Event::Html(_) | Event::InlineHtml(_) if drop_raw_html => None,
        Event::Start(Tag::Heading { level, id: None, classes, attrs }) => {
            let id = slugs.next().map(|heading| CowStr::from(heading.slug));
            Some(Event::Start(Tag::Heading { level, id, classes, attrs }))
        }
        Event::Start(Tag::Link { link_type, dest_url, title, id }) if drop_raw_html && is_script(&dest_url) => {
            Some(Event::Start(Tag::Link { link_type, dest_url: "#".into(), title, id }))
        }
        Event::Start(Tag::Image { link_type, dest_url, title, id }) if drop_raw_html && is_script(&dest_url) => {
            let keep = dest_url.trim().to_ascii_lowercase().starts_with("data:image/");
            let dest_url = if keep { dest_url } else { "#".into() };
            Some(Event::Start(Tag::Image { link_type, dest_url, title, id }))
        }
        other => Some(other),
    });
    let mut out = String::with_capacity(args.markdown.len() * 3 / 2);
    html::push_html(&mut out, events);
    Ok(out)
}

/// A link target that runs code or embeds content when followed.
fn is_script(url: &str) -> bool {
    let url: String = url.trim().chars().filter(|c| !c.is_ascii_whitespace() && !c.is_ascii_control()).collect();
    let url = url.to_ascii_lowercase();
    ["javascript:", "vbscript:", "data:"].iter().any(|scheme| url.starts_with(scheme))
}
