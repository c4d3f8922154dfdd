//! `time_difference`: how far apart two zones' clocks are, now or at a given date.

use crate::clock;
use crate::time_input::{TimeInput, parse_date, parse_time};
use crate::zone_lookup::parse_zone;
use crate::zone_time::{ZoneTime, format_duration, format_offset};
use chrono::{DateTime, NaiveTime, Offset, SecondsFormat, Utc};
use mcp_worker_sdk::{Json, ToolDef};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, JsonSchema)]
pub(crate) struct DifferenceArgs {
    /// The zone to compare from, e.g. "Europe/London".
    pub(crate) from_zone: String,
    /// The zone to compare with, e.g. "Asia/Kolkata".
    pub(crate) to_zone: String,
    /// When to compare, since daylight saving changes the difference: a date ("2026-07-01", taken at 12:00 UTC)
    /// or an instant with its offset ("2026-07-01T09:00Z"). Now when left out.
    pub(crate) at: Option<String>,
}

/// Two zones' clocks compared at one instant.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Difference {
    /// The instant compared at, in UTC (RFC 3339).
    pub(crate) at_utc: String,
    /// That instant in `from_zone`.
    pub(crate) from: ZoneTime,
    /// That instant in `to_zone`.
    pub(crate) to: ZoneTime,
    /// `to_zone`'s offset minus `from_zone`'s, in seconds: positive when `to_zone`'s clocks are ahead.
    pub(crate) difference_seconds: i64,
    /// The same as hours: 4.5, -8.
    pub(crate) difference_hours: f64,
    /// The same in words: "Asia/Kolkata is 4 hours 30 minutes ahead of Europe/London".
    pub(crate) summary: String,
}

pub(crate) fn tool() -> ToolDef {
    ToolDef::new("time_difference", |args: DifferenceArgs| async move {
        let at = match args.at.as_deref() {
            Some(text) => parse_instant(text)?,
            None => clock::now(),
        };
        difference(&args.from_zone, &args.to_zone, at).map(Json)
    })
    .title("Difference between two zones")
    .description(
        "How many hours one IANA time zone's clocks are ahead of or behind another's, now or at a given date \
         (daylight saving time changes the answer through the year).",
    )
    .read_only()
}

/// A date (at noon UTC) or an instant with its offset.
fn parse_instant(text: &str) -> Result<DateTime<Utc>, String> {
    if let Ok(date) = parse_date(text) {
        return Ok(date.and_time(NaiveTime::MIN + chrono::TimeDelta::hours(12)).and_utc());
    }
    match parse_time(text)? {
        TimeInput::Instant(instant) => Ok(instant),
        TimeInput::Local(_) => Err(format!(
            "\"{}\" has no offset: give a date (2026-07-01) or an instant such as 2026-07-01T09:00Z",
            text.trim()
        )),
    }
}

pub(crate) fn difference(from_zone: &str, to_zone: &str, at: DateTime<Utc>) -> Result<Difference, String> {
    let (from_zone, to_zone) = (parse_zone(from_zone), parse_zone(to_zone));
    let (from_zone, to_zone) = match (from_zone, to_zone) {
        (Ok(from), Ok(to)) => (from, to),
        (Err(a), Err(b)) => return Err(format!("{a}; {b}")),
        (Err(e), _) | (_, Err(e)) => return Err(e),
    };
    let (from, to) = (at.with_timezone(&from_zone), at.with_timezone(&to_zone));
    let seconds = i64::from(to.offset().fix().local_minus_utc() - from.offset().fix().local_minus_utc());
    let summary = match seconds {
        0 => format!("{} and {} show the same time", to_zone.name(), from_zone.name()),
        s => format!(
            "{} is {} {} {} ({})",
            to_zone.name(),
            format_duration(s),
            if s > 0 { "ahead of" } else { "behind" },
            from_zone.name(),
            format_offset(i32::try_from(s).unwrap_or_default())
        ),
    };
    #[allow(clippy::cast_precision_loss, reason = "a difference of at most a few days of seconds")]
    let difference_hours = seconds as f64 / 3600.0;
    Ok(Difference {
        at_utc: at.to_rfc3339_opts(SecondsFormat::Secs, true),
        from: ZoneTime::from_local(&from),
        to: ZoneTime::from_local(&to),
        difference_seconds: seconds,
        difference_hours,
        summary,
    })
}
