//! The root of an input schema: an object with `properties`, and no combinators where OpenAI and Anthropic refuse
//! them (`anyOf`/`oneOf`/`allOf`/`enum`/`not` at the top level).

use super::{PreparedSchema, SchemaError, SchemaTarget, note};
use mcp_worker_protocol::JsonObject;
use mcp_worker_protocol::quoted::json;
use serde_json::{Map, Value};

pub(super) fn normalize(prepared: &mut PreparedSchema, target: SchemaTarget) -> Result<(), SchemaError> {
    let schema = &mut prepared.schema;
    let changes = &mut prepared.changes;
    match schema.get("type") {
        None => {
            schema.insert("type".into(), "object".into());
            changes.push("/: added type object".into());
        }
        Some(Value::String(t)) if t == "object" => {}
        Some(types @ Value::Array(listed)) if listed.iter().any(|t| t == "object") => {
            let was = json(types);
            schema.insert("type".into(), "object".into());
            changes.push(format!("/: type {was} → object"));
        }
        Some(other) => return Err(SchemaError::RootNotObject { found: json(other) }),
    }
    if !matches!(target, SchemaTarget::OpenAi | SchemaTarget::Anthropic) {
        ensure_properties(schema, changes);
        return Ok(());
    }
    if let Some(Value::Array(members)) = schema.remove("allOf") {
        let members = resolve_all(schema, members);
        for member in &members {
            merge_properties(schema, member);
        }
        let required: Vec<Value> = members.iter().flat_map(required_of).collect();
        add_required(schema, required);
        changes.push("/: root allOf merged into the root".into());
    }
    for keyword in ["anyOf", "oneOf"] {
        let Some(Value::Array(members)) = schema.remove(keyword) else { continue };
        let members = resolve_all(schema, members);
        let alternatives = members.iter().filter(|m| m.get("type").is_none_or(|t| t != "null")).count();
        for member in &members {
            merge_properties(schema, member);
        }
        // Only what every alternative requires stays required; the model learns the rest from the note and from
        // the validation error if it picks an impossible mix.
        let mut common: Option<Vec<Value>> = None;
        for member in &members {
            let required = required_of(member);
            common = Some(match common {
                None => required,
                Some(so_far) => so_far.into_iter().filter(|r| required.contains(r)).collect(),
            });
        }
        add_required(schema, common.unwrap_or_default());
        note(schema, &format!("the arguments must match one of {alternatives} alternative shapes ({keyword})"));
        changes.push(format!("/: root {keyword} merged into the root"));
    }
    for keyword in ["enum", "not", "const"] {
        if schema.remove(keyword).is_some() {
            changes.push(format!("/: root {keyword} removed"));
        }
    }
    ensure_properties(schema, changes);
    Ok(())
}

fn ensure_properties(schema: &mut JsonObject, changes: &mut Vec<String>) {
    if !schema.get("properties").is_some_and(Value::is_object) {
        schema.insert("properties".into(), Value::Object(Map::new()));
        changes.push("/: added empty properties".into());
    }
}

/// Members of a root combinator, with local `$ref`s (`#/$defs/…`, `#/definitions/…`) replaced by their target.
fn resolve_all(root: &JsonObject, members: Vec<Value>) -> Vec<JsonObject> {
    members
        .into_iter()
        .filter_map(|member| {
            let Value::Object(object) = member else { return None };
            match object.get("$ref").and_then(Value::as_str) {
                Some(reference) => resolve(root, reference).cloned(),
                None => Some(object),
            }
        })
        .collect()
}

fn resolve<'a>(root: &'a JsonObject, reference: &str) -> Option<&'a JsonObject> {
    let (container, name) = reference.strip_prefix("#/")?.split_once('/')?;
    if container != "$defs" && container != "definitions" {
        return None;
    }
    root.get(container)?.get(name)?.as_object()
}

fn merge_properties(schema: &mut JsonObject, member: &JsonObject) {
    let Some(Value::Object(properties)) = member.get("properties") else { return };
    let target = schema.entry("properties").or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(target) = target {
        for (name, property) in properties {
            target.entry(name.clone()).or_insert_with(|| property.clone());
        }
    }
}

fn required_of(member: &JsonObject) -> Vec<Value> {
    member.get("required").and_then(Value::as_array).cloned().unwrap_or_default()
}

fn add_required(schema: &mut JsonObject, names: Vec<Value>) {
    if names.is_empty() {
        return;
    }
    let required = schema.entry("required").or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(required) = required {
        for name in names {
            if !required.contains(&name) {
                required.push(name);
            }
        }
    }
}
