//! Zone names as people type them: exact IANA names, matched regardless of case and with spaces for underscores
//! ("america/new york"), and nothing looser. A name that matches no zone is an error naming the closest zones.

use crate::countries;
use chrono_tz::{TZ_VARIANTS, Tz};

/// How many zones an error suggests.
const SUGGESTIONS: usize = 5;

/// The longest zone name accepted (the longest IANA name has 30 characters).
const MAX_NAME_LEN: usize = 64;

/// The zone a name designates, or an error that says what was wrong and what might have been meant.
pub(crate) fn parse_zone(input: &str) -> Result<Tz, String> {
    let name = input.trim();
    if name.is_empty() {
        return Err("a zone name is empty; give an IANA name such as \"Europe/Paris\" or \"UTC\"".to_owned());
    }
    if name.len() > MAX_NAME_LEN {
        return Err(format!("\"{}…\" is too long to be a zone name", truncate(name, 40)));
    }
    if let Ok(zone) = name.parse::<Tz>() {
        return Ok(zone);
    }
    let wanted = normalize(name);
    if let Some(zone) = TZ_VARIANTS.iter().find(|zone| normalize(zone.name()) == wanted) {
        return Ok(*zone);
    }
    Err(unknown_zone_message(name))
}

/// The most zones one call takes.
pub(crate) const MAX_ZONES: usize = 50;

/// Several zone names, each checked; the error lists every name that is wrong.
pub(crate) fn parse_zones(names: &[String]) -> Result<Vec<Tz>, String> {
    if names.len() > MAX_ZONES {
        return Err(format!("{} zones given; at most {MAX_ZONES} per call", names.len()));
    }
    let (zones, errors): (Vec<_>, Vec<_>) = names.iter().map(|name| parse_zone(name)).partition(Result::is_ok);
    if errors.is_empty() {
        Ok(zones.into_iter().flatten().collect())
    } else {
        Err(errors.into_iter().filter_map(Result::err).collect::<Vec<_>>().join("; "))
    }
}

/// Lowercase, with spaces as underscores: the form names are compared in.
pub(crate) fn normalize(name: &str) -> String {
    name.trim().to_lowercase().replace(' ', "_")
}

fn unknown_zone_message(name: &str) -> String {
    if let Some(hours) = offset_hours(name) {
        let fixed = match hours {
            // IANA's fixed-offset zones run from Etc/GMT-14 (UTC+14) to Etc/GMT+12 (UTC-12), their sign inverted.
            Some(hours @ -12..=14) if hours != 0 => format!(" \"Etc/GMT{:+}\"", -hours),
            Some(0) => " \"UTC\"".to_owned(),
            _ => " an \"Etc/GMT\" zone (whole hours only, sign inverted: Etc/GMT-2 is UTC+02:00)".to_owned(),
        };
        return format!(
            "\"{name}\" is an offset, not a time zone: give a zone such as \"Europe/Paris\", which follows daylight \
             saving, or for a fixed offset{fixed}"
        );
    }
    let suggestions = suggest(name);
    if suggestions.is_empty() {
        format!("unknown time zone \"{name}\"; zone names look like \"Europe/Paris\" (find_zones searches them)")
    } else {
        format!("unknown time zone \"{name}\"; did you mean {}?", quoted_list(&suggestions))
    }
}

/// For an offset written as a zone ("UTC+2", "GMT-05:00", "+05:30"): `Some(Some(hours))` for whole hours,
/// `Some(None)` for other offsets; `None` for anything else.
fn offset_hours(name: &str) -> Option<Option<i32>> {
    let lower = name.to_ascii_lowercase();
    let rest = lower.strip_prefix("utc").or_else(|| lower.strip_prefix("gmt")).unwrap_or(&lower);
    let (sign, digits) = match rest.as_bytes().first() {
        Some(b'+') => (1, &rest[1..]),
        Some(b'-') => (-1, &rest[1..]),
        _ => return None,
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit() || c == ':') {
        return None;
    }
    let (hours, minutes) = digits.split_once(':').unwrap_or((digits, "0"));
    let whole = minutes.parse::<u32>().ok() == Some(0);
    Some(hours.parse::<i32>().ok().filter(|_| whole).map(|hours| sign * hours))
}

/// The zones closest to a mistyped name: those containing it (or its last part), those of a country it names,
/// then those whose city is a small edit away.
pub(crate) fn suggest(name: &str) -> Vec<&'static str> {
    let wanted = normalize(name);
    let city = wanted.rsplit('/').next().unwrap_or(&wanted).to_owned();
    let mut found: Vec<&'static str> = Vec::new();
    let mut add = |zone: &'static str| {
        if found.len() < SUGGESTIONS && !found.contains(&zone) {
            found.push(zone);
        }
    };
    if city.len() >= 3 {
        for zone in TZ_VARIANTS.iter().filter(|zone| normalize(zone.name()).contains(&city)) {
            add(zone.name());
        }
    }
    for country in countries::matching(&wanted.replace('_', " ")) {
        country.zones.iter().for_each(|zone| add(zone));
    }
    let mut near: Vec<(usize, &'static str)> = TZ_VARIANTS
        .iter()
        .map(|zone| {
            let zone_city = normalize(zone.name()).rsplit('/').next().unwrap_or_default().to_owned();
            (edit_distance(&city, &zone_city), zone.name())
        })
        .filter(|(distance, _)| *distance <= 2.max(city.len() / 4))
        .collect();
    near.sort();
    near.into_iter().for_each(|(_, zone)| add(zone));
    found
}

/// Levenshtein distance between two short strings, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

/// `"a", "b" or "c"`.
pub(crate) fn quoted_list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|item| format!("\"{item}\"")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => quoted.join(""),
    }
}

/// The first `max` characters of a string.
pub(crate) fn truncate(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_whatever_their_case_and_spacing() {
        assert_eq!(parse_zone("Europe/Paris"), Ok(Tz::Europe__Paris));
        assert_eq!(parse_zone(" america/new york "), Ok(Tz::America__New_York));
        assert_eq!(parse_zone("utc"), Ok(Tz::UTC));
    }

    #[test]
    fn unknown_names_come_with_suggestions() {
        let error = parse_zone("Europe/Pariss").unwrap_err();
        assert!(error.contains("\"Europe/Paris\""), "{error}");
        let error = parse_zone("Tokyo").unwrap_err();
        assert!(error.contains("did you mean \"Asia/Tokyo\"?"), "{error}");
        let error = parse_zone("UTC+2").unwrap_err();
        assert!(error.ends_with("or for a fixed offset \"Etc/GMT-2\""), "{error}");
        let error = parse_zone("GMT-05:00").unwrap_err();
        assert!(error.ends_with("\"Etc/GMT+5\""), "{error}");
        let error = parse_zone("+05:30").unwrap_err();
        assert!(error.contains("whole hours only"), "{error}");
    }

    #[test]
    fn edit_distance_counts_characters() {
        assert_eq!(edit_distance("paris", "pariss"), 1);
        assert_eq!(edit_distance("kolkata", "calcutta"), 5);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
