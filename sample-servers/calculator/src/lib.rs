//! The calculator server: math with units, by fend (arbitrary precision, pure Rust), offline and deterministic.
//!
//! Each call gets a fresh fend context: no variables carried between calls, no clock, no random numbers, no
//! exchange rates (so no currencies), and a time budget (see `budget`) so no expression holds the worker for long.

mod budget;
mod calculate_tool;
mod convert_tool;
mod evaluate;
mod units_tool;

use mcp_worker_sdk::{Env, Server};

/// Builds the calculator server.
pub fn server(_env: &Env) -> Server {
    Server::new("calculator", env!("CARGO_PKG_VERSION"))
        .title("Calculator")
        .description("Exact math with units and conversions (fend), offline")
        .instructions(
            "Use `calculate` for any arithmetic instead of computing by hand: it is exact (arbitrary precision) and \
             knows units. Examples: `2^64`, `sqrt(2)`, `5 feet to meters`, `100 km/h in mph`, `72 °F to °C`, \
             `3 hours + 25 minutes to minutes`, `15% of 80`, `255 to hex`, `1 GiB to MB`, `sin(30°)`, \
             `a = 3; b = 4; sqrt(a^2 + b^2)`. `convert` takes a number and two unit names; `find_units` finds how a \
             unit is spelled. Not supported: currencies, the current date, random numbers.",
        )
        .tool(calculate_tool::tool())
        .tool(convert_tool::tool())
        .tool(units_tool::tool())
}

mcp_worker_sdk::export_server!(server);
