//! `cargo xtask test`'s layering step: no module of a crate depends, directly or through others, on a module that
//! depends back on it. Dependencies are read from the source: every `crate::name` path and `crate::{…}` group in
//! non-test code (comments and strings left out), with names the crate root re-exports resolved to their module.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use crate::{Result, display, root};

/// The crates whose modules must form layers.
const CRATES: &[&str] =
    &["protocol", "host/client", "host/json-schema", "host/runtime", "host/vault", "host/js", "worker-sdk"];

type Graph = BTreeMap<String, BTreeSet<String>>;

pub(crate) fn check() -> Result {
    let mut problems = Vec::new();
    for krate in CRATES {
        let src = root().join(krate).join("src");
        let graph = graph(&src)?;
        for (a, b) in cycles(&graph) {
            problems.push(format!("{krate}: modules `{a}` and `{b}` depend on each other"));
        }
    }
    if problems.is_empty() {
        println!("no module cycles in {} crates", CRATES.len());
        Ok(())
    } else {
        Err(format!("module cycles:\n  {}", problems.join("\n  ")))
    }
}

fn graph(src: &Path) -> Result<Graph> {
    let files = crate::build::files_under(src, "rs")?;
    let modules: BTreeSet<String> = files.iter().filter_map(|f| top_module(src, f)).collect();
    let lib = fs::read_to_string(src.join("lib.rs")).map_err(|e| format!("cannot read {}: {e}", display(src)))?;
    let reexports = root_reexports(&lib);
    let mut graph = Graph::new();
    for file in &files {
        let Some(top) = top_module(src, file) else { continue };
        let test_file = file.file_stem().is_some_and(|stem| stem.to_string_lossy().ends_with("_tests"));
        if top == "lib" || top == "tests" || top == "test_support" || test_file {
            continue;
        }
        let text = fs::read_to_string(file).map_err(|e| format!("cannot read {}: {e}", display(file)))?;
        for name in crate_paths(&code_of(&text)) {
            let module = if modules.contains(&name) { Some(name) } else { reexports.get(&name).cloned() };
            if let Some(module) = module.filter(|m| *m != top) {
                graph.entry(top.clone()).or_default().insert(module);
            }
        }
    }
    Ok(graph)
}

/// Pairs of modules that reach each other.
fn cycles(graph: &Graph) -> BTreeSet<(String, String)> {
    let reaches = |from: &str, to: &str| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.to_owned()];
        while let Some(next) = stack.pop() {
            for dep in graph.get(&next).into_iter().flatten() {
                if dep == to {
                    return true;
                }
                if seen.insert(dep.clone()) {
                    stack.push(dep.clone());
                }
            }
        }
        false
    };
    let mut found = BTreeSet::new();
    for (a, deps) in graph {
        for b in deps {
            if reaches(b, a) {
                found.insert(if a < b { (a.clone(), b.clone()) } else { (b.clone(), a.clone()) });
            }
        }
    }
    found
}

/// The source without comments, string contents and test items: an item under `#[cfg(test)]` is left out (a
/// one-line `mod x;`), or ends the file (a test module block, which comes last).
fn code_of(text: &str) -> String {
    let mut code = String::with_capacity(text.len());
    let mut test_item = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed == "#[cfg(test)]" {
            test_item = true;
            continue;
        }
        if test_item {
            if trimmed.starts_with("#[") {
                continue;
            }
            if trimmed.ends_with(';') {
                test_item = false;
                continue;
            }
            break;
        }
        strip_line(line, &mut code);
        code.push('\n');
    }
    code
}

/// `line` without its comment and the contents of its strings.
fn strip_line(line: &str, code: &mut String) {
    let mut in_string = false;
    let mut escaped = false;
    let mut previous = ' ';
    for c in line.chars() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        if c == '/' && previous == '/' {
            code.pop();
            return;
        }
        if c == '"' {
            in_string = true;
        }
        code.push(c);
        previous = c;
    }
}

/// Every name right after `crate::`, and every name of a `crate::{…}` group.
fn crate_paths(code: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for (index, _) in code.match_indices("crate::") {
        let rest = &code[index + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            names.extend(group[..end].split(',').filter_map(|item| identifier(item.trim())));
        } else if let Some(name) = identifier(rest) {
            names.insert(name);
        }
    }
    names
}

fn identifier(text: &str) -> Option<String> {
    let name: String = text.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    (!name.is_empty()).then_some(name)
}

/// `pub use module::{A, B};` and `pub use module::A;` of the crate root: name → module.
fn root_reexports(lib: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    for statement in code_of(lib).split(';') {
        let Some(path) = statement.trim().strip_prefix("pub use ") else { continue };
        let Some((module, names)) = path.split_once("::") else { continue };
        let names = names.trim_start_matches('{').trim_end_matches('}');
        for name in names.split(',').filter_map(|n| identifier(n.trim())) {
            map.insert(name, module.trim().to_owned());
        }
    }
    map
}

fn top_module(src: &Path, file: &Path) -> Option<String> {
    let relative = file.strip_prefix(src).ok()?;
    let first = relative.components().next()?.as_os_str().to_string_lossy().into_owned();
    Some(first.trim_end_matches(".rs").to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph_of(edges: &[(&str, &str)]) -> Graph {
        let mut graph = Graph::new();
        for (a, b) in edges {
            graph.entry((*a).to_owned()).or_default().insert((*b).to_owned());
        }
        graph
    }

    #[test]
    fn a_loop_through_a_third_module_is_a_cycle_and_layers_are_not() {
        let looped = graph_of(&[("manager", "error"), ("error", "status"), ("status", "manager")]);
        assert_eq!(cycles(&looped).len(), 3);
        let layered = graph_of(&[("manager", "error"), ("error", "status"), ("manager", "status")]);
        assert!(cycles(&layered).is_empty());
    }

    #[test]
    fn paths_groups_and_reexports_are_read_but_not_comments_strings_or_tests() {
        let code = code_of(
            "use crate::a::X;\n#[cfg(test)]\nmod t;\nuse crate::{b, C};\n// crate::d\nlet s = \"crate::e\";\n#[cfg(test)]\nmod tests {\nuse crate::f;\n}",
        );
        let names: Vec<String> = crate_paths(&code).into_iter().collect();
        assert_eq!(names, ["C", "a", "b"]);
        let reexports = root_reexports("pub use error::{Error, Result};\npub use builder::Runtime;\nmod x;");
        assert_eq!(reexports.get("Result").map(String::as_str), Some("error"));
        assert_eq!(reexports.get("Runtime").map(String::as_str), Some("builder"));
    }
}
