//! The JavaScript and TypeScript examples of the guides, as files a type checker reads: every fenced `js` or `ts`
//! block that imports the package is a program an app developer may paste, so `cargo xtask test` type-checks each
//! one in the fresh app of the npm package test (`tests/npm/`), against the installed package.

use std::fs;
use std::path::{Path, PathBuf};

use crate::{Result, display, root};

/// The documents whose examples are checked: the READMEs an app developer pastes from, and the guide's getting
/// started. (The ART chapter's examples need ART and an app's own ART config around them.)
const DOCUMENTS: &[&str] =
    &["README.md", "host/js/npm/README.md", "docs/book/src/getting-started.md", "docs/remote-servers.md"];

/// How the README imports the package it tells readers to copy, and the package's name in an app.
const COPIED_PACKAGE: &str = "\"./pkg/host/mcp_worker_host.js\"";
const PACKAGE: &str = "\"mcp-worker\"";

/// One fenced example.
#[derive(Debug, PartialEq, Eq)]
struct Example {
    /// The line of its opening fence (1-based).
    line: usize,
    code: String,
}

/// Writes each example that imports the package to `<out>/<document>-L<line>.ts`; returns how many.
pub(crate) fn write_examples(out: &Path) -> Result<usize> {
    if out.exists() {
        fs::remove_dir_all(out).map_err(|e| format!("cannot empty {}: {e}", display(out)))?;
    }
    fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", display(out)))?;
    let mut written = 0;
    for document in DOCUMENTS {
        let path = root().join(document);
        let text = fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", display(&path)))?;
        for example in examples(&text) {
            let Some(program) = as_program(&example.code) else { continue };
            let name = format!("{}-L{}.ts", document.replace(['/', '.'], "_"), example.line);
            let file: PathBuf = out.join(name);
            let header = format!("// {document}, the example at line {}.\n", example.line);
            fs::write(&file, header + &program).map_err(|e| format!("cannot write {}: {e}", display(&file)))?;
            written += 1;
        }
    }
    Ok(written)
}

/// The fenced `js`/`javascript`/`ts`/`typescript` blocks of a Markdown text, indented ones (in lists) included.
fn examples(markdown: &str) -> Vec<Example> {
    let mut found = Vec::new();
    let mut open: Option<(usize, String, bool, Vec<String>)> = None;
    for (index, line) in markdown.lines().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        match &mut open {
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    let wanted = matches!(info.trim(), "js" | "javascript" | "ts" | "typescript");
                    open = Some((index + 1, " ".repeat(indent), wanted, Vec::new()));
                }
            }
            Some((start, fence_indent, wanted, lines)) => {
                if trimmed.starts_with("```") {
                    if *wanted {
                        found.push(Example { line: *start, code: lines.join("\n") + "\n" });
                    }
                    open = None;
                } else {
                    lines.push(line.strip_prefix(fence_indent.as_str()).unwrap_or(trimmed).to_owned());
                }
            }
        }
    }
    found
}

/// The example as a module of an app that installed the package, if it is a program that imports the package.
fn as_program(code: &str) -> Option<String> {
    let imports_package = code.lines().any(|line| {
        let line = line.trim_start();
        line.starts_with("import ")
            && (line.contains(COPIED_PACKAGE) || line.contains(PACKAGE) || line.contains("\"mcp-worker/"))
    });
    imports_package.then(|| format!("{}\nexport {{}};\n", code.replace(COPIED_PACKAGE, PACKAGE)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "# Guide\n\n```js\nimport init from \"./pkg/host/mcp_worker_host.js\";\nawait init();\n```\n\n\
        - In a list:\n\n  ```ts\n  import wasmUrl from \"mcp-worker/wasm\";\n    const x = 1;\n  ```\n\n\
        ```js\nworker.postMessage(frame); // no import: a fragment\n```\n\n```sh\nnpm install\n```\n";

    #[test]
    fn fenced_js_and_ts_blocks_are_found_with_their_lines_and_indentation_removed() {
        let found = examples(DOC);
        assert_eq!(found.len(), 3);
        assert_eq!(found[0].line, 3);
        assert_eq!(
            found[1],
            Example { line: 10, code: "import wasmUrl from \"mcp-worker/wasm\";\n  const x = 1;\n".into() }
        );
    }

    #[test]
    fn only_programs_that_import_the_package_are_checked_and_the_copied_path_becomes_the_package() {
        let programs: Vec<String> = examples(DOC).iter().filter_map(|e| as_program(&e.code)).collect();
        assert_eq!(programs.len(), 2);
        assert!(programs[0].starts_with("import init from \"mcp-worker\";"), "{}", programs[0]);
        assert!(programs.iter().all(|p| p.ends_with("export {};\n")));
    }

    #[test]
    fn the_guides_have_examples_to_check() {
        let dir = std::env::temp_dir().join(format!("xtask-snippets-{}", std::process::id()));
        let written = write_examples(&dir).unwrap();
        let _ = fs::remove_dir_all(&dir);
        assert!(written >= 3, "the README's and the npm README's: {written}");
    }
}
