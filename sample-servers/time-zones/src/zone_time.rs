//! One instant as it reads in one zone: what every tool answers with.

use chrono::{DateTime, Offset, SecondsFormat, TimeZone, Utc};
use chrono_tz::{OffsetComponents, OffsetName, Tz};
use schemars::JsonSchema;
use serde::Serialize;

/// An instant in a zone.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct ZoneTime {
    /// The IANA zone name.
    pub(crate) zone: String,
    /// The wall-clock time there, ISO 8601 without offset: "2026-03-29T14:00:00".
    pub(crate) local_time: String,
    /// The same with its offset (RFC 3339): "2026-03-29T14:00:00+02:00".
    pub(crate) iso: String,
    /// The day of the week there: "Sunday".
    pub(crate) weekday: String,
    /// The offset from UTC in force: "+02:00".
    pub(crate) utc_offset: String,
    /// The zone's abbreviation at that time, as the IANA database gives it: "CEST", or "+03" where it has none.
    pub(crate) abbreviation: String,
    /// Whether daylight saving (summer) time is in force.
    pub(crate) is_dst: bool,
}

impl ZoneTime {
    /// The instant `utc` as it reads in `zone`.
    pub(crate) fn at(utc: DateTime<Utc>, zone: Tz) -> Self {
        Self::from_local(&utc.with_timezone(&zone))
    }

    /// A date-time already in its zone.
    pub(crate) fn from_local(time: &DateTime<Tz>) -> Self {
        let offset = time.offset();
        Self {
            zone: time.timezone().name().to_owned(),
            local_time: time.format("%Y-%m-%dT%H:%M:%S").to_string(),
            iso: time.to_rfc3339_opts(SecondsFormat::Secs, false),
            weekday: weekday_name(time),
            utc_offset: format_offset(offset.fix().local_minus_utc()),
            abbreviation: offset.abbreviation().unwrap_or_default().to_owned(),
            is_dst: !offset.dst_offset().is_zero(),
        }
    }
}

/// The weekday's English name.
pub(crate) fn weekday_name<Z: TimeZone>(time: &DateTime<Z>) -> String
where
    Z::Offset: std::fmt::Display,
{
    time.format("%A").to_string()
}

/// `+05:30`, `-03:00`, `+00:00`, and `+00:09:21` for the odd local mean times of the 19th century.
pub(crate) fn format_offset(seconds: i32) -> String {
    let sign = if seconds < 0 { '-' } else { '+' };
    let seconds = seconds.unsigned_abs();
    let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if rest == 0 {
        format!("{sign}{hours:02}:{minutes:02}")
    } else {
        format!("{sign}{hours:02}:{minutes:02}:{rest:02}")
    }
}

/// "5 hours 30 minutes", "1 hour", "0 minutes".
pub(crate) fn format_duration(seconds: i64) -> String {
    let seconds = seconds.unsigned_abs();
    let (hours, minutes) = (seconds / 3600, seconds / 60 % 60);
    let plural = |n: u64, unit: &str| format!("{n} {unit}{}", if n == 1 { "" } else { "s" });
    match (hours, minutes) {
        (0, minutes) => plural(minutes, "minute"),
        (hours, 0) => plural(hours, "hour"),
        (hours, minutes) => format!("{} {}", plural(hours, "hour"), plural(minutes, "minute")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_and_durations_read_naturally() {
        assert_eq!(format_offset(19_800), "+05:30");
        assert_eq!(format_offset(-10_800), "-03:00");
        assert_eq!(format_offset(0), "+00:00");
        assert_eq!(format_offset(561), "+00:09:21");
        assert_eq!(format_duration(-19_800), "5 hours 30 minutes");
        assert_eq!(format_duration(3600), "1 hour");
        assert_eq!(format_duration(2700), "45 minutes");
    }
}
