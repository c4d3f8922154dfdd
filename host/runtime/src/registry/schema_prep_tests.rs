use super::*;
use serde_json::json;

fn object(value: Value) -> JsonObject {
    value.as_object().cloned().unwrap()
}

fn prepare(value: Value, target: SchemaTarget) -> Value {
    Value::Object(prepare_input_schema(&object(value), target).unwrap().schema)
}

const LLM_TARGETS: [SchemaTarget; 3] = [SchemaTarget::OpenAi, SchemaTarget::Anthropic, SchemaTarget::Art];

#[test]
fn meta_keywords_are_stripped_everywhere_for_llm_targets_and_kept_for_mcp() {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:x", "$comment": "c",
        "type": "object",
        "properties": { "a": { "$comment": "inner", "type": "string" } }
    });
    for target in LLM_TARGETS {
        let prepared = prepare(schema.clone(), target);
        assert_eq!(prepared, json!({"type": "object", "properties": {"a": {"type": "string"}}}), "{target:?}");
    }
    assert_eq!(prepare(schema.clone(), SchemaTarget::Mcp), schema);
}

#[test]
fn exclusive_bounds_become_inclusive_ones() {
    let schema = json!({"type": "object", "properties": {
        "count": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10},
        "ratio": {"type": "number", "exclusiveMinimum": 0.5, "description": "A ratio"},
        "old": {"type": "number", "minimum": 3, "exclusiveMinimum": true},
        "tight": {"type": "integer", "minimum": 5, "exclusiveMinimum": 1}
    }});
    let prepared = prepare_input_schema(&object(schema), SchemaTarget::OpenAi).unwrap();
    let p = &prepared.schema["properties"];
    assert_eq!(p["count"], json!({"type": "integer", "minimum": 1, "maximum": 9}));
    assert_eq!(
        p["ratio"],
        json!({"type": "number", "minimum": 0.5, "description": "A ratio (must be greater than 0.5)"})
    );
    assert_eq!(p["old"], json!({"type": "number", "minimum": 3, "description": "(must be greater than 3)"}));
    assert_eq!(p["tight"], json!({"type": "integer", "minimum": 5}), "the tighter bound is kept");
    assert!(
        prepared.changes.contains(&"/properties/count: exclusiveMinimum 0 → minimum 1".to_owned()),
        "{:?}",
        prepared.changes
    );
}

#[test]
fn a_root_without_type_or_properties_is_completed() {
    for target in LLM_TARGETS {
        assert_eq!(prepare(json!({}), target), json!({"type": "object", "properties": {}}), "{target:?}");
        assert_eq!(
            prepare(json!({"type": ["object", "null"], "properties": {"a": {}}}), target),
            json!({"type": "object", "properties": {"a": {}}})
        );
    }
}

#[test]
fn a_root_that_is_not_an_object_is_refused_clearly() {
    for target in LLM_TARGETS {
        let err = prepare_input_schema(&object(json!({"type": "string"})), target).unwrap_err();
        assert_eq!(err, SchemaError::RootNotObject { found: "\"string\"".into() });
        assert_eq!(err.to_string(), "the input schema's root must describe an object, but it has type \"string\"");
    }
    assert!(prepare_input_schema(&object(json!({"type": "array"})), SchemaTarget::Mcp).is_ok(), "raw MCP is untouched");
}

