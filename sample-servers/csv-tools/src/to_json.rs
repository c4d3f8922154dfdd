//! `csv_to_json`: a CSV text as an array of objects keyed by the header row.

use crate::table::{CsvFormat, Table};
use crate::values::cell_value;
use mcp_worker_sdk::{Json, ToolDef};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

#[derive(Deserialize, JsonSchema)]
pub(crate) struct ToJsonArgs {
    /// The CSV text (at most 2 MiB).
    pub(crate) csv: String,
    #[serde(flatten)]
    pub(crate) format: CsvFormat,
    /// Turn cells written as numbers into numbers, true/false into booleans and empty cells into null; "007"
    /// and "1,5" stay text. True when left out; false keeps every cell as text.
    pub(crate) infer_types: Option<bool>,
}

/// The rows as objects.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Rows {
    /// The column names in the file's order (objects list their keys alphabetically).
    pub(crate) columns: Vec<String>,
    /// How many rows, the header apart.
    pub(crate) row_count: usize,
    /// One object per row, keyed by column name.
    pub(crate) rows: Vec<Map<String, Value>>,
}

pub(crate) fn tool() -> ToolDef {
    ToolDef::new("csv_to_json", |args: ToJsonArgs| async move {
        let table = Table::parse(&args.csv, &args.format)?;
        Ok::<_, String>(Json(rows(&table, args.infer_types.unwrap_or(true))))
    })
    .title("CSV to JSON")
    .description(
        "Converts CSV text (header row, any one-character delimiter, quoted fields) to an array of JSON objects \
         keyed by column name, with numbers, booleans and empty cells typed unless infer_types is false. At most \
         2 MiB of CSV.",
    )
    .read_only()
}

/// The table's rows as objects.
pub(crate) fn rows(table: &Table, infer_types: bool) -> Rows {
    let rows = table
        .rows
        .iter()
        .map(|row| {
            table.columns.iter().zip(row).map(|(name, cell)| (name.clone(), cell_value(cell, infer_types))).collect()
        })
        .collect();
    Rows { columns: table.columns.clone(), row_count: table.rows.len(), rows }
}
