//! The guides as a book (`docs/book/`, mdBook): built into a directory, then checked. A chapter's include of a file
//! or anchor that is not there, a warning of mdbook, or a link of the HTML that points at nothing fails the build.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use percent_encoding::percent_decode_str;

use crate::{Result, cmd, display, root};

/// The book, relative to the workspace root.
const BOOK_DIR: &str = "docs/book";

/// The mdbook installed when none runs: the version the book is built and checked with.
const MDBOOK_VERSION: &str = "0.5.4";

/// Installs mdbook unless an mdbook of the same minor version as [`MDBOOK_VERSION`] runs (an older one logs its
/// warnings in another form, which the check of the build would not see).
pub(crate) fn ensure_mdbook() -> Result {
    let found = cmd::probe(cmd::new("mdbook").arg("--version"));
    if let Some(version) = &found
        && same_minor(version, MDBOOK_VERSION)
    {
        println!("ok: {version} present");
        return Ok(());
    }
    let why = found.map_or("none found".to_owned(), |version| format!("found {version}"));
    println!(
        "installing: mdbook {MDBOOK_VERSION} (for the guides, {why}; cargo install, a few minutes the first time)"
    );
    let exact = format!("={MDBOOK_VERSION}");
    cmd::run(cmd::cargo().args([
        "install",
        "mdbook",
        "--no-default-features",
        "--locked",
        "--force",
        "--version",
        &exact,
    ]))
    .map_err(|e| format!("{e}\n  installing mdbook {MDBOOK_VERSION} failed; check access to crates.io"))?;
    match cmd::probe(cmd::new("mdbook").arg("--version")) {
        Some(version) => {
            println!("ok: {version} installed");
            Ok(())
        }
        None => Err(format!(
            "mdbook {MDBOOK_VERSION} was installed, but `mdbook --version` does not run: put ~/.cargo/bin on PATH"
        )),
    }
}

/// Whether `mdbook --version`'s answer (`mdbook v0.5.4`) is of the same major and minor version as `wanted`.
fn same_minor(answer: &str, wanted: &str) -> bool {
    let minor = |version: &str| version.split('.').take(2).collect::<Vec<_>>().join(".");
    answer.split_whitespace().last().map(|v| v.trim_start_matches('v')).is_some_and(|v| minor(v) == minor(wanted))
}

/// Builds the book into `out` (`mdbook build docs/book --dest-dir <out>`) and checks it: every include of a chapter
/// finds its file and anchor, mdbook reports no warning, and every link of every page resolves.
pub(crate) fn build(out: &Path) -> Result {
    let book = root().join(BOOK_DIR);
    let out = root().join(out);
    let includes = broken_includes(&book.join("src"))?;
    if !includes.is_empty() {
        return Err(format!("the book's chapters include what is not there:\n  {}", includes.join("\n  ")));
    }

    let mut mdbook = cmd::new("mdbook");
    mdbook.arg("build").arg(&book).arg("--dest-dir").arg(&out);
    let line = cmd::command_line(&mdbook);
    println!("$ {line}");
    let output = mdbook
        .output()
        .map_err(|e| format!("`{line}` could not start: {e} (run `cargo xtask setup`, which installs mdbook)"))?;
    // mdbook logs to stderr, and exits with success after an include it could not read: its log decides.
    let log = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    print!("{log}");
    if !output.status.success() {
        return Err(format!("`{line}` failed ({})", output.status));
    }
    let complaints = complaints(&log);
    if !complaints.is_empty() {
        return Err(format!("`{line}` warned:\n  {}", complaints.join("\n  ")));
    }

    let checked = check_links(&out)?;
    println!("ok: the book in {}: {} pages, {} links, none broken", display(&out), checked.pages, checked.links);
    Ok(())
}

/// The lines of an mdbook log that are warnings or errors (colours, if any, removed).
fn complaints(log: &str) -> Vec<String> {
    log.lines()
        .map(strip_ansi)
        .filter(|line| matches!(line.split_whitespace().next(), Some("WARN" | "ERROR")))
        .collect()
}

fn strip_ansi(line: &str) -> String {
    let mut plain = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // An escape sequence: `ESC [` parameters, then a final letter.
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            plain.push(c);
        }
    }
    plain
}

