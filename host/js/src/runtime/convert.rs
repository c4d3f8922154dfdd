//! Values across the JavaScript boundary: JSON text both ways (the engine's `JSON.parse`/`JSON.stringify` are
//! faster than building objects field by field), and every failure as an `Error` with a stable `code`.

use js_sys::{Array, Reflect};
use mcp_worker_client::error::Error;
use mcp_worker_runtime::config::ConfigError;
use mcp_worker_runtime::persist::StateError;
use mcp_worker_runtime::registry::RegistryError;
#[cfg(feature = "vault")]
use mcp_worker_vault::credentials::CredentialError;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use wasm_bindgen::prelude::*;

/// A failure on its way to JavaScript: a code, a message, and extra fields for some codes.
#[derive(Debug)]
pub(crate) struct JsFailure {
    code: &'static str,
    message: String,
    name: Option<&'static str>,
    extra: Vec<(&'static str, Value)>,
}

impl JsFailure {
    pub(crate) fn new(code: &'static str, message: impl Into<String>) -> Self {
        Self { code, message: message.into(), name: None, extra: Vec::new() }
    }

    pub(crate) fn invalid(message: impl Into<String>) -> Self {
        Self::new("INVALID_INPUT", message)
    }

    /// The call was aborted through its `AbortSignal` (`name` is `AbortError`, as `fetch` does).
    pub(crate) fn aborted(what: &str) -> Self {
        Self { name: Some("AbortError"), ..Self::new("ABORTED", format!("{what} was aborted")) }
    }

    fn with(mut self, key: &'static str, value: Value) -> Self {
        self.extra.push((key, value));
        self
    }

    /// The JavaScript `Error`.
    pub(crate) fn into_js(self) -> JsValue {
        let error = js_sys::Error::new(&self.message);
        let _ = Reflect::set(&error, &"code".into(), &self.code.into());
        if let Some(name) = self.name {
            error.set_name(name);
        }
        for (key, value) in self.extra {
            if let Ok(value) = json_to_js(&value) {
                let _ = Reflect::set(&error, &key.into(), &value);
            }
        }
        error.into()
    }
}

impl std::fmt::Display for JsFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

impl From<Error> for JsFailure {
    fn from(error: Error) -> Self {
        let failure = Self::new(error.code(), error.to_string());
        match &error {
            Error::Rpc { error: rpc, .. } => failure.with("rpcCode", Value::from(rpc.code)),
            _ => failure,
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

impl From<JsFailure> for JsValue {
    fn from(failure: JsFailure) -> Self {
        failure.into_js()
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

/// A Rust value as a JavaScript value (through JSON text).
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsFailure> {
    let text = serde_json::to_string(value).map_err(|e| JsFailure::new("INTERNAL", e.to_string()))?;
    js_sys::JSON::parse(&text).map_err(|_| JsFailure::new("INTERNAL", "the engine did not parse our JSON"))
}

fn json_to_js(value: &Value) -> Result<JsValue, JsFailure> {
    to_js(value)
}

/// A JavaScript value as JSON text (`undefined` and functions become `null`).
pub(crate) fn to_json_text(value: &JsValue, what: &str) -> Result<String, JsFailure> {
    if value.is_undefined() {
        return Ok("null".into());
    }
    match js_sys::JSON::stringify(value).ok().and_then(|s| s.as_string()) {
        Some(text) => Ok(text),
        None if value.is_function() => Ok("null".into()),
        None => Err(JsFailure::invalid(format!("{what} is not JSON-serializable"))),
    }
}

/// A JavaScript value read as a Rust value (through JSON text); `what` names it in the error.
pub(crate) fn from_js<T: DeserializeOwned>(value: &JsValue, what: &str) -> Result<T, JsFailure> {
    let text = to_json_text(value, what)?;
    serde_json::from_str(&text).map_err(|e| JsFailure::invalid(format!("invalid {what}: {e}")))
}

/// An optional object argument: `undefined`/`null` read as `T::default()`.
pub(crate) fn options_from_js<T: DeserializeOwned + Default>(value: &JsValue, what: &str) -> Result<T, JsFailure> {
    if value.is_undefined() || value.is_null() { Ok(T::default()) } else { from_js(value, what) }
}

/// A property of an object, if it is there (not `undefined`).
pub(crate) fn property(object: &JsValue, key: &str) -> Option<JsValue> {
    if !object.is_object() {
        return None;
    }
    Reflect::get(object, &key.into()).ok().filter(|v| !v.is_undefined())
}

/// An array of strings.
pub(crate) fn strings(value: &JsValue, what: &str) -> Result<Vec<String>, JsFailure> {
    if !Array::is_array(value) {
        return Err(JsFailure::invalid(format!("{what} must be an array of strings")));
    }
    from_js(value, what)
}

/// What a thrown JavaScript value says: an `Error`'s message, or the value as text.
pub(crate) fn thrown_message(value: &JsValue) -> String {
    if let Some(message) = property(value, "message").and_then(|m| m.as_string()) {
        return message;
    }
    value.as_string().unwrap_or_else(|| {
        js_sys::JSON::stringify(value).ok().and_then(|s| s.as_string()).unwrap_or_else(|| "an unknown error".into())
    })
}
