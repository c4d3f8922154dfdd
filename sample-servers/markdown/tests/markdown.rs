//! The markdown server through a real SDK session: the HTML, outline, links, text and counts of real documents.

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use mcp_worker_sdk::Env;
use mcp_worker_sdk::testing::{TestClient, text};
use serde_json::{Value, json};

fn client() -> TestClient {
    TestClient::new(markdown_server::server(&Env::default()))
}

const GUIDE: &str = "# Guide

Intro with a [relative link](docs/setup.md \"Setup\") and ![the logo](img/logo.png).

## Install

Run `cargo install`. See [usage](#usage) and [nowhere](#no-such-section).

- [x] download
- [ ] configure

## Usage

Visit <https://example.com>, [the docs][docs] or [broken][nothing].

[docs]: https://docs.example.com

### Options *and* flags

## Usage
";

#[test]
fn every_tool_and_the_prompt_are_listed_with_descriptions() {
    let mut client = client();
    let tools = client.list_tools();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["render_html", "outline", "extract_links", "to_plain_text", "document_stats"]);
    for tool in &tools {
        assert!(tool["description"].as_str().is_some_and(|d| d.contains("1 MiB")), "{tool}");
        assert_eq!(tool["annotations"]["readOnlyHint"], true, "{tool}");
    }
    let render = &tools[0];
    assert!(render["description"].as_str().unwrap().contains("NOT sanitized"));
    let prompts = client.request("prompts/list", json!({}));
    assert_eq!(prompts["result"]["prompts"][0]["name"], "summarize_document");
}

#[test]
fn render_html_speaks_github_flavoured_markdown() {
    let mut client = client();
    let markdown = "# Hello *world*\n\n~~old~~ new\n\n- [x] done\n- [ ] todo\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n";
    let html = text(&client.call("render_html", json!({"markdown": markdown}))).to_owned();
    assert_eq!(
        html,
        "<h1 id=\"hello-world\">Hello <em>world</em></h1>\n<p><del>old</del> new</p>\n<ul>\n\
         <li><input disabled=\"\" type=\"checkbox\" checked=\"\"/>\ndone</li>\n\
         <li><input disabled=\"\" type=\"checkbox\"/>\ntodo</li>\n</ul>\n\
         <table><thead><tr><th>a</th><th style=\"text-align: right\">b</th></tr></thead><tbody>\n\
         <tr><td>1</td><td style=\"text-align: right\">2</td></tr>\n</tbody></table>\n"
    );
    let plain = text(&client.call("render_html", json!({"markdown": "# Hi", "heading_ids": false}))).to_owned();
    assert_eq!(plain, "<h1>Hi</h1>\n");
}

#[test]
fn raw_html_passes_unless_dropped_with_script_links() {
    let mut client = client();
    let markdown = "<div class=\"x\">block</div>\n\nText <b>bold</b> [click](javascript:alert(1)) ![i](data:image/png;base64,AA==)\n";
    let html = text(&client.call("render_html", json!({"markdown": markdown}))).to_owned();
    assert!(html.contains("<div class=\"x\">block</div>") && html.contains("<b>bold</b>"), "{html}");
    assert!(html.contains("href=\"javascript:alert(1)\""), "{html}");
    let html = text(&client.call("render_html", json!({"markdown": markdown, "drop_raw_html": true}))).to_owned();
    assert_eq!(html, "<p>Text bold <a href=\"#\">click</a> <img src=\"data:image/png;base64,AA==\" alt=\"i\" /></p>\n");
}

#[test]
fn outline_nests_headings_with_unique_anchors() {
    let mut client = client();
    let outline = client.ok("outline", json!({"markdown": GUIDE}));
    let node = |level: u8, text: &str, anchor: &str, line: u32, children: Value| json!({"level": level, "text": text, "anchor": anchor, "line": line, "children": children});
    assert_eq!(
        outline,
        json!({"title": "Guide", "heading_count": 5, "headings": [node(1, "Guide", "guide", 1, json!([
            node(2, "Install", "install", 5, json!([])),
            node(2, "Usage", "usage", 12, json!([node(3, "Options and flags", "options-and-flags", 18, json!([]))])),
            node(2, "Usage", "usage-1", 20, json!([])),
        ]))]})
    );
    let shallow = client.ok("outline", json!({"markdown": GUIDE, "max_level": 1}));
    assert_eq!(shallow["headings"][0]["children"], json!([]));
    assert_eq!(client.error("outline", json!({"markdown": GUIDE, "max_level": 7})), "max_level must be 1 to 6, not 7");
}

#[test]
fn extract_links_tells_relative_from_absolute_and_finds_broken_anchors() {
    let mut client = client();
    let found = client.ok("extract_links", json!({"markdown": GUIDE}));
    let links: Vec<String> = found["links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            format!(
                "{} {} [{}] {} line {} anchor {} ref {}",
                l["kind"].as_str().unwrap(),
                l["url"].as_str().unwrap(),
                l["text"].as_str().unwrap(),
                l["target"].as_str().unwrap(),
                l["line"],
                l["anchor_found"],
                l["reference"]
            )
        })
        .collect();
    assert_eq!(
        links,
        [
            "link docs/setup.md [relative link] relative line 3 anchor null ref null",
            "image img/logo.png [the logo] relative line 3 anchor null ref null",
            "link #usage [usage] anchor line 7 anchor true ref null",
            "link #no-such-section [nowhere] anchor line 7 anchor false ref null",
            "autolink https://example.com [https://example.com] absolute line 14 anchor null ref null",
            "link https://docs.example.com [the docs] absolute line 14 anchor null ref \"docs\"",
        ]
    );
    assert_eq!(found["links"][0]["title"], "Setup");
    assert_eq!(found["undefined_references"], json!([{"reference": "nothing", "line": 14}]));
}

