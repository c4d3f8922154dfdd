//! JSON Schema generation for tool arguments (draft 2020-12, the dialect MCP assumes).

use mcp_worker_protocol::JsonObject;
use schemars::JsonSchema;
use schemars::generate::SchemaSettings;

/// The `inputSchema` of a tool whose arguments are `A`.
///
/// The `$schema` member is left out: MCP defaults to 2020-12 and several LLM APIs reject the keyword. MCP requires
/// an object root, so the root always says `"type": "object"` (argument types are structs or maps).
pub(crate) fn input_schema<A: JsonSchema>() -> JsonObject {
    let generator = SchemaSettings::draft2020_12().into_generator();
    let schema = generator.into_root_schema_for::<A>();
    let mut object = match schema.to_value() {
        serde_json::Value::Object(map) => map,
        _ => JsonObject::new(),
    };
    object.remove("$schema");
    if object.get("type").and_then(|t| t.as_str()) != Some("object") {
        object.insert("type".into(), "object".into());
    }
    object
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Args {
        /// The text to echo.
        text: String,
        times: Option<u32>,
    }

    #[test]
    fn a_struct_gives_an_object_schema_with_required_fields() {
        let schema = input_schema::<Args>();
        assert_eq!(schema["type"], json!("object"));
        assert_eq!(schema["required"], json!(["text"]));
        assert_eq!(schema["properties"]["text"]["description"], json!("The text to echo."));
        assert!(!schema.contains_key("$schema"));
    }
}
