//! The calculator server through a real SDK session: what a user of each tool gets back.

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
#![allow(clippy::disallowed_methods, reason = "tests read JSON with serde_json itself")]

use mcp_worker_sdk::testing::TestClient;
use serde_json::{Value, json};

fn server() -> TestClient {
    TestClient::new(calculator_server::server(&Default::default()))
}

fn calculate(s: &mut TestClient, expression: &str) -> Value {
    s.call("calculate", json!({"expression": expression}))
}

#[test]
fn every_tool_is_listed_with_a_description_and_a_schema() {
    let mut s = server();
    let tools = s.list_tools();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["calculate", "convert", "find_units"]);
    for tool in &tools {
        assert!(tool["description"].as_str().is_some_and(|d| d.len() > 40), "{tool}");
        assert_eq!(tool["annotations"]["readOnlyHint"], true, "{tool}");
        assert!(tool["outputSchema"].is_object(), "{tool}");
    }
    assert_eq!(tools[1]["inputSchema"]["required"], json!(["value", "from", "to"]));
}

#[test]
fn calculate_is_exact_and_knows_units() {
    let mut s = server();
    let r = calculate(&mut s, "2^64");
    assert_eq!(r["content"][0]["text"], "18446744073709551616");
    assert_eq!(
        r["structuredContent"],
        json!({"result": "18446744073709551616", "value": "18446744073709551616",
                                              "approximate": false})
    );
    let r = calculate(&mut s, "5 feet to meters");
    assert_eq!(
        r["structuredContent"],
        json!({"result": "1.524 meters", "value": "1.524", "unit": "meters",
                                              "approximate": false})
    );
    let r = calculate(&mut s, "sqrt(2)");
    assert_eq!(r["structuredContent"]["result"], "approx. 1.4142135624");
    assert_eq!(r["structuredContent"]["value"], "1.4142135624");
    assert_eq!(r["structuredContent"]["approximate"], true);
    let r = calculate(&mut s, "100 km/h in mph");
    assert_eq!(r["structuredContent"]["unit"], "mph");
    assert!(r["structuredContent"]["value"].as_str().unwrap().starts_with("62.137"), "{r}");
}

#[test]
fn calculate_handles_the_examples_of_its_description() {
    let mut s = server();
    let cases = [
        ("15% of 80", "12"),
        ("a = 3; b = 4; sqrt(a^2 + b^2)", "5"),
        ("255 to hex", "ff"),
        ("3 hours + 25 minutes to minutes", "205 minutes"),
        ("1 GiB to MB", "1073.741824 MB"),
        ("0b101 + 1", "0b110"),
        ("10!", "3628800"),
    ];
    for (expression, expected) in cases {
        let r = calculate(&mut s, expression);
        assert_eq!(r["content"][0]["text"], expected, "{expression}: {r}");
    }
    let r = calculate(&mut s, "72 °F to °C");
    assert!(r["content"][0]["text"].as_str().unwrap().starts_with("approx. 22.2222"), "{r}");
}

#[test]
fn calculate_errors_are_readable_and_offline() {
    let mut s = server();
    let r = calculate(&mut s, "5 meters to seconds");
    assert_eq!(r["isError"], true);
    assert_eq!(
        r["content"][0]["text"],
        "cannot convert from meters to seconds: units 'meter' and 'second' are incompatible"
    );
    let r = calculate(&mut s, "2 +");
    assert_eq!(r["isError"], true);
    let r = calculate(&mut s, "today");
    assert_eq!(r["isError"], true);
    assert_eq!(
        calculate(&mut s, "today")["content"][0]["text"],
        "unable to get the current date (this calculator has no clock: give dates explicitly)"
    );
    let r = calculate(&mut s, "roll d6");
    assert_eq!(
        r["content"][0]["text"],
        "random numbers are not available: this calculator's results are deterministic"
    );
    let r = calculate(&mut s, "10 USD to EUR");
    assert_eq!(r["isError"], true);
    assert!(r["content"][0]["text"].as_str().unwrap().contains("currencies are not supported"), "{r}");
}

#[test]
fn huge_calculations_are_stopped_by_the_time_budget() {
    let mut s = server();
    assert_eq!(calculate(&mut s, "5000!")["isError"], Value::Null, "large but fine");
    let r = calculate(&mut s, "10^10^10");
    assert_eq!(r["isError"], true);
    assert_eq!(r["content"][0]["text"], "the calculation is too large: it was stopped after 2 seconds");
}

#[test]
fn variables_do_not_leak_between_calls() {
    let mut s = server();
    assert_eq!(calculate(&mut s, "x = 5; x")["content"][0]["text"], "5");
    assert_eq!(calculate(&mut s, "x")["isError"], true);
}

#[test]
fn convert_takes_a_number_and_two_units() {
    let mut s = server();
    let r = s.call("convert", json!({"value": 5, "from": "feet", "to": "meters"}));
    assert_eq!(r["structuredContent"]["result"], "1.524 meters");
    let r = s.call("convert", json!({"value": 1.5, "from": "kg", "to": "lbs"}));
    assert_eq!(r["structuredContent"]["unit"], "lbs");
    let r = s.call("convert", json!({"value": 5, "from": "meters", "to": "kg"}));
    assert_eq!(r["isError"], true);
    let r = s.call("convert", json!({"value": 5, "from": "m; 2^99999", "to": "km"}));
    assert_eq!(r["isError"], true);
    assert_eq!(r["content"][0]["text"], "`from` must be one unit (at most 200 bytes, no `;` or newline)");
}

#[test]
fn find_units_lists_names_by_prefix() {
    let mut s = server();
    let r = s.call("find_units", json!({"prefix": "gal"}));
    assert_eq!(r["structuredContent"], json!({"units": ["gal", "gallileo", "gallon"], "truncated": false}));
    let r = s.call("find_units", json!({"prefix": "zzzz"}));
    assert_eq!(r["content"][0]["text"], "no unit starts with \"zzzz\"");
}

#[test]
fn the_catalogue_entry_names_this_server_and_its_example_works() {
    let entry: Value = serde_json::from_str(include_str!("../catalogue.json")).unwrap();
    assert_eq!(entry["id"], "calculator");
    assert_eq!(entry["config"]["workerUrl"], "./bundles/calculator/bootstrap.js");
    assert_eq!(entry["needs"], json!({"credentials": [], "network": []}));
    let mut s = server();
    let r = s.call(entry["try"]["tool"].as_str().unwrap(), entry["try"]["arguments"].clone());
    assert_eq!(r["isError"], Value::Null, "{r}");
    assert!(r["content"][0]["text"].as_str().is_some_and(|t| !t.is_empty()), "{r}");
}
