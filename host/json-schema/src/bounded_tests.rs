//! No schema, pattern or value makes one validation cost more than its budget: exponential combinators end
//! (at a cycle, by remembered branches, or over budget with `Error::TooCostly`), patterns run in linear time, and
//! ordinary arguments use a small part of the budget.

use super::*;
use serde_json::{Map, json};
use std::time::{Duration, Instant};

/// A guard against exponential blow-up, not a speed figure: before the budget these took seconds to hours.
const QUICK: Duration = Duration::from_secs(1);

/// `{"a": {"a": … {"a": leaf}}}`, `depth` levels.
fn nested(depth: usize, leaf: Value) -> Value {
    (0..depth).fold(leaf, |inner, _| json!({ "a": inner }))
}

fn timed(schema: &Value, instance: &Value, limits: &Limits) -> Result {
    let start = Instant::now();
    let result = validate_with(schema, instance, limits);
    assert!(start.elapsed() < QUICK, "took {:?}", start.elapsed());
    result
}

/// The steps a validation takes.
fn steps(schema: &Value, instance: &Value) -> u64 {
    let mut validator = validator::Validator::new(schema, Limits::default());
    validator.check(schema, instance, &mut String::new(), 0, &mut Vec::new());
    validator.work.used()
}

#[test]
fn combinators_that_only_refer_back_end_at_the_cycle() {
    let deep = nested(60, json!(1));
    for keyword in ["anyOf", "allOf"] {
        let schema = json!({ keyword: [{"$ref": "#"}, {"$ref": "#"}] });
        assert_eq!(timed(&schema, &deep, &Limits::default()), Ok(()), "{keyword} accepts anything");
    }
    let one_of = json!({"oneOf": [{"$ref": "#"}, {"$ref": "#"}]});
    let Err(Error::Invalid(errors)) = timed(&one_of, &deep, &Limits::default()) else { panic!("both branches hold") };
    assert_eq!(errors[0].message, "matches 2 of the allowed shapes; it must match exactly one");
}

#[test]
fn failing_branches_at_every_level_are_evaluated_once_each() {
    // Each level's anyOf/oneOf fails (the leaf is not an object), so every branch runs and the closest failure is
    // looked for: four times the work per level before branches were remembered.
    for keyword in ["anyOf", "oneOf"] {
        let branches = json!([{"$ref": "#"}, {"$ref": "#", "required": ["b"]}]);
        let schema = json!({"type": "object", "properties": {"a": { keyword: branches }}});
        let deep = nested(40, json!(1));
        let Err(Error::Invalid(errors)) = timed(&schema, &deep, &Limits::default()) else { panic!("{keyword}") };
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].instance_path, "/a");
        assert!(errors[0].message.starts_with("does not match any of the 2 allowed shapes (closest: /a: "));
        let (half, full) = (steps(&schema, &nested(20, json!(1))), steps(&schema, &deep));
        assert!(full < 3 * half, "linear in depth: {half} steps at 20 levels, {full} at 40");
        let good = nested(40, json!({}));
        assert_eq!(timed(&schema, &good, &Limits::default()), Ok(()));
    }
}

#[test]
fn an_exponential_schema_fails_closed_over_budget() {
    // allOf checks every branch on the value itself: twice the work per level of the argument.
    let schema = json!({"type": "object", "properties": {"a": {"allOf": [{"$ref": "#"}, {"$ref": "#"}]}}});
    let result = timed(&schema, &nested(40, json!({})), &Limits::default());
    assert_eq!(result, Err(Error::TooCostly(Exceeded::Steps(Limits::default().max_steps))));
    // A chain of definitions each used twice, on a flat value: 2^40 checks.
    let mut defs = Map::new();
    for i in 0..40 {
        let next = format!("#/$defs/d{}", i + 1);
        defs.insert(format!("d{i}"), json!({"allOf": [{"$ref": next}, {"$ref": next}]}));
    }
    defs.insert("d40".into(), json!({"type": "integer"}));
    let schema = json!({"$defs": defs, "$ref": "#/$defs/d0"});
    let result = timed(&schema, &json!(1), &Limits::default());
    assert!(matches!(result, Err(Error::TooCostly(Exceeded::Steps(_)))), "{result:?}");
    let message = result.err().map(|e| e.to_string()).unwrap_or_default();
    assert_eq!(message, format!("the schema is too costly to check (over {} steps)", Limits::default().max_steps));
}

#[test]
fn the_budget_is_the_apps_to_set() {
    let schema = json!({"type": "object", "properties": {"a": {"anyOf": [{"$ref": "#"}, {"$ref": "#"}]}}});
    let deep = nested(40, json!(1));
    let small = Limits::default().steps(100);
    assert_eq!(timed(&schema, &deep, &small), Err(Error::TooCostly(Exceeded::Steps(100))));
    assert!(matches!(timed(&schema, &deep, &Limits::default()), Err(Error::Invalid(_))));
}

