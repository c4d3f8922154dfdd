//! Text that goes to an LLM: without control characters, and cut to a length.

/// What is appended to a text that was cut.
pub const TRUNCATION_MARKER: &str = "… (truncated)";

/// What [`clean`] changed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Cleaned {
    /// Control characters were removed.
    pub(crate) controls: bool,
    /// The text was cut; its length in characters before, without the control characters.
    pub(crate) cut_from: Option<usize>,
}

/// Whether `c` is removed: every control character but newline and tab.
fn is_removed(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

/// Whether `text` has control characters other than newline and tab.
pub(crate) fn has_controls(text: &str) -> bool {
    text.chars().any(is_removed)
}

/// Removes control characters (but newlines and tabs) from `text`, then cuts it to `max` characters, the last of
/// which are [`TRUNCATION_MARKER`].
pub(crate) fn clean(text: &mut String, max: usize) -> Cleaned {
    let mut cleaned = Cleaned::default();
    if has_controls(text) {
        text.retain(|c| !is_removed(c));
        cleaned.controls = true;
    }
    let chars = text.chars().count();
    if chars > max {
        let marker: String = TRUNCATION_MARKER.chars().take(max).collect();
        let kept = max - marker.chars().count();
        let end = text.char_indices().nth(kept).map_or(text.len(), |(at, _)| at);
        text.truncate(end);
        text.push_str(&marker);
        cleaned.cut_from = Some(chars);
    }
    cleaned
}

/// `text` without control characters, cut to `max` characters: for showing a name a server chose.
pub(crate) fn shown(text: &str, max: usize) -> String {
    let mut text = text.to_owned();
    clean(&mut text, max);
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_removed_but_newlines_and_tabs_stay() {
        let mut text = "a\u{0}b\u{7}\u{1b}[31mc\r\n\td\u{85}e\u{9f}".to_owned();
        let cleaned = clean(&mut text, 100);
        assert_eq!(text, "ab[31mc\n\tde");
        assert_eq!(cleaned, Cleaned { controls: true, cut_from: None });
        assert!(!has_controls("plain\ttext\n"));
    }

    #[test]
    fn long_text_is_cut_to_the_bound_with_a_marker() {
        let mut text = "é".repeat(50);
        let cleaned = clean(&mut text, 20);
        assert_eq!(text.chars().count(), 20);
        assert!(text.starts_with("éééééé") && text.ends_with(TRUNCATION_MARKER), "{text}");
        assert_eq!(cleaned.cut_from, Some(50));
        let mut exact = "x".repeat(20);
        assert_eq!(clean(&mut exact, 20), Cleaned::default(), "a text of exactly the bound is kept");
        let mut tiny = "abcdef".to_owned();
        clean(&mut tiny, 3);
        assert_eq!(tiny.chars().count(), 3, "a bound shorter than the marker still holds");
    }
}
