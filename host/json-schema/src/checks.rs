//! Keywords that look at one value: `type`, `enum`, `const`, numeric bounds, string length and `pattern`, each
//! paid for in steps of the validation's [`Work`].

use super::{ValidationError, equality, excerpt, push};
use crate::pattern::Patterns;
use crate::work::{self, Work};
use serde_json::{Map, Value};

/// At most this many type names are shown in a message.
const TYPES_SHOWN: usize = 8;

pub(super) fn generic(
    schema: &Map<String, Value>,
    instance: &Value,
    path: &str,
    errors: &mut Vec<ValidationError>,
    work: &mut Work,
) {
    match schema.get("type") {
        Some(Value::String(expected)) if !has_type(instance, expected) => {
            push(errors, path, || format!("expected {}, got {}", excerpt::prefix(expected, 40), describe(instance)));
        }
        Some(Value::Array(expected)) => {
            if !work.spend(expected.len() as u64 * work::READ) {
                return;
            }
            if !expected.iter().any(|t| t.as_str().is_some_and(|t| has_type(instance, t))) {
                push(errors, path, || {
                    let names: Vec<&str> = expected.iter().filter_map(Value::as_str).take(TYPES_SHOWN).collect();
                    let names: Vec<&str> = names.into_iter().map(|t| excerpt::prefix(t, 40)).collect();
                    format!("expected {}, got {}", names.join(" or "), describe(instance))
                });
            }
        }
        _ => {}
    }
    if let Some(listed @ Value::Array(allowed)) = schema.get("enum")
        && !allowed.iter().any(|v| equal(v, instance, work))
        && !work.exhausted()
    {
        push(errors, path, || format!("must be one of {}, got {}", excerpt::json(listed), describe(instance)));
    }
    if let Some(constant) = schema.get("const")
        && !equal(constant, instance, work)
        && !work.exhausted()
    {
        push(errors, path, || format!("must be {}, got {}", excerpt::json(constant), describe(instance)));
    }
}

/// [`equality::equal`] paid for: a step per pair of values compared (see there).
pub(super) fn equal(a: &Value, b: &Value, work: &mut Work) -> bool {
    let allowance = work.remaining();
    let mut left = allowance;
    let equal = equality::equal(a, b, &mut left);
    // Running out leaves `left` at 0: the spend then goes over the budget by one.
    work.spend(allowance - left + u64::from(left == 0));
    equal
}

pub(super) fn number(schema: &Map<String, Value>, instance: &Value, path: &str, errors: &mut Vec<ValidationError>) {
    let Some(x) = instance.as_f64() else { return };
    let bound = |key: &str| schema.get(key).and_then(Value::as_f64);
    // Draft-04 wrote exclusive bounds as booleans next to `minimum`/`maximum`.
    let old_exclusive = |key: &str| schema.get(key).and_then(Value::as_bool).unwrap_or(false);
    if let Some(min) = bound("minimum") {
        if old_exclusive("exclusiveMinimum") && x <= min {
            push(errors, path, || format!("must be greater than {}, got {}", show(min), excerpt::json(instance)));
        } else if x < min {
            push(errors, path, || format!("must be at least {}, got {}", show(min), excerpt::json(instance)));
        }
    }
    if let Some(max) = bound("maximum") {
        if old_exclusive("exclusiveMaximum") && x >= max {
            push(errors, path, || format!("must be less than {}, got {}", show(max), excerpt::json(instance)));
        } else if x > max {
            push(errors, path, || format!("must be at most {}, got {}", show(max), excerpt::json(instance)));
        }
    }
    if let Some(min) = bound("exclusiveMinimum")
        && x <= min
    {
        push(errors, path, || format!("must be greater than {}, got {}", show(min), excerpt::json(instance)));
    }
    if let Some(max) = bound("exclusiveMaximum")
        && x >= max
    {
        push(errors, path, || format!("must be less than {}, got {}", show(max), excerpt::json(instance)));
    }
    if let Some(step) = bound("multipleOf").filter(|s| *s > 0.0) {
        let quotient = x / step;
        let tolerance = 1e-9 * quotient.abs().max(1.0);
        if (quotient - quotient.round()).abs() > tolerance {
            push(errors, path, || format!("must be a multiple of {}, got {}", show(step), excerpt::json(instance)));
        }
    }
}

pub(super) fn string(
    schema: &Map<String, Value>,
    text: &str,
    path: &str,
    errors: &mut Vec<ValidationError>,
    work: &mut Work,
    patterns: &mut Patterns,
) {
    let min = schema.get("minLength").and_then(Value::as_u64);
    let max = schema.get("maxLength").and_then(Value::as_u64);
    if (min.is_some() || max.is_some()) && work.spend(text.len() as u64 / work::TEXT_BYTES_PER_STEP) {
        let length = text.chars().count() as u64;
        if let Some(min) = min.filter(|min| length < *min) {
            push(errors, path, || format!("must be at least {min} characters long, got {length}"));
        }
        if let Some(max) = max.filter(|max| length > *max) {
            push(errors, path, || format!("must be at most {max} characters long, got {length}"));
        }
    }
    if let Some(regex) = schema.get("pattern").and_then(Value::as_str)
        && !patterns.matches(regex, text, work)
    {
        push(errors, path, || format!("must match the pattern {}", excerpt::quoted(regex)));
    }
}

pub(super) fn has_type(instance: &Value, expected: &str) -> bool {
    match expected {
        "null" => instance.is_null(),
        "boolean" => instance.is_boolean(),
        "object" => instance.is_object(),
        "array" => instance.is_array(),
        "string" => instance.is_string(),
        "number" => instance.is_number(),
        // 2020-12: a number with a zero fractional part is an integer (1.0 is).
        "integer" => instance.is_i64() || instance.is_u64() || instance.as_f64().is_some_and(|x| x.fract() == 0.0),
        _ => true,
    }
}

/// A short description of a value for messages: its type, and the value itself when short.
pub(super) fn describe(value: &Value) -> String {
    let kind = match value {
        Value::Null => return "null".into(),
        Value::Bool(b) => return format!("boolean {b}"),
        Value::Number(n) => return format!("number {n}"),
        // A string longer than this is never shown whole (40 characters are at most 160 bytes).
        Value::String(text) if text.len() > 160 => return "string".into(),
        Value::String(_) => "string",
        Value::Array(_) => return "an array".into(),
        Value::Object(_) => return "an object".into(),
    };
    let shown = excerpt::json(value);
    if shown.chars().count() <= 40 { format!("{kind} {shown}") } else { kind.into() }
}

/// A bound as a message shows it: whole numbers without a fraction, others as JSON writes them (serde_json's
/// shortest round trip). `f64`'s own `Display` would link the standard library's float formatting, about 14 KB of
/// wasm, for these messages alone.
fn show(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        return (x as i64).to_string();
    }
    serde_json::Number::from_f64(x).map_or_else(|| "a number".to_owned(), |n| n.to_string())
}
