//! `now`: the current time in the zones asked for.

use crate::clock;
use crate::zone_lookup::parse_zones;
use crate::zone_time::ZoneTime;
use chrono::{DateTime, SecondsFormat, Utc};
use chrono_tz::Tz;
use mcp_worker_sdk::{Json, ToolDef};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, JsonSchema)]
struct NowArgs {
    /// IANA zone names, e.g. ["Europe/Paris", "America/New_York"] (at most 50; case and spaces do not matter).
    /// UTC alone when left out.
    zones: Option<Vec<String>>,
}

/// The current instant, in UTC and in each zone asked for.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Now {
    /// The current instant in UTC, RFC 3339: "2026-03-29T12:00:00Z".
    pub(crate) utc: String,
    /// The same as seconds since 1970-01-01T00:00:00Z.
    pub(crate) unix_seconds: i64,
    /// The instant in each zone, in the order asked.
    pub(crate) times: Vec<ZoneTime>,
}

pub(crate) fn tool() -> ToolDef {
    ToolDef::new("now", |args: NowArgs| async move {
        let zones = parse_zones(&args.zones.unwrap_or_else(|| vec!["UTC".to_owned()]))?;
        Ok::<_, String>(Json(now_in(clock::now(), &zones)))
    })
    .title("Current time")
    .description(
        "The current date and time in one or more IANA time zones (UTC when none is given), with each zone's UTC \
         offset, abbreviation and whether daylight saving time is in force. At most 50 zones.",
    )
    .read_only()
}

/// The instant `utc` in each zone.
pub(crate) fn now_in(utc: DateTime<Utc>, zones: &[Tz]) -> Now {
    Now {
        utc: utc.to_rfc3339_opts(SecondsFormat::Secs, true),
        unix_seconds: utc.timestamp(),
        times: zones.iter().map(|zone| ZoneTime::at(utc, *zone)).collect(),
    }
}
