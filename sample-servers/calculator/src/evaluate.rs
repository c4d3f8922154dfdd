//! One expression through fend, offline and deterministic: a fresh context per call (no variables carried between
//! calls), no clock (`today` fails), no random numbers (`roll d6` fails), no exchange rates (currencies fail), and a
//! time budget.

use crate::budget::{MAX_MILLIS, TimeBudget};
use fend_core::{Context, SpanKind};
use schemars::JsonSchema;
use serde::Serialize;

/// The longest expression accepted.
pub(crate) const MAX_EXPRESSION_BYTES: usize = 4096;

/// The longest result returned in full (a huge integer is cut, with a note).
pub(crate) const MAX_RESULT_CHARS: usize = 10_000;

/// A result, in parts.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Calculation {
    /// The result as fend writes it, e.g. "1.524 meters" or "approx. 1.4142135623".
    pub(crate) result: String,
    /// The number alone, e.g. "1.524", when the result is a number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) value: Option<String>,
    /// The unit alone, e.g. "meters", when the result has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) unit: Option<String>,
    /// True when the result is rounded (fend writes "approx.").
    pub(crate) approximate: bool,
}

/// Evaluates an expression, or says why it cannot be.
pub(crate) fn evaluate(expression: &str) -> Result<Calculation, String> {
    if expression.len() > MAX_EXPRESSION_BYTES {
        return Err(format!("the expression is {} bytes; the limit is {MAX_EXPRESSION_BYTES}", expression.len()));
    }
    if expression.trim().is_empty() {
        return Err("the expression is empty".into());
    }
    let mut context = Context::new();
    let budget = TimeBudget::new(MAX_MILLIS);
    let outcome = fend_core::evaluate_with_interrupt(expression, &mut context, &budget);
    let result = match outcome {
        Ok(result) => result,
        Err(_) if budget.exhausted() => {
            return Err(format!("the calculation is too large: it was stopped after {} seconds", MAX_MILLIS / 1000.0));
        }
        Err(e) => return Err(explain(e)),
    };
    let mut text = result.get_main_result().trim().to_owned();
    let (mut value, mut unit) = (String::new(), String::new());
    for span in result.get_main_result_spans() {
        match span.kind() {
            SpanKind::Number if unit.is_empty() => value.push_str(span.string()),
            _ if value.is_empty() => {}
            _ => unit.push_str(span.string()),
        }
    }
    let approximate = text.starts_with("approx. ");
    if text.chars().count() > MAX_RESULT_CHARS {
        let cut: String = text.chars().take(MAX_RESULT_CHARS).collect();
        text = format!("{cut}… (cut at {MAX_RESULT_CHARS} characters)");
        value.clear();
    }
    let unit = unit.trim();
    Ok(Calculation {
        result: text,
        value: (!value.is_empty()).then_some(value),
        unit: (!unit.is_empty()).then(|| unit.to_owned()),
        approximate,
    })
}

/// fend's error, with a word on what this server leaves out when that is the cause.
fn explain(error: String) -> String {
    let lower = error.to_lowercase();
    if lower.contains("exchange rate") || lower.contains("currenc") {
        format!("{error} (currencies are not supported: this calculator is offline and has no exchange rates)")
    } else if lower.contains("current time") || lower.contains("current date") {
        format!("{error} (this calculator has no clock: give dates explicitly)")
    } else if lower.contains("random") {
        format!("{error}: this calculator's results are deterministic")
    } else {
        error
    }
}
