//! JavaScript the host and the SDK embed in what they hand a browser (the worker guard, a sandboxed frame's script,
//! the worker prelude), without its comment lines: the sources explain themselves, and the wasm every user downloads
//! does not carry the explanations. The comment lines go at compile time
//! ([`js_without_comment_lines!`](crate::js_without_comment_lines)), so the text is a constant, as `include_str!`
//! gives it.
//!
//! A comment line is a line whose first characters other than spaces and tabs are `//`. Nothing else changes, so a
//! source must not have such a line inside a template literal (none of the embedded sources has a multi-line one).

/// The length in bytes of `source` without its comment lines.
pub const fn without_comment_lines_len(source: &str) -> usize {
    let bytes = source.as_bytes();
    let mut len = 0;
    let mut start = 0;
    while start < bytes.len() {
        let end = line_end(bytes, start);
        if !is_comment_line(bytes, start, end) {
            len += end - start;
        }
        start = end;
    }
    len
}

/// `source` without its comment lines, as bytes; `N` must be [`without_comment_lines_len`] of `source`.
pub const fn without_comment_lines<const N: usize>(source: &str) -> [u8; N] {
    let bytes = source.as_bytes();
    let mut out = [0u8; N];
    let mut at = 0;
    let mut start = 0;
    while start < bytes.len() {
        let end = line_end(bytes, start);
        if !is_comment_line(bytes, start, end) {
            let mut i = start;
            while i < end {
                out[at] = bytes[i];
                at += 1;
                i += 1;
            }
        }
        start = end;
    }
    assert!(at == N, "N is not the length without comment lines");
    out
}

/// Where the line that begins at `start` ends: after its `\n`, or at the end of the text.
const fn line_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start;
    while i < bytes.len() {
        if bytes[i] == b'\n' {
            return i + 1;
        }
        i += 1;
    }
    i
}

/// Whether `bytes[start..end]` is a comment line.
const fn is_comment_line(bytes: &[u8], start: usize, end: usize) -> bool {
    let mut i = start;
    while i < end && (bytes[i] == b' ' || bytes[i] == b'\t') {
        i += 1;
    }
    i + 1 < end && bytes[i] == b'/' && bytes[i + 1] == b'/'
}

/// A `&'static str` constant of the JavaScript `source` (a constant expression, such as `include_str!(...)`) without
/// its comment lines, made at compile time.
#[macro_export]
macro_rules! js_without_comment_lines {
    ($source:expr) => {{
        // `$source` twice rather than bound to a constant of the macro's: a caller's constant of the same name would
        // be that constant itself.
        const JS_TEXT_WITHOUT_COMMENT_LINES: [u8; $crate::js_text::without_comment_lines_len($source)] =
            $crate::js_text::without_comment_lines($source);
        match ::core::str::from_utf8(&JS_TEXT_WITHOUT_COMMENT_LINES) {
            Ok(text) => text,
            Err(_) => panic!("removing whole lines cannot split a character"),
        }
    }};
}

#[cfg(test)]
mod tests {
    const SOURCE: &str =
        "// a comment\n{\n  // indented\n  const url = \"https://example.com\"; // kept\n\t//tab\n}\n//";

    #[test]
    fn only_lines_that_are_comments_go() {
        const STRIPPED: &str = js_without_comment_lines!(SOURCE);
        assert_eq!(STRIPPED, "{\n  const url = \"https://example.com\"; // kept\n}\n");
    }

    #[test]
    fn text_without_comments_is_unchanged() {
        const PLAIN: &str = js_without_comment_lines!("a / b;\n/ x /\nlast");
        assert_eq!(PLAIN, "a / b;\n/ x /\nlast");
        const EMPTY: &str = js_without_comment_lines!("");
        assert_eq!(EMPTY, "");
    }
}
