//! The json-query server through a real SDK session: what a user of each tool gets back.

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
#![allow(clippy::disallowed_methods, reason = "tests read JSON with serde_json itself")]

use mcp_worker_sdk::testing::TestClient;
use serde_json::{Value, json};

fn server() -> TestClient {
    TestClient::new(json_query_server::server(&Default::default()))
}

#[test]
fn every_tool_is_listed_with_a_description_and_a_schema() {
    let mut s = server();
    let tools = s.list_tools();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["jq", "validate_json", "json_paths", "pretty_json", "minify_json"]);
    for tool in &tools {
        assert!(tool["description"].as_str().is_some_and(|d| d.len() > 40), "{tool}");
        assert_eq!(tool["annotations"]["readOnlyHint"], true, "{tool}");
    }
    let jq = &tools[0];
    assert_eq!(jq["inputSchema"]["required"], json!(["filter"]));
    assert!(jq["inputSchema"]["properties"]["filter"]["description"].as_str().unwrap().contains("jq filter"));
    assert_eq!(jq["outputSchema"]["required"], json!(["outputs", "count"]));
}

#[test]
fn jq_returns_every_output_as_text_and_structured() {
    let mut s = server();
    let input =
        r#"{"items": [{"name": "pen", "price": 2}, {"name": "book", "price": 12}, {"name": "lamp", "price": 30}]}"#;
    let r = s.call("jq", json!({"filter": ".items[] | select(.price > 10) | .name", "input": input}));
    assert_eq!(r["isError"], Value::Null, "{r}");
    assert_eq!(r["content"][0]["text"], "\"book\"\n\"lamp\"");
    assert_eq!(r["structuredContent"], json!({"outputs": ["book", "lamp"], "count": 2}));

    let r = s.call("jq", json!({"filter": "map(.price) | add / length", "input": r#"[{"price": 3}, {"price": 4}]"#}));
    assert_eq!(r["structuredContent"]["outputs"], json!([3.5]));
}

#[test]
fn jq_keeps_key_order_in_text_and_runs_on_each_input_of_a_stream() {
    let mut s = server();
    let r = s.call("jq", json!({"filter": "{z: .b, a: .a}", "input": "{\"a\": 1, \"b\": 2}\n{\"a\": 3, \"b\": 4}"}));
    assert_eq!(r["content"][0]["text"], "{\"z\":2,\"a\":1}\n{\"z\":4,\"a\":3}");
    assert_eq!(r["structuredContent"]["count"], 2);
}

#[test]
fn jq_without_input_runs_on_null_and_has_the_standard_library() {
    let mut s = server();
    let cases = [
        ("[range(5)] | map(. * 2)", json!([[0, 2, 4, 6, 8]])),
        (r#""a-b-c" | split("-") | join("+")"#, json!(["a+b+c"])),
        (r#""2024-03-01T12:00:00Z" | fromdate | strftime("%Y/%m/%d")"#, json!(["2024/03/01"])),
        (r#""Hello World" | gsub("o"; "0") | ascii_downcase"#, json!(["hell0 w0rld"])),
        (r#"[1, "a,b", null, true] | @csv"#, json!(["1,\"a,b\",,true"])),
        (r#"["x\ty", 2] | @tsv"#, json!(["x\\ty\t2"])),
        (r#""hi" | @base64"#, json!(["aGk="])),
        ("[3, 1, 2] | sort | first, last", json!([1, 3])),
        (r#"{"a": {"b": 1}} | [paths]"#, json!([[["a"], ["a", "b"]]])),
        (r#""{\"k\": [1]}" | fromjson | .k[0]"#, json!([1])),
        ("9 | sqrt", json!([3.0])),
        (r#""2024-03-01T12:30:00+0200" | strptime("%Y-%m-%dT%H:%M:%S%z")"#, json!([[2024, 2, 1, 12, 30, 0, 5, 60]])),
        (r#""2024-03-01 12:30" | strptime("%Y-%m-%d %H:%M") | mktime"#, json!([1_709_296_200])),
        ("nan, infinite", json!([null, f64::MAX])),
    ];
    for (filter, outputs) in cases {
        let r = s.call("jq", json!({"filter": filter}));
        assert_eq!(r["structuredContent"]["outputs"], outputs, "{filter}: {r}");
    }
}

#[test]
fn jq_stops_endless_generators_at_the_output_limit() {
    let mut s = server();
    let r = s.call("jq", json!({"filter": "repeat(1)"}));
    assert_eq!(r["structuredContent"]["count"], 1000);
    assert_eq!(r["structuredContent"]["stopped"], "stopped after 1000 outputs (the limit)");
    assert!(r["content"][0]["text"].as_str().unwrap().ends_with("\n… stopped after 1000 outputs (the limit)"));
    let r = s.call("jq", json!({"filter": "range(10)", "max_outputs": 3}));
    assert_eq!(r["structuredContent"]["outputs"], json!([0, 1, 2]));
    let r = s.call("jq", json!({"filter": "halt"}));
    assert_eq!(r["structuredContent"]["stopped"], "the filter called halt(0)");
}

#[test]
fn jq_errors_say_where_the_filter_breaks() {
    let mut s = server();
    let r = s.call("jq", json!({"filter": ".a | map(.b"}));
    assert_eq!(r["isError"], true);
    assert_eq!(
        r["content"][0]["text"],
        "the filter does not parse: `(` at line 1, column 9 is never closed: expected a closing parenthesis at line 1, \
         column 12, found the end of the filter"
    );
    let r = s.call("jq", json!({"filter": ".a |\n  nosuchfilter(1)"}));
    assert_eq!(
        r["content"][0]["text"],
        "the filter does not compile: undefined filter `nosuchfilter/1` at line 2, column 3"
    );
    let r = s.call("jq", json!({"filter": "now"}));
    assert_eq!(r["content"][0]["text"], "jq error: now is not available: this server has no clock");
}

#[test]
fn jq_errors_say_where_the_input_breaks_and_what_failed_at_run_time() {
    let mut s = server();
    let r = s.call("jq", json!({"filter": ".", "input": "{\"a\": 1,\n \"b\" 2}"}));
    assert_eq!(r["isError"], true);
    assert_eq!(
        r["content"][0]["text"],
        "the input is not valid JSON: expected `:` at line 2, column 6:\n \"b\" 2}\n     ^"
    );
    let r = s.call("jq", json!({"filter": ".[] | .name", "input": r#"[{"name": "a"}, 5]"#}));
    assert_eq!(r["isError"], true);
    assert_eq!(r["content"][0]["text"], "jq error: cannot index 5 with \"name\"\n(after 1 output(s):)\n\"a\"");
    let r = s.call("jq", json!({"filter": r#"error("custom")"#}));
    assert_eq!(r["content"][0]["text"], "jq error: custom");
    let r = s.call("jq", json!({"filter": ".", "input": "x".repeat((1 << 20) + 1)}));
    assert_eq!(r["content"][0]["text"], "`input` is 1048577 bytes; the limit is 1048576 bytes (1 MiB)");
}

#[test]
fn validate_json_gives_the_shape_or_the_place_it_breaks() {
    let mut s = server();
    let r = s.call("validate_json", json!({"json": r#"{"a": [1, 2, {"b": null}], "c": "x"}"#}));
    assert_eq!(r["content"][0]["text"], "valid JSON: an object with 2 key(s) (7 value(s), 4 level(s) deep)");
    assert_eq!(
        r["structuredContent"],
        json!({"valid": true, "shape": {"type": "object", "length": 2, "values": 7, "depth": 4}})
    );
    let r = s.call("validate_json", json!({"json": "[1, 2,]"}));
    assert_eq!(r["isError"], Value::Null, "an invalid document is an answer, not a failure");
    assert_eq!(
        r["structuredContent"],
        json!({"valid": false, "error": {"message": "trailing comma", "line": 1, "column": 7, "excerpt": "[1, 2,]\n      ^"}})
    );
    let r = s.call("validate_json", json!({"json": "{\"a\": 1"}));
    assert_eq!(r["structuredContent"]["error"]["message"], "EOF while parsing an object");
}

#[test]
fn json_paths_maps_a_document_in_order() {
    let mut s = server();
    let doc = r#"{"store": {"books": [{"title": "Dune", "first name": "Frank"}]}, "open": true}"#;
    let r = s.call("json_paths", json!({"json": doc}));
    assert_eq!(
        r["content"][0]["text"],
        ".  object  2 key(s)\n.store  object  1 key(s)\n.store.books  array  1 item(s)\n\
         .store.books[0]  object  2 key(s)\n.store.books[0].title  string  \"Dune\"\n\
         .store.books[0].\"first name\"  string  \"Frank\"\n.open  boolean  true"
    );
    let r = s.call("json_paths", json!({"json": doc, "leaves_only": true, "max_paths": 2}));
    let paths: Vec<&str> =
        r["structuredContent"]["paths"].as_array().unwrap().iter().map(|p| p["path"].as_str().unwrap()).collect();
    assert_eq!(paths, [".store.books[0].title", ".store.books[0].\"first name\""]);
    assert_eq!(r["structuredContent"]["truncated"], true);
}

#[test]
fn pretty_and_minify_keep_the_key_order() {
    let mut s = server();
    let r = s.call("pretty_json", json!({"json": r#"{"b":1,"a":[true,{}]}"#}));
    assert_eq!(r["content"][0]["text"], "{\n  \"b\": 1,\n  \"a\": [\n    true,\n    {}\n  ]\n}");
    let r = s.call("pretty_json", json!({"json": r#"{"b":1,"a":{"d":1,"c":2}}"#, "indent": 4, "sort_keys": true}));
    assert_eq!(
        r["content"][0]["text"],
        "{\n    \"a\": {\n        \"c\": 2,\n        \"d\": 1\n    },\n    \"b\": 1\n}"
    );
    let r = s.call("minify_json", json!({"json": "{\n  \"b\": 1,\n  \"a\": [1, 2]\n}"}));
    assert_eq!(r["content"][0]["text"], r#"{"b":1,"a":[1,2]}"#);
    let r = s.call("minify_json", json!({"json": "{\"a\" 1}"}));
    assert_eq!(r["isError"], true);
    assert!(r["content"][0]["text"].as_str().unwrap().starts_with("the JSON is not valid: expected `:` at line 1"));
}

#[test]
fn the_catalogue_entry_names_this_server_and_its_example_works() {
    let entry: Value = serde_json::from_str(include_str!("../catalogue.json")).unwrap();
    assert_eq!(entry["id"], "json-query");
    assert_eq!(entry["config"]["workerUrl"], "./bundles/json-query/bootstrap.js");
    assert_eq!(entry["needs"], json!({"credentials": [], "network": []}));
    let mut s = server();
    let r = s.call(entry["try"]["tool"].as_str().unwrap(), entry["try"]["arguments"].clone());
    assert_eq!(r["isError"], Value::Null, "{r}");
    assert!(r["content"][0]["text"].as_str().is_some_and(|t| !t.is_empty()), "{r}");
}
