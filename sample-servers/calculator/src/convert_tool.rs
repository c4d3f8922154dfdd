//! `convert`: a quantity from one unit to another, without writing an expression.

use crate::evaluate::evaluate;
use mcp_worker_sdk::JsonWithText;
use mcp_worker_sdk::ToolDef;
use schemars::JsonSchema;
use serde::Deserialize;

/// The longest unit name accepted.
const MAX_UNIT_BYTES: usize = 200;

#[derive(Deserialize, JsonSchema)]
struct ConvertArgs {
    /// The quantity, e.g. 5 or 2.5.
    value: f64,
    /// The unit it is in, e.g. `feet`, `km/h`, `°F`, `kg`, `GiB`, `mi^2`.
    from: String,
    /// The unit to express it in, e.g. `meters`, `mph`, `°C`, `lbs`, `MB`, `acres`.
    to: String,
}

pub(crate) fn tool() -> ToolDef {
    ToolDef::new("convert", |args: ConvertArgs| async move {
        let expression = expression(&args)?;
        evaluate(&expression).map(|calculation| JsonWithText { text: calculation.result.clone(), data: calculation })
    })
    .title("Convert units")
    .description(
        "Converts a quantity between units of the same dimension: length, area, volume, mass, time, speed, \
         temperature (°C, °F, K), energy, power, pressure, data (bit, byte, KB, KiB…), angles and more. Units are \
         written as in `calculate` (`km/h`, `m^2`, `kWh`); `find_units` lists the names fend knows. Currencies are \
         not supported (offline).",
    )
    .read_only()
    .idempotent()
}

/// `value from to to`, refusing unit text that would make another expression.
fn expression(args: &ConvertArgs) -> Result<String, String> {
    if !args.value.is_finite() {
        return Err("the value must be a finite number".into());
    }
    for (field, unit) in [("from", &args.from), ("to", &args.to)] {
        if unit.trim().is_empty() {
            return Err(format!("`{field}` is empty: name a unit, e.g. `meters`"));
        }
        if unit.len() > MAX_UNIT_BYTES || unit.contains([';', '\n', '\r']) {
            return Err(format!("`{field}` must be one unit (at most {MAX_UNIT_BYTES} bytes, no `;` or newline)"));
        }
    }
    // Rust writes every finite double in plain decimal notation, which fend reads exactly.
    Ok(format!("{} ({}) to {}", args.value, args.from.trim(), args.to.trim()))
}
