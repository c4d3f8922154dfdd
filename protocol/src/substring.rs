//! Finding a short text in another, for the few places a server's code looks for one (`"_meta"` in a request's
//! params, the parts of serde's error messages).
//!
//! The standard library's `str::contains`, `split`, `split_once` and `rsplit_once` with a `&str` pattern search with
//! the Two-Way algorithm, compiled once per direction and per use (its searcher, its forward and backward loops),
//! and `[&str]::join` once per element type: about 5 KB of a server's wasm for what these do in a loop of a few
//! lines each. A needle here is a handful of ASCII characters; each search looks for its first byte and compares
//! the rest there, which is linear in the text for needles like these. A match of a UTF-8 needle in UTF-8 text always
//! starts and ends on character boundaries, so the slices are whole characters. An empty needle is found nowhere.

/// Where `needle` first occurs in `text`, in bytes.
pub fn find(text: &str, needle: &str) -> Option<usize> {
    let (text, needle) = (text.as_bytes(), needle.as_bytes());
    let (&first, rest) = needle.split_first()?;
    let last_start = text.len().checked_sub(needle.len())?;
    (0..=last_start).find(|&at| text[at] == first && text[at + 1..].starts_with(rest))
}

/// Where `needle` last occurs in `text`, in bytes.
pub fn rfind(text: &str, needle: &str) -> Option<usize> {
    let (text, needle) = (text.as_bytes(), needle.as_bytes());
    if needle.is_empty() {
        return None;
    }
    let last_start = text.len().checked_sub(needle.len())?;
    (0..=last_start).rev().find(|&at| text[at..].starts_with(needle))
}

/// Whether `needle` occurs in `text`.
pub fn contains(text: &str, needle: &str) -> bool {
    find(text, needle).is_some()
}

/// `text` before and after the first `separator`, as `str::split_once` gives them.
pub fn split_once<'a>(text: &'a str, separator: &str) -> Option<(&'a str, &'a str)> {
    let at = find(text, separator)?;
    Some((&text[..at], &text[at + separator.len()..]))
}

/// `text` before and after the last `separator`, as `str::rsplit_once` gives them.
pub fn rsplit_once<'a>(text: &'a str, separator: &str) -> Option<(&'a str, &'a str)> {
    let at = rfind(text, separator)?;
    Some((&text[..at], &text[at + separator.len()..]))
}

/// The parts of `text` between the `separator`s, as `str::split` gives them.
pub fn split<'a>(text: &'a str, separator: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let text = rest?;
        match split_once(text, separator) {
            Some((part, after)) => {
                rest = Some(after);
                Some(part)
            }
            None => rest.take(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each function against the standard library's, on texts with the needle at the start, the end, twice,
    /// overlapping, absent, longer than the text, and among multi-byte characters.
    #[test]
    fn each_search_finds_what_the_standard_library_finds() {
        let texts = ["", "a", ", ", "a, b", ", a, ", "a, b, c", "aaa", "ééé, ü", "x or y or z", "abab", "\"_meta\""];
        let needles = [", ", "a", "aa", "é", " or ", "ab", "\"_meta\"", "longer than most texts", "z"];
        for text in texts {
            for needle in needles {
                assert_eq!(find(text, needle), text.find(needle), "{text:?} {needle:?}");
                assert_eq!(rfind(text, needle), text.rfind(needle), "{text:?} {needle:?}");
                assert_eq!(contains(text, needle), text.contains(needle), "{text:?} {needle:?}");
                assert_eq!(split_once(text, needle), text.split_once(needle), "{text:?} {needle:?}");
                assert_eq!(rsplit_once(text, needle), text.rsplit_once(needle), "{text:?} {needle:?}");
                let ours: Vec<&str> = split(text, needle).collect();
                let std: Vec<&str> = text.split(needle).collect();
                assert_eq!(ours, std, "{text:?} {needle:?}");
            }
        }
    }

    #[test]
    fn an_empty_needle_is_found_nowhere() {
        assert_eq!((find("abc", ""), rfind("abc", "")), (None, None));
        assert!(!contains("abc", ""));
        assert_eq!(split("abc", "").collect::<Vec<_>>(), ["abc"]);
    }
}
