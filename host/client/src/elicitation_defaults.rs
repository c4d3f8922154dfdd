//! Defaults in an accepted elicitation: a field the user left out that the server's `requestedSchema` gives a
//! `default` for is filled with it before the answer goes back, as MCP 2025-11-25 asks of clients that support
//! defaults (SEP-1034). What the user answered is never replaced.

use serde_json::{Map, Value};

/// `result` with the schema's defaults filled in for fields its `content` lacks, when it accepts.
pub fn fill(requested_schema: &Value, mut result: Value) -> Value {
    if result.get("action").and_then(Value::as_str) != Some("accept") {
        return result;
    }
    let Some(properties) = requested_schema.get("properties").and_then(Value::as_object) else { return result };
    let defaults: Vec<(&String, &Value)> =
        properties.iter().filter_map(|(name, property)| property.get("default").map(|d| (name, d))).collect();
    if defaults.is_empty() {
        return result;
    }
    let Some(answer) = result.as_object_mut() else { return result };
    let content = answer.entry("content").or_insert_with(|| Value::Object(Map::new()));
    if content.is_null() {
        *content = Value::Object(Map::new());
    }
    if let Some(content) = content.as_object_mut() {
        for (name, default) in defaults {
            content.entry(name.clone()).or_insert_with(|| default.clone());
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({"type": "object", "properties": {
            "name": {"type": "string", "default": "John Doe"},
            "age": {"type": "integer", "default": 30},
            "email": {"type": "string"}
        }})
    }

    #[test]
    fn an_accepted_answer_gets_the_defaults_of_the_fields_it_left_out() {
        let filled = fill(&schema(), json!({"action": "accept", "content": {"age": 41}}));
        assert_eq!(filled, json!({"action": "accept", "content": {"age": 41, "name": "John Doe"}}));
        let empty = fill(&schema(), json!({"action": "accept"}));
        assert_eq!(empty["content"], json!({"name": "John Doe", "age": 30}));
        assert_eq!(fill(&schema(), json!({"action": "accept", "content": null}))["content"]["age"], 30);
    }

    #[test]
    fn a_declined_answer_or_a_schema_without_defaults_is_left_alone() {
        let declined = json!({"action": "decline"});
        assert_eq!(fill(&schema(), declined.clone()), declined);
        let plain = json!({"action": "accept", "content": {}});
        assert_eq!(fill(&json!({"properties": {"x": {"type": "string"}}}), plain.clone()), plain);
        assert_eq!(fill(&json!("not a schema"), plain.clone()), plain);
        let odd = json!({"action": "accept", "content": "text"});
        assert_eq!(fill(&schema(), odd.clone()), odd, "content that is not an object is the server's to refuse");
    }
}
