//! Which tools may be destructive, and so are hidden from agents unless their server's config allows them: the one
//! rule the host's registry applies and the server tools (`mcp-worker inspect`) report, kept here so that both
//! read a tool the same way.
//!
//! **Annotations are untrusted hints.** `readOnlyHint` and `destructiveHint` come from the server, and a server
//! can say anything: a malicious or buggy one can mark a tool that deletes data as read-only. The host uses them
//! only to hide *more*: a tool counts as destructive when its hints say so (with the spec's defaults, so a tool
//! without annotations is destructive unless it says `readOnlyHint: true`) **or** its name looks like a
//! destructive verb. Hiding a tool is a convenience for the agent, not a security boundary: a server the user
//! does not trust should not be configured at all.

use crate::Tool;

/// Verbs whose presence as a word of a tool's name marks it destructive, whatever its annotations say.
pub const DESTRUCTIVE_VERBS: &[&str] = &["delete", "remove", "destroy", "drop", "purge", "erase", "wipe", "truncate"];

/// Whether `tool` counts as destructive: by its annotations (spec defaults applied) or by its name.
pub fn is_destructive(tool: &Tool) -> bool {
    why_destructive(tool).is_some()
}

/// Why `tool` counts as destructive, in words for the person who configures or writes it; `None` when it does not.
pub fn why_destructive(tool: &Tool) -> Option<String> {
    if let Some(verb) = destructive_verb(&tool.name) {
        return Some(format!("its name has the destructive verb \"{verb}\""));
    }
    match &tool.annotations {
        None => Some(
            "it has no annotations (a tool is shown only when it says readOnlyHint: true or \
                      destructiveHint: false)"
                .to_owned(),
        ),
        Some(hints) if hints.destructive_hint == Some(true) && hints.read_only_hint != Some(true) => {
            Some("it is annotated destructiveHint: true".to_owned())
        }
        Some(hints) if hints.is_destructive() => Some(
            "its annotations say neither readOnlyHint: true nor destructiveHint: false (the spec's default is \
             destructive)"
                .to_owned(),
        ),
        Some(_) => None,
    }
}

/// Whether a word of `name` is a destructive verb (`delete_file`, `removeItem`, `drop-table`, `Purge`, `deletes`),
/// without flagging words that merely contain one (`dropdown`, `undeleted`).
pub fn name_is_destructive(name: &str) -> bool {
    destructive_verb(name).is_some()
}

/// The destructive verb a word of `name` is (see [`name_is_destructive`]).
fn destructive_verb(name: &str) -> Option<&'static str> {
    words(name).find_map(|word| {
        DESTRUCTIVE_VERBS.iter().copied().find(|verb| {
            word == *verb || word.strip_prefix(verb).is_some_and(|rest| matches!(rest, "s" | "d" | "r" | "all"))
        })
    })
}

/// The lowercase words of an identifier: split at anything but ASCII letters and digits, and at lower→upper case
/// changes. MCP's tool names are ASCII (letters, digits, `_`, `-`, `.`), and so are the verbs; a character outside
/// ASCII separates words too, so that no letter of another script glued to a verb hides it (`Δdelete`, `deleteé`).
/// ASCII alone also keeps the standard library's Unicode case tables out of the host's wasm.
fn words(name: &str) -> impl Iterator<Item = String> + '_ {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            previous_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && previous_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        current.push(c.to_ascii_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{JsonObject, ToolAnnotations};

    fn tool(name: &str, annotations: Option<ToolAnnotations>) -> Tool {
        let mut tool = Tool::new(name, JsonObject::new());
        tool.annotations = annotations;
        tool
    }

    fn read_only() -> Option<ToolAnnotations> {
        Some(ToolAnnotations { read_only_hint: Some(true), ..Default::default() })
    }

    #[test]
    fn the_spec_defaults_make_an_unannotated_tool_destructive() {
        assert!(is_destructive(&tool("search", None)));
        assert!(is_destructive(&tool("search", Some(ToolAnnotations::default()))));
        assert!(!is_destructive(&tool("search", read_only())));
        let not_destructive = ToolAnnotations { destructive_hint: Some(false), ..Default::default() };
        assert!(!is_destructive(&tool("update", Some(not_destructive))));
    }

    #[test]
    fn a_destructive_name_wins_over_hints_that_say_otherwise() {
        for name in
            ["delete_file", "removeItem", "drop-table", "DestroyVM", "purge", "repo.delete", "deletes", "deleteAll"]
        {
            assert!(is_destructive(&tool(name, read_only())), "{name}");
        }
    }

    #[test]
    fn a_letter_outside_ascii_does_not_hide_a_verb() {
        for name in ["Δdelete", "deleteé", "ñ_remove", "purge\u{200b}all", "ÉDrop"] {
            assert!(name_is_destructive(name), "{name}");
        }
        assert!(!name_is_destructive("éditer_dropdown"));
    }

    #[test]
    fn words_that_only_contain_a_verb_are_not_flagged() {
        for name in ["dropdown_options", "list_undeleted", "get_dropbox_file", "removal_policy_info", "search"] {
            assert!(!name_is_destructive(name), "{name}");
        }
    }

    #[test]
    fn the_reason_says_what_to_change() {
        assert!(why_destructive(&tool("search", None)).unwrap().contains("no annotations"));
        let unset = why_destructive(&tool("search", Some(ToolAnnotations::default()))).unwrap();
        assert!(unset.contains("neither readOnlyHint: true nor destructiveHint: false"), "{unset}");
        let said = ToolAnnotations { destructive_hint: Some(true), ..Default::default() };
        assert_eq!(why_destructive(&tool("reset", Some(said))).unwrap(), "it is annotated destructiveHint: true");
        assert_eq!(
            why_destructive(&tool("files.deleteAll", read_only())).unwrap(),
            "its name has the destructive verb \"delete\""
        );
        assert_eq!(why_destructive(&tool("search", read_only())), None);
    }
}
