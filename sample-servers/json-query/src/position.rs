//! Line and column of a piece of a filter, from the slice of the filter's text that jaq hands back.

use std::fmt;

/// A place in a text: line and column, both from 1, the column in characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Position {
    pub(crate) line: usize,
    pub(crate) column: usize,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// Where `part` starts in `whole`, if `part` is a slice of `whole` (jaq's errors are slices of the code, or of its
/// standard library, which has no position a user can use).
pub(crate) fn position_in(whole: &str, part: &str) -> Option<Position> {
    let start = (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)?;
    if start > whole.len() || !whole.is_char_boundary(start) {
        return None;
    }
    Some(position_at(whole, start))
}

/// The position of a byte offset (on a character boundary).
pub(crate) fn position_at(text: &str, offset: usize) -> Position {
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    Position { line: before.matches('\n').count() + 1, column: before[line_start..].chars().count() + 1 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_have_positions_and_strangers_none() {
        let code = "a |\n  bé | c";
        assert_eq!(position_in(code, &code[10..]), Some(Position { line: 2, column: 6 }));
        assert_eq!(position_in(code, &code[code.len()..]), Some(Position { line: 2, column: 9 }));
        assert_eq!(position_in(code, "elsewhere"), None);
    }
}
