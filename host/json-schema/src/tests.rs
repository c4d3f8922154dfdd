use super::*;
use serde_json::json;

fn errors(schema: Value, instance: Value) -> Vec<String> {
    match validate(&schema, &instance) {
        Ok(()) => Vec::new(),
        Err(Error::Invalid(errors)) => errors.iter().map(ToString::to_string).collect(),
        Err(other) => panic!("not checked: {other}"),
    }
}

#[test]
fn a_typical_tool_schema_accepts_good_arguments_and_explains_bad_ones() {
    let schema = json!({
        "type": "object",
        "properties": {
            "city": {"type": "string", "minLength": 2},
            "days": {"type": "integer", "minimum": 1, "maximum": 14},
            "units": {"enum": ["metric", "imperial"]}
        },
        "required": ["city"],
        "additionalProperties": false
    });
    assert!(errors(schema.clone(), json!({"city": "Paris", "days": 3, "units": "metric"})).is_empty());
    assert!(errors(schema.clone(), json!({"city": "Paris", "days": 3.0})).is_empty(), "3.0 is an integer");
    assert_eq!(
        errors(schema, json!({"days": "3", "units": "kelvin", "extra": 1})),
        [
            "missing required property \"city\"",
            "/days: expected integer, got string \"3\"",
            "unexpected property \"extra\" (known: city, days, units)",
            "/units: must be one of [\"metric\",\"imperial\"], got string \"kelvin\"",
        ]
    );
}

#[test]
fn numeric_bounds_in_both_forms() {
    let schema = json!({"properties": {
        "a": {"exclusiveMinimum": 0, "exclusiveMaximum": 1},
        "b": {"minimum": 0, "exclusiveMinimum": true},
        "c": {"multipleOf": 0.1}
    }});
    assert!(errors(schema.clone(), json!({"a": 0.5, "b": 0.1, "c": 0.3})).is_empty(), "0.3 is a multiple of 0.1");
    assert_eq!(
        errors(schema, json!({"a": 0, "b": 0, "c": 0.35})),
        [
            "/a: must be greater than 0, got 0",
            "/b: must be greater than 0, got 0",
            "/c: must be a multiple of 0.1, got 0.35"
        ]
    );
}

#[test]
fn strings_count_code_points_and_match_patterns_anywhere() {
    let schema = json!({"type": "string", "maxLength": 2, "pattern": "^[a-zé]+$"});
    assert!(errors(schema.clone(), json!("éé")).is_empty(), "two code points, four bytes");
    assert_eq!(errors(schema, json!("abc1")).len(), 2);
    assert!(errors(json!({"pattern": "b"}), json!("abc")).is_empty(), "patterns are not anchored");
    assert!(errors(json!({"pattern": "(unclosed"}), json!("x")).is_empty(), "a broken pattern does not block");
}

#[test]
fn arrays_items_tuples_uniqueness_and_contains() {
    assert_eq!(
        errors(json!({"items": {"type": "integer"}}), json!([1, "x"])),
        ["/1: expected integer, got string \"x\""]
    );
    let tuple = json!({"prefixItems": [{"type": "string"}, {"type": "number"}], "items": false});
    assert!(errors(tuple.clone(), json!(["a", 1])).is_empty());
    assert_eq!(errors(tuple, json!(["a", 1, 2])), ["/2: no value is allowed here"]);
    let draft7 = json!({"items": [{"type": "string"}], "additionalItems": {"type": "boolean"}});
    assert_eq!(errors(draft7, json!(["a", 1])), ["/1: expected boolean, got number 1"]);
    assert_eq!(
        errors(json!({"uniqueItems": true}), json!([1, 1.0])),
        ["items must be unique, but item 1 repeats an earlier one"]
    );
    let contains = json!({"contains": {"const": 2}, "minContains": 2});
    assert_eq!(errors(contains, json!([2, 3])), ["must contain at least 2 matching items, found 1"]);
}

#[test]
fn refs_combinators_and_conditionals() {
    let schema = json!({
        "$defs": {"id": {"type": "string", "pattern": "^u[0-9]+$"}},
        "properties": {
            "user": {"$ref": "#/$defs/id"},
            "target": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            "mode": {"anyOf": [{"const": "a"}, {"const": "b"}]},
            "flag": {"not": {"const": true}}
        },
        "if": {"properties": {"mode": {"const": "a"}}, "required": ["mode"]},
        "then": {"required": ["user"]}
    });
    assert!(errors(schema.clone(), json!({"user": "u1", "target": 3, "mode": "a"})).is_empty());
    assert_eq!(
        errors(schema, json!({"target": 1.5, "mode": "a", "flag": true})),
        [
            "/flag: matches a shape that is not allowed",
            "/target: does not match any of the 2 allowed shapes (closest: expected string, got number 1.5)",
            "missing required property \"user\"",
        ]
    );
}

#[test]
fn a_self_referencing_schema_does_not_recurse_for_ever() {
    assert!(errors(json!({"$ref": "#"}), json!(1)).is_empty());
    let tree = json!({"type": "object", "properties": {"child": {"$ref": "#"}, "n": {"type": "integer"}}});
    assert_eq!(
        errors(tree, json!({"child": {"child": {"n": "x"}}})),
        ["/child/child/n: expected integer, got string \"x\""]
    );
}

#[test]
fn dependencies_in_every_draft() {
    let schema = json!({"dependentRequired": {"card": ["cvv"]}, "dependencies": {"a": {"required": ["b"]}}});
    assert_eq!(
        errors(schema, json!({"card": 1, "a": 1})),
        ["property \"cvv\" is required when \"card\" is present", "missing required property \"b\""]
    );
}

#[test]
fn errors_are_capped() {
    let schema = json!({"items": {"type": "string"}});
    let many: Vec<u32> = (0..100).collect();
    assert_eq!(errors(schema, json!(many)).len(), MAX_ERRORS);
}

#[test]
fn pointer_tokens_are_escaped_and_refs_decoded() {
    let schema = json!({"properties": {"a/b": {"type": "string"}}, "$defs": {"x y": {"type": "integer"}}});
    assert_eq!(errors(schema.clone(), json!({"a/b": 1})), ["/a~1b: expected string, got number 1"]);
    assert!(errors(json!({"$defs": {"x y": {"type": "integer"}}, "$ref": "#/$defs/x%20y"}), json!("s")).len() == 1);
    let trailing = json!({"$defs": {"x ": {"type": "integer"}}, "$ref": "#/$defs/x%20"});
    assert_eq!(errors(trailing, json!("s")).len(), 1, "an escape at the end of the pointer is decoded too");
}