/// Every `{{#include path}}` or `{{#include path:anchor}}` of the chapters under `src` whose file is missing, or
/// whose anchor (`ANCHOR: name` … `ANCHOR_END: name`) is not in it: mdbook would include nothing, silently.
fn broken_includes(src: &Path) -> Result<Vec<String>> {
    let mut broken = Vec::new();
    for chapter in files_with_extension(src, "md")? {
        let path = src.join(&chapter);
        let text = fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", display(&path)))?;
        let dir = path.parent().unwrap_or(src);
        let chapter = slashed(&chapter);
        let mut rest = text.as_str();
        while let Some(start) = rest.find("{{#include ") {
            rest = &rest[start + "{{#include ".len()..];
            let Some(end) = rest.find("}}") else { break };
            let argument = rest[..end].trim();
            rest = &rest[end..];
            let (file, selector) = argument.split_once(':').unwrap_or((argument, ""));
            let Ok(included) = fs::read_to_string(dir.join(file)) else {
                broken.push(format!("{chapter}: {{{{#include {argument}}}}}: no file {file}"));
                continue;
            };
            // A selector of line numbers (`10`, `10:20`, `:20`) needs no anchor.
            let anchor = selector.trim();
            if anchor.is_empty() || anchor.starts_with(|c: char| c.is_ascii_digit()) {
                continue;
            }
            let marked = |marker: &str| {
                included.lines().any(|line| {
                    line.split_once(marker).is_some_and(|(_, after)| {
                        after.trim_start().split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-')).next()
                            == Some(anchor)
                    })
                })
            };
            if !marked("ANCHOR:") || !marked("ANCHOR_END:") {
                broken.push(format!(
                    "{chapter}: {{{{#include {argument}}}}}: {file} has no `ANCHOR: {anchor}` … `ANCHOR_END: {anchor}`"
                ));
            }
        }
    }
    Ok(broken)
}

/// What `check_links` looked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Checked {
    /// HTML pages read.
    pub(crate) pages: usize,
    /// Links within the book checked (external ones are not counted).
    pub(crate) links: usize,
}

/// Checks every link of every `.html` file under `dir`: each `href` and `src` that is relative or root-relative must
/// name a file of `dir` (or a directory with an `index.html`), and its `#fragment`, if any, an `id` of that page.
/// Links with a scheme (`https:`, `mailto:`, …) are not checked. The error lists every broken link, one per line,
/// as "page.html: broken link to X".
pub(crate) fn check_links(dir: &Path) -> Result<Checked> {
    let (checked, broken) = scan(dir)?;
    if checked.pages == 0 {
        return Err(format!("no HTML pages in {}", display(dir)));
    }
    if broken.is_empty() {
        Ok(checked)
    } else {
        let plural = if broken.len() == 1 { "" } else { "s" };
        Err(format!("{} broken link{plural} in the book in {}:\n  {}", broken.len(), display(dir), broken.join("\n  ")))
    }
}

/// The pages and links of `dir`, and each broken link.
fn scan(dir: &Path) -> Result<(Checked, Vec<String>)> {
    let pages = files_with_extension(dir, "html")?;
    let mut ids = Ids::new(dir);
    let mut broken = Vec::new();
    let mut links = 0;
    for page in &pages {
        let path = dir.join(page);
        let html = fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", display(&path)))?;
        for (name, link) in attributes(&html) {
            if name != "href" && name != "src" {
                continue;
            }
            let Some(local) = Local::parse(&link) else { continue };
            links += 1;
            let page_name = slashed(page);
            let target = match local.path {
                None => page.clone(),
                Some(path) => match resolve(page, &path) {
                    Some(target) if exists(&dir.join(&target)) => target,
                    Some(_) => {
                        broken.push(format!("{page_name}: broken link to {link}"));
                        continue;
                    }
                    None => {
                        broken.push(format!("{page_name}: broken link to {link} (outside the book)"));
                        continue;
                    }
                },
            };
            if let Some(fragment) = local.fragment
                && target.extension().is_some_and(|e| e == "html")
                && !ids.of(&target)?.contains(&fragment)
            {
                broken
                    .push(format!("{page_name}: broken link to {link} (no id \"{fragment}\" in {})", slashed(&target)));
            }
        }
    }
    Ok((Checked { pages: pages.len(), links }, broken))
}

