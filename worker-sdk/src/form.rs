//! Elicitation forms from Rust types: `ctx.elicit_form::<T>(message)` sends `T`'s schema as the form and reads the
//! answer back into `T`.
//!
//! A form is a flat object whose properties are strings (with an optional `format` of `email`, `uri`, `date` or
//! `date-time`), numbers, integers, booleans, or enums of strings. A type that does not fit is refused before
//! anything is sent, with [`Error::InvalidForm`] naming the field.

use crate::error::Error;
use mcp_worker_protocol::JsonObject;
use schemars::JsonSchema;
use serde_json::Value;

/// What the user did with a form.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Elicitation<T> {
    /// The user submitted the form.
    Accepted(T),
    /// The user explicitly declined.
    Declined,
    /// The user dismissed the form without choosing.
    Cancelled,
}

const FORMATS: &[&str] = &["email", "uri", "date", "date-time"];

/// The `requestedSchema` of a form for `T`.
pub(crate) fn form_schema<T: JsonSchema>() -> Result<JsonObject, Error> {
    let type_name = T::schema_name().into_owned();
    let fail = |reason: String| Error::InvalidForm { type_name: type_name.clone(), reason };
    let schema = crate::schema::generated_input_schema::<T>();
    let defs = match schema.get("$defs") {
        Some(Value::Object(defs)) => defs.clone(),
        _ => JsonObject::new(),
    };
    let mut properties = JsonObject::new();
    if let Some(Value::Object(given)) = schema.get("properties") {
        for (name, property) in given {
            let property =
                resolve(property, &defs).ok_or_else(|| fail(format!("field `{name}` has no usable type")))?;
            properties.insert(name.clone(), primitive(name, property).map_err(&fail)?);
        }
    }
    let mut form = JsonObject::new();
    form.insert("type".into(), "object".into());
    form.insert("properties".into(), Value::Object(properties));
    if let Some(required) = schema.get("required") {
        form.insert("required".into(), required.clone());
    }
    Ok(form)
}

/// Follows a `#/$defs/...` reference (enums are defined there), keeping the field's own description.
fn resolve(property: &Value, defs: &JsonObject) -> Option<JsonObject> {
    let mut property = property.as_object()?.clone();
    if let Some(target) = mcp_worker_protocol::members::take(&mut property, "$ref") {
        let name = target.as_str()?.strip_prefix("#/$defs/")?;
        for (key, value) in defs.get(name)?.as_object()? {
            property.entry(key.clone()).or_insert_with(|| value.clone());
        }
    }
    Some(property)
}

/// Keeps what the spec's primitive schemas allow, or says why the field cannot be a form field.
fn primitive(name: &str, property: JsonObject) -> Result<Value, String> {
    let kind = property.get("type").and_then(Value::as_str).map(str::to_owned);
    let keep: &[&str] = match kind.as_deref() {
        Some("string") if property.contains_key("enum") => &["type", "title", "description", "enum", "default"],
        Some("string") => &["type", "title", "description", "minLength", "maxLength", "format", "default"],
        Some("number" | "integer") => &["type", "title", "description", "minimum", "maximum", "default"],
        Some("boolean") => &["type", "title", "description", "default"],
        Some("array") => {
            let items_are_enum = property.get("items").and_then(|i| i.get("enum")).is_some();
            if !items_are_enum {
                return Err(format!("field `{name}` is a list; forms allow lists only of enum choices"));
            }
            &["type", "title", "description", "items", "minItems", "maxItems", "default"]
        }
        Some(other) => {
            return Err(format!("field `{name}` is of type {other}; forms hold strings, numbers, booleans and enums"));
        }
        None => {
            return Err(format!(
                "field `{name}` has no single type (nested or optional-object fields are not allowed)"
            ));
        }
    };
    let (_, mut property) = mcp_worker_protocol::members::split_off(property, keep);
    if let Some(format) = property.get("format").and_then(Value::as_str)
        && !FORMATS.contains(&format)
    {
        mcp_worker_protocol::members::take(&mut property, "format");
    }
    Ok(Value::Object(property))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    enum Color {
        Red,
        Green,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Contact {
        /// Your name.
        name: String,
        age: Option<u8>,
        newsletter: bool,
        favourite: Color,
    }

    #[test]
    fn a_flat_struct_becomes_a_form() {
        let form = Value::Object(form_schema::<Contact>().unwrap());
        assert_eq!(form["type"], json!("object"));
        assert_eq!(form["required"], json!(["name", "newsletter", "favourite"]));
        assert_eq!(form["properties"]["name"], json!({"type": "string", "description": "Your name."}));
        assert_eq!(form["properties"]["age"], json!({"type": "integer", "minimum": 0, "maximum": 255}));
        assert_eq!(form["properties"]["newsletter"], json!({"type": "boolean"}));
        assert_eq!(form["properties"]["favourite"], json!({"type": "string", "enum": ["Red", "Green"]}));
    }

    #[test]
    fn nested_types_are_refused_naming_the_field() {
        #[derive(JsonSchema)]
        #[allow(dead_code)]
        struct Nested {
            contact: Contact,
        }
        let err = form_schema::<Nested>().unwrap_err();
        assert!(matches!(&err, Error::InvalidForm { reason, .. } if reason.contains("`contact`")), "{err}");
        #[derive(JsonSchema)]
        #[allow(dead_code)]
        struct Tags {
            tags: Vec<String>,
        }
        assert!(form_schema::<Tags>().is_err());
    }
}
