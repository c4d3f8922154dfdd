//! A CSV text read into a table: the options every tool shares (delimiter, header row), the size cap, and errors
//! that say which row is wrong.

use schemars::JsonSchema;
use serde::Deserialize;

/// The largest CSV text accepted (2 MiB): enough for tens of thousands of rows, small enough for a worker.
pub(crate) const MAX_BYTES: usize = 2 << 20;

/// How the CSV text is written.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub(crate) struct CsvFormat {
    /// The field delimiter: one character such as ",", ";" or "|", or "tab" (or "\t") for tab-separated
    /// values. "," when left out.
    pub(crate) delimiter: Option<String>,
    /// Whether the first row names the columns. True when left out; without a header row the columns are named
    /// column_1, column_2…
    pub(crate) has_headers: Option<bool>,
}

impl CsvFormat {
    /// The delimiter as the csv crate wants it: one ASCII byte.
    pub(crate) fn delimiter(&self) -> Result<u8, String> {
        delimiter_byte(self.delimiter.as_deref())
    }
}

/// One ASCII character, or "tab".
pub(crate) fn delimiter_byte(delimiter: Option<&str>) -> Result<u8, String> {
    match delimiter {
        None => Ok(b','),
        Some("tab" | "\\t" | "\t") => Ok(b'\t'),
        Some(text) => match text.as_bytes() {
            [byte] if byte.is_ascii() && !matches!(byte, b'"' | b'\n' | b'\r') => Ok(*byte),
            _ => Err(format!(
                "delimiter must be one ASCII character other than a quote or a line break (or \"tab\"), not {}",
                mcp_worker_sdk::protocol::quoted::quoted(text)
            )),
        },
    }
}

/// A CSV text as columns and rows of text cells.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Table {
    /// The column names, unique.
    pub(crate) columns: Vec<String>,
    /// The rows, each as long as `columns`.
    pub(crate) rows: Vec<Vec<String>>,
}

impl Table {
    /// Reads a CSV text: every row must have as many fields as the first.
    pub(crate) fn parse(text: &str, format: &CsvFormat) -> Result<Self, String> {
        if text.len() > MAX_BYTES {
            return Err(format!("the CSV has {} bytes; at most {MAX_BYTES} (2 MiB) are accepted", text.len()));
        }
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let has_headers = format.has_headers.unwrap_or(true);
        let mut reader = csv::ReaderBuilder::new()
            .delimiter(format.delimiter()?)
            .has_headers(false)
            .flexible(true)
            .from_reader(text.as_bytes());
        let mut records: Vec<Vec<String>> = Vec::new();
        // The line each record starts on, for errors (blank lines are skipped, so records are not lines).
        let mut lines: Vec<usize> = Vec::new();
        let mut line_counter = LineCounter::new(text);
        for (index, record) in reader.records().enumerate() {
            let record = record.map_err(|e| format!("record {} could not be read: {e}", index + 1))?;
            let start = record.position().map_or(0, csv::Position::byte);
            lines.push(line_counter.line_at(usize::try_from(start).unwrap_or(usize::MAX)));
            records.push(record.iter().map(str::to_owned).collect());
        }
        if records.is_empty() {
            return Err("the CSV is empty".to_owned());
        }
        let columns = if has_headers {
            lines.remove(0);
            unique_names(records.remove(0))
        } else {
            (1..=records[0].len()).map(|n| format!("column_{n}")).collect()
        };
        for (row, line) in records.iter().zip(&lines) {
            if row.len() != columns.len() {
                return Err(format!(
                    "line {line} has {} field{}, but the {} has {}: every row needs one field per column (quote \
                     fields that contain the delimiter)",
                    row.len(),
                    if row.len() == 1 { "" } else { "s" },
                    if has_headers { "header" } else { "first row" },
                    columns.len()
                ));
            }
        }
        Ok(Self { columns, rows: records })
    }

    /// The index of a column, or an error listing the columns there are.
    pub(crate) fn column(&self, name: &str) -> Result<usize, String> {
        if let Some(index) = self.columns.iter().position(|c| c == name) {
            return Ok(index);
        }
        let hint = self
            .columns
            .iter()
            .find(|c| c.eq_ignore_ascii_case(name.trim()))
            .map(|c| format!(" (did you mean \"{c}\"?)"))
            .unwrap_or_default();
        Err(format!("no column \"{name}\"{hint}; the columns are: {}", self.columns.join(", ")))
    }
}

/// Line numbers of increasing byte offsets, counted as they go.
struct LineCounter<'a> {
    text: &'a str,
    offset: usize,
    line: usize,
}

impl<'a> LineCounter<'a> {
    fn new(text: &'a str) -> Self {
        Self { text, offset: 0, line: 1 }
    }

    /// The line of the first character at or after `offset` that is not a line break: the csv reader gives a
    /// record's start before the blank lines it skipped.
    fn line_at(&mut self, offset: usize) -> usize {
        let bytes = self.text.as_bytes();
        let offset = offset.clamp(self.offset, bytes.len());
        self.line += bytes[self.offset..offset].iter().filter(|b| **b == b'\n').count();
        self.offset = offset;
        while let Some(byte @ (b'\n' | b'\r')) = bytes.get(self.offset) {
            self.line += usize::from(*byte == b'\n');
            self.offset += 1;
        }
        self.line
    }
}

/// Header names made usable as keys: blank ones become column_N, repeated ones get _2, _3….
fn unique_names(header: Vec<String>) -> Vec<String> {
    let mut names: Vec<String> = Vec::with_capacity(header.len());
    for (index, name) in header.into_iter().enumerate() {
        let name = name.trim().to_owned();
        let base = if name.is_empty() { format!("column_{}", index + 1) } else { name };
        let mut unique = base.clone();
        let mut n = 2;
        while names.contains(&unique) {
            unique = format!("{base}_{n}");
            n += 1;
        }
        names.push(unique);
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Table, String> {
        Table::parse(text, &CsvFormat::default())
    }

    #[test]
    fn headers_are_made_unique_and_quotes_are_honoured() {
        let table = parse("\u{feff}name,,name\n\"Smith, J\",2,\"say \"\"hi\"\"\"\n").unwrap();
        assert_eq!(table.columns, ["name", "column_2", "name_2"]);
        assert_eq!(table.rows, [["Smith, J", "2", "say \"hi\""]]);
    }

    #[test]
    fn ragged_rows_and_bad_delimiters_are_refused_plainly() {
        assert_eq!(
            parse("a,b\n1,2\n\n3\n").unwrap_err(),
            "line 4 has 1 field, but the header has 2: every row needs one field per column (quote fields that \
             contain the delimiter)"
        );
        assert_eq!(parse("").unwrap_err(), "the CSV is empty");
        assert_eq!(delimiter_byte(Some("tab")), Ok(b'\t'));
        assert!(delimiter_byte(Some(";;")).unwrap_err().contains("one ASCII character"));
    }

    #[test]
    fn blank_lines_are_skipped() {
        assert_eq!(parse("a,b\n\n1,2\n\n").unwrap().rows, [["1", "2"]]);
    }

    #[test]
    fn without_headers_columns_are_numbered() {
        let format = CsvFormat { delimiter: Some(";".into()), has_headers: Some(false) };
        let table = Table::parse("1;2\n3;4", &format).unwrap();
        assert_eq!(table.columns, ["column_1", "column_2"]);
        assert_eq!(table.rows.len(), 2);
    }
}
