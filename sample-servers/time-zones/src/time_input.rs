//! Dates and times as the tools accept them, read strictly (ISO 8601 shapes only, so "03/04" is never guessed),
//! and local times resolved in a zone with the daylight-saving cases said plainly.

use crate::zone_time::format_offset;
use chrono::{DateTime, Datelike, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, Offset, TimeZone, Utc};
use chrono_tz::{GapInfo, OffsetName, Tz};
use schemars::JsonSchema;
use serde::Deserialize;

/// The years accepted: chrono-tz lists daylight-saving changes up to 2099 only (later times would silently stay
/// on winter time), and before 1900 most zones were on local mean time.
const YEARS: std::ops::RangeInclusive<i32> = 1900..=2099;

/// A time as given: a wall-clock time still to be placed in a zone, or an instant (it carried an offset).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum TimeInput {
    Local(NaiveDateTime),
    Instant(DateTime<Utc>),
}

/// Which of two readings of a wall-clock time that happens twice (when clocks go back) to take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Fold {
    /// The first occurrence, still on summer time.
    Earlier,
    /// The second occurrence, after the clocks went back.
    Later,
}

const LOCAL_FORMATS: &[&str] = &["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%d %H:%M"];
const OFFSET_FORMATS: &[&str] =
    &["%Y-%m-%dT%H:%M:%S%.f%:z", "%Y-%m-%dT%H:%M%:z", "%Y-%m-%d %H:%M:%S%.f%:z", "%Y-%m-%d %H:%M%:z"];

/// Reads "2026-03-29T14:00[:00]" (a wall-clock time) or the same with "Z" or "+02:00" (an instant).
pub(crate) fn parse_time(text: &str) -> Result<TimeInput, String> {
    let text = text.trim();
    let with_offset = match text.strip_suffix(['Z', 'z']) {
        Some(utc) => format!("{utc}+00:00"),
        None => text.to_owned(),
    };
    let instant = OFFSET_FORMATS.iter().find_map(|format| DateTime::parse_from_str(&with_offset, format).ok());
    let parsed = match instant {
        Some(instant) => TimeInput::Instant(instant.with_timezone(&Utc)),
        None => LOCAL_FORMATS
            .iter()
            .find_map(|format| NaiveDateTime::parse_from_str(text, format).ok())
            .map(TimeInput::Local)
            .ok_or_else(|| {
                format!(
                    "could not read \"{text}\" as a date-time: write 2026-03-29T14:00 for a wall-clock time, or \
                     2026-03-29T14:00Z / 2026-03-29T14:00+02:00 for an instant"
                )
            })?,
    };
    check_year(match parsed {
        TimeInput::Local(local) => local.year(),
        TimeInput::Instant(instant) => instant.year(),
    })?;
    Ok(parsed)
}

/// Reads "2026-03-29".
pub(crate) fn parse_date(text: &str) -> Result<NaiveDate, String> {
    let date = NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d")
        .map_err(|_| format!("could not read \"{}\" as a date: write it as 2026-03-29", text.trim()))?;
    check_year(date.year())?;
    Ok(date)
}

/// Reads "09:00" or "17:30".
pub(crate) fn parse_clock(text: &str) -> Result<NaiveTime, String> {
    NaiveTime::parse_from_str(text.trim(), "%H:%M")
        .map_err(|_| format!("could not read \"{}\" as a time of day: write it as 09:00 or 17:30", text.trim()))
}

fn check_year(year: i32) -> Result<(), String> {
    if YEARS.contains(&year) {
        Ok(())
    } else {
        Err(format!("the year {year} is out of range: give a year from {} to {}", YEARS.start(), YEARS.end()))
    }
}

/// Places a wall-clock time in a zone. A time that happens twice needs a `fold`; one that never happens (the hour
/// skipped when clocks go forward) is an error saying what the clocks do.
pub(crate) fn resolve(zone: Tz, local: NaiveDateTime, fold: Option<Fold>) -> Result<DateTime<Tz>, String> {
    match (zone.from_local_datetime(&local), fold) {
        (chrono::LocalResult::Single(time), _) => Ok(time),
        (chrono::LocalResult::Ambiguous(earlier, _), Some(Fold::Earlier)) => Ok(earlier),
        (chrono::LocalResult::Ambiguous(_, later), Some(Fold::Later)) => Ok(later),
        (chrono::LocalResult::Ambiguous(earlier, later), None) => Err(format!(
            "{} happens twice in {}, as the clocks go back from {} to {}: pass fold \"earlier\" for {} or \"later\" \
             for {}",
            show(local),
            zone.name(),
            describe_offset(&earlier),
            describe_offset(&later),
            earlier.to_rfc3339(),
            later.to_rfc3339()
        )),
        (chrono::LocalResult::None, _) => Err(nonexistent(zone, local)),
    }
}

