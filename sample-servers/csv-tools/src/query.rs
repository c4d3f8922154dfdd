//! `csv_query`: pick columns, keep the rows that meet every condition, sort, and take a page.
//!
//! Comparisons are numeric when both sides are written as numbers ("10" > "9"), and otherwise compare text
//! (so ISO dates order correctly); sorting is numeric for a column whose non-empty cells are all numbers.

use crate::table::{CsvFormat, Table};
use crate::values::{cell_value, number};
use mcp_worker_sdk::{Json, ToolDef};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::cmp::Ordering;

/// Rows returned when no limit is given, and the most a call may ask for.
const DEFAULT_LIMIT: usize = 100;
const MAX_LIMIT: usize = 10_000;
/// The most conditions and sort keys in one query.
const MAX_CLAUSES: usize = 20;

#[derive(Deserialize, JsonSchema)]
pub(crate) struct QueryArgs {
    /// The CSV text (at most 2 MiB).
    pub(crate) csv: String,
    #[serde(flatten)]
    pub(crate) format: CsvFormat,
    /// The columns to return, in this order (all when left out).
    pub(crate) select: Option<Vec<String>>,
    /// Conditions every returned row meets (all of them; at most 20).
    #[serde(rename = "where")]
    pub(crate) conditions: Option<Vec<Condition>>,
    /// Sort keys, the first one first (at most 20). Empty cells sort last either way.
    pub(crate) sort_by: Option<Vec<SortKey>>,
    /// Rows to skip after filtering and sorting (0 when left out).
    pub(crate) offset: Option<usize>,
    /// Rows to return (100 when left out, at most 10,000).
    pub(crate) limit: Option<usize>,
    /// "json" (rows as objects, the default) or "csv" (the rows as CSV text with a header row).
    pub(crate) output: Option<OutputFormat>,
}

/// One condition: a column, an operator and a value.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct Condition {
    /// The column tested.
    pub(crate) column: String,
    pub(crate) op: Op,
    /// The value compared with; not needed for is_empty and not_empty.
    pub(crate) value: Option<String>,
    /// Compare text regardless of case (false when left out).
    pub(crate) ignore_case: Option<bool>,
}

/// How a cell is compared with the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Op {
    /// Equal (as numbers when both are numbers: "1.0" eq "1"). Also "=" or "==".
    #[serde(alias = "=", alias = "==")]
    Eq,
    /// Not equal. Also "!=".
    #[serde(alias = "!=", alias = "<>")]
    Ne,
    /// Less than. Also "<".
    #[serde(alias = "<")]
    Lt,
    /// Less than or equal. Also "<=".
    #[serde(alias = "<=")]
    Le,
    /// Greater than. Also ">".
    #[serde(alias = ">")]
    Gt,
    /// Greater than or equal. Also ">=".
    #[serde(alias = ">=")]
    Ge,
    /// The cell contains the value.
    Contains,
    /// The cell starts with the value.
    StartsWith,
    /// The cell ends with the value.
    EndsWith,
    /// The cell is empty.
    IsEmpty,
    /// The cell is not empty.
    NotEmpty,
}

/// A sort key.
#[derive(Deserialize, JsonSchema)]
pub(crate) struct SortKey {
    /// The column sorted on.
    pub(crate) column: String,
    /// Largest first (false when left out).
    pub(crate) descending: Option<bool>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum OutputFormat {
    #[default]
    Json,
    Csv,
}

/// The rows a query selected.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct QueryResult {
    /// The columns returned, in order.
    pub(crate) columns: Vec<String>,
    /// How many rows met the conditions.
    pub(crate) matched_rows: usize,
    /// How many rows are returned (after offset and limit).
    pub(crate) returned_rows: usize,
    /// The rows as objects, values typed as csv_to_json types them (with output "json").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) rows: Option<Vec<Map<String, Value>>>,
    /// The rows as CSV text with a header row (with output "csv").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) csv: Option<String>,
}

pub(crate) fn tool() -> ToolDef {
    ToolDef::new("csv_query", |args: QueryArgs| async move { query(&args).map(Json) })
        .title("Query a CSV")
        .description(
            "Selects columns from a CSV text, keeps the rows meeting every `where` condition (eq, ne, lt, le, gt, \
             ge, contains, starts_with, ends_with, is_empty, not_empty; numeric when both sides are numbers, text \
             otherwise), sorts by one or more columns and returns a page (100 rows unless told, at most 10,000) as \
             JSON objects or CSV. At most 2 MiB of CSV.",
        )
        .read_only()
}

/// A condition with its column found and its value checked.
struct Test {
    column: usize,
    op: Op,
    value: String,
    value_number: Option<f64>,
    ignore_case: bool,
}