#[test]
fn nesting_deeper_than_the_limit_fails_closed() {
    let tree = json!({"type": "object", "properties": {"a": {"$ref": "#"}}});
    assert_eq!(timed(&tree, &nested(30, json!({})), &Limits::default()), Ok(()));
    let result = timed(&tree, &nested(30, json!({})), &Limits::default().depth(20));
    assert_eq!(result, Err(Error::TooCostly(Exceeded::Depth(20))));
    assert_eq!(
        result.err().map(|e| e.to_string()).unwrap_or_default(),
        "the schema is too costly to check (nested deeper than 20 levels)"
    );
}

#[test]
fn a_backtracking_pattern_answers_at_once() {
    let schema = json!({"type": "string", "pattern": "^(a+)+$"});
    let bad = Value::String(format!("{}!", "a".repeat(27)));
    let Err(Error::Invalid(errors)) = timed(&schema, &bad, &Limits::default()) else { panic!("must not match") };
    assert_eq!(errors[0].message, "must match the pattern \"^(a+)+$\"");
    assert_eq!(timed(&schema, &json!("a".repeat(27)), &Limits::default()), Ok(()));
    let long = Value::String(format!("{}!", "a".repeat(10_000)));
    assert!(matches!(timed(&schema, &long, &Limits::default()), Err(Error::Invalid(_))));
}

#[test]
fn quadratic_keywords_are_paid_for() {
    let distinct: Vec<u32> = (0..20_000).collect();
    let result = timed(&json!({"uniqueItems": true}), &json!(distinct), &Limits::default());
    assert!(matches!(result, Err(Error::TooCostly(_))), "200 million comparisons: {result:?}");
    let big_enum: Vec<String> = (0..5_000).map(|i| format!("value {i}")).collect();
    let schema = json!({"items": {"enum": big_enum}});
    let result = timed(&schema, &json!(vec!["value 4999"; 1_000]), &Limits::default());
    assert!(matches!(result, Err(Error::TooCostly(_))), "5 million comparisons: {result:?}");
}

#[test]
fn messages_stay_short_whatever_the_schema_holds() {
    let big_enum: Vec<String> = (0..5_000).map(|i| format!("value {i}")).collect();
    let Err(Error::Invalid(errors)) = validate(&json!({"enum": big_enum}), &json!("none")) else { panic!() };
    assert!(errors[0].message.len() < 250, "{}", errors[0].message);
    let long_name = "n".repeat(10_000);
    let schema = json!({"required": [long_name]});
    let Err(Error::Invalid(errors)) = validate(&schema, &json!({})) else { panic!() };
    assert!(errors[0].message.len() < 250, "{}", errors[0].message);
}

#[test]
fn a_branch_that_rested_on_a_cycle_is_not_remembered() {
    // B is A (through a cycle that consumes nothing), and A requires a string: neither branch holds for 1. The
    // branch inside B, evaluated while A was being checked, assumed A held; remembered, it would let B pass.
    let schema = json!({
        "$defs": {
            "A": {"type": "string", "allOf": [{"$ref": "#/$defs/B"}]},
            "B": {"anyOf": [{"$ref": "#/$defs/A"}]}
        },
        "anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]
    });
    assert!(matches!(validate(&schema, &json!(1)), Err(Error::Invalid(_))));
    assert_eq!(validate(&schema, &json!("s")), Ok(()));
}

#[test]
fn property_names_are_told_apart() {
    let schema = json!({"propertyNames": {"pattern": "^a"}});
    let Err(Error::Invalid(errors)) = validate(&schema, &json!({"a1": 0, "b1": 0, "a2": 0, "b2": 0})) else { panic!() };
    let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(shown, ["property name \"b1\" is not allowed", "property name \"b2\" is not allowed"]);
}

#[test]
fn ordinary_arguments_use_a_small_part_of_the_budget() {
    let schema = json!({
        "type": "object",
        "properties": {
            "rows": {"type": "array", "items": {"$ref": "#/$defs/row"}},
            "mode": {"enum": ["append", "replace"]}
        },
        "required": ["rows"],
        "$defs": {"row": {
            "type": "object",
            "properties": {
                "id": {"type": "string", "pattern": "^[a-z0-9-]{1,36}$"},
                "name": {"type": "string", "minLength": 1, "maxLength": 200},
                "count": {"type": "integer", "minimum": 0},
                "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
                "kind": {"anyOf": [{"const": "a"}, {"const": "b"}, {"type": "null"}]}
            },
            "required": ["id", "name"],
            "additionalProperties": false
        }}
    });
    let rows: Vec<Value> = (0..250)
        .map(|i| json!({"id": format!("row-{i}"), "name": "a name", "count": i, "tags": ["x", "y"], "kind": "b"}))
        .collect();
    let arguments = json!({"rows": rows, "mode": "append"});
    assert_eq!(validate(&schema, &arguments), Ok(()));
    let used = steps(&schema, &arguments);
    assert!(used < Limits::default().max_steps / 4, "{used} steps");
}
