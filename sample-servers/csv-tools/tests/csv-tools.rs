//! The csv-tools server through a real SDK session: conversions, statistics and queries a user would check by
//! hand on a small inventory.

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
#![allow(clippy::disallowed_methods, reason = "tests read JSON with serde_json itself")]

use mcp_worker_sdk::Env;
use mcp_worker_sdk::testing::{TestClient, text};
use serde_json::{Value, json};

fn client() -> TestClient {
    TestClient::new(csv_tools_server::server(&Env::default()))
}

const INVENTORY: &str = "name,city,price,qty,in_stock,date
Widget,Paris,9.99,10,true,2026-01-05
Gadget,Berlin,24.50,3,false,2026-02-11
\"Thing, large\",Paris,100,,true,2025-12-30
Doohickey,Oslo,0.5,250,TRUE,2026-03-01
";

fn names(result: &Value) -> Vec<&str> {
    result["rows"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect()
}

#[test]
fn every_tool_is_listed_read_only_with_a_description() {
    let tools = client().list_tools();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["csv_to_json", "json_to_csv", "csv_stats", "csv_query"]);
    for tool in &tools {
        assert!(tool["description"].as_str().is_some_and(|d| d.len() > 60), "{tool}");
        assert_eq!(tool["annotations"]["readOnlyHint"], true, "{tool}");
    }
    let query = tools.iter().find(|t| t["name"] == "csv_query").unwrap();
    assert!(query["inputSchema"]["properties"]["where"].is_object(), "{query}");
    assert!(query["inputSchema"]["properties"]["delimiter"].is_object(), "{query}");
}

#[test]
fn csv_to_json_keys_rows_by_header_and_types_plain_values() {
    let mut client = client();
    let result = client.ok("csv_to_json", json!({"csv": INVENTORY}));
    assert_eq!(result["columns"], json!(["name", "city", "price", "qty", "in_stock", "date"]));
    assert_eq!(result["row_count"], 4);
    assert_eq!(
        result["rows"][2],
        json!({"name": "Thing, large", "city": "Paris", "price": 100, "qty": null, "in_stock": true, "date": "2025-12-30"})
    );
    assert_eq!(result["rows"][1]["price"], 24.5);

    let untyped = client.ok("csv_to_json", json!({"csv": "id;code\n1;007\n", "delimiter": ";", "infer_types": false}));
    assert_eq!(untyped["rows"], json!([{"id": "1", "code": "007"}]));
    let typed = client.ok("csv_to_json", json!({"csv": "id\tcode\n1\t007\n", "delimiter": "tab"}));
    assert_eq!(typed["rows"], json!([{"id": 1, "code": "007"}]));
    let headless = client.ok("csv_to_json", json!({"csv": "a,1\nb,2\n", "has_headers": false}));
    assert_eq!(headless["rows"][1], json!({"column_1": "b", "column_2": 2}));
}

#[test]
fn malformed_csv_is_refused_with_the_row_at_fault() {
    let mut client = client();
    let error = client.error("csv_to_json", json!({"csv": "a,b\n1,2\n3,4,5\n"}));
    assert!(error.starts_with("line 3 has 3 fields, but the header has 2"), "{error}");
    let error = client.error("csv_stats", json!({"csv": "a,b", "delimiter": "::"}));
    assert!(error.starts_with("delimiter must be one ASCII character"), "{error}");
    let huge = "x\n".repeat(1 << 20) + "x";
    let error = client.error("csv_stats", json!({"csv": huge}));
    assert_eq!(error, "the CSV has 2097153 bytes; at most 2097152 (2 MiB) are accepted");
}

