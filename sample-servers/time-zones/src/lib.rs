//! The time-zones server: the current time, conversions and differences between time zones, and overlapping
//! working hours, all offline. The IANA time zone database is compiled in (chrono-tz); the current instant comes
//! from the platform's clock.

mod clock;
mod convert;
mod countries;
mod current;
mod difference;
mod overlap;
mod search;
mod time_input;
mod zone_lookup;
mod zone_time;

use mcp_worker_sdk::{Env, Server};

/// Builds the time-zones server.
pub fn server(_env: &Env) -> Server {
    Server::new("time-zones", env!("CARGO_PKG_VERSION"))
        .title("Time Zones")
        .description(format!(
            "The current time in any time zone, conversions between zones, differences and overlapping working \
             hours, offline (IANA time zone database {})",
            chrono_tz::IANA_TZDB_VERSION
        ))
        .instructions(
            "Zones are IANA names such as \"Europe/Paris\" or \"America/New_York\" (case and spaces do not matter); \
             find_zones finds them from a city or country. Times are ISO 8601: \"2026-03-29T14:00\" is a wall-clock \
             time read in a zone, \"2026-03-29T12:00Z\" or \"...+02:00\" an instant. Use now for the current time \
             rather than guessing it, convert_time for a meeting time in other zones, time_difference for the \
             hours between two zones, business_hours_overlap to find a slot for people in several zones.",
        )
        .tool(current::tool())
        .tool(convert::tool())
        .tool(difference::tool())
        .tool(search::tool())
        .tool(overlap::tool())
}

mcp_worker_sdk::export_server!(server);
