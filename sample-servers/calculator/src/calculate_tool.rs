//! `calculate`: an expression in, its value (and unit) out.

use crate::budget::MAX_MILLIS;
use crate::evaluate::{MAX_EXPRESSION_BYTES, evaluate};
use mcp_worker_sdk::JsonWithText;
use mcp_worker_sdk::ToolDef;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
struct CalculateArgs {
    /// The expression, e.g. `5 feet to meters`, `2^64`, `sqrt(2)`, `100 km/h in mph`, `15% of 80`,
    /// `0xff to decimal`, `a = 3; b = 4; sqrt(a^2 + b^2)`.
    expression: String,
}

pub(crate) fn tool() -> ToolDef {
    ToolDef::new("calculate", |args: CalculateArgs| async move {
        evaluate(&args.expression)
            .map(|calculation| JsonWithText { text: calculation.result.clone(), data: calculation })
    })
    .title("Calculate")
    .description(format!(
        "Evaluates a math expression with units (fend, arbitrary precision): arithmetic, powers, roots, \
         trigonometry, logarithms, factorials, percentages, number bases (`0b101`, `to hex`), and conversions between \
         units (`5 feet to meters`, `100 km/h in mph`, `72 °F to °C`, `1 GiB to MB`). Returns the result as text and \
         split into value and unit. Variables live within one call (`a = 2; a * 3`). Offline and deterministic: no \
         currencies, no current date, no random numbers. At most {MAX_EXPRESSION_BYTES} bytes and {} seconds of \
         work (a longer calculation is stopped).",
        MAX_MILLIS / 1000.0
    ))
    .read_only()
    .idempotent()
}
