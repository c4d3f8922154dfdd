//! Cursor pagination for the list methods. Cursors are opaque to clients; here they encode an offset.

use mcp_worker_protocol::ErrorObject;
use mcp_worker_protocol::quoted::quoted;
use std::ops::Range;

const PREFIX: &str = "o";

/// The range of items on the page after `cursor`, and the cursor of the page after that.
pub(crate) fn page(
    len: usize,
    cursor: Option<&str>,
    page_size: usize,
) -> Result<(Range<usize>, Option<String>), ErrorObject> {
    let start = match cursor {
        None => 0,
        Some(c) => c
            .strip_prefix(PREFIX)
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|n| *n <= len)
            .ok_or_else(|| ErrorObject::invalid_params(format!("invalid cursor: {c}", c = quoted(c))))?,
    };
    let end = start.saturating_add(page_size).min(len);
    let next = (end < len).then(|| format!("{PREFIX}{end}"));
    Ok((start..end, next))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_cover_every_item_once() {
        let mut seen = Vec::new();
        let mut cursor = None;
        loop {
            let (range, next) = page(250, cursor.as_deref(), 100).unwrap();
            seen.extend(range);
            match next {
                Some(c) => cursor = Some(c),
                None => break,
            }
        }
        assert_eq!(seen, (0..250).collect::<Vec<_>>());
    }

    #[test]
    fn an_empty_list_is_one_empty_page() {
        assert_eq!(page(0, None, 10).unwrap(), (0..0, None));
    }

    #[test]
    fn a_forged_cursor_is_invalid_params() {
        for bad in ["", "x", "o-1", "o999", "o1.5"] {
            assert_eq!(page(10, Some(bad), 5).unwrap_err().code, -32602, "{bad}");
        }
    }
}