#[test]
fn to_plain_text_keeps_the_words_and_the_layout() {
    let mut client = client();
    let plain = text(&client.call("to_plain_text", json!({"markdown": GUIDE}))).to_owned();
    assert_eq!(
        plain,
        "Guide\n\nIntro with a relative link and the logo.\n\nInstall\n\nRun cargo install. See usage and nowhere.\n\n\
         - [x] download\n- [ ] configure\n\nUsage\n\nVisit https://example.com, the docs or [broken][nothing].\n\n\
         Options and flags\n\nUsage"
    );
    let with_urls = text(&client.call(
        "to_plain_text",
        json!({"markdown": "See [the docs](https://docs.rs) or <https://a.b>.", "keep_link_urls": true}),
    ))
    .to_owned();
    assert_eq!(with_urls, "See the docs (https://docs.rs) or https://a.b.");
}

#[test]
fn document_stats_counts_prose_and_reading_time() {
    let mut client = client();
    let markdown =
        format!("# Title\n\n{}\n\n```rust\nfn main() {{}}\nlet x = 1;\n```\n\n- [x] a\n- [ ] b\n", "word ".repeat(400));
    let stats = client.ok("document_stats", json!({"markdown": markdown}));
    assert_eq!(stats["words"], 403); // "Title", 400 words, "a", "b"; the code block is apart
    assert_eq!(stats["reading_minutes"], 2.0);
    assert_eq!(stats["reading_time"], "about 2 minutes");
    assert_eq!((stats["headings"].as_u64(), stats["paragraphs"].as_u64()), (Some(1), Some(1)));
    assert_eq!((stats["code_blocks"].as_u64(), stats["code_lines"].as_u64()), (Some(1), Some(2)));
    assert_eq!((stats["tasks"].as_u64(), stats["tasks_done"].as_u64()), (Some(2), Some(1)));
    let fast = client.ok("document_stats", json!({"markdown": markdown, "words_per_minute": 1000}));
    assert_eq!(fast["reading_time"], "less than a minute");
    assert_eq!(
        client.error("document_stats", json!({"markdown": "x", "words_per_minute": 5})),
        "words_per_minute must be 50 to 1000, not 5"
    );
}

#[test]
fn the_summary_prompt_carries_the_outline() {
    let mut client = client();
    let answer = client.request(
        "prompts/get",
        json!({"name": "summarize_document", "arguments": {"markdown": GUIDE, "focus": "setup steps"}}),
    );
    let message = answer["result"]["messages"][0]["content"]["text"].as_str().unwrap();
    assert!(message.contains("Focus on: setup steps."), "{message}");
    assert!(message.contains("- Guide (#guide)\n  - Install (#install)\n  - Usage (#usage)\n    - Options and flags (#options-and-flags)\n  - Usage (#usage-1)\n"), "{message}");
    assert!(message.ends_with(GUIDE), "{message}");
}

#[test]
fn documents_over_one_mebibyte_are_refused() {
    let mut client = client();
    let huge = "a".repeat((1 << 20) + 1);
    let error = client.error("outline", json!({"markdown": huge}));
    assert_eq!(error, "the document has 1048577 bytes; at most 1048576 (1 MiB) are accepted");
}
