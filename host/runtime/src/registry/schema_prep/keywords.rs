//! Keyword rules applied to every subschema.

use super::{SchemaError, SchemaTarget, note};
use mcp_worker_protocol::JsonObject;
use mcp_worker_protocol::quoted::json;
use serde_json::{Map, Number, Value};

/// Identification and annotation keywords no LLM API needs; some refuse `$schema` (e.g. ajv without the 2020-12
/// meta-schema) and all of them cost tokens.
const META_KEYWORDS: &[&str] = &["$schema", "$id", "$comment", "$vocabulary", "$anchor", "$dynamicAnchor"];

/// What ajv (draft-07 mode, ART's validator) knows; anything else makes ajv's strict mode throw.
const AJV_KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "additionalItems",
    "enum",
    "const",
    "description",
    "title",
    "default",
    "examples",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minProperties",
    "maxProperties",
    "patternProperties",
    "propertyNames",
    "dependencies",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "$ref",
    "$defs",
    "definitions",
    "readOnly",
    "writeOnly",
    "contentMediaType",
    "contentEncoding",
];

/// Keywords whose value is one subschema.
const SINGLE: &[&str] = &[
    "additionalProperties",
    "additionalItems",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
];
/// Keywords whose value maps names to subschemas.
const MAPS: &[&str] = &["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"];
/// Keywords whose value is a list of subschemas.
const LISTS: &[&str] = &["anyOf", "oneOf", "allOf", "prefixItems"];

/// The subschemas directly under `schema`, for walks that only touch annotations (`title`, `description`).
pub(in crate::registry) fn subschemas_mut(schema: &mut JsonObject) -> Vec<&mut Value> {
    let mut found = Vec::new();
    for (keyword, value) in schema.iter_mut() {
        let keyword = keyword.as_str();
        if MAPS.contains(&keyword) {
            if let Value::Object(entries) = value {
                found.extend(entries.values_mut());
            }
        } else if LISTS.contains(&keyword) || (keyword == "items" && value.is_array()) {
            if let Value::Array(items) = value {
                found.extend(items.iter_mut());
            }
        } else if keyword == "items" || SINGLE.contains(&keyword) {
            found.push(value);
        }
    }
    found
}

pub(super) fn walk(
    schema: &mut Value,
    path: &str,
    target: SchemaTarget,
    changes: &mut Vec<String>,
) -> Result<(), SchemaError> {
    let Value::Object(object) = schema else { return Ok(()) };
    let at = if path.is_empty() { "/" } else { path };
    for keyword in META_KEYWORDS {
        if object.remove(*keyword).is_some() {
            changes.push(format!("{at}: {keyword} removed"));
        }
    }
    translate_bound(object, Bound::Lower, at, changes);
    translate_bound(object, Bound::Upper, at, changes);
    match target {
        SchemaTarget::Art => for_ajv(object, at, changes),
        SchemaTarget::Anthropic => check_property_names(object, path, target)?,
        _ => {}
    }

    for keyword in SINGLE {
        if let Some(sub) = object.get_mut(*keyword) {
            walk(sub, &format!("{path}/{keyword}"), target, changes)?;
        }
    }
    match object.get_mut("items") {
        Some(Value::Array(items)) => {
            for (i, sub) in items.iter_mut().enumerate() {
                walk(sub, &format!("{path}/items/{i}"), target, changes)?;
            }
        }
        Some(sub) => walk(sub, &format!("{path}/items"), target, changes)?,
        None => {}
    }
    for keyword in MAPS {
        if let Some(Value::Object(entries)) = object.get_mut(*keyword) {
            for (name, sub) in entries.iter_mut() {
                // `dependencies` values may be lists of names rather than schemas; `walk` skips non-objects.
                walk(sub, &format!("{path}/{keyword}/{}", escape(name)), target, changes)?;
            }
        }
    }
    for keyword in LISTS {
        if let Some(Value::Array(members)) = object.get_mut(*keyword) {
            for (i, sub) in members.iter_mut().enumerate() {
                walk(sub, &format!("{path}/{keyword}/{i}"), target, changes)?;
            }
        }
    }
    Ok(())
}

