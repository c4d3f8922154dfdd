//! The runtime's errors as JavaScript failures (see [`crate::convert`]).

pub(crate) use crate::convert::*;
use js_sys::Array;
use mcp_worker_runtime::config::ConfigError;
use mcp_worker_runtime::persist::StateError;
use mcp_worker_runtime::registry::RegistryError;
#[cfg(feature = "vault")]
use mcp_worker_vault::credentials::CredentialError;
use serde_json::Value;
use serde_json::value::RawValue;
use wasm_bindgen::JsValue;

impl From<mcp_worker_runtime::Error> for JsFailure {
    fn from(error: mcp_worker_runtime::Error) -> Self {
        match error {
            mcp_worker_runtime::Error::Client(error) => Self::from(error),
            other => Self::new(other.code(), other.to_string()),
        }
    }
}

impl From<StateError> for JsFailure {
    fn from(error: StateError) -> Self {
        Self::new(error.code(), error.to_string())
    }
}

#[cfg(feature = "vault")]
impl From<CredentialError> for JsFailure {
    fn from(error: CredentialError) -> Self {
        let failure = Self::new(error.code(), error.to_string());
        match &error {
            CredentialError::Missing(missing) => {
                failure.with("missing", serde_json::to_value(&missing.missing).unwrap_or(Value::Null))
            }
            _ => failure,
        }
    }
}

impl From<RegistryError> for JsFailure {
    fn from(error: RegistryError) -> Self {
        let code = match &error {
            RegistryError::Duplicate { .. } => "DUPLICATE_TOOL",
            _ => "INVALID_TOOL_NAME",
        };
        Self::new(code, error.to_string())
    }
}

impl From<Vec<ConfigError>> for JsFailure {
    fn from(errors: Vec<ConfigError>) -> Self {
        let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
        Self::new("INVALID_CONFIG", shown.join("; ")).with("errors", config_errors_json(&errors))
    }
}

/// `[{entry, field, message}]`.
pub(crate) fn config_errors_json(errors: &[ConfigError]) -> Value {
    errors
        .iter()
        .map(|e| serde_json::json!({"entry": e.entry, "field": e.field, "message": e.message}))
        .collect::<Vec<Value>>()
        .into()
}

/// An array of strings.
pub(crate) fn strings(value: &JsValue, what: &str) -> Result<Vec<String>, JsFailure> {
    if !Array::is_array(value) {
        return Err(JsFailure::invalid(format!("{what} must be an array of strings")));
    }
    from_js(value, what)
}

/// A tool call's arguments as JSON text: `undefined` or `null` for none, else an object (not an array).
pub(crate) fn tool_arguments(args: &JsValue) -> Result<Option<Box<RawValue>>, JsFailure> {
    if args.is_undefined() || args.is_null() {
        return Ok(None);
    }
    if !args.is_object() || Array::is_array(args) {
        return Err(JsFailure::invalid("tool arguments must be an object"));
    }
    let text = to_json_text(args, "tool arguments")?;
    RawValue::from_string(text).map(Some).map_err(|e| JsFailure::invalid(e.to_string()))
}
