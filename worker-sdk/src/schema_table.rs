//! Schemas made at build time. A release bundle need not carry schemars and every argument type's schema code: the
//! build runs the server once (in node, with an empty environment) and records each schema the server makes, by its
//! Rust type's name ([`recorded`]); then it builds the server again with the SDK's `prebuilt-schemas` feature, and
//! [`crate::export_server!`] embeds that table in the wasm ([`install`]), where schemas are read from it
//! ([`prebuilt`]) rather than generated.
//!
//! The table is a JSON object: each member the name `std::any::type_name` gives a type and the type's schema, as a
//! tool's result uses it; a tool's or prompt's arguments are under the type's name followed by ` (input)`, finished
//! as an input (optional fields without `null`), so that the bundle need not finish them.

use mcp_worker_protocol::JsonObject;
use serde_json::Value;
use std::cell::RefCell;

thread_local! {
    /// The schemas made while [`recorded`] runs.
    static RECORDING: RefCell<Option<JsonObject>> = const { RefCell::new(None) };
    /// The table embedded at build time, once [`install`] has read it.
    static PREBUILT: RefCell<Option<JsonObject>> = const { RefCell::new(None) };
}

/// Notes the schema of type `name`, while [`recorded`] runs.
pub(crate) fn record(name: &str, schema: &JsonObject) {
    RECORDING.with_borrow_mut(|recording| {
        if let Some(table) = recording {
            table.insert(name.to_owned(), Value::Object(schema.clone()));
        }
    });
}

/// Runs `build` (which builds a server) and returns the schemas it made, as the table's JSON text. (The browser
/// build's `mcp_worker_schemas()` calls it.)
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) fn recorded(build: impl FnOnce()) -> String {
    RECORDING.with_borrow_mut(|recording| *recording = Some(JsonObject::new()));
    build();
    let table = RECORDING.with_borrow_mut(Option::take).unwrap_or_default();
    // Not `to_string()` (`Display`), which links serde_json's pretty printer too.
    serde_json::to_string(&table).unwrap_or_default()
}

/// Reads the table embedded at build time (once: later calls keep the first).
///
/// # Panics
/// When `text` is not a JSON object: the build wrote something else, and no schema could be trusted.
pub fn install(text: &str) {
    PREBUILT.with_borrow_mut(|prebuilt| {
        if prebuilt.is_none() {
            *prebuilt = Some(parse(text).unwrap_or_else(|reason| panic!("{reason}")));
        }
    });
}

fn parse(text: &str) -> Result<JsonObject, String> {
    match mcp_worker_protocol::json::from_str::<Value>(text) {
        Ok(Value::Object(table)) => Ok(table),
        Ok(_) => Err("the schemas embedded at build time are not a JSON object: rebuild the server".into()),
        Err(error) => Err(format!("the schemas embedded at build time are not JSON ({error}): rebuild the server")),
    }
}

/// The schema of type `name` from the table embedded at build time.
///
/// # Panics
/// When the table has none: the server made a schema the build did not see (it registered a tool or prompt only
/// under an environment other than the empty one the build runs it with, or while it runs). The message says so, and the host
/// reports it as the server's failure to start.
#[cfg_attr(not(feature = "prebuilt-schemas"), allow(dead_code))]
pub(crate) fn prebuilt(name: &str) -> JsonObject {
    PREBUILT.with_borrow(|prebuilt| lookup(prebuilt.as_ref(), name)).unwrap_or_else(|reason| panic!("{reason}"))
}

