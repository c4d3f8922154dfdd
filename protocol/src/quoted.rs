//! Text and values shown in a message as JSON writes them. A string in quotes, with `"`, `\` and control characters
//! escaped: Rust's `{:?}` reads much the same, but links the standard library's tables of printable and combining
//! characters (about 2 KiB of gzip) into every package that formats one string with it. A value as compact JSON:
//! `Value`'s `Display` writes the same, but through a formatter that can also indent, which links serde_json's pretty
//! printer.

/// `text` as a JSON string.
pub fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

/// `value` as compact JSON text.
pub fn json(value: &serde_json::Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_quoted_and_escaped_as_json() {
        assert_eq!(quoted("city"), r#""city""#);
        assert_eq!(quoted("a \"b\" \\ c\n\u{1}é"), r#""a \"b\" \\ c\n\u0001é""#);
        assert_eq!(quoted(""), r#""""#);
    }

    #[test]
    fn values_are_written_as_compact_json() {
        let value = serde_json::json!({"b": [1, 2.5, null], "a": "x\"y"});
        assert_eq!(json(&value), r#"{"a":"x\"y","b":[1,2.5,null]}"#);
        assert_eq!(json(&value), value.to_string());
    }
}
