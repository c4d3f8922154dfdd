//! `extract_links`: every link and image of a document, with where it points.

use crate::document::{Lines, UndefinedReferences, check_size, parser_noting};
use crate::headings::headings;
use mcp_worker_sdk::{Json, ToolDef};
use pulldown_cmark::{Event, LinkType, Tag, TagEnd};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, JsonSchema)]
pub(crate) struct LinksArgs {
    /// The Markdown (at most 1 MiB).
    pub(crate) markdown: String,
}

/// The links of a document.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Links {
    /// Every link and image, in document order.
    pub(crate) links: Vec<Link>,
    /// References used as links ("[text][ref]", "[ref][]") that no "[ref]: url" line defines.
    pub(crate) undefined_references: Vec<UndefinedReference>,
}

/// A link or an image.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Link {
    pub(crate) kind: LinkKind,
    /// Where it points, as written (a reference-style link's URL comes from its definition).
    pub(crate) url: String,
    /// The link's text, or the image's alt text.
    pub(crate) text: String,
    /// The title, when one is given: [text](url "title").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) title: Option<String>,
    pub(crate) target: Target,
    /// For an anchor ("#setup"): whether a heading of this document has that anchor.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) anchor_found: Option<bool>,
    /// For a reference-style link, the reference's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) reference: Option<String>,
    /// The line it is on, from 1.
    pub(crate) line: usize,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum LinkKind {
    /// [text](url) or [text][ref].
    Link,
    /// ![alt](url).
    Image,
    /// <https://example.com>.
    Autolink,
    /// <someone@example.com>.
    Email,
}

/// Where a URL points.
#[derive(Debug, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Target {
    /// It has a scheme (https:, mailto:…) or starts with "//".
    Absolute,
    /// A path relative to the document: "docs/setup.md", "../img.png", "/about".
    Relative,
    /// A place in this document: "#setup".
    Anchor,
}

/// A reference no definition names.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct UndefinedReference {
    /// The reference, as written.
    pub(crate) reference: String,
    /// The line it is on, from 1.
    pub(crate) line: usize,
}

pub(crate) fn tool() -> ToolDef {
    ToolDef::new("extract_links", |args: LinksArgs| async move { extract(&args.markdown).map(Json) })
        .title("Links of a Markdown document")
        .description(
            "Lists every link and image of a Markdown document with its text, URL, title and line, whether it is \
             absolute, relative or an anchor in the document (and whether that anchor exists), plus \
             reference-style links whose reference is never defined. At most 1 MiB of Markdown.",
        )
        .read_only()
}

pub(crate) fn extract(markdown: &str) -> Result<Links, String> {
    check_size(markdown)?;
    let lines = Lines::new(markdown);
    let anchors: Vec<String> = headings(markdown).into_iter().map(|h| h.slug).collect();
    let undefined = UndefinedReferences::default();
    let mut links: Vec<Link> = Vec::new();
    // The links being read (an image may sit inside a link), innermost last.
    let mut open: Vec<usize> = Vec::new();
    for (event, range) in parser_noting(markdown, undefined.clone()).into_offset_iter() {
        match event {
            Event::Start(Tag::Link { link_type, dest_url, title, id }) => {
                open.push(links.len());
                let kind = match link_type {
                    LinkType::Autolink => LinkKind::Autolink,
                    LinkType::Email => LinkKind::Email,
                    _ => LinkKind::Link,
                };
                links.push(link(kind, link_type, &dest_url, &title, &id, lines.line_of(range.start), &anchors));
            }
            Event::Start(Tag::Image { link_type, dest_url, title, id }) => {
                open.push(links.len());
                let line = lines.line_of(range.start);
                links.push(link(LinkKind::Image, link_type, &dest_url, &title, &id, line, &anchors));
            }
            Event::End(TagEnd::Link | TagEnd::Image) => {
                open.pop();
            }
            Event::Text(text) | Event::Code(text) | Event::InlineMath(text) => {
                for index in &open {
                    if let Some(link) = links.get_mut(*index) {
                        link.text.push_str(&text);
                    }
                }
            }
            _ => {}
        }
    }
    let undefined = undefined
        .take()
        .into_iter()
        .map(|(reference, offset)| UndefinedReference { reference, line: lines.line_of(offset) })
        .collect();
    Ok(Links { links, undefined_references: undefined })
}

fn link(
    kind: LinkKind,
    link_type: LinkType,
    url: &str,
    title: &str,
    reference: &str,
    line: usize,
    anchors: &[String],
) -> Link {
    let target = target(url);
    let anchor_found = (target == Target::Anchor).then(|| {
        let anchor = url.trim_start_matches('#');
        anchors.iter().any(|a| a == anchor || a.as_str() == percent_decoded(anchor).to_lowercase())
    });
    let by_reference = matches!(link_type, LinkType::Reference | LinkType::Collapsed | LinkType::Shortcut);
    Link {
        kind,
        url: url.to_owned(),
        text: String::new(),
        title: (!title.is_empty()).then(|| title.to_owned()),
        target,
        anchor_found,
        reference: (by_reference && !reference.is_empty()).then(|| reference.to_owned()),
        line,
    }
}

/// Absolute (a scheme, or "//host"), an anchor ("#…"), or relative.
pub(crate) fn target(url: &str) -> Target {
    let url = url.trim();
    if url.starts_with('#') {
        return Target::Anchor;
    }
    if url.starts_with("//") {
        return Target::Absolute;
    }
    // RFC 3986: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then ":".
    let scheme_end = url.find(':');
    let has_scheme = scheme_end.is_some_and(|end| {
        let scheme = &url[..end];
        scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    });
    if has_scheme { Target::Absolute } else { Target::Relative }
}

/// "%C3%A9" as "é", for anchors written percent-encoded; invalid sequences are kept as they are.
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_follow_rfc_3986() {
        assert_eq!(target("https://example.com"), Target::Absolute);
        assert_eq!(target("mailto:a@b.c"), Target::Absolute);
        assert_eq!(target("//cdn.example.com/x.js"), Target::Absolute);
        assert_eq!(target("docs/setup.md"), Target::Relative);
        assert_eq!(target("/about"), Target::Relative);
        assert_eq!(target("a:b/../c"), Target::Absolute);
        assert_eq!(target("./a:b"), Target::Relative);
        assert_eq!(target("#setup"), Target::Anchor);
        assert_eq!(percent_decoded("%C3%A9t%C3%A9%2"), "été%2");
    }
}
