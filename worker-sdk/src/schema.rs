//! JSON Schemas from Rust types (draft 2020-12, the dialect MCP assumes): tool inputs and outputs, prompt
//! arguments and elicitation forms.
//!
//! The schemas are kept conservative so that every LLM provider accepts them: no `$schema` member (several APIs
//! reject it), only the `format` values JSON Schema defines (schemars adds `double`, `uint32`, … otherwise), and an
//! optional input field is its plain type rather than `["T", "null"]`.

use mcp_worker_protocol::JsonObject;
use schemars::generate::{SchemaGenerator, SchemaSettings};
use schemars::{JsonSchema, Schema};
use serde_json::Value;

/// `T`'s schema as `role` uses it: generated and finished for that use, or with the `prebuilt-schemas` feature read
/// from the table the build embedded (see [`crate::schema_table`]), where the build recorded it finished, so that a
/// bundle carries no finishing code (an input's: 0.5 KiB of each bundle). Only the call of `T`'s generator is
/// compiled once per type; what comes before and after it once.
fn schema_object<T: JsonSchema>(role: Role) -> JsonObject {
    let name = role.table_name(std::any::type_name::<T>());
    #[cfg(not(feature = "prebuilt-schemas"))]
    let schema = role.finish(generated::<T>());
    #[cfg(feature = "prebuilt-schemas")]
    let schema = crate::schema_table::prebuilt(&name);
    made(&name, schema)
}

/// What a schema is made for.
#[derive(Clone, Copy)]
enum Role {
    /// A tool's or prompt's arguments: finished by [`as_input`].
    Input,
    /// A tool's result, as generated.
    Output,
}

impl Role {
    /// The schema's name in the build's table: the type's name, followed by ` (input)` for an input's.
    fn table_name(self, type_name: &str) -> String {
        match self {
            Self::Input => format!("{type_name} (input)"),
            Self::Output => type_name.to_owned(),
        }
    }

    #[cfg_attr(feature = "prebuilt-schemas", allow(dead_code))]
    fn finish(self, schema: JsonObject) -> JsonObject {
        match self {
            Self::Input => as_input(schema),
            Self::Output => schema,
        }
    }
}

/// Makes the schemas of the SDK's own argument types, so that a build's table always holds them: tools and prompts
/// added as the server runs most often take none ([`crate::NoArgs`]).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) fn make_sdk_schemas() {
    let _ = input_schema::<crate::NoArgs>();
}

/// `T`'s schema, generated.
fn generated<T: JsonSchema>() -> JsonObject {
    object_of(generator().into_root_schema_for::<T>())
}

/// A schema made for the type `name`: noted while the build records them.
#[inline(never)]
fn made(name: &str, schema: JsonObject) -> JsonObject {
    crate::schema_table::record(name, &schema);
    schema
}

/// A generator of JSON Schema 2020-12, the dialect MCP assumes.
#[inline(never)]
fn generator() -> SchemaGenerator {
    SchemaSettings::draft2020_12().into_generator()
}

/// A generated schema as the object MCP carries: no `$schema`, only the formats JSON Schema defines.
#[inline(never)]
fn object_of(schema: Schema) -> JsonObject {
    let mut object = match schema.to_value() {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    };
    mcp_worker_protocol::members::take(&mut object, "$schema");
    keep_defined_formats(&mut object);
    object
}

