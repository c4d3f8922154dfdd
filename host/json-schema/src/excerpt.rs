//! Values, names and messages as shown in violations, cut to a length a model can read and a page can afford: the
//! schema and the value may be large, and a message is built for every violation found.

use serde_json::Value;

/// At most this many bytes of a value or a name are shown.
const SHOWN: usize = 160;

/// Compact JSON of `value` (as `serde_json::to_string` writes it), cut after [`SHOWN`] bytes with `…`. Never writes
/// more than that: members and elements past the cut are not visited.
pub(crate) fn json(value: &Value) -> String {
    let mut out = Capped { text: String::new(), cut: false };
    out.value(value);
    if out.cut { format!("{}…", out.text) } else { out.text }
}

/// `name` quoted as a JSON string, cut after [`SHOWN`] bytes with `…` (after the closing quote).
pub(crate) fn quoted(name: &str) -> String {
    let shown = serde_json::to_string(prefix(name, SHOWN)).unwrap_or_default();
    if name.len() <= SHOWN { shown } else { format!("{shown}…") }
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

/// JSON text written up to [`SHOWN`] bytes. Each writer returns whether there was room for all it had to write.
struct Capped {
    text: String,
    cut: bool,
}

impl Capped {
    fn value(&mut self, value: &Value) -> bool {
        match value {
            Value::Array(items) => {
                self.push("[")
                    && items.iter().enumerate().all(|(i, item)| (i == 0 || self.push(",")) && self.value(item))
                    && self.push("]")
            }
            Value::Object(members) => {
                self.push("{")
                    && members.iter().enumerate().all(|(i, (name, item))| {
                        (i == 0 || self.push(",")) && self.string(name) && self.push(":") && self.value(item)
                    })
                    && self.push("}")
            }
            Value::String(text) => self.string(text),
            scalar => self.push(&serde_json::to_string(scalar).unwrap_or_default()),
        }
    }

    /// Escaping only lengthens text, so no more of `text` than [`SHOWN`] bytes is ever escaped.
    fn string(&mut self, text: &str) -> bool {
        self.push(&serde_json::to_string(prefix(text, SHOWN)).unwrap_or_default())
    }

    /// Appends `piece`, or as much of it as there is room for (then the text is cut).
    fn push(&mut self, piece: &str) -> bool {
        let room = SHOWN - self.text.len();
        if piece.len() > room {
            self.text.push_str(prefix(piece, room));
            self.cut = true;
            return false;
        }
        self.text.push_str(piece);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn short_values_are_shown_whole_and_long_ones_cut() {
        assert_eq!(json(&json!(["metric", "imperial"])), r#"["metric","imperial"]"#);
        let long = json(&json!([(0..1000).collect::<Vec<_>>()]));
        assert!(long.len() <= SHOWN + '…'.len_utf8() && long.ends_with('…'), "{long}");
        assert!(long.starts_with("[[0,1,2,3,"), "{long}");
        assert_eq!(quoted("city"), "\"city\"");
        let name = "é".repeat(200);
        assert!(quoted(&name).ends_with('…') && quoted(&name).len() < SHOWN + 8);
        assert_eq!(cut("abcdef", 3), "abc…");
    }

    #[test]
    fn values_read_as_serde_json_writes_them_up_to_the_cut() {
        for value in [
            json!(null),
            json!(-1.5),
            json!({"unit": "m\"s", "tags": [true, null, {}], "": []}),
            json!("line\nbreak \u{7} é"),
        ] {
            assert_eq!(json(&value), serde_json::to_string(&value).unwrap());
        }
        // Cut inside a member's name, inside a string, and inside an escape: the same prefix serde_json writes.
        for value in [json!({"x".repeat(300): 1}), json!(["é".repeat(300)]), json!(["\u{1}".repeat(100)])] {
            let whole = serde_json::to_string(&value).unwrap();
            let shown = json(&value);
            let kept = shown.strip_suffix('…').unwrap_or_else(|| panic!("not cut: {shown}"));
            assert!(whole.starts_with(kept) && kept.len() > SHOWN - 4, "{shown}");
        }
    }
}
