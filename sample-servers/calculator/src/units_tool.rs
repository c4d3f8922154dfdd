//! `find_units`: the unit names fend knows that start with a prefix, to spell a unit right.

use mcp_worker_sdk::JsonWithText;
use mcp_worker_sdk::ToolDef;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The most names one call lists.
const MAX_NAMES: usize = 200;

#[derive(Deserialize, JsonSchema)]
struct FindUnitsArgs {
    /// The start of a unit's name, e.g. `mil` (mile, milligram, millisecond…) or `kilo`. Case matters: `M` is
    /// mega, `m` is milli or metre.
    prefix: String,
}

/// Unit names.
#[derive(Debug, Serialize, JsonSchema)]
struct UnitNames {
    /// The names (singular), in alphabetical order.
    units: Vec<String>,
    /// True when there were more than 200.
    truncated: bool,
}

pub(crate) fn tool() -> ToolDef {
    ToolDef::new("find_units", |args: FindUnitsArgs| async move { find(&args.prefix) })
        .title("Find unit names")
        .description(
            "Lists the units (and constants) fend knows whose name starts with a prefix, e.g. `gal` → gallon, \
             galileo…, so `calculate` and `convert` get a name they understand. Prefixes such as kilo-, milli-, \
             mega- combine with most units without being listed. At most 200 names.",
        )
        .read_only()
        .idempotent()
}

fn find(prefix: &str) -> Result<JsonWithText<UnitNames>, String> {
    let prefix = prefix.trim();
    if prefix.is_empty() || prefix.len() > 100 || prefix.contains(char::is_whitespace) {
        return Err("give the start of one unit name, e.g. `mil`".into());
    }
    let mut units: Vec<String> = Vec::new();
    // fend lists the names longer than the prefix; the prefix itself may be a name too.
    if crate::evaluate::evaluate(&format!("1 {prefix}")).is_ok_and(|c| c.unit.is_some()) {
        units.push(prefix.to_owned());
    }
    let (_, completions) = fend_core::get_completions_for_prefix(prefix);
    units.extend(completions.iter().map(|c| c.display().to_owned()).filter(|name| !name.contains("CURRENCY")));
    units.sort();
    units.dedup();
    let truncated = units.len() > MAX_NAMES;
    units.truncate(MAX_NAMES);
    let text = if units.is_empty() {
        format!("no unit starts with {}", mcp_worker_sdk::protocol::quoted::quoted(prefix))
    } else {
        format!("{}{}", units.join(", "), if truncated { ", …" } else { "" })
    };
    Ok(JsonWithText { text, data: UnitNames { units, truncated } })
}