pub(crate) fn query(args: &QueryArgs) -> Result<QueryResult, String> {
    let table = Table::parse(&args.csv, &args.format)?;
    let conditions = args.conditions.as_deref().unwrap_or_default();
    let sort_keys = args.sort_by.as_deref().unwrap_or_default();
    if conditions.len() > MAX_CLAUSES || sort_keys.len() > MAX_CLAUSES {
        return Err(format!("at most {MAX_CLAUSES} conditions and {MAX_CLAUSES} sort keys"));
    }
    let limit = args.limit.unwrap_or(DEFAULT_LIMIT);
    if limit > MAX_LIMIT {
        return Err(format!("limit must be at most {MAX_LIMIT}"));
    }
    let selected: Vec<usize> = match &args.select {
        Some(names) if names.is_empty() => return Err("select is empty: name at least one column".to_owned()),
        Some(names) => names.iter().map(|name| table.column(name)).collect::<Result<_, _>>()?,
        None => (0..table.columns.len()).collect(),
    };
    let tests: Vec<Test> = conditions.iter().map(|c| test(&table, c)).collect::<Result<_, _>>()?;
    let keys: Vec<(usize, bool)> = sort_keys
        .iter()
        .map(|key| Ok((table.column(&key.column)?, key.descending.unwrap_or(false))))
        .collect::<Result<_, String>>()?;

    let mut rows: Vec<&Vec<String>> = table.rows.iter().filter(|row| tests.iter().all(|t| passes(t, row))).collect();
    let numeric_keys: Vec<bool> = keys.iter().map(|(column, _)| is_numeric(&rows, *column)).collect();
    rows.sort_by(|a, b| {
        keys.iter()
            .zip(&numeric_keys)
            .map(|((column, descending), numeric)| compare_cells(&a[*column], &b[*column], *numeric, *descending))
            .find(|order| order.is_ne())
            .unwrap_or(Ordering::Equal)
    });
    let matched_rows = rows.len();
    let page: Vec<Vec<&str>> = rows
        .into_iter()
        .skip(args.offset.unwrap_or(0))
        .take(limit)
        .map(|row| selected.iter().map(|i| row[*i].as_str()).collect())
        .collect();
    let columns: Vec<String> = selected.iter().map(|i| table.columns[*i].clone()).collect();
    let (rows, csv) = match args.output.unwrap_or_default() {
        OutputFormat::Json => {
            let objects = page
                .iter()
                .map(|row| columns.iter().zip(row).map(|(name, cell)| (name.clone(), cell_value(cell, true))).collect())
                .collect();
            (Some(objects), None)
        }
        OutputFormat::Csv => (None, Some(write_csv(&columns, &page, args.format.delimiter()?)?)),
    };
    Ok(QueryResult { columns, matched_rows, returned_rows: page.len(), rows, csv })
}

fn test(table: &Table, condition: &Condition) -> Result<Test, String> {
    let column = table.column(&condition.column)?;
    let needs_value = !matches!(condition.op, Op::IsEmpty | Op::NotEmpty);
    let value = match (&condition.value, needs_value) {
        (Some(value), _) => value.clone(),
        (None, false) => String::new(),
        (None, true) => return Err(format!("the condition on \"{}\" needs a value", condition.column)),
    };
    let ignore_case = condition.ignore_case.unwrap_or(false);
    Ok(Test {
        column,
        op: condition.op,
        value_number: number(&value),
        value: if ignore_case { value.to_lowercase() } else { value },
        ignore_case,
    })
}

fn passes(test: &Test, row: &[String]) -> bool {
    let raw = row.get(test.column).map_or("", String::as_str);
    let lowered;
    let cell = if test.ignore_case {
        lowered = raw.to_lowercase();
        lowered.as_str()
    } else {
        raw
    };
    let order = || match (number(raw), test.value_number) {
        (Some(a), Some(b)) => a.partial_cmp(&b).unwrap_or(Ordering::Equal),
        _ => cell.cmp(test.value.as_str()),
    };
    match test.op {
        Op::Eq => order().is_eq(),
        Op::Ne => order().is_ne(),
        Op::Lt => !raw.is_empty() && order().is_lt(),
        Op::Le => !raw.is_empty() && order().is_le(),
        Op::Gt => !raw.is_empty() && order().is_gt(),
        Op::Ge => !raw.is_empty() && order().is_ge(),
        Op::Contains => cell.contains(&test.value),
        Op::StartsWith => cell.starts_with(&test.value),
        Op::EndsWith => cell.ends_with(&test.value),
        Op::IsEmpty => raw.trim().is_empty(),
        Op::NotEmpty => !raw.trim().is_empty(),
    }
}

/// Whether every non-empty cell of a column is a number (and one at least is).
fn is_numeric(rows: &[&Vec<String>], column: usize) -> bool {
    let mut cells = rows.iter().map(|row| row[column].as_str()).filter(|cell| !cell.is_empty()).peekable();
    cells.peek().is_some() && cells.all(|cell| number(cell).is_some())
}

/// Two cells in sort order: empty ones last whatever the direction.
fn compare_cells(a: &str, b: &str, numeric: bool, descending: bool) -> Ordering {
    match (a.is_empty(), b.is_empty()) {
        (true, true) => return Ordering::Equal,
        (true, false) => return Ordering::Greater,
        (false, true) => return Ordering::Less,
        (false, false) => {}
    }
    let order = match (numeric, number(a), number(b)) {
        (true, Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
        _ => a.cmp(b),
    };
    if descending { order.reverse() } else { order }
}

fn write_csv(columns: &[String], rows: &[Vec<&str>], delimiter: u8) -> Result<String, String> {
    let mut writer = csv::WriterBuilder::new().delimiter(delimiter).from_writer(Vec::new());
    let failed = |e: csv::Error| format!("the CSV could not be written: {e}");
    writer.write_record(columns).map_err(failed)?;
    for row in rows {
        writer.write_record(row).map_err(failed)?;
    }
    let bytes = writer.into_inner().map_err(|e| format!("the CSV could not be written: {e}"))?;
    String::from_utf8(bytes).map_err(|e| format!("the CSV is not UTF-8: {e}"))
}
