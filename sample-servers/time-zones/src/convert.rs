//! `convert_time`: a time in one zone as it reads in others.

use crate::time_input::{Fold, TimeInput, parse_time, resolve};
use crate::zone_lookup::{parse_zone, parse_zones};
use crate::zone_time::ZoneTime;
use chrono::{DateTime, SecondsFormat, Utc};
use chrono_tz::Tz;
use mcp_worker_sdk::{Json, ToolDef};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, JsonSchema)]
pub(crate) struct ConvertArgs {
    /// The time to convert: a wall-clock time read in `from_zone` ("2026-03-29T14:00" or "2026-03-29 14:00:00"),
    /// or an instant with its offset ("2026-03-29T12:00Z", "2026-03-29T14:00+02:00").
    pub(crate) time: String,
    /// The zone of the wall-clock time, e.g. "Europe/Paris". Required for a wall-clock time; for an instant,
    /// optional: the zone to show it in as the source.
    pub(crate) from_zone: Option<String>,
    /// The zones to convert to, e.g. ["America/New_York", "Asia/Tokyo"] (1 to 50).
    pub(crate) to_zones: Vec<String>,
    /// Only for a wall-clock time that happens twice because the clocks go back: "earlier" (still on summer
    /// time) or "later". Without it such a time is an error that shows both readings.
    pub(crate) fold: Option<Fold>,
}

/// A time and its readings in other zones.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Conversion {
    /// The instant in UTC, RFC 3339.
    pub(crate) utc: String,
    /// The time in the source zone (UTC for an instant given without `from_zone`).
    pub(crate) from: ZoneTime,
    /// The time in each target zone, in the order asked.
    pub(crate) to: Vec<Converted>,
}

/// The time in one target zone.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Converted {
    #[serde(flatten)]
    pub(crate) time: ZoneTime,
    /// The target's calendar date relative to the source's: -1 (the day before), 0 (the same day) or +1.
    pub(crate) day_offset: i64,
}

pub(crate) fn tool() -> ToolDef {
    ToolDef::new("convert_time", |args: ConvertArgs| async move { convert(&args).map(Json) })
        .title("Convert a time between zones")
        .description(
            "Converts a date and time from one IANA time zone to others (at most 50), with each one's UTC offset, \
             abbreviation, daylight-saving flag and whether it falls on another day. A wall-clock time skipped or \
             repeated by a daylight-saving change is answered with an explanation rather than a guess.",
        )
        .read_only()
}

pub(crate) fn convert(args: &ConvertArgs) -> Result<Conversion, String> {
    if args.to_zones.is_empty() {
        return Err("to_zones is empty: name at least one zone to convert to".to_owned());
    }
    let targets = parse_zones(&args.to_zones)?;
    let source_zone = args.from_zone.as_deref().map(parse_zone).transpose()?;
    let source: DateTime<Tz> = match (parse_time(&args.time)?, source_zone) {
        (TimeInput::Local(local), Some(zone)) => resolve(zone, local, args.fold)?,
        (TimeInput::Local(_), None) => {
            return Err(format!(
                "\"{}\" has no offset, so from_zone must say where it is on the clock (or add Z or an offset such \
                 as +02:00 to the time)",
                args.time.trim()
            ));
        }
        (TimeInput::Instant(instant), zone) => instant.with_timezone(&zone.unwrap_or(Tz::UTC)),
    };
    let utc = source.with_timezone(&Utc);
    let to = targets
        .iter()
        .map(|zone| {
            let there = utc.with_timezone(zone);
            let day_offset = (there.date_naive() - source.date_naive()).num_days();
            Converted { time: ZoneTime::from_local(&there), day_offset }
        })
        .collect();
    Ok(Conversion { utc: utc.to_rfc3339_opts(SecondsFormat::Secs, true), from: ZoneTime::from_local(&source), to })
}
