//! JSON equality as JSON Schema defines it: numbers by value (`1` equals `1.0`), objects regardless of key order.

use serde_json::Value;

/// Whether `a` equals `b`, comparing at most `allowance` pairs of values (each pair compared takes one). When the
/// allowance runs out the answer is `false`, and `allowance` is 0: the caller's budget is gone.
pub(crate) fn equal(a: &Value, b: &Value, allowance: &mut u64) -> bool {
    if *allowance == 0 {
        return false;
    }
    *allowance -= 1;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
            (Some(x), Some(y), _, _) => x == y,
            (_, _, Some(x), Some(y)) => x == y,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| equal(a, b, allowance))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w, allowance)))
        }
        (Value::String(x), Value::String(y)) => {
            // A long string costs a step more per `TEXT_BYTES_PER_STEP` it may compare.
            let cost = x.len().min(y.len()) as u64 / crate::work::TEXT_BYTES_PER_STEP;
            if cost > *allowance {
                *allowance = 0;
                return false;
            }
            *allowance -= cost;
            x == y
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn eq(a: &Value, b: &Value) -> bool {
        let mut allowance = u64::MAX;
        equal(a, b, &mut allowance)
    }

    #[test]
    fn numbers_compare_by_value() {
        assert!(eq(&json!(1), &json!(1.0)));
        assert!(eq(&json!({"a": [1, 2.0]}), &json!({"a": [1.0, 2]})));
        assert!(!eq(&json!(1), &json!("1")));
        assert!(!eq(&json!([1]), &json!([1, 1])));
    }

    #[test]
    fn a_comparison_stops_when_its_allowance_runs_out() {
        let big = json!((0..1000).collect::<Vec<_>>());
        let mut allowance = 10;
        assert!(!equal(&big, &big.clone(), &mut allowance));
        assert_eq!(allowance, 0);
    }
}
