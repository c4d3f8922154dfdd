//! A Markdown document as the tools read it: its size checked, the dialect chosen once (CommonMark with GitHub's
//! extensions), and byte offsets turned into line numbers.

use pulldown_cmark::{BrokenLink, BrokenLinkCallback, CowStr, LinkType, Options, Parser};
use std::cell::RefCell;
use std::rc::Rc;

/// The largest document accepted (1 MiB): parsing is linear, but a worker should not be asked to hold a book.
pub(crate) const MAX_BYTES: usize = 1 << 20;

/// CommonMark plus GitHub's tables, strikethrough, task lists, footnotes and alerts (`> [!NOTE]`).
pub(crate) fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_GFM
}

/// Refuses a document over [`MAX_BYTES`].
pub(crate) fn check_size(markdown: &str) -> Result<(), String> {
    if markdown.len() > MAX_BYTES {
        Err(format!("the document has {} bytes; at most {MAX_BYTES} (1 MiB) are accepted", markdown.len()))
    } else {
        Ok(())
    }
}

/// The parser of a document, in the shared dialect.
pub(crate) fn parser(markdown: &str) -> Parser<'_, UndefinedReferences> {
    parser_noting(markdown, UndefinedReferences::default())
}

/// The parser of a document, noting its undefined references in `undefined`.
pub(crate) fn parser_noting(markdown: &str, undefined: UndefinedReferences) -> Parser<'_, UndefinedReferences> {
    Parser::new_with_broken_link_callback(markdown, options(), Some(undefined))
}

/// Notes the references used as links ("[text][ref]", "[ref][]") that no definition names, with the byte offset of
/// each. A lone "[word]" is ordinary text in CommonMark and is not noted.
///
/// Every parser of this crate takes one, even where nobody reads it: pulldown-cmark's inline parser is generic
/// over the callback, and one callback type compiles it once (a second one cost 13 KiB of optimized wasm).
#[derive(Debug, Default, Clone)]
pub(crate) struct UndefinedReferences(Rc<RefCell<Vec<(String, usize)>>>);

impl UndefinedReferences {
    /// The references noted so far, and where.
    pub(crate) fn take(&self) -> Vec<(String, usize)> {
        std::mem::take(&mut *self.0.borrow_mut())
    }
}

impl<'input> BrokenLinkCallback<'input> for UndefinedReferences {
    fn handle_broken_link(&mut self, link: BrokenLink<'input>) -> Option<(CowStr<'input>, CowStr<'input>)> {
        if matches!(link.link_type, LinkType::Reference | LinkType::Collapsed) {
            self.0.borrow_mut().push((link.reference.to_string(), link.span.start));
        }
        None
    }
}

/// Line numbers (from 1) of byte offsets in a text.
#[derive(Debug)]
pub(crate) struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    pub(crate) fn new(text: &str) -> Self {
        let starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        Self { starts }
    }

    /// The line holding the byte at `offset`.
    pub(crate) fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|start| *start <= offset).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_map_to_lines() {
        let lines = Lines::new("a\nbc\n\nd");
        assert_eq!([0, 1, 2, 4, 5, 6].map(|o| lines.line_of(o)), [1, 1, 2, 2, 3, 4]);
    }
}
