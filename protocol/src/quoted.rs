//! Text quoted in a message as JSON writes a string: in quotes, with `"`, `\` and control characters escaped.
//! Rust's `{:?}` reads much the same, but links the standard library's tables of printable and combining
//! characters (about 2 KiB of gzip) into every package that formats one string with it.

/// `text` as a JSON string.
pub fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
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
}
