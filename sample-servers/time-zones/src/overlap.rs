//! `business_hours_overlap`: when the working days of several zones overlap.
//!
//! The day is the first zone's: its working hours on the given date are intersected with every other zone's
//! working hours on the local days around it (so Tokyo's Tuesday morning can meet San Francisco's Monday
//! afternoon). Hours are the same local hours in every zone; weekends are not skipped, but each window says the
//! weekday in every zone.

use crate::clock;
use crate::time_input::{parse_clock, parse_date, resolve_leniently};
use crate::zone_lookup::parse_zones;
use crate::zone_time::{format_duration, weekday_name};
use chrono::{DateTime, NaiveDate, NaiveTime, SecondsFormat, Utc};
use chrono_tz::Tz;
use mcp_worker_sdk::{Json, ToolDef};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The most zones compared at once.
const MAX_PARTICIPANTS: usize = 20;

#[derive(Deserialize, JsonSchema)]
pub(crate) struct OverlapArgs {
    /// The zones to bring together (2 to 20), e.g. ["America/New_York", "Europe/London", "Asia/Kolkata"]. The
    /// first one's calendar day is the one searched.
    pub(crate) zones: Vec<String>,
    /// When the working day starts, local time in every zone, "HH:MM" (09:00 when left out).
    pub(crate) work_start: Option<String>,
    /// When it ends, "HH:MM", after work_start (17:00 when left out).
    pub(crate) work_end: Option<String>,
    /// The day in the first zone, "2026-03-30" (today there when left out).
    pub(crate) date: Option<String>,
}

/// The overlapping windows.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Overlap {
    /// The day searched, in the first zone.
    pub(crate) date: String,
    /// The windows when everyone is within working hours, earliest first (empty when there is none).
    pub(crate) windows: Vec<Window>,
    /// The overlap in words.
    pub(crate) summary: String,
}

/// A window in which every zone is within working hours.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Window {
    /// Its start in UTC (RFC 3339).
    pub(crate) start_utc: String,
    /// Its end in UTC (RFC 3339).
    pub(crate) end_utc: String,
    /// Its length in minutes.
    pub(crate) minutes: i64,
    /// The window on each zone's clock, in the order given.
    pub(crate) local: Vec<LocalWindow>,
}

/// A window on one zone's clock.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct LocalWindow {
    /// The zone.
    pub(crate) zone: String,
    /// "Monday 09:00-11:30".
    pub(crate) hours: String,
}

pub(crate) fn tool() -> ToolDef {
    ToolDef::new("business_hours_overlap", |args: OverlapArgs| async move { overlap(&args, clock::now()).map(Json) })
        .title("Overlapping working hours")
        .description(
            "Finds when the working hours (09:00-17:00 local by default) of 2 to 20 time zones overlap on a given \
             day of the first zone, e.g. to schedule a meeting; gives each window in UTC and on every zone's clock.",
        )
        .read_only()
}

type Span = (DateTime<Utc>, DateTime<Utc>);

pub(crate) fn overlap(args: &OverlapArgs, now: DateTime<Utc>) -> Result<Overlap, String> {
    if !(2..=MAX_PARTICIPANTS).contains(&args.zones.len()) {
        return Err(format!("give 2 to {MAX_PARTICIPANTS} zones; {} given", args.zones.len()));
    }
    let zones = parse_zones(&args.zones)?;
    let start = parse_clock(args.work_start.as_deref().unwrap_or("09:00"))?;
    let end = parse_clock(args.work_end.as_deref().unwrap_or("17:00"))?;
    if end <= start {
        return Err(format!("work_end ({}) must be after work_start ({})", end.format("%H:%M"), start.format("%H:%M")));
    }
    let (first, others) = zones.split_first().ok_or("no zones given")?;
    let date = match args.date.as_deref() {
        Some(text) => parse_date(text)?,
        None => now.with_timezone(first).date_naive(),
    };
    let mut windows: Vec<Span> = working_span(*first, date, start, end).into_iter().collect();
    for zone in others {
        let theirs: Vec<Span> = [date.pred_opt(), Some(date), date.succ_opt()]
            .into_iter()
            .flatten()
            .filter_map(|day| working_span(*zone, day, start, end))
            .collect();
        windows =
            windows.iter().flat_map(|mine| theirs.iter().filter_map(move |their| intersect(*mine, *their))).collect();
    }
    windows.sort();
    let total: i64 = windows.iter().map(|(a, b)| (*b - *a).num_seconds()).sum();
    let summary = match windows.first() {
        None => format!(
            "no overlap: the working hours {}-{} of these zones never meet on {} in {}",
            start.format("%H:%M"),
            end.format("%H:%M"),
            date,
            first.name()
        ),
        Some((from, _)) => format!(
            "{} of overlap on {} in {}, from {} UTC",
            format_duration(total),
            date,
            first.name(),
            from.format("%H:%M")
        ),
    };
    Ok(Overlap {
        date: date.to_string(),
        windows: windows.iter().map(|span| describe(*span, &zones)).collect(),
        summary,
    })
}

/// One zone's working hours on one of its local days, as instants.
fn working_span(zone: Tz, day: NaiveDate, start: NaiveTime, end: NaiveTime) -> Option<Span> {
    let from = resolve_leniently(zone, day.and_time(start))?;
    let to = resolve_leniently(zone, day.and_time(end))?;
    (from < to).then(|| (from.to_utc(), to.to_utc()))
}

fn intersect(a: Span, b: Span) -> Option<Span> {
    let (start, end) = (a.0.max(b.0), a.1.min(b.1));
    (start < end).then_some((start, end))
}

fn describe((start, end): Span, zones: &[Tz]) -> Window {
    let local = zones
        .iter()
        .map(|zone| {
            // Within everyone's working hours, so within one local day everywhere.
            let (from, to) = (start.with_timezone(zone), end.with_timezone(zone));
            LocalWindow {
                zone: zone.name().to_owned(),
                hours: format!("{} {}-{}", weekday_name(&from), from.format("%H:%M"), to.format("%H:%M")),
            }
        })
        .collect();
    Window {
        start_utc: start.to_rfc3339_opts(SecondsFormat::Secs, true),
        end_utc: end.to_rfc3339_opts(SecondsFormat::Secs, true),
        minutes: (end - start).num_minutes(),
        local,
    }
}
