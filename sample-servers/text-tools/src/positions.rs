//! Byte offsets (what the `regex` crate reports) turned into what a person counts: characters, lines and columns.

/// Converts increasing byte offsets of one text into character offsets, lines and columns, in one pass overall.
#[derive(Debug)]
pub(crate) struct Cursor<'t> {
    text: &'t str,
    byte: usize,
    char_index: usize,
    line: usize,
    column: usize,
}

/// Where a byte offset is, in characters: all from 0 except `line` and `column`, which count from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Place {
    pub(crate) char_index: usize,
    pub(crate) line: usize,
    pub(crate) column: usize,
}

impl<'t> Cursor<'t> {
    pub(crate) fn new(text: &'t str) -> Self {
        Self { text, byte: 0, char_index: 0, line: 1, column: 1 }
    }

    /// The place of `offset`, which must not be before the last offset asked (else it starts over).
    pub(crate) fn place(&mut self, offset: usize) -> Place {
        if offset < self.byte {
            *self = Self::new(self.text);
        }
        let offset = offset.min(self.text.len());
        for c in self.text.get(self.byte..offset).unwrap_or_default().chars() {
            self.char_index += 1;
            if c == '\n' {
                self.line += 1;
                self.column = 1;
            } else {
                self.column += 1;
            }
        }
        self.byte = offset;
        Place { char_index: self.char_index, line: self.line, column: self.column }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_count_characters_and_lines() {
        let text = "héllo\nwörld";
        let mut cursor = Cursor::new(text);
        assert_eq!(cursor.place(0), Place { char_index: 0, line: 1, column: 1 });
        assert_eq!(cursor.place(text.find('w').unwrap_or(0)), Place { char_index: 6, line: 2, column: 1 });
        assert_eq!(cursor.place(text.find('r').unwrap_or(0)), Place { char_index: 8, line: 2, column: 3 });
        assert_eq!(cursor.place(1), Place { char_index: 1, line: 1, column: 2 });
    }
}