/// The `format` values JSON Schema 2020-12 defines.
const DEFINED_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// Removes every `format` JSON Schema does not define (schemars writes `uint32`, `double`, `int64`, …, which some
/// LLM providers refuse) from `schema` and each of its subschemas. What schemars' `RestrictFormats` does, without
/// its boxed transform and B-tree set of names: 0.7-1.2 KiB of gzip off every server's bundle.
fn keep_defined_formats(schema: &mut JsonObject) {
    if schema.get("format").and_then(Value::as_str).is_some_and(|format| !DEFINED_FORMATS.contains(&format)) {
        mcp_worker_protocol::members::take(schema, "format");
    }
    for (keyword, value) in schema.iter_mut() {
        match keyword.as_str() {
            // One subschema; or, for `items`, an array of them (before 2020-12).
            "not"
            | "if"
            | "then"
            | "else"
            | "contains"
            | "additionalProperties"
            | "propertyNames"
            | "additionalItems"
            | "unevaluatedItems"
            | "unevaluatedProperties"
            | "items" => {
                each_subschema(value, keyword == "items");
            }
            "allOf" | "anyOf" | "oneOf" | "prefixItems" => each_subschema(value, true),
            // Subschemas by name.
            "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
                if let Value::Object(named) = value {
                    named.values_mut().for_each(|subschema| each_subschema(subschema, false));
                }
            }
            _ => {}
        }
    }
}

/// [`keep_defined_formats`] on `value` when it is a schema object, or on each schema of it when `listed` and it is
/// an array.
fn each_subschema(value: &mut Value, listed: bool) {
    match value {
        Value::Object(subschema) => keep_defined_formats(subschema),
        Value::Array(subschemas) if listed => {
            for subschema in subschemas {
                if let Value::Object(subschema) = subschema {
                    keep_defined_formats(subschema);
                }
            }
        }
        _ => {}
    }
}

/// The `inputSchema` of a tool whose arguments are `A`. MCP requires an object root, so the root always says
/// `"type": "object"` (argument types are structs or maps).
pub(crate) fn input_schema<A: JsonSchema>() -> JsonObject {
    schema_object::<A>(Role::Input)
}

/// [`input_schema`] from the generated schema.
#[inline(never)]
fn as_input(mut object: JsonObject) -> JsonObject {
    if object.get("type").and_then(Value::as_str) != Some("object") {
        object.insert("type".into(), "object".into());
    }
    drop_null_from_optional_fields(&mut object);
    if let Some(Value::Object(defs)) = object.get_mut("$defs") {
        for def in defs.values_mut() {
            if let Value::Object(def) = def {
                drop_null_from_optional_fields(def);
            }
        }
    }
    object
}

/// The `inputSchema` of `A`, always generated: for schemas made as the server runs (an elicitation's form), which
/// the build does not see.
pub(crate) fn generated_input_schema<A: JsonSchema>() -> JsonObject {
    as_input(generated::<A>())
}

/// The schema of what a tool returns as `structuredContent`, as generated (its root may not be an object).
pub(crate) fn output_schema<T: JsonSchema>() -> JsonObject {
    schema_object::<T>(Role::Output)
}

/// Whether a schema's root is an object, as MCP 2025-11-25 requires of `outputSchema` and `structuredContent`.
pub(crate) fn is_object_schema(schema: &JsonObject) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object")
}