fn lookup(table: Option<&JsonObject>, name: &str) -> Result<JsonObject, String> {
    let Some(table) = table else {
        return Err("this server was built with prebuilt schemas, and none were embedded: build it with \
                    `mcp-worker build --release --prebuilt-schemas` (or `cargo xtask build --release` in the workspace)"
            .into());
    };
    match table.get(name) {
        Some(Value::Object(schema)) => Ok(schema.clone()),
        _ => Err(format!(
            "the schema of `{name}` was not made at build time: the server uses it only in another environment than \
             the empty one its build runs it with, or only in a tool or prompt it adds while it runs. Build it \
             without the `prebuilt-schemas` feature"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn object(value: Value) -> JsonObject {
        match value {
            Value::Object(object) => object,
            other => panic!("not an object: {other}"),
        }
    }

    #[test]
    fn recording_keeps_each_schema_made_while_the_build_runs_by_type_name() {
        record("before::Ignored", &object(json!({"type": "string"})));
        let text = recorded(|| {
            crate::schema::make_sdk_schemas();
            record("echo::Args", &object(json!({"type": "object", "required": ["text"]})));
            record("echo::Args", &object(json!({"type": "object", "required": ["text"]})));
            record("echo::Out", &object(json!({"type": "object"})));
        });
        let table: Value = mcp_worker_protocol::json::from_str(&text).unwrap();
        let no_args = json!({"type": "object", "additionalProperties": false, "title": "NoArgs"});
        assert_eq!(
            table,
            json!({
                "mcp_worker_sdk::args::NoArgs (input)": no_args,
                "echo::Args": {"type": "object", "required": ["text"]},
                "echo::Out": {"type": "object"}
            })
        );
        // Nothing is recorded outside a build.
        record("after::Ignored", &object(json!({})));
        assert_eq!(recorded(|| {}), "{}");
    }

    /// A server's build: the schemas of its tools' arguments and results and of its prompts' arguments, by type
    /// name and role, as the server gives them.
    #[test]
    fn a_servers_build_records_the_schemas_of_its_tools_and_prompts() {
        #[derive(serde::Deserialize, schemars::JsonSchema)]
        #[allow(dead_code)]
        struct Lookup {
            city: String,
            days: Option<u32>,
        }
        #[derive(serde::Serialize, schemars::JsonSchema)]
        struct Forecast {
            high: f64,
        }
        #[derive(serde::Deserialize, schemars::JsonSchema)]
        #[allow(dead_code)]
        struct Topic {
            topic: String,
        }
        let mut server = None;
        let text = recorded(|| {
            crate::schema::make_sdk_schemas();
            server = Some(
                crate::Server::new("weather", "1.0.0")
                    .tool(crate::ToolDef::new("forecast", |_: Lookup| async { crate::Json(Forecast { high: 1.0 }) }))
                    .prompt(crate::PromptDef::new("brief", |args: Topic| async move { args.topic })),
            );
        });
        let table: JsonObject = mcp_worker_protocol::json::from_str(&text).unwrap();
        let name = |suffix: &str| table.keys().find(|name| name.ends_with(suffix)).cloned();
        let lookup = name("::Lookup (input)").expect(&text);
        assert_eq!(table[&lookup]["required"], json!(["city"]), "{text}");
        assert_eq!(table[&name("::Forecast").expect(&text)]["required"], json!(["high"]), "{text}");
        assert!(name("::Topic (input)").is_some() && name("::NoArgs (input)").is_some(), "{text}");
        assert_eq!(table.len(), 4, "each schema once, in the role it has: {text}");
        // Recorded as the tool gives it: finished as an input (an optional field is its plain type).
        let tool = server.unwrap().manifest().tools.remove(0);
        let input = serde_json::to_value(&tool.input_schema).unwrap();
        assert_eq!(input["properties"]["days"], json!({"type": "integer", "minimum": 0}), "{input}");
        assert_eq!(Value::Object(table[&lookup].as_object().unwrap().clone()), input, "{text}");
    }

    #[test]
    fn a_table_gives_each_type_its_schema_and_names_a_type_it_lacks() {
        let table = parse(r#"{"echo::Args": {"type": "object"}}"#).unwrap();
        assert_eq!(lookup(Some(&table), "echo::Args").unwrap(), object(json!({"type": "object"})));
        let missing = lookup(Some(&table), "echo::Hidden").unwrap_err();
        assert!(missing.contains("`echo::Hidden` was not made at build time"), "{missing}");
        assert!(missing.contains("without the `prebuilt-schemas` feature"), "{missing}");
        let none = lookup(None, "echo::Args").unwrap_err();
        assert!(none.contains("none were embedded"), "{none}");
    }

    #[test]
    fn a_table_that_is_not_a_json_object_is_refused_with_what_to_do() {
        assert!(parse("[1, 2]").unwrap_err().contains("not a JSON object: rebuild the server"));
        assert!(parse("{\"a\": ").unwrap_err().contains("not JSON"));
    }
}
