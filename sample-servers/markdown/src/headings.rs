//! The headings of a document, in order, with their text, anchor and line: what the outline, the rendered ids and
//! the anchor check share.

use crate::document::{Lines, parser};
use crate::slug::Slugger;
use pulldown_cmark::{Event, Tag, TagEnd};

/// A heading as written.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Heading {
    /// 1 to 6.
    pub(crate) level: u8,
    /// Its text, without markup.
    pub(crate) text: String,
    /// Its anchor, unique in the document.
    pub(crate) slug: String,
    /// The line it starts on, from 1.
    pub(crate) line: usize,
}

/// Every heading of a document, in order.
pub(crate) fn headings(markdown: &str) -> Vec<Heading> {
    let lines = Lines::new(markdown);
    let mut slugger = Slugger::default();
    let mut found = Vec::new();
    let mut current: Option<(u8, String, usize)> = None;
    for (event, range) in parser(markdown).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                current = Some((level as u8, String::new(), lines.line_of(range.start)));
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((level, text, line)) = current.take() {
                    let text = text.trim().to_owned();
                    found.push(Heading { level, slug: slugger.slug(&text), text, line });
                }
            }
            Event::Text(text) | Event::Code(text) | Event::InlineMath(text) => {
                if let Some((_, heading, _)) = current.as_mut() {
                    heading.push_str(&text);
                }
            }
            Event::SoftBreak | Event::HardBreak => {
                if let Some((_, heading, _)) = current.as_mut() {
                    heading.push(' ');
                }
            }
            _ => {}
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_of_both_styles_with_inline_markup_dropped() {
        let found = headings("# Intro *here*\n\ntext\n\nSetup `cargo`\n-----\n\n```\n# not a heading\n```\n");
        let summary: Vec<(u8, &str, &str, usize)> =
            found.iter().map(|h| (h.level, h.text.as_str(), h.slug.as_str(), h.line)).collect();
        assert_eq!(summary, [(1, "Intro here", "intro-here", 1), (2, "Setup cargo", "setup-cargo", 5)]);
    }
}