/// An optional field may be left out, which is what a client should do when it has no value: `Option<String>` is
/// `{"type": "string"}`, not `{"type": ["string", "null"]}`, and `Option<Struct>` is the struct's `$ref`.
/// (serde still accepts an explicit `null`.)
fn drop_null_from_optional_fields(schema: &mut JsonObject) {
    let required: Vec<String> = match schema.get("required") {
        Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
        _ => Vec::new(),
    };
    let Some(Value::Object(properties)) = schema.get_mut("properties") else { return };
    for (name, property) in properties.iter_mut() {
        if required.contains(name) {
            continue;
        }
        let Value::Object(property) = property else { continue };
        if let Some(Value::Array(types)) = property.get("type") {
            let kept: Vec<Value> = types.iter().filter(|t| t.as_str() != Some("null")).cloned().collect();
            if kept.len() == 1 && kept.len() < types.len() {
                property.insert("type".into(), kept[0].clone());
            }
        }
        let single_non_null = match property.get("anyOf") {
            Some(Value::Array(options)) if options.len() == 2 => {
                let is_null = |v: &Value| v.get("type").and_then(Value::as_str) == Some("null");
                match (is_null(&options[0]), is_null(&options[1])) {
                    (false, true) => Some(options[0].clone()),
                    (true, false) => Some(options[1].clone()),
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some(Value::Object(inner)) = single_non_null {
            mcp_worker_protocol::members::take(property, "anyOf");
            for (key, value) in inner {
                property.entry(key).or_insert(value);
            }
        }
        // `"default": null` describes the absent value, which is now simply "not given".
        if property.get("default") == Some(&Value::Null) {
            mcp_worker_protocol::members::take(property, "default");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Address {
        street: String,
        zip: Option<u32>,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Args {
        /// The text to echo.
        text: String,
        times: Option<u32>,
        ratio: f64,
        home: Option<Address>,
        work: Address,
    }

    #[test]
    fn a_struct_gives_an_object_schema_with_required_fields() {
        let schema = input_schema::<Args>();
        assert_eq!(schema["type"], json!("object"));
        assert_eq!(schema["required"], json!(["text", "ratio", "work"]));
        assert_eq!(schema["properties"]["text"]["description"], json!("The text to echo."));
        assert!(!schema.contains_key("$schema"));
    }

    #[test]
    fn optional_fields_are_their_plain_type_and_formats_are_standard() {
        let schema = Value::Object(input_schema::<Args>());
        assert_eq!(schema["properties"]["times"], json!({"type": "integer", "minimum": 0}), "{schema:#}");
        assert_eq!(schema["properties"]["ratio"], json!({"type": "number"}), "{schema:#}");
        assert_eq!(schema["properties"]["home"], json!({"$ref": "#/$defs/Address"}), "{schema:#}");
        assert_eq!(schema["properties"]["work"], json!({"$ref": "#/$defs/Address"}), "{schema:#}");
        assert_eq!(schema["$defs"]["Address"]["properties"]["zip"]["type"], json!("integer"), "{schema:#}");
        assert!(!schema.to_string().contains("\"format\""), "{schema:#}");
    }

    #[test]
    fn only_defined_formats_are_kept_in_every_subschema_and_nothing_else_is_touched() {
        let mut schema = json!({
            "type": "object",
            "format": "int64",
            "properties": {
                "when": {"type": "string", "format": "date-time"},
                "count": {"type": "integer", "format": "uint32"},
                "format": {"type": "string", "format": "email"},
                "list": {"type": "array", "items": {"type": "number", "format": "double"}},
                "pair": {"type": "array", "prefixItems": [{"format": "uint8"}, {"format": "uuid"}]},
                "either": {"anyOf": [{"format": "int16"}, {"type": "null"}]},
                "map": {"type": "object", "additionalProperties": {"format": "float"}},
                "odd": {"type": "object", "default": {"format": "uint32"}, "examples": [{"format": "int8"}]}
            },
            "$defs": {"Inner": {"properties": {"id": {"format": "uint64"}, "at": {"format": "date"}}}}
        });
        let Value::Object(object) = &mut schema else { unreachable!() };
        keep_defined_formats(object);
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "properties": {
                    "when": {"type": "string", "format": "date-time"},
                    "count": {"type": "integer"},
                    "format": {"type": "string", "format": "email"},
                    "list": {"type": "array", "items": {"type": "number"}},
                    "pair": {"type": "array", "prefixItems": [{}, {"format": "uuid"}]},
                    "either": {"anyOf": [{}, {"type": "null"}]},
                    "map": {"type": "object", "additionalProperties": {}},
                    "odd": {"type": "object", "default": {"format": "uint32"}, "examples": [{"format": "int8"}]}
                },
                "$defs": {"Inner": {"properties": {"id": {}, "at": {"format": "date"}}}}
            })
        );
    }

    #[test]
    fn output_schemas_keep_null_where_the_value_may_be_null() {
        #[derive(JsonSchema)]
        #[allow(dead_code)]
        struct Weather {
            temp: f64,
            note: Option<String>,
        }
        let schema = output_schema::<Weather>();
        assert!(is_object_schema(&schema));
        assert_eq!(schema["properties"]["note"]["type"], json!(["string", "null"]));
        assert!(!is_object_schema(&output_schema::<f64>()));
        assert!(!is_object_schema(&output_schema::<Vec<String>>()));
    }
}
