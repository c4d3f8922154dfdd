//! The one wording of tool arguments that do not fit the tool's input schema, whoever finds out: the host before it
//! sends a call, or the server's SDK when it reads the arguments. A model reads it, so it names the tool, says where
//! each problem is as a JSON pointer into the arguments (`/items/0/name`), and what to do; it never quotes a position
//! in JSON text the model did not write.

/// `Invalid arguments for tool <tool>: <problem>; <problem>. Fix the arguments and call the tool again.`, each
/// problem as `<pointer>: <message>` (or the message alone for the arguments as a whole).
pub fn invalid_arguments<'a>(tool: &str, problems: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let problems: Vec<String> = problems
        .into_iter()
        .map(|(pointer, message)| {
            let message = message.trim_end_matches('.');
            if pointer.is_empty() { message.to_owned() } else { format!("{pointer}: {message}") }
        })
        .collect();
    format!("Invalid arguments for tool {tool}: {}. Fix the arguments and call the tool again.", problems.join("; "))
}

/// A JSON pointer (RFC 6901) from the keys and indexes that lead to a value: `["items", "0", "a/b"]` is
/// `/items/0/a~1b`.
pub fn json_pointer<'a>(segments: impl IntoIterator<Item = &'a str>) -> String {
    segments.into_iter().map(|segment| format!("/{}", segment.replace('~', "~0").replace('/', "~1"))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_are_listed_with_their_pointers_and_what_to_do() {
        assert_eq!(
            invalid_arguments("echo", [("/text", "expected string, got number 5"), ("", "unknown property \"x\".")]),
            "Invalid arguments for tool echo: /text: expected string, got number 5; unknown property \"x\". \
             Fix the arguments and call the tool again."
        );
    }

    #[test]
    fn pointers_escape_their_segments() {
        assert_eq!(json_pointer(["items", "0", "a/b", "c~d"]), "/items/0/a~1b/c~0d");
        assert_eq!(json_pointer([]), "");
    }
}
