//! The time-zones server through a real SDK session: the answers a user would check against a world clock.

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use mcp_worker_sdk::Env;
use mcp_worker_sdk::testing::TestClient;
use serde_json::{Value, json};

fn client() -> TestClient {
    TestClient::new(time_zones_server::server(&Env::default()))
}

/// The `hours` of each zone in an overlap window.
fn local_hours(window: &Value) -> Vec<String> {
    window["local"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| format!("{} {}", l["zone"], l["hours"].as_str().unwrap()))
        .collect()
}

#[test]
fn every_tool_is_listed_read_only_with_a_description_and_an_output_schema() {
    let tools = client().list_tools();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["now", "convert_time", "time_difference", "find_zones", "business_hours_overlap"]);
    for tool in &tools {
        assert!(tool["description"].as_str().is_some_and(|d| d.len() > 40), "{tool}");
        assert_eq!(tool["annotations"]["readOnlyHint"], true, "{tool}");
        assert_eq!(tool["outputSchema"]["type"], "object", "{tool}");
    }
}

#[test]
fn now_reads_the_platform_clock_in_every_zone_asked() {
    let mut client = client();
    let before = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let now = client.ok("now", json!({"zones": ["Asia/Kolkata", "america/new york"]}));
    let seconds = now["unix_seconds"].as_u64().unwrap();
    assert!(seconds.abs_diff(before) <= 2, "{now}");
    assert!(now["utc"].as_str().unwrap().ends_with('Z'));
    assert_eq!(now["times"][0]["zone"], "Asia/Kolkata");
    assert_eq!(now["times"][0]["utc_offset"], "+05:30");
    assert_eq!(now["times"][0]["abbreviation"], "IST");
    assert_eq!(now["times"][0]["is_dst"], false);
    assert_eq!(now["times"][1]["zone"], "America/New_York");
    let iso = now["times"][0]["iso"].as_str().unwrap();
    assert!(iso.len() == 25 && iso.ends_with("+05:30"), "whole seconds: {iso}");

    let utc_only = client.ok("now", json!({}));
    assert_eq!(utc_only["times"].as_array().unwrap().len(), 1);
    assert_eq!(utc_only["times"][0]["zone"], "UTC");
}

#[test]
fn unknown_zones_are_refused_with_close_matches() {
    let mut client = client();
    let error = client.error("now", json!({"zones": ["Europe/Pariss", "Tokyo"]}));
    assert!(error.contains("unknown time zone \"Europe/Pariss\"; did you mean \"Europe/Paris\""), "{error}");
    assert!(error.contains("unknown time zone \"Tokyo\"; did you mean \"Asia/Tokyo\"?"), "{error}");
    let error =
        client.error("convert_time", json!({"time": "2026-01-01T09:00", "from_zone": "GMT+1", "to_zones": ["UTC"]}));
    assert_eq!(
        error,
        "\"GMT+1\" is an offset, not a time zone: give a zone such as \"Europe/Paris\", which follows daylight \
         saving, or for a fixed offset \"Etc/GMT-1\""
    );
    let many: Vec<String> = (0..51).map(|_| "UTC".to_owned()).collect();
    assert_eq!(client.error("now", json!({"zones": many})), "51 zones given; at most 50 per call");
}

