//! The JavaScript and TypeScript examples of the guides, as files a type checker reads: every fenced `js` or `ts`
//! block of the documents below is something an app developer may paste, so `cargo xtask test` type-checks each one
//! in the fresh app of the npm package test (`tests/npm/`), against the installed package. A block that imports the
//! package is checked as the program it is; a fragment that continues the guide's quick start (it uses `runtime`,
//! `client`, …) is checked after the lines that would make what it uses (see [`PRELUDE`]).

use std::fs;
use std::path::{Path, PathBuf};

use crate::{Result, display, root};

/// The documents whose examples are checked: the READMEs an app developer pastes from, and the guide's getting
/// started. (The ART chapter's examples need ART and an app's own ART config around them.)
const DOCUMENTS: &[&str] =
    &["README.md", "host/js/npm/README.md", "docs/book/src/getting-started.md", "docs/remote-servers.md"];

/// How the guides import the files they tell readers to copy, and the package entry each one is in an app.
const COPIED_FILES: &[(&str, &str)] = &[
    ("\"./pkg/host/mcp_worker_host.js\"", "\"mcp-worker\""),
    ("\"./pkg/host-client/mcp_worker_host.js\"", "\"mcp-worker/client\""),
    ("\"./pkg/host/oauth-popup.mjs\"", "\"mcp-worker/oauth-popup\""),
];

/// What a fragment may use without making it, and the lines that make it, in the order they must come: an entry is
/// put before a fragment that uses its name as a word (or needs it for a later entry) and does not declare it.
const PRELUDE: &[(&str, &str)] = &[
    ("McpRuntime", "import { McpRuntime } from \"mcp-worker\";"),
    ("McpClient", "import { McpClient } from \"mcp-worker\";"),
    ("runtime", "const runtime = await McpRuntime.create();"),
    ("client", "const client = await McpClient.spawn({ name: \"echo\", workerUrl: \"/bundles/echo/bootstrap.js\" });"),
    ("token", "declare const token: string;"),
    ("askTheUser", "declare function askTheUser(server: string, credentials: unknown, locked: boolean): void;"),
];

/// One fenced example.
#[derive(Debug, PartialEq, Eq)]
struct Example {
    /// The line of its opening fence (1-based).
    line: usize,
    code: String,
}

/// Writes each example to `<out>/<document>-L<line>.ts`; returns how many.
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
            let program = as_program(&example.code);
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

/// The example as a module of an app that installed the package: the copied files' imports become the package's,
/// and what it uses without making it comes first, from [`PRELUDE`].
fn as_program(code: &str) -> String {
    let mut program = code.to_owned();
    for (copied, entry) in COPIED_FILES {
        program = program.replace(copied, entry);
    }
    let mut needed: Vec<&str> = Vec::new();
    for (name, line) in PRELUDE.iter().rev() {
        let used = uses_word(&program, name) || needed.iter().any(|made| uses_word(made, name));
        if used && !declares(&program, name) {
            needed.push(line);
        }
    }
    needed.reverse();
    let prelude: String = needed.iter().map(|line| format!("{line}\n")).collect();
    format!("{prelude}{program}\nexport {{}};\n")
}

/// Whether `name` occurs in `code` as a whole word (not as part of a longer identifier or a property).
fn uses_word(code: &str, name: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    code.match_indices(name).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + name.len()..].chars().next();
        !before.is_some_and(|c| is_ident(c) || c == '.') && !after.is_some_and(is_ident)
    })
}

/// Whether `code` makes `name` itself: imports it, or declares it as a constant, variable or function.
fn declares(code: &str, name: &str) -> bool {
    code.lines().any(|line| {
        let line = line.trim_start();
        (line.starts_with("import ") && uses_word(line, name))
            || ["const ", "let ", "var ", "function ", "declare "].iter().any(|keyword| {
                line.strip_prefix(keyword).is_some_and(|rest| {
                    rest.strip_prefix("const ").unwrap_or(rest).starts_with(name)
                        && !rest[name.len().min(rest.len())..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
                })
            })
    })
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
    fn the_copied_paths_become_the_package_entries() {
        let programs: Vec<String> = examples(DOC).iter().map(|e| as_program(&e.code)).collect();
        assert_eq!(programs.len(), 3);
        assert!(programs[0].starts_with("import init from \"mcp-worker\";"), "{}", programs[0]);
        assert!(programs.iter().all(|p| p.ends_with("export {};\n")));
        let client = as_program("import init, { McpClient } from \"./pkg/host-client/mcp_worker_host.js\";\n");
        assert!(client.starts_with("import init, { McpClient } from \"mcp-worker/client\";"), "{client}");
    }

    #[test]
    fn a_fragment_gets_what_it_uses_and_nothing_else() {
        let program = as_program("const result = await runtime.callTool(\"a\", \"b\", {});\nconsole.log(result);\n");
        assert!(
            program.starts_with(
                "import { McpRuntime } from \"mcp-worker\";\nconst runtime = await McpRuntime.create();\nconst result"
            ),
            "{program}"
        );
        assert!(!program.contains("McpClient"), "{program}");
        assert!(!program.contains("token"), "{program}");
    }

    #[test]
    fn what_a_fragment_makes_itself_is_not_made_again() {
        let program = as_program(
            "import { popupAuthorize } from \"./pkg/host/oauth-popup.mjs\";\n\
             const runtime = await McpRuntime.create({ oauth: { authorize: popupAuthorize } });\n",
        );
        assert!(
            program.starts_with(
                "import { McpRuntime } from \"mcp-worker\";\nimport { popupAuthorize } from \"mcp-worker/oauth-popup\";"
            ),
            "{program}"
        );
        assert_eq!(program.matches("const runtime").count(), 1, "{program}");
        // `client` inside another word, or as a property, is not the client.
        assert!(!as_program("runtime.clientInfo; const myclient = 1;\n").contains("McpClient.spawn"));
    }

    #[test]
    fn the_guides_have_examples_to_check() {
        let dir = std::env::temp_dir().join(format!("xtask-snippets-{}", std::process::id()));
        let written = write_examples(&dir).unwrap();
        let _ = fs::remove_dir_all(&dir);
        assert!(written >= 8, "the README's, the npm README's, the getting started's and remote servers': {written}");
    }
}
