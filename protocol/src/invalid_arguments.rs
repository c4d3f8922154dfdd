//! The one wording of tool arguments that do not fit the tool's input schema, whoever finds out: the host before it
//! sends a call, or the server's SDK when it reads the arguments. A model reads it, so it names the tool, says where
//! each problem is as a JSON pointer into the arguments (`/items/0/name`), and what to do; it never quotes a position
//! in JSON text the model did not write.

/// `Invalid arguments for tool <tool>: <problem>; <problem>. Fix the arguments and call the tool again.`, each
/// problem as `<pointer>: <message>` (or the message alone for the arguments as a whole).
pub fn invalid_arguments<'a>(tool: &str, problems: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut text = format!("Invalid arguments for tool {tool}: ");
    for (i, (pointer, message)) in problems.into_iter().enumerate() {
        if i > 0 {
            text.push_str("; ");
        }
        if !pointer.is_empty() {
            text.push_str(pointer);
            text.push_str(": ");
        }
        text.push_str(message.trim_end_matches('.'));
    }
    text.push_str(". Fix the arguments and call the tool again.");
    text
}

/// A JSON pointer (RFC 6901) from the keys and indexes that lead to a value: `["items", "0", "a/b"]` is
/// `/items/0/a~1b`.
pub fn json_pointer<'a>(segments: impl IntoIterator<Item = &'a str>) -> String {
    let mut pointer = String::new();
    for segment in segments {
        pointer.push('/');
        for c in segment.chars() {
            match c {
                '~' => pointer.push_str("~0"),
                '/' => pointer.push_str("~1"),
                c => pointer.push(c),
            }
        }
    }
    pointer
}

/// The JSON pointer of the value a reader of `text` was at when it stopped with an error at `line` and `column`
/// (serde_json's position: lines from 1, bytes into the line, just past what it had read): the member or element it
/// was reading, or, once it had read the end of an object or array (a missing member), that object or array. Keys
/// are decoded (`"na\u006de"` is `/name`). A position outside `text` reads as its end.
pub fn pointer_at(text: &str, line: usize, column: usize) -> String {
    let bytes = text.as_bytes();
    let end = byte_index(bytes, line, column).min(bytes.len());
    let mut open: Vec<Open> = Vec::new();
    let mut at = 0;
    while at < end {
        match bytes[at] {
            b'"' => {
                let Some(close) = string_end(bytes, at).filter(|&close| close < end) else { break };
                if let Some(Open::Object(key @ None)) = open.last_mut() {
                    // A string where an object expects a key is its key. Quotes are ASCII: the slice is on boundaries.
                    let quoted = text.get(at..=close).unwrap_or_default();
                    *key = Some(crate::json::from_str::<String>(quoted).unwrap_or_else(|_| quoted.to_owned()));
                }
                at = close;
            }
            b'{' => open.push(Open::Object(None)),
            b'[' => open.push(Open::Array(0)),
            b'}' | b']' => {
                open.pop();
            }
            b',' => match open.last_mut() {
                Some(Open::Object(key)) => *key = None,
                Some(Open::Array(index)) => *index += 1,
                None => {}
            },
            _ => {}
        }
        at += 1;
    }
    let segments: Vec<String> = open
        .into_iter()
        .filter_map(|open| match open {
            Open::Object(key) => key,
            Open::Array(index) => Some(index.to_string()),
        })
        .collect();
    json_pointer(segments.iter().map(String::as_str))
}

/// An object or array the reader is inside.
enum Open {
    /// An object, with the key of the member the reader is at (none between members).
    Object(Option<String>),
    /// An array, with the index of the element the reader is at.
    Array(usize),
}

/// The index in `bytes` of `column` bytes into line `line` (from 1); 0 for line 0 (no position).
fn byte_index(bytes: &[u8], line: usize, column: usize) -> usize {
    if line == 0 {
        return 0;
    }
    let mut newlines = bytes.iter().enumerate().filter(|(_, byte)| **byte == b'\n').map(|(at, _)| at);
    let start = if line == 1 { Some(0) } else { newlines.nth(line - 2).map(|at| at + 1) };
    start.map_or(bytes.len(), |start| start.saturating_add(column))
}

/// The index of the quote that closes the string opening at `open`, past escaped quotes.
fn string_end(bytes: &[u8], open: usize) -> Option<usize> {
    let mut at = open + 1;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'\\' => at += 2,
            b'"' => return Some(at),
            _ => at += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where serde_json stops reading `text` as `T`, as a pointer.
    fn pointer_of<T: serde::de::DeserializeOwned + std::fmt::Debug>(text: &str) -> String {
        let error = crate::json::from_str::<T>(text).unwrap_err();
        pointer_at(text, error.line(), error.column())
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Point {
        x: f64,
        kind: Option<Kind>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(rename_all = "lowercase")]
    #[allow(dead_code)]
    enum Kind {
        A,
        B,
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Shape {
        name: String,
        points: Vec<Point>,
        inner: Option<Point>,
        tags: Option<Vec<String>>,
    }

    #[test]
    fn the_pointer_names_the_value_the_reader_stopped_at() {
        let cases = [
            (r#"{"name": 5, "points": []}"#, "/name"),
            (r#"{"points": []}"#, ""),
            (r#"{"name": "a", "points": [{"x": 1}, {"x": "a"}]}"#, "/points/1/x"),
            (r#"{"name": "a", "points": [{"x": 1}, {}]}"#, "/points/1"),
            (r#"{"name": "a", "points": [{"x": 1, "y": 2}]}"#, "/points/0/y"),
            (r#"{"name": "a", "points": [], "inner": {"x": 1, "kind": "c"}}"#, "/inner/kind"),
            (r#"{"name": "a", "points": [], "tags": ["a", 3]}"#, "/tags/1"),
            (r#"{"name": "a", "points": 7}"#, "/points"),
            (r#"{"na\u006de": 5, "points": []}"#, "/name"),
            (r#"{"name": "a", "points": [], "inner": {"kind": "a"}}"#, "/inner"),
            (r#"{"name": "a", "points": [], "inner": null, "tags": [1]}"#, "/tags/0"),
            ("{\n \"name\": \"é, \\\"ü\",\n \"points\": [\n {\"x\": true}]}", "/points/0/x"),
        ];
        for (text, pointer) in cases {
            assert_eq!(pointer_of::<Shape>(text), pointer, "{text}");
        }
    }

    #[test]
    fn keys_are_escaped_and_positions_outside_the_text_read_as_its_end() {
        assert_eq!(pointer_of::<std::collections::BTreeMap<String, Vec<u8>>>(r#"{"a/b": [1, -1]}"#), "/a~1b/1");
        assert_eq!(pointer_at(r#"{"a": [1"#, 9, 9), "/a/0");
        assert_eq!(pointer_at(r#"{"a": 1}"#, 0, 0), "");
        assert_eq!(pointer_at(r#"{"a\"#, 1, 99), "");
    }

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