#[test]
fn json_to_csv_keeps_key_order_and_quotes_what_needs_it() {
    let mut client = client();
    // Sent as written: the keys' order is the columns' order.
    let rows = r#"[{"name": "Ada", "age": 36, "tags": ["math", "engines"]},
                   {"name": "Bob, Jr.", "note": "said \"hi\"", "age": null}]"#;
    let csv = text(&client.call_raw("json_to_csv", &format!(r#"{{"rows": {rows}}}"#))).to_owned();
    assert_eq!(
        csv,
        "name,age,tags,note\nAda,36,\"[\"\"math\"\",\"\"engines\"\"]\",\n\"Bob, Jr.\",,,\"said \"\"hi\"\"\"\n"
    );
    let rows: Value = serde_json::from_str(rows).unwrap();
    let picked = text(&client.call("json_to_csv", json!({"rows": rows, "columns": ["age", "name"], "delimiter": ";"})))
        .to_owned();
    assert_eq!(picked, "age;name\n36;Ada\n;Bob, Jr.\n");
    let arrays =
        text(&client.call("json_to_csv", json!({"rows": [[1, "a"], [2, null]], "columns": ["n", "s"]}))).to_owned();
    assert_eq!(arrays, "n,s\n1,a\n2,\n");
    let error = client.error("json_to_csv", json!({"rows": [{"a": 1}, [1]]}));
    assert_eq!(error, "rows mix objects and arrays: give all objects or all arrays");
    // What csv_to_json reads back is what was written.
    let back = client.ok("csv_to_json", json!({"csv": csv}));
    assert_eq!(back["rows"][1], json!({"name": "Bob, Jr.", "age": null, "tags": null, "note": "said \"hi\""}));
}

#[test]
fn csv_stats_profiles_every_column() {
    let mut client = client();
    let stats = client.ok("csv_stats", json!({"csv": INVENTORY}));
    assert_eq!(stats["row_count"], 4);
    let column = |name: &str| stats["columns"].as_array().unwrap().iter().find(|c| c["name"] == name).unwrap().clone();
    assert_eq!(
        column("qty"),
        json!({"name": "qty", "type": "integer", "count": 3, "empty": 1, "distinct": 3, "distinct_capped": false,
               "top_values": [{"value": "10", "count": 1}, {"value": "250", "count": 1}, {"value": "3", "count": 1}],
               "min": 3.0, "max": 250.0, "mean": 263.0 / 3.0, "sum": 263.0})
    );
    let city = column("city");
    assert_eq!(city["type"], "text");
    assert_eq!(city["top_values"][0], json!({"value": "Paris", "count": 2}));
    assert_eq!((city["min_length"].as_u64(), city["max_length"].as_u64()), (Some(4), Some(6)));
    assert!(city.get("mean").is_none());
    assert_eq!(column("price")["type"], "number");
    assert_eq!(column("price")["max"], 100.0);
    assert_eq!(column("in_stock")["type"], "boolean");
    assert_eq!(column("date")["type"], "text");

    let many: String =
        std::iter::once("id".to_owned()).chain((0..1500).map(|i| i.to_string())).collect::<Vec<_>>().join("\n");
    let capped = client.ok("csv_stats", json!({"csv": many}));
    assert_eq!(capped["columns"][0]["distinct"], 1000);
    assert_eq!(capped["columns"][0]["distinct_capped"], true);
    assert!(capped["columns"][0].get("top_values").is_none());
}

#[test]
fn csv_query_filters_sorts_selects_and_pages() {
    let mut client = client();
    let result = client.ok(
        "csv_query",
        json!({"csv": INVENTORY, "select": ["name", "price"],
               "where": [{"column": "city", "op": "eq", "value": "PARIS", "ignore_case": true}],
               "sort_by": [{"column": "price", "descending": true}]}),
    );
    assert_eq!(result["columns"], json!(["name", "price"]));
    assert_eq!(result["rows"], json!([{"name": "Thing, large", "price": 100}, {"name": "Widget", "price": 9.99}]));
    assert_eq!((result["matched_rows"].as_u64(), result["returned_rows"].as_u64()), (Some(2), Some(2)));

    // "10" > "9" as numbers (as text it would not be); empty cells never compare.
    let result =
        client.ok("csv_query", json!({"csv": INVENTORY, "where": [{"column": "qty", "op": ">", "value": "9"}]}));
    assert_eq!(names(&result), ["Widget", "Doohickey"]);
    // ISO dates compare as text; the empty qty sorts last.
    let result = client.ok(
        "csv_query",
        json!({"csv": INVENTORY, "where": [{"column": "date", "op": "ge", "value": "2026-01-01"}], "sort_by": [{"column": "qty"}]}),
    );
    assert_eq!(names(&result), ["Gadget", "Widget", "Doohickey"]);
    let result = client.ok(
        "csv_query",
        json!({"csv": INVENTORY, "sort_by": [{"column": "qty", "descending": true}], "offset": 1, "limit": 2}),
    );
    assert_eq!(names(&result), ["Widget", "Gadget"]);
    assert_eq!(result["matched_rows"], 4);
    let result = client.ok("csv_query", json!({"csv": INVENTORY, "where": [{"column": "qty", "op": "is_empty"}], "select": ["name", "qty"], "output": "csv"}));
    assert_eq!(result["csv"], "name,qty\n\"Thing, large\",\n");
    assert!(result.get("rows").is_none());
}

#[test]
fn csv_query_names_the_column_it_cannot_find() {
    let mut client = client();
    let error = client.error("csv_query", json!({"csv": INVENTORY, "select": ["Price"]}));
    assert_eq!(
        error,
        "no column \"Price\" (did you mean \"price\"?); the columns are: name, city, price, qty, in_stock, date"
    );
    let error = client.error("csv_query", json!({"csv": INVENTORY, "where": [{"column": "city", "op": "eq"}]}));
    assert_eq!(error, "the condition on \"city\" needs a value");
    let error = client
        .error("csv_query", json!({"csv": INVENTORY, "where": [{"column": "city", "op": "like", "value": "P%"}]}));
    assert!(error.contains("like"), "{error}");
}