/// Places a wall-clock time in a zone without asking: the earlier of two readings, and for a skipped time the
/// moment the clocks jumped to (where a working day starting in the skipped hour really starts).
pub(crate) fn resolve_leniently(zone: Tz, local: NaiveDateTime) -> Option<DateTime<Tz>> {
    zone.from_local_datetime(&local).earliest().or_else(|| GapInfo::new(&local, &zone).and_then(|gap| gap.end))
}

fn nonexistent(zone: Tz, local: NaiveDateTime) -> String {
    let Some(gap) = GapInfo::new(&local, &zone) else {
        return format!("{} does not exist in {}", show(local), zone.name());
    };
    match (gap.begin, gap.end) {
        (Some((begin, before)), Some(end)) => {
            let jump = i64::from(end.offset().fix().local_minus_utc() - before.fix().local_minus_utc());
            let moved = local + chrono::TimeDelta::seconds(jump);
            format!(
                "{} does not exist in {}: the clocks jump from {} {} to {} {}. Did you mean {} (the same moment \
                 on a clock moved forward)?",
                show(local),
                zone.name(),
                begin.format("%H:%M"),
                describe_fixed(before.abbreviation(), before.fix()),
                end.format("%H:%M"),
                describe_offset(&end),
                show(moved)
            )
        }
        _ => format!("{} does not exist in {} (the clocks skip it)", show(local), zone.name()),
    }
}

/// "2026-03-29 02:30".
fn show(local: NaiveDateTime) -> String {
    local.format("%Y-%m-%d %H:%M").to_string()
}

/// "EDT (-04:00)".
fn describe_offset(time: &DateTime<Tz>) -> String {
    describe_fixed(time.offset().abbreviation(), time.offset().fix())
}

fn describe_fixed(abbreviation: Option<&str>, offset: FixedOffset) -> String {
    let offset = format_offset(offset.local_minus_utc());
    match abbreviation {
        Some(name) if !name.starts_with(['+', '-']) => format!("{name} ({offset})"),
        _ => offset,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local(text: &str) -> NaiveDateTime {
        match parse_time(text) {
            Ok(TimeInput::Local(local)) => local,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn only_iso_shapes_are_read() {
        assert!(matches!(parse_time("2026-03-29T14:00"), Ok(TimeInput::Local(_))));
        assert!(matches!(parse_time("2026-03-29 14:00:30"), Ok(TimeInput::Local(_))));
        let Ok(TimeInput::Instant(instant)) = parse_time("2026-03-29T14:00+02:00") else { panic!() };
        assert_eq!(instant.to_rfc3339(), "2026-03-29T12:00:00+00:00");
        assert!(matches!(parse_time("2026-03-29T14:00:00Z"), Ok(TimeInput::Instant(_))));
        assert!(parse_time("03/29/2026 2pm").unwrap_err().contains("could not read"));
        assert!(parse_time("2026-02-30T10:00").is_err());
        assert!(parse_time("2100-01-01T00:00").unwrap_err().contains("out of range"));
        assert!(parse_date("2026-13-01").is_err());
        assert!(parse_clock("9am").is_err());
    }

    #[test]
    fn daylight_saving_edges_are_explained() {
        let error = resolve(Tz::America__New_York, local("2026-03-08T02:30"), None).unwrap_err();
        assert_eq!(
            error,
            "2026-03-08 02:30 does not exist in America/New_York: the clocks jump from 02:00 EST (-05:00) to 03:00 \
             EDT (-04:00). Did you mean 2026-03-08 03:30 (the same moment on a clock moved forward)?"
        );
        let error = resolve(Tz::America__New_York, local("2026-11-01T01:30"), None).unwrap_err();
        assert!(error.contains("happens twice"), "{error}");
        assert!(error.contains("\"earlier\" for 2026-11-01T01:30:00-04:00"), "{error}");
        let later = resolve(Tz::America__New_York, local("2026-11-01T01:30"), Some(Fold::Later)).unwrap();
        assert_eq!(later.to_rfc3339(), "2026-11-01T01:30:00-05:00");
        let start = resolve_leniently(Tz::America__New_York, local("2026-03-08T02:30")).unwrap();
        assert_eq!(start.to_rfc3339(), "2026-03-08T03:00:00-04:00");
    }
}
