//! `csv_stats`: what each column holds.

use crate::table::{CsvFormat, Table};
use crate::values::number;
use mcp_worker_sdk::{Json, ToolDef};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Distinct values are counted up to this many per column; past it the count says "at least".
const DISTINCT_CAP: usize = 1000;
/// How many of the most frequent values are listed.
const TOP_VALUES: usize = 5;

#[derive(Deserialize, JsonSchema)]
pub(crate) struct StatsArgs {
    /// The CSV text (at most 2 MiB).
    pub(crate) csv: String,
    #[serde(flatten)]
    pub(crate) format: CsvFormat,
}

/// The statistics of a table.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct TableStats {
    /// How many rows, the header apart.
    pub(crate) row_count: usize,
    /// One entry per column, in the file's order.
    pub(crate) columns: Vec<ColumnStats>,
}

/// The statistics of one column.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct ColumnStats {
    pub(crate) name: String,
    /// "integer", "number", "boolean" or "text" when every non-empty cell is one; "empty" when all are empty.
    #[serde(rename = "type")]
    pub(crate) kind: String,
    /// Non-empty cells.
    pub(crate) count: usize,
    /// Empty cells.
    pub(crate) empty: usize,
    /// Distinct non-empty values, counted up to 1000.
    pub(crate) distinct: usize,
    /// Whether there are more distinct values than `distinct` says.
    pub(crate) distinct_capped: bool,
    /// The most frequent values with their counts, most frequent first (when distinct values were all counted).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) top_values: Vec<ValueCount>,
    /// For numeric columns: the smallest, largest and mean value, and the sum.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) min: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) max: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) mean: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) sum: Option<f64>,
    /// For text columns: the shortest and longest value, in characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) min_length: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) max_length: Option<usize>,
}

/// A value and how many cells hold it.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct ValueCount {
    pub(crate) value: String,
    pub(crate) count: usize,
}

pub(crate) fn tool() -> ToolDef {
    ToolDef::new("csv_stats", |args: StatsArgs| async move {
        let table = Table::parse(&args.csv, &args.format)?;
        Ok::<_, String>(Json(stats(&table)))
    })
    .title("CSV column statistics")
    .description(
        "Profiles each column of a CSV text: its type (integer, number, boolean, text), non-empty and empty \
         cells, distinct values (counted up to 1000) and the most frequent ones, min/max/mean/sum of numeric \
         columns, shortest and longest text. At most 2 MiB of CSV.",
    )
    .read_only()
}

pub(crate) fn stats(table: &Table) -> TableStats {
    let columns = table.columns.iter().enumerate().map(|(index, name)| column(table, index, name)).collect();
    TableStats { row_count: table.rows.len(), columns }
}

fn column(table: &Table, index: usize, name: &str) -> ColumnStats {
    let cells: Vec<&str> = table.rows.iter().filter_map(|row| row.get(index)).map(String::as_str).collect();
    let values: Vec<&str> = cells.iter().copied().filter(|cell| !cell.is_empty()).collect();
    let mut counts: HashMap<&str, usize> = HashMap::new();
    let mut distinct_capped = false;
    for value in &values {
        if let Some(count) = counts.get_mut(value) {
            *count += 1;
        } else if counts.len() < DISTINCT_CAP {
            counts.insert(value, 1);
        } else {
            distinct_capped = true;
        }
    }
    let mut top: Vec<ValueCount> = if distinct_capped {
        Vec::new()
    } else {
        counts.iter().map(|(value, count)| ValueCount { value: (*value).to_owned(), count: *count }).collect()
    };
    top.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.value.cmp(&b.value)));
    top.truncate(TOP_VALUES);

    let numbers: Vec<f64> = values.iter().filter_map(|v| number(v)).collect();
    let numeric = !values.is_empty() && numbers.len() == values.len();
    let boolean =
        !values.is_empty() && values.iter().all(|v| ["true", "false"].contains(&v.to_ascii_lowercase().as_str()));
    let kind = if values.is_empty() {
        "empty"
    } else if numeric && values.iter().all(|v| v.parse::<i64>().is_ok()) {
        "integer"
    } else if numeric {
        "number"
    } else if boolean {
        "boolean"
    } else {
        "text"
    };
    let sum: f64 = numbers.iter().sum();
    #[allow(clippy::cast_precision_loss, reason = "row counts far below 2^52")]
    let mean = sum / numbers.len() as f64;
    let lengths = || values.iter().map(|v| v.chars().count());
    let text = kind == "text";
    ColumnStats {
        name: name.to_owned(),
        kind: kind.to_owned(),
        count: values.len(),
        empty: cells.len() - values.len(),
        distinct: counts.len(),
        distinct_capped,
        top_values: top,
        min: numeric.then(|| numbers.iter().copied().fold(f64::INFINITY, f64::min)),
        max: numeric.then(|| numbers.iter().copied().fold(f64::NEG_INFINITY, f64::max)),
        mean: numeric.then_some(mean),
        sum: numeric.then_some(sum),
        min_length: if text { lengths().min() } else { None },
        max_length: if text { lengths().max() } else { None },
    }
}
