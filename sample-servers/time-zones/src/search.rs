//! `find_zones`: zones by city, region, country or part of their name.

use crate::clock;
use crate::countries::{self, COUNTRIES};
use crate::zone_lookup::{normalize, parse_zone};
use crate::zone_time::ZoneTime;
use chrono::{DateTime, Utc};
use chrono_tz::TZ_VARIANTS;
use mcp_worker_sdk::{Json, ToolDef};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Results when the caller gives no limit, and the most it may ask for.
const DEFAULT_LIMIT: usize = 20;
const MAX_LIMIT: usize = 100;

#[derive(Deserialize, JsonSchema)]
pub(crate) struct FindArgs {
    /// What to look for: a city ("new york", "São Paulo" as "sao paulo"), a region ("Australia/"), a country
    /// name or two-letter ISO code ("Brazil", "DE"), or any part of a zone name. Case does not matter.
    pub(crate) query: String,
    /// The most zones to return (20 when left out, at most 100).
    pub(crate) limit: Option<usize>,
}

/// The zones found.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Found {
    /// How many zones matched, before `limit`.
    pub(crate) total_matches: usize,
    /// The zones, best matches first, each with its time now.
    pub(crate) zones: Vec<FoundZone>,
    /// The version of the IANA time zone database compiled into this server, e.g. "2025b".
    pub(crate) tzdb_version: String,
}

/// One zone found.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct FoundZone {
    /// The country that uses this zone, when known: "Brazil (BR)".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) country: Option<String>,
    /// The zone now.
    #[serde(flatten)]
    pub(crate) now: ZoneTime,
}

pub(crate) fn tool() -> ToolDef {
    ToolDef::new("find_zones", |args: FindArgs| async move { find(&args, clock::now()).map(Json) })
        .title("Find time zones")
        .description(
            "Searches the IANA time zone names by city, region, country name or ISO code (e.g. \"tokyo\", \
             \"Brazil\", \"DE\"), and gives each zone's current time and UTC offset. Use it to find the zone name \
             the other tools need. At most 100 results.",
        )
        .read_only()
}

pub(crate) fn find(args: &FindArgs, now: DateTime<Utc>) -> Result<Found, String> {
    let query = normalize(&args.query);
    if query.is_empty() || query.len() > 64 {
        return Err("query must have 1 to 64 characters".to_owned());
    }
    let limit = args.limit.unwrap_or(DEFAULT_LIMIT);
    if limit == 0 || limit > MAX_LIMIT {
        return Err(format!("limit must be 1 to {MAX_LIMIT}"));
    }
    let city = |name: &str| normalize(name).rsplit('/').next().unwrap_or_default().to_owned();
    let mut names: Vec<&'static str> = Vec::new();
    let mut add = |name: &'static str| {
        if !names.contains(&name) {
            names.push(name);
        }
    };
    // Best first: the city itself, then the zones of a country named, then every name containing the query.
    TZ_VARIANTS.iter().filter(|zone| city(zone.name()) == query).for_each(|zone| add(zone.name()));
    countries::matching(&query.replace('_', " ")).flat_map(|country| country.zones.iter()).for_each(|zone| add(zone));
    let mut containing: Vec<&'static str> =
        TZ_VARIANTS.iter().map(|zone| zone.name()).filter(|name| normalize(name).contains(&query)).collect();
    containing.sort_unstable();
    containing.into_iter().for_each(add);
    let zones = names
        .iter()
        .take(limit)
        .filter_map(|name| parse_zone(name).ok())
        .map(|zone| FoundZone { country: country_of(zone.name()), now: ZoneTime::at(now, zone) })
        .collect();
    Ok(Found { total_matches: names.len(), zones, tzdb_version: chrono_tz::IANA_TZDB_VERSION.to_owned() })
}

/// "Brazil (BR)", for a zone the country table lists.
fn country_of(zone: &str) -> Option<String> {
    COUNTRIES
        .iter()
        .find(|country| country.zones.contains(&zone))
        .map(|country| format!("{} ({})", country.name(), country.code))
}
