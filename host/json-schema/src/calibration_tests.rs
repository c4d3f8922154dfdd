//! How long a step takes at worst: the costliest kinds of steps a schema can ask for, each run until the default
//! budget is spent, timed. Run with
//! `cargo test --release -p mcp-worker-json-schema calibration -- --ignored --nocapture`; the default
//! [`Limits::max_steps`] and the prices in `work.rs` are chosen so that the slowest of these stays near 25 ms
//! natively (wasm in V8 runs them up to about 1.5 times as slow).

use super::*;
use serde_json::{Map, json};
use std::time::Instant;

fn run(name: &str, schema: &Value, instance: &Value) {
    let limits = Limits::default();
    let mut validator = validator::Validator::new(schema, limits);
    let start = Instant::now();
    validator.check(schema, instance, &mut String::new(), 0, &mut Vec::new());
    let elapsed = start.elapsed();
    let used = validator.work.used().min(limits.max_steps);
    println!(
        "{name:<34} {used:>8} steps {:>9.2} ms {:>7.1} ns/step {}",
        elapsed.as_secs_f64() * 1e3,
        elapsed.as_nanos() as f64 / used.max(1) as f64,
        if validator.work.exhausted() { "(over budget)" } else { "" }
    );
}

fn doubling_chain(keyword: &str, leaf: Value) -> Value {
    let mut defs = Map::new();
    for i in 0..40 {
        let next = format!("#/$defs/d{}", i + 1);
        defs.insert(format!("d{i}"), json!({ keyword: [{"$ref": next}, {"$ref": next}] }));
    }
    defs.insert("d40".into(), leaf);
    json!({"$defs": defs, "$ref": "#/$defs/d0"})
}

#[test]
#[ignore = "prints timings; run in release"]
fn calibration() {
    let every_keyword = json!({
        "type": ["string", "null", "boolean", "object", "array", "integer", "number"], "minimum": 10, "maximum": 0,
        "exclusiveMinimum": 10, "exclusiveMaximum": 0, "multipleOf": 7, "enum": [1, 2, 3], "const": 4,
        "minItems": 1, "maxItems": 0, "minProperties": 1, "maxProperties": 0, "minLength": 1, "maxLength": 0
    });
    let mut wide = Map::new();
    for i in 0..2000 {
        wide.insert(format!("keyword{i:05}"), json!(i));
    }
    wide.insert("items".into(), json!({"$ref": "#"}));
    let numbers: Vec<u64> = (0..100_000).collect();
    run("allOf chain, valid leaf", &doubling_chain("allOf", json!({"type": "integer"})), &json!(1));
    run("allOf chain, every keyword", &doubling_chain("allOf", every_keyword.clone()), &json!(5.5));
    run("items, every keyword failing", &json!({"items": every_keyword.clone()}), &json!(vec![5.5; 100_000]));
    let branch = json!({"items": {"not": every_keyword}});
    let distinct: Vec<f64> = (0..100_000).map(|i| f64::from(i) + 0.5).collect();
    run("not, every keyword failing", &branch, &json!(distinct));
    run("items, a 2000-key schema", &json!({"items": Value::Object(wide)}), &json!(vec![1; 100_000]));
    run("uniqueItems, numbers", &json!({"uniqueItems": true}), &json!(numbers));
    let nested: Vec<Value> = (0..3000).map(|i| json!({"a": [i, {"b": i}]})).collect();
    run("uniqueItems, objects", &json!({"uniqueItems": true}), &json!(nested));
    let strings: Vec<String> = (0..2000).map(|i| format!("{i:0>4000}")).collect();
    run("uniqueItems, 4 KB strings", &json!({"uniqueItems": true}), &json!(strings));
    let big_enum: Vec<String> = (0..5000).map(|i| format!("value {i}")).collect();
    run("enum of 5000", &json!({"items": {"enum": big_enum}}), &json!(vec!["value 4999"; 10_000]));
    let types: Vec<&str> = vec!["null"; 10_000];
    run("type list of 10000", &json!({"items": {"type": types}}), &json!(vec![1; 10_000]));
    let required: Vec<String> = (0..10_000).map(|i| format!("p{i}")).collect();
    run("required 10000", &json!({"items": {"required": required}}), &json!(vec![json!({}); 1000]));
    for (pattern, text) in [
        ("(?:a|aa){1,100}b", "a".repeat(100)),
        ("[a-z]{1,500}X", "a".repeat(100)),
        ("^.{0,1000}$", "a".repeat(100)),
        ("^(a+)+$", "a".repeat(100_000)),
        ("^[a-z0-9-]{1,36}$", "row-123".into()),
    ] {
        let schema = json!({"items": {"pattern": pattern}});
        run(&format!("pattern {pattern} x{}", text.len()), &schema, &json!(vec![text; 1000]));
    }
    let distinct: Vec<String> = (0..2000).map(|i| format!("(?:a|aa){{1,{}}}b", 50 + i)).collect();
    let schema = json!({"items": {"allOf": distinct.iter().map(|p| json!({"pattern": p})).collect::<Vec<_>>()}});
    run("2000 distinct patterns to compile", &schema, &json!(["ab"]));
    let mut many = Map::new();
    for i in 0..200 {
        many.insert(format!("^k{i}"), json!(true));
    }
    let members: Map<String, Value> = (0..50_000).map(|i| (format!("k{i}"), json!(i))).collect();
    run("patternProperties 200 x 5000", &json!({"patternProperties": many}), &Value::Object(members.clone()));
    run("propertyNames", &json!({"propertyNames": {"maxLength": 10}}), &Value::Object(members));
    let deep = (0..40).fold(json!(1), |inner, _| json!({ "a": inner }));
    let branches = json!([{"$ref": "#"}, {"$ref": "#", "required": ["b"]}]);
    let any = json!({"type": "object", "properties": {"a": {"anyOf": branches}}});
    run("anyOf recursion, failing leaf", &any, &deep);
    let long: String = "x".repeat(1 << 20);
    run("minLength on 1 MiB strings", &json!({"items": {"minLength": 1}}), &json!(vec![long; 200]));
}