#[test]
fn root_combinators_are_merged_for_openai_and_anthropic() {
    let schema = json!({
        "type": "object",
        "oneOf": [
            {"properties": {"id": {"type": "string"}, "kind": {"const": "id"}}, "required": ["id", "kind"]},
            {"$ref": "#/$defs/byName"}
        ],
        "$defs": {"byName": {"properties": {"name": {"type": "string"}, "kind": {"const": "name"}}, "required": ["name", "kind"]}}
    });
    for target in [SchemaTarget::OpenAi, SchemaTarget::Anthropic] {
        let prepared = prepare(schema.clone(), target);
        assert!(prepared.get("oneOf").is_none(), "{target:?}");
        assert_eq!(prepared["properties"].as_object().unwrap().len(), 3);
        assert_eq!(prepared["required"], json!(["kind"]), "only what every alternative requires");
        assert!(prepared["description"].as_str().unwrap().contains("one of 2 alternative shapes"));
    }
    let all_of =
        json!({"allOf": [{"properties": {"a": {}}, "required": ["a"]}, {"properties": {"b": {}}, "required": ["b"]}]});
    let prepared = prepare(all_of, SchemaTarget::Anthropic);
    assert_eq!(prepared["required"], json!(["a", "b"]));
    assert!(prepare(schema, SchemaTarget::Art).get("oneOf").is_some(), "ajv takes root oneOf");
}

#[test]
fn art_gets_a_schema_ajv_accepts_in_its_default_mode() {
    let schema = json!({"type": "object", "properties": {
        "when": {"type": "string", "format": "date-time"},
        "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}], "items": false},
        "x": {"type": "string", "x-vendor": true, "nullable": true}
    }, "dependentRequired": {"a": ["b"]}, "unevaluatedProperties": false});
    let prepared = prepare(schema, SchemaTarget::Art);
    assert_eq!(prepared["properties"]["when"], json!({"type": "string", "description": "(format: date-time)"}));
    assert_eq!(
        prepared["properties"]["pair"],
        json!({"type": "array", "items": [{"type": "string"}, {"type": "number"}], "additionalItems": false})
    );
    assert_eq!(prepared["properties"]["x"], json!({"type": "string"}));
    assert_eq!(prepared["dependencies"], json!({"a": ["b"]}));
    assert!(prepared.get("unevaluatedProperties").is_none());
    // OpenAI keeps 2020-12 keywords and formats.
    let openai =
        prepare(json!({"properties": {"when": {"type": "string", "format": "date-time"}}}), SchemaTarget::OpenAi);
    assert_eq!(openai["properties"]["when"]["format"], "date-time");
}

#[test]
fn anthropic_refuses_property_names_it_rejects() {
    let schema = json!({"type": "object", "properties": {"ok.name-1": {}, "nested": {"type": "object", "properties": {"bad name": {}}}}});
    let err = prepare_input_schema(&object(schema.clone()), SchemaTarget::Anthropic).unwrap_err();
    assert_eq!(
        err,
        SchemaError::PropertyName {
            name: "bad name".into(),
            path: "/properties/nested/properties".into(),
            target: SchemaTarget::Anthropic
        }
    );
    assert!(prepare_input_schema(&object(schema), SchemaTarget::OpenAi).is_ok());
}

#[test]
fn subschemas_in_every_position_are_prepared() {
    let inner = json!({"$comment": "x", "type": "integer", "exclusiveMinimum": 0});
    let schema = json!({"type": "object", "properties": {
        "list": {"type": "array", "items": inner},
        "map": {"type": "object", "additionalProperties": inner},
        "choice": {"anyOf": [inner, {"type": "null"}]},
        "ref": {"$ref": "#/$defs/n"}
    }, "$defs": {"n": inner}});
    let prepared = prepare(schema, SchemaTarget::OpenAi);
    let expected = json!({"type": "integer", "minimum": 1});
    assert_eq!(prepared["properties"]["list"]["items"], expected);
    assert_eq!(prepared["properties"]["map"]["additionalProperties"], expected);
    assert_eq!(prepared["properties"]["choice"]["anyOf"][0], expected);
    assert_eq!(prepared["$defs"]["n"], expected);
}

#[test]
fn output_schemas_are_prepared_for_art_only() {
    let schema = object(json!({"$schema": "x", "type": "object", "properties": {"n": {"type": "integer"}}}));
    assert_eq!(prepare_output_schema(&schema, SchemaTarget::Art).unwrap().get("$schema"), None);
    assert_eq!(prepare_output_schema(&schema, SchemaTarget::Mcp), Some(schema.clone()));
    assert_eq!(prepare_output_schema(&schema, SchemaTarget::OpenAi), None);
}
