//! `json_to_csv`: JSON rows (objects or arrays) written as CSV.

use crate::table::delimiter_byte;
use crate::values::to_cell;
use mcp_worker_sdk::ToolDef;
use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use std::collections::HashSet;
use std::fmt;

/// The most rows written, and the largest CSV text produced (4 MiB).
const MAX_ROWS: usize = 100_000;
const MAX_OUTPUT_BYTES: usize = 4 << 20;

#[derive(Deserialize, JsonSchema)]
pub(crate) struct FromJsonArgs {
    /// The rows (at most 100,000): objects such as {"name": "Ada", "age": 36}, or arrays of cells. Values are
    /// written as they are; null as an empty cell, nested arrays and objects as JSON text.
    pub(crate) rows: Vec<Row>,
    /// The columns, in order. For objects, left out means every key met, in the order first met; keys not
    /// named here are left out. For arrays, the header row to write (none when left out).
    pub(crate) columns: Option<Vec<String>>,
    /// The field delimiter: one character such as ",", ";" or "|", or "tab". "," when left out.
    pub(crate) delimiter: Option<String>,
}

/// A row as given, its keys in the order written (a JSON map would sort them).
#[derive(Debug)]
pub(crate) enum Row {
    Object(Vec<(String, Value)>),
    Array(Vec<Value>),
}

impl JsonSchema for Row {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Row".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"anyOf": [{"type": "object"}, {"type": "array"}]})
    }
}

impl<'de> Deserialize<'de> for Row {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct RowVisitor;

        impl<'de> Visitor<'de> for RowVisitor {
            type Value = Row;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object or an array")
            }

            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Row, M::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<String, Value>()? {
                    entries.push(entry);
                }
                Ok(Row::Object(entries))
            }

            fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Row, S::Error> {
                let mut cells = Vec::new();
                while let Some(cell) = seq.next_element::<Value>()? {
                    cells.push(cell);
                }
                Ok(Row::Array(cells))
            }
        }

        deserializer.deserialize_any(RowVisitor)
    }
}

pub(crate) fn tool() -> ToolDef {
    ToolDef::new("json_to_csv", |args: FromJsonArgs| async move { to_csv(&args) })
        .title("JSON to CSV")
        .description(
            "Writes JSON rows (objects, or arrays of cells) as CSV text with a header row, quoting fields where \
             needed. Columns follow the order given, or the order keys first appear. At most 100,000 rows and \
             4 MiB of output.",
        )
        .read_only()
}

pub(crate) fn to_csv(args: &FromJsonArgs) -> Result<String, String> {
    if args.rows.len() > MAX_ROWS {
        return Err(format!("{} rows given; at most {MAX_ROWS}", args.rows.len()));
    }
    let objects = args.rows.iter().any(|row| matches!(row, Row::Object(_)));
    if objects && args.rows.iter().any(|row| matches!(row, Row::Array(_))) {
        return Err("rows mix objects and arrays: give all objects or all arrays".to_owned());
    }
    let columns: Option<Vec<String>> = match (&args.columns, objects) {
        (Some(columns), _) => Some(columns.clone()),
        (None, true) => Some(keys_in_order(&args.rows)),
        (None, false) => None,
    };
    let mut writer = csv::WriterBuilder::new()
        .delimiter(delimiter_byte(args.delimiter.as_deref())?)
        .flexible(!objects)
        .from_writer(Vec::new());
    let failed = |e: csv::Error| format!("the CSV could not be written: {e}");
    if let Some(columns) = &columns {
        writer.write_record(columns).map_err(failed)?;
    }
    for row in &args.rows {
        let cells: Vec<String> = match row {
            Row::Object(entries) => columns
                .iter()
                .flatten()
                .map(|column| {
                    entries.iter().find(|(key, _)| key == column).map(|(_, v)| to_cell(v)).unwrap_or_default()
                })
                .collect(),
            Row::Array(cells) => cells.iter().map(to_cell).collect(),
        };
        writer.write_record(&cells).map_err(failed)?;
        if writer.get_ref().len() > MAX_OUTPUT_BYTES {
            return Err(format!("the CSV would exceed {MAX_OUTPUT_BYTES} bytes (4 MiB); convert fewer rows"));
        }
    }
    let bytes = writer.into_inner().map_err(|e| format!("the CSV could not be written: {e}"))?;
    String::from_utf8(bytes).map_err(|e| format!("the CSV is not UTF-8: {e}"))
}

/// Every key of the objects, in the order first met.
fn keys_in_order(rows: &[Row]) -> Vec<String> {
    let mut seen = HashSet::new();
    let mut keys: Vec<String> = Vec::new();
    for row in rows {
        if let Row::Object(entries) = row {
            for (key, _) in entries {
                if seen.insert(key.as_str()) {
                    keys.push(key.clone());
                }
            }
        }
    }
    keys
}
