//! What a cell's text means: a number, a boolean, nothing, or text. The rules are strict so that nothing is
//! guessed: "007" and "1,5" stay text (a leading zero usually means a code, not a quantity), "1e3" is a number.

use serde_json::{Number, Value};

/// The cell as a number, if it is written as one: an optional "-", digits without a leading zero (or "0"), an
/// optional fraction, an optional exponent.
pub(crate) fn number(cell: &str) -> Option<f64> {
    let digits = cell.strip_prefix('-').unwrap_or(cell);
    let (mantissa, exponent) = match digits.find(['e', 'E']) {
        Some(at) => (&digits[..at], Some(&digits[at + 1..])),
        None => (digits, None),
    };
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (mantissa, None),
    };
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let whole_ok = all_digits(whole) && (whole == "0" || !whole.starts_with('0'));
    let fraction_ok = fraction.is_none_or(all_digits);
    let exponent_ok = exponent.is_none_or(|e| all_digits(e.strip_prefix(['+', '-']).unwrap_or(e)));
    if !(whole_ok && fraction_ok && exponent_ok) {
        return None;
    }
    cell.parse::<f64>().ok().filter(|n| n.is_finite())
}

/// The cell as JSON: null when empty, true/false, an integer or a number, otherwise the text.
pub(crate) fn infer(cell: &str) -> Value {
    match cell {
        "" => Value::Null,
        "true" | "TRUE" | "True" => Value::Bool(true),
        "false" | "FALSE" | "False" => Value::Bool(false),
        _ => match number(cell) {
            Some(n) => match cell.parse::<i64>() {
                Ok(integer) => Value::from(integer),
                Err(_) => Number::from_f64(n).map_or_else(|| Value::String(cell.to_owned()), Value::Number),
            },
            None => Value::String(cell.to_owned()),
        },
    }
}

/// The cell as JSON, typed or not.
pub(crate) fn cell_value(cell: &str, infer_types: bool) -> Value {
    if infer_types { infer(cell) } else { Value::String(cell.to_owned()) }
}

/// A JSON value as a CSV cell: text as it is, null as nothing, arrays and objects as compact JSON.
pub(crate) fn to_cell(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(text) => text.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        // `serde_json::to_string`, not `Display`, which links serde_json's pretty printer too.
        Value::Array(_) | Value::Object(_) => serde_json::to_string(value).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_plainly_written_numbers_are_numbers() {
        for (cell, expected) in [
            ("42", json!(42)),
            ("-3.5", json!(-3.5)),
            ("1e3", json!(1000.0)),
            ("0.25", json!(0.25)),
            ("007", json!("007")),
            ("1,5", json!("1,5")),
            ("+1", json!("+1")),
            ("1.", json!("1.")),
            (".5", json!(".5")),
            ("NaN", json!("NaN")),
            ("inf", json!("inf")),
            ("", json!(null)),
            ("TRUE", json!(true)),
            ("yes", json!("yes")),
            ("99999999999999999999", json!(1e20)),
        ] {
            assert_eq!(infer(cell), expected, "{cell}");
        }
    }

    #[test]
    fn json_values_become_cells() {
        assert_eq!(to_cell(&json!(null)), "");
        assert_eq!(to_cell(&json!(1.5)), "1.5");
        assert_eq!(to_cell(&json!({"a": [1]})), r#"{"a":[1]}"#);
    }
}
