//! Values, names and messages as shown in violations, cut to a length a model can read and a page can afford: the
//! schema and the value may be large, and a message is built for every violation found.

use serde::Serialize;
use std::io;

/// At most this many bytes of a value or a name are shown.
const SHOWN: usize = 160;

/// Compact JSON of `value`, cut after [`SHOWN`] bytes with `…`. Never serializes more than that.
pub(crate) fn json<T: Serialize + ?Sized>(value: &T) -> String {
    let mut out = Capped { bytes: Vec::new(), cut: false };
    // The writer refuses bytes past the cap; that error is the cut, not a failure.
    let _ = serde_json::to_writer(&mut out, value);
    // A cut may fall inside a character: keep what is whole.
    let text = match std::str::from_utf8(&out.bytes) {
        Ok(text) => text,
        Err(e) => std::str::from_utf8(&out.bytes[..e.valid_up_to()]).unwrap_or_default(),
    };
    if out.cut { format!("{text}…") } else { text.to_owned() }
}

/// `name` quoted (Rust's `{:?}`), cut after [`SHOWN`] bytes with `…`.
pub(crate) fn quoted(name: &str) -> String {
    if name.len() <= SHOWN { format!("{name:?}") } else { format!("{:?}…", prefix(name, SHOWN)) }
}

/// A message embedded in another one (the closest failing branch), cut after `limit` bytes with `…`.
pub(crate) fn cut(message: &str, limit: usize) -> String {
    if message.len() <= limit { message.to_owned() } else { format!("{}…", prefix(message, limit)) }
}

/// The longest prefix of `text` of at most `limit` bytes that ends on a character boundary.
pub(crate) fn prefix(text: &str, limit: usize) -> &str {
    let mut end = limit.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

struct Capped {
    bytes: Vec<u8>,
    cut: bool,
}

impl io::Write for Capped {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let room = SHOWN - self.bytes.len();
        if buf.len() > room {
            self.bytes.extend_from_slice(&buf[..room]);
            self.cut = true;
            return Err(io::Error::other("cut"));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;
    use serde_json::json;

    #[test]
    fn short_values_are_shown_whole_and_long_ones_cut() {
        assert_eq!(json(&json!(["metric", "imperial"])), r#"["metric","imperial"]"#);
        let long = json::<[Value]>(&[json!((0..1000).collect::<Vec<_>>())]);
        assert!(long.len() <= SHOWN + '…'.len_utf8() && long.ends_with('…'), "{long}");
        assert_eq!(quoted("city"), "\"city\"");
        let name = "é".repeat(200);
        assert!(quoted(&name).ends_with('…') && quoted(&name).len() < SHOWN + 8);
        assert_eq!(cut("abcdef", 3), "abc…");
    }
}