/// A link within the site: a path (`None`: this page) and a fragment, both percent-decoded.
#[derive(Debug, PartialEq)]
struct Local {
    path: Option<String>,
    fragment: Option<String>,
}

impl Local {
    /// `None` for a link that leaves the site (`https:`, `mailto:`, `//host/…`) or says nothing (`""`, `"#"`).
    fn parse(link: &str) -> Option<Local> {
        let link = link.trim();
        if link.starts_with("//") || has_scheme(link) {
            return None;
        }
        let (before, fragment) = link.split_once('#').unwrap_or((link, ""));
        let path = before.split_once('?').map_or(before, |(path, _)| path);
        let decode = |text: &str| percent_decode_str(text).decode_utf8_lossy().into_owned();
        let local = Local {
            path: (!path.is_empty()).then(|| decode(path)),
            fragment: (!fragment.is_empty()).then(|| decode(fragment)),
        };
        (local.path.is_some() || local.fragment.is_some()).then_some(local)
    }
}

/// Whether a link starts with a URL scheme (`https:`, `mailto:`, `data:`, …).
fn has_scheme(link: &str) -> bool {
    let Some((scheme, _)) = link.split_once(':') else { return false };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// Where the book is served (`site-url` in `docs/book/book.toml`): `cargo xtask demo` serves it at `/book/`.
const SERVED_AT: &str = "/book/";

/// The file a link of `page` (both relative to the book's root) names, or `None` when it climbs out of the book. A
/// root-relative link is within the book when it starts with the path the book is served at.
fn resolve(page: &Path, link: &str) -> Option<PathBuf> {
    let mut parts: Vec<&str> = Vec::new();
    let link = match link.strip_prefix('/') {
        Some(_) => link.strip_prefix(SERVED_AT).or_else(|| (format!("{link}/") == SERVED_AT).then_some(""))?,
        None => {
            parts.extend(page.parent().into_iter().flat_map(Path::iter).filter_map(|part| part.to_str()));
            link
        }
    };
    for part in link.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    Some(parts.iter().collect())
}

/// A file, or a directory a web server answers with its `index.html`.
fn exists(path: &Path) -> bool {
    path.is_file() || path.join("index.html").is_file()
}

/// The `id`s of each page, read once.
struct Ids<'a> {
    dir: &'a Path,
    pages: HashMap<PathBuf, HashSet<String>>,
}

impl<'a> Ids<'a> {
    fn new(dir: &'a Path) -> Self {
        Ids { dir, pages: HashMap::new() }
    }

    fn of(&mut self, page: &Path) -> Result<&HashSet<String>> {
        if !self.pages.contains_key(page) {
            let path = self.dir.join(page);
            let html = fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", display(&path)))?;
            let ids = attributes(&html).into_iter().filter(|(name, _)| name == "id").map(|(_, id)| id).collect();
            self.pages.insert(page.to_path_buf(), ids);
        }
        Ok(&self.pages[page])
    }
}

/// The attributes of every tag of an HTML text, in order, as (lowercase name, value with entities decoded). Comments
/// and the contents of `script` and `style` are skipped.
fn attributes(html: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find('<') {
        rest = &rest[start + 1..];
        if let Some(comment) = rest.strip_prefix("!--") {
            rest = comment.find("-->").map_or("", |end| &comment[end + 3..]);
            continue;
        }
        let name_len = rest.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(rest.len());
        if name_len == 0 {
            // `</…>`, `<!DOCTYPE …>`, or a `<` in text.
            continue;
        }
        let tag = rest[..name_len].to_ascii_lowercase();
        rest = &rest[name_len..];
        loop {
            rest = rest.trim_start();
            if rest.is_empty() || rest.starts_with('>') || rest.starts_with("/>") {
                break;
            }
            let name_len = rest.find(|c: char| c.is_whitespace() || matches!(c, '=' | '>' | '/')).unwrap_or(rest.len());
            let name = rest[..name_len].to_ascii_lowercase();
            rest = rest[name_len..].trim_start();
            if name_len == 0 {
                // A stray `/` inside a tag.
                rest = &rest[1..];
                continue;
            }
            let Some(after) = rest.strip_prefix('=') else {
                found.push((name, String::new()));
                continue;
            };
            rest = after.trim_start();
            let value = match rest.chars().next() {
                Some(quote @ ('"' | '\'')) => {
                    let end = rest[1..].find(quote).map_or(rest.len(), |end| end + 1);
                    let value = &rest[1..end];
                    rest = rest.get(end + 1..).unwrap_or("");
                    value
                }
                _ => {
                    let end = rest.find(|c: char| c.is_whitespace() || c == '>').unwrap_or(rest.len());
                    let value = &rest[..end];
                    rest = &rest[end..];
                    value
                }
            };
            found.push((name, decode_entities(value)));
        }
        if tag == "script" || tag == "style" {
            let close = format!("</{tag}");
            rest = rest.find(&close).map_or("", |end| &rest[end..]);
        }
    }
    found
}