#[derive(Clone, Copy)]
enum Bound {
    Lower,
    Upper,
}

/// `exclusiveMinimum: n` → `minimum` (n + 1 when the type is integer; n with a note otherwise), and the same for
/// maxima. The draft-04 form (`exclusiveMinimum: true` next to `minimum`) is read too.
fn translate_bound(object: &mut JsonObject, bound: Bound, at: &str, changes: &mut Vec<String>) {
    let (exclusive, inclusive) = match bound {
        Bound::Lower => ("exclusiveMinimum", "minimum"),
        Bound::Upper => ("exclusiveMaximum", "maximum"),
    };
    let Some(value) = object.remove(exclusive) else { return };
    let limit = match &value {
        Value::Number(n) => n.as_f64(),
        Value::Bool(true) => object.get(inclusive).and_then(Value::as_f64),
        _ => None,
    };
    let Some(limit) = limit else {
        changes.push(format!("{at}: {exclusive} {} removed", json(&value)));
        return;
    };
    let integer = object.get("type").is_some_and(|t| t == "integer");
    let existing = object.get(inclusive).and_then(Value::as_f64).filter(|_| !matches!(value, Value::Bool(true)));
    let (replacement, sentence) = match (bound, integer) {
        (Bound::Lower, true) => (limit.floor() + 1.0, None),
        (Bound::Upper, true) => (limit.ceil() - 1.0, None),
        (Bound::Lower, false) => (limit, Some(format!("must be greater than {}", show(limit)))),
        (Bound::Upper, false) => (limit, Some(format!("must be less than {}", show(limit)))),
    };
    let tighter = match (bound, existing) {
        (Bound::Lower, Some(e)) => replacement.max(e),
        (Bound::Upper, Some(e)) => replacement.min(e),
        (_, None) => replacement,
    };
    object.insert(inclusive.into(), number(tighter));
    if let Some(sentence) = sentence
        && tighter == limit
    {
        note(object, &sentence);
    }
    changes.push(format!("{at}: {exclusive} {} → {inclusive} {}", json(&value), show(tighter)));
}

/// ajv in its default (draft-07, strict) mode: 2020-12 keywords translated, formats moved to the description,
/// unknown keywords removed.
fn for_ajv(object: &mut JsonObject, at: &str, changes: &mut Vec<String>) {
    if let Some(Value::Array(prefix)) = object.remove("prefixItems") {
        if let Some(rest) = object.remove("items") {
            object.insert("additionalItems".into(), rest);
        }
        object.insert("items".into(), Value::Array(prefix));
        changes.push(format!("{at}: prefixItems → items"));
    }
    if let Some(Value::Object(required)) = object.remove("dependentRequired") {
        let dependencies = object.entry("dependencies").or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(dependencies) = dependencies {
            dependencies.extend(required);
        }
        changes.push(format!("{at}: dependentRequired → dependencies"));
    }
    if let Some(format) = object.remove("format") {
        let shown = format.as_str().map_or_else(|| json(&format), str::to_owned);
        note(object, &format!("format: {shown}"));
        changes.push(format!("{at}: format {shown} → description"));
    }
    let unknown: Vec<String> = object.keys().filter(|k| !AJV_KEYWORDS.contains(&k.as_str())).cloned().collect();
    for keyword in unknown {
        object.remove(&keyword);
        changes.push(format!("{at}: {keyword} removed"));
    }
}

fn check_property_names(object: &JsonObject, path: &str, target: SchemaTarget) -> Result<(), SchemaError> {
    let Some(Value::Object(properties)) = object.get("properties") else { return Ok(()) };
    let acceptable = |name: &str| {
        !name.is_empty()
            && name.len() <= 64
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
    };
    match properties.keys().find(|name| !acceptable(name)) {
        Some(name) => Err(SchemaError::PropertyName { name: name.clone(), path: format!("{path}/properties"), target }),
        None => Ok(()),
    }
}

fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        Value::Number(Number::from(x as i64))
    } else {
        Number::from_f64(x).map_or(Value::Null, Value::Number)
    }
}

fn show(x: f64) -> String {
    json(&number(x))
}

/// JSON pointer escaping of one reference token.
fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}
