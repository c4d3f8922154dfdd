//! `to_plain_text`: the words of a document without its markup, laid out as plain text.

use crate::document::{check_size, parser};
use mcp_worker_sdk::ToolDef;
use pulldown_cmark::{Event, Tag, TagEnd};
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
pub(crate) struct PlainTextArgs {
    /// The Markdown (at most 1 MiB).
    pub(crate) markdown: String,
    /// Write each link's URL after its text, "text (https://…)", when they differ. False when left out.
    pub(crate) keep_link_urls: Option<bool>,
}

pub(crate) fn tool() -> ToolDef {
    ToolDef::new("to_plain_text", |args: PlainTextArgs| async move {
        check_size(&args.markdown)?;
        Ok::<_, String>(plain_text(&args.markdown, args.keep_link_urls.unwrap_or(false)))
    })
    .title("Markdown to plain text")
    .description(
        "Strips the markup from Markdown: paragraphs separated by blank lines, list items as \"- \" or \"1. \" \
         (tasks as \"[x] \"), code blocks kept verbatim, table cells separated by \" | \", images as their alt \
         text, raw HTML left out; link URLs optionally kept. At most 1 MiB of Markdown.",
    )
    .read_only()
}

/// The writer's state while walking the events.
#[derive(Default)]
struct Writer {
    out: String,
    /// The open lists, innermost last: the next number of an ordered one, `None` for bullets.
    lists: Vec<Option<u64>>,
    /// Just after a list item's marker, where its first paragraph starts on the same line.
    at_item_start: bool,
    in_code_block: bool,
    /// The cells written in the current table row.
    cells: usize,
    /// The URLs of the open links, and where each one's text starts in `out`.
    links: Vec<(String, usize)>,
}

impl Writer {
    fn indent(&self) -> String {
        "   ".repeat(self.lists.len().saturating_sub(1))
    }

    /// Ends the current line, if one is open.
    fn end_line(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with('\n') {
            self.out.push('\n');
        }
    }

    /// Starts a block: on a new line indented under its list item, or after a blank line at the top.
    fn start_block(&mut self) {
        if std::mem::take(&mut self.at_item_start) {
            return;
        }
        if self.lists.is_empty() {
            self.end_line();
            if !self.out.is_empty() && !self.out.ends_with("\n\n") {
                self.out.push('\n');
            }
        } else {
            self.end_line();
            let indent = self.indent();
            self.out.push_str(&indent);
            self.out.push_str("   ");
        }
    }

    fn text(&mut self, text: &str) {
        self.at_item_start = false;
        if self.in_code_block && !self.lists.is_empty() {
            let indent = format!("{}   ", self.indent());
            self.out.push_str(&text.replace('\n', &format!("\n{indent}")));
        } else {
            self.out.push_str(text);
        }
    }

    fn event(&mut self, event: Event<'_>, keep_link_urls: bool) {
        match event {
            Event::Start(Tag::Paragraph | Tag::Heading { .. } | Tag::Table(_) | Tag::BlockQuote(_)) => {
                self.start_block();
            }
            Event::Start(Tag::CodeBlock(_)) => {
                self.start_block();
                self.in_code_block = true;
            }
            Event::End(TagEnd::CodeBlock) => {
                self.in_code_block = false;
                while self.out.ends_with([' ', '\n']) {
                    self.out.pop();
                }
            }
            Event::Start(Tag::List(first)) => {
                if self.lists.is_empty() {
                    self.start_block();
                }
                self.lists.push(first);
            }
            Event::End(TagEnd::List(_)) => {
                self.lists.pop();
                self.at_item_start = false;
            }
            Event::Start(Tag::Item) => {
                self.end_line();
                let marker = match self.lists.last_mut() {
                    Some(Some(number)) => {
                        *number += 1;
                        format!("{}. ", *number - 1)
                    }
                    _ => "- ".to_owned(),
                };
                let indent = self.indent();
                self.out.push_str(&indent);
                self.out.push_str(&marker);
                self.at_item_start = true;
            }
            Event::TaskListMarker(done) => self.text(if done { "[x] " } else { "[ ] " }),
            Event::Start(Tag::TableHead | Tag::TableRow) => {
                self.end_line();
                self.cells = 0;
            }
            Event::Start(Tag::TableCell) => {
                if self.cells > 0 {
                    self.out.push_str(" | ");
                }
                self.cells += 1;
            }
            Event::Start(Tag::FootnoteDefinition(name)) => {
                self.start_block();
                self.text(&format!("[{name}]: "));
                self.at_item_start = true;
            }
            Event::FootnoteReference(name) => self.text(&format!("[{name}]")),
            Event::Start(Tag::Link { dest_url, .. }) => self.links.push((dest_url.to_string(), self.out.len())),
            Event::End(TagEnd::Link) => {
                if let Some((url, start)) = self.links.pop() {
                    let text = self.out.get(start..).unwrap_or_default();
                    let url_shown = text == url || url.strip_prefix("mailto:") == Some(text);
                    if keep_link_urls && !url_shown {
                        self.out.push_str(&format!(" ({url})"));
                    }
                }
            }
            Event::Text(text) | Event::Code(text) | Event::InlineMath(text) | Event::DisplayMath(text) => {
                self.text(&text);
            }
            Event::SoftBreak => self.text(" "),
            Event::HardBreak => {
                self.out.push('\n');
                let indent = if self.lists.is_empty() { String::new() } else { format!("{}   ", self.indent()) };
                self.out.push_str(&indent);
            }
            Event::Rule => self.start_block(),
            _ => {}
        }
    }
}

/// The plain text of a document.
pub(crate) fn plain_text(markdown: &str, keep_link_urls: bool) -> String {
    let mut writer = Writer::default();
    for event in parser(markdown) {
        writer.event(event, keep_link_urls);
    }
    let trimmed = writer.out.trim_end().len();
    writer.out.truncate(trimmed);
    writer.out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_goes_and_structure_stays() {
        let markdown = "# Title\n\nSome *emphasis* and a [link](https://example.com).\n\n- one\n- [x] two\n  1. nested\n\n\
                        ```\ncode  here\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<div>raw</div>\n";
        assert_eq!(
            plain_text(markdown, true),
            "Title\n\nSome emphasis and a link (https://example.com).\n\n- one\n- [x] two\n   1. nested\n\n\
             code  here\n\na | b\n1 | 2"
        );
    }
}