/// The character references an attribute value of generated HTML holds.
fn decode_entities(value: &str) -> String {
    if !value.contains('&') {
        return value.to_owned();
    }
    value
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The files under `dir` whose names end in `.{extension}`, relative to `dir`, sorted.
fn files_with_extension(dir: &Path, extension: &str) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut pending = vec![PathBuf::new()];
    while let Some(relative) = pending.pop() {
        let full = dir.join(&relative);
        let entries = fs::read_dir(&full).map_err(|e| format!("cannot list {}: {e}", display(&full)))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("cannot list {}: {e}", display(&full)))?;
            let path = relative.join(entry.file_name());
            let kind = entry.file_type().map_err(|e| format!("cannot read {}: {e}", display(&dir.join(&path))))?;
            if kind.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == extension) {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// A relative path with `/` between its parts, as a link would write it.
fn slashed(path: &Path) -> String {
    path.iter().map(|part| part.to_string_lossy()).collect::<Vec<_>>().join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_mdbook_of_the_pinned_minor_version_is_taken() {
        assert!(same_minor("mdbook v0.5.4", "0.5.4"));
        assert!(same_minor("mdbook v0.5.9", "0.5.4"));
        assert!(!same_minor("mdbook v0.4.52", "0.5.4"));
        assert!(!same_minor("something else", "0.5.4"));
    }

    /// A directory of files under the system's temporary directory, removed when dropped.
    struct Site(PathBuf);

    impl Site {
        fn new(name: &str, files: &[(&str, &str)]) -> Site {
            let dir = std::env::temp_dir().join(format!("xtask-book-{name}-{}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            for (path, text) in files {
                let path = dir.join(path);
                fs::create_dir_all(path.parent().unwrap()).unwrap();
                fs::write(path, text).unwrap();
            }
            Site(dir)
        }
    }

    impl Drop for Site {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn a_good_link_passes_a_broken_one_is_named_and_an_external_one_is_skipped() {
        let site = Site::new(
            "links",
            &[
                (
                    "index.html",
                    r#"<html><head><link rel="stylesheet" href="css/book.css"></head><body>
                    <a href="guide.html">good</a> <a href="missing.html">broken</a>
                    <a href="https://example.com/nowhere.html">external</a> <a href="mailto:a@example.com">mail</a>
                    </body></html>"#,
                ),
                ("guide.html", "<p>the guide</p>"),
                ("css/book.css", "body {}"),
            ],
        );
        let (checked, broken) = scan(&site.0).unwrap();
        assert_eq!(broken, ["index.html: broken link to missing.html"]);
        assert_eq!(checked, Checked { pages: 2, links: 3 }, "the stylesheet and both pages; nothing external");
        let error = check_links(&site.0).unwrap_err();
        assert!(
            error.starts_with("1 broken link in the book") && error.contains("index.html: broken link to missing.html"),
            "{error}"
        );
    }

    #[test]
    fn links_resolve_against_their_page_and_the_root() {
        let site = Site::new(
            "resolve",
            &[
                (
                    "guide/page.html",
                    r#"<img src="../img/logo.svg"><a href="/book/index.html">root</a><a href="../">dir index</a><a href="/book">served at</a>
                    <a href="./other.html?x=1#top">query and fragment</a><a href='other.html'>single quotes</a>
                    <a href="with%20space.html">encoded</a><a href="../../outside.html">out</a><a href="/index.html">site</a>"#,
                ),
                ("guide/other.html", r#"<h1 id="top">Other</h1>"#),
                ("guide/with space.html", ""),
                ("img/logo.svg", "<svg/>"),
                ("index.html", ""),
            ],
        );
        assert_eq!(
            check_links(&site.0).unwrap_err().lines().skip(1).collect::<Vec<_>>(),
            [
                "  guide/page.html: broken link to ../../outside.html (outside the book)",
                "  guide/page.html: broken link to /index.html (outside the book)",
            ]
        );
    }

    #[test]
    fn the_book_is_served_where_its_links_say() {
        let config = fs::read_to_string(root().join("docs/book/book.toml")).unwrap();
        assert!(config.contains(&format!("site-url = \"{SERVED_AT}\"")), "book.toml's site-url is {SERVED_AT}");
    }

    #[test]
    fn fragments_name_ids_of_their_page() {
        let site = Site::new(
            "fragments",
            &[
                (
                    "a.html",
                    r##"<h2 id="here">Here</h2><a href="#here">ok</a><a href="#gone">gone</a>
                    <a href="b.html#there">ok</a><a href="b.html#nowhere">nowhere</a><a href="#">top</a>"##,
                ),
                ("b.html", r#"<h2 id="there">There</h2>"#),
            ],
        );
        let (checked, broken) = scan(&site.0).unwrap();
        assert_eq!(
            broken,
            [
                r#"a.html: broken link to #gone (no id "gone" in a.html)"#,
                r#"a.html: broken link to b.html#nowhere (no id "nowhere" in b.html)"#,
            ]
        );
        assert_eq!(checked.links, 4, "`#` alone names nothing");
    }

    #[test]
    fn only_attributes_of_tags_count() {
        let html = r#"<!-- <a href="commented.html"> --><script>const a = '<a href="script.html">';</script>
            <pre><code>&lt;a href="code.html"&gt;</code></pre><a data-href="data.html" href="real.html?a=1&amp;b=2">x</a>
            <input disabled value=plain>"#;
        assert_eq!(
            attributes(html),
            [
                ("data-href".to_owned(), "data.html".to_owned()),
                ("href".to_owned(), "real.html?a=1&b=2".to_owned()),
                ("disabled".to_owned(), String::new()),
                ("value".to_owned(), "plain".to_owned()),
            ]
        );
    }

    #[test]
    fn schemes_and_empty_links_are_not_local() {
        for external in
            ["https://a.example/", "http://a.example", "mailto:x@a.example", "data:,x", "//cdn.example/x.js"]
        {
            assert_eq!(Local::parse(external), None, "{external}");
        }
        assert_eq!(Local::parse(""), None);
        assert_eq!(Local::parse("#"), None);
        assert_eq!(Local::parse("a.html?q#f"), Some(Local { path: Some("a.html".into()), fragment: Some("f".into()) }));
        assert_eq!(Local::parse("dir:with/colon.html#x").map(|l| l.path), None, "a scheme, as a browser reads it");
    }

    #[test]
    fn includes_must_find_their_file_and_anchor() {
        let site = Site::new(
            "includes",
            &[
                (
                    "src/chapter.md",
                    "# Chapter\n\n{{#include ../README.md:intro}}\n{{#include ../README.md:gone}}\n\
                     {{#include ../README.md:2:3}}\n{{#include ../missing.md}}\n",
                ),
                ("README.md", "# Readme\n<!-- ANCHOR: intro -->\nText.\n<!-- ANCHOR_END: intro -->\n"),
            ],
        );
        assert_eq!(
            broken_includes(&site.0.join("src")).unwrap(),
            [
                "chapter.md: {{#include ../README.md:gone}}: ../README.md has no `ANCHOR: gone` … `ANCHOR_END: gone`",
                "chapter.md: {{#include ../missing.md}}: no file ../missing.md",
            ]
        );
    }

    #[test]
    fn mdbook_warnings_and_errors_are_complaints() {
        let log = " INFO Book building has started\n\u{1b}[33m WARN\u{1b}[0m Caused By: x\nERROR Error updating\n";
        assert_eq!(complaints(log), [" WARN Caused By: x", "ERROR Error updating"]);
        assert!(complaints(" INFO HTML book written to `/tmp/x`\n").is_empty());
    }

    #[test]
    fn the_books_chapters_include_what_is_there() {
        assert_eq!(broken_includes(&root().join(BOOK_DIR).join("src")).unwrap(), Vec::<String>::new());
    }
}