#[test]
fn convert_time_gives_offsets_dst_and_the_day_in_each_zone() {
    let mut client = client();
    // 29 March 2026: Paris has just moved to summer time, New York did three weeks earlier, Auckland is still on
    // its summer time (a day ahead), Tokyo has none.
    let conversion = client.ok(
        "convert_time",
        json!({"time": "2026-03-29T14:00", "from_zone": "Europe/Paris",
               "to_zones": ["America/New_York", "Asia/Tokyo", "Pacific/Auckland"]}),
    );
    assert_eq!(conversion["utc"], "2026-03-29T12:00:00Z");
    assert_eq!(
        conversion["from"],
        json!({"zone": "Europe/Paris", "local_time": "2026-03-29T14:00:00", "iso": "2026-03-29T14:00:00+02:00",
               "weekday": "Sunday", "utc_offset": "+02:00", "abbreviation": "CEST", "is_dst": true})
    );
    let to = conversion["to"].as_array().unwrap();
    let summary: Vec<(String, String, bool, i64)> = to
        .iter()
        .map(|t| {
            let local = t["local_time"].as_str().unwrap().to_owned();
            (
                local,
                t["abbreviation"].as_str().unwrap().to_owned(),
                t["is_dst"].as_bool().unwrap(),
                t["day_offset"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("2026-03-29T08:00:00".to_owned(), "EDT".to_owned(), true, 0),
            ("2026-03-29T21:00:00".to_owned(), "JST".to_owned(), false, 0),
            ("2026-03-30T01:00:00".to_owned(), "NZDT".to_owned(), true, 1),
        ]
    );

    // An instant with its offset needs no source zone.
    let conversion = client.ok("convert_time", json!({"time": "2026-07-01T23:30Z", "to_zones": ["Asia/Kolkata"]}));
    assert_eq!(conversion["from"]["zone"], "UTC");
    assert_eq!(conversion["to"][0]["iso"], "2026-07-02T05:00:00+05:30");
    assert_eq!(conversion["to"][0]["day_offset"], 1);
}

#[test]
fn times_skipped_or_repeated_by_daylight_saving_are_explained() {
    let mut client = client();
    let error = client
        .error("convert_time", json!({"time": "2026-03-29T02:30", "from_zone": "Europe/Paris", "to_zones": ["UTC"]}));
    assert_eq!(
        error,
        "2026-03-29 02:30 does not exist in Europe/Paris: the clocks jump from 02:00 CET (+01:00) to 03:00 CEST \
         (+02:00). Did you mean 2026-03-29 03:30 (the same moment on a clock moved forward)?"
    );
    let error = client
        .error("convert_time", json!({"time": "2026-10-25 02:30", "from_zone": "Europe/Paris", "to_zones": ["UTC"]}));
    assert_eq!(
        error,
        "2026-10-25 02:30 happens twice in Europe/Paris, as the clocks go back from CEST (+02:00) to CET (+01:00): \
         pass fold \"earlier\" for 2026-10-25T02:30:00+02:00 or \"later\" for 2026-10-25T02:30:00+01:00"
    );
    let later = client.ok(
        "convert_time",
        json!({"time": "2026-10-25 02:30", "from_zone": "Europe/Paris", "to_zones": ["UTC"], "fold": "later"}),
    );
    assert_eq!(later["utc"], "2026-10-25T01:30:00Z");
    let error = client.error("convert_time", json!({"time": "2026-10-25 02:30", "to_zones": ["UTC"]}));
    assert!(error.contains("has no offset, so from_zone must say"), "{error}");
    let error =
        client.error("convert_time", json!({"time": "25/10/2026 2:30", "from_zone": "UTC", "to_zones": ["UTC"]}));
    assert!(error.starts_with("could not read \"25/10/2026 2:30\" as a date-time"), "{error}");
}

#[test]
fn time_difference_follows_daylight_saving_through_the_year() {
    let mut client = client();
    let winter = client
        .ok("time_difference", json!({"from_zone": "Europe/London", "to_zone": "Asia/Kolkata", "at": "2026-01-15"}));
    assert_eq!(winter["difference_seconds"], 19_800);
    assert_eq!(winter["difference_hours"], 5.5);
    assert_eq!(winter["summary"], "Asia/Kolkata is 5 hours 30 minutes ahead of Europe/London (+05:30)");
    let summer = client
        .ok("time_difference", json!({"from_zone": "Europe/London", "to_zone": "Asia/Kolkata", "at": "2026-07-01"}));
    assert_eq!(summer["summary"], "Asia/Kolkata is 4 hours 30 minutes ahead of Europe/London (+04:30)");
    // Between the American and the European changes, New York is only four hours behind London.
    let gap = client.ok(
        "time_difference",
        json!({"from_zone": "Europe/London", "to_zone": "America/New_York", "at": "2026-03-15T12:00Z"}),
    );
    assert_eq!(gap["summary"], "America/New_York is 4 hours behind Europe/London (-04:00)");
    assert_eq!(gap["from"]["is_dst"], false);
    assert_eq!(gap["to"]["is_dst"], true);
    let now = client.ok("time_difference", json!({"from_zone": "UTC", "to_zone": "Etc/UTC"}));
    assert_eq!(now["summary"], "Etc/UTC and UTC show the same time");
    let error =
        client.error("time_difference", json!({"from_zone": "UTC", "to_zone": "UTC", "at": "2026-07-01T09:00"}));
    assert!(error.contains("has no offset"), "{error}");
}

#[test]
fn find_zones_searches_cities_countries_and_codes() {
    let mut client = client();
    let found = client.ok("find_zones", json!({"query": "new york"}));
    assert_eq!(found["zones"][0]["zone"], "America/New_York");
    assert_eq!(found["zones"][0]["country"], "United States (US)");
    assert!(found["tzdb_version"].as_str().unwrap().starts_with("20"));

    let brazil = client.ok("find_zones", json!({"query": "Brazil", "limit": 3}));
    let zones: Vec<&str> = brazil["zones"].as_array().unwrap().iter().map(|z| z["zone"].as_str().unwrap()).collect();
    assert_eq!(zones, ["America/Sao_Paulo", "America/Bahia", "America/Fortaleza"]);
    assert!(brazil["total_matches"].as_u64().unwrap() > 3);
    assert_eq!(brazil["zones"][0]["utc_offset"], "-03:00");

    let germany = client.ok("find_zones", json!({"query": "de"}));
    assert_eq!(germany["zones"][0]["zone"], "Europe/Berlin");
    let nothing = client.ok("find_zones", json!({"query": "atlantis"}));
    assert_eq!(nothing["total_matches"], 0);
    assert_eq!(client.error("find_zones", json!({"query": "paris", "limit": 500})), "limit must be 1 to 100");
}

#[test]
fn business_hours_overlap_finds_the_common_window_or_says_there_is_none() {
    let mut client = client();
    let overlap = client
        .ok("business_hours_overlap", json!({"zones": ["America/New_York", "Europe/London"], "date": "2026-06-01"}));
    assert_eq!(overlap["summary"], "3 hours of overlap on 2026-06-01 in America/New_York, from 13:00 UTC");
    let window = &overlap["windows"][0];
    assert_eq!(
        (window["start_utc"].as_str(), window["end_utc"].as_str()),
        (Some("2026-06-01T13:00:00Z"), Some("2026-06-01T16:00:00Z"))
    );
    assert_eq!(
        local_hours(window),
        [r#""America/New_York" Monday 09:00-12:00"#, r#""Europe/London" Monday 14:00-17:00"#]
    );

    // San Francisco's Monday afternoon is Tokyo's Tuesday morning.
    let overlap = client.ok(
        "business_hours_overlap",
        json!({"zones": ["America/Los_Angeles", "Asia/Tokyo"], "date": "2026-06-01", "work_start": "08:00", "work_end": "18:00"}),
    );
    assert_eq!(overlap["windows"][0]["minutes"], 120);
    assert_eq!(
        local_hours(&overlap["windows"][0]),
        [r#""America/Los_Angeles" Monday 16:00-18:00"#, r#""Asia/Tokyo" Tuesday 08:00-10:00"#]
    );

    let none = client
        .ok("business_hours_overlap", json!({"zones": ["America/New_York", "Asia/Kolkata"], "date": "2026-06-01"}));
    assert_eq!(none["windows"], json!([]));
    assert!(none["summary"].as_str().unwrap().starts_with("no overlap"), "{none}");

    let error = client.error(
        "business_hours_overlap",
        json!({"zones": ["UTC", "Asia/Tokyo"], "work_start": "18:00", "work_end": "09:00"}),
    );
    assert_eq!(error, "work_end (09:00) must be after work_start (18:00)");
    assert_eq!(client.error("business_hours_overlap", json!({"zones": ["UTC"]})), "give 2 to 20 zones; 1 given");
}
