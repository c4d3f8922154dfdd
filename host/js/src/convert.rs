//! Values across the JavaScript boundary: JSON text both ways (the engine's `JSON.parse`/`JSON.stringify` are
//! faster than building objects field by field), every failure as an `Error` with a stable `code`, and the options
//! of a tool call, read the same way for `McpClient.callTool` and `McpRuntime.callTool`.

use js_sys::{Function, Reflect};
use mcp_worker_client::CallOptions;
use mcp_worker_client::connection::ProgressHandler;
use mcp_worker_client::error::Error;
use serde::Deserialize;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::rc::Rc;
use wasm_bindgen::JsCast;
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
    #[cfg(feature = "runtime")]
    pub(crate) fn aborted(what: &str) -> Self {
        Self { name: Some("AbortError"), ..Self::new("ABORTED", format!("{what} was aborted")) }
    }

    pub(crate) fn with(mut self, key: &'static str, value: Value) -> Self {
        self.extra.push((key, value));
        self
    }

    /// The JavaScript `Error`, with every credential value handed to a server scrubbed from it.
    #[cfg_attr(not(feature = "runtime"), expect(unused_mut, reason = "only a runtime has credentials to scrub"))]
    pub(crate) fn into_js(mut self) -> JsValue {
        #[cfg(feature = "runtime")]
        crate::redaction::scrub_failure(&mut self.message, &mut self.extra);
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

impl From<JsFailure> for JsValue {
    fn from(failure: JsFailure) -> Self {
        failure.into_js()
    }
}

/// A Rust value as a JavaScript value (through JSON text).
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsFailure> {
    let text = serde_json::to_string(value).map_err(|e| JsFailure::new("INTERNAL", e.to_string()))?;
    js_sys::JSON::parse(&text).map_err(|_| JsFailure::new("INTERNAL", "the engine did not parse our JSON"))
}

/// JSON text, read by serde_json or written by the host, as a JavaScript value (parsed by the engine).
#[cfg(feature = "runtime")]
pub(crate) fn json_text_to_js(text: &str) -> Result<JsValue, JsFailure> {
    js_sys::JSON::parse(text).map_err(|_| JsFailure::new("INTERNAL", "the engine did not parse our JSON"))
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
    mcp_worker_protocol::json::from_str(&text).map_err(|e| JsFailure::invalid(format!("invalid {what}: {e}")))
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

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct CallJson {
    timeout_ms: Option<u32>,
}

/// The options of a tool call: `timeoutMs`, and `onProgress` (called with each progress notification; a callback
/// that throws does not break the call).
pub(crate) fn call_options(options: &JsValue) -> Result<CallOptions, JsFailure> {
    let json: CallJson = options_from_js(options, "call options")?;
    let mut call = CallOptions::default().timeout(json.timeout_ms);
    if let Some(callback) = property(options, "onProgress") {
        let callback: Function =
            callback.dyn_into().map_err(|_| JsFailure::invalid("onProgress must be a function"))?;
        let handler: ProgressHandler = Rc::new(move |progress| {
            if let Ok(value) = to_js(progress) {
                let _ = callback.call1(&JsValue::NULL, &value);
            }
        });
        call = call.on_progress(handler);
    }
    Ok(call)
}

#[wasm_bindgen(inline_js = r#"
export function hasContentArray(result) {
  return result !== null && typeof result === "object" && Array.isArray(result.content);
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = hasContentArray)]
    fn has_content_array(result: &JsValue) -> bool;
}

/// A `tools/call` result that came as JSON text: parsed by the page, then checked.
pub(crate) fn call_result(server: &str, text: &str) -> Result<JsValue, JsFailure> {
    let result = js_sys::JSON::parse(text).map_err(|e| {
        let message = format!("unreadable tools/call result: {}", mcp_worker_client::worker::describe_js(&e));
        JsFailure::from(Error::Protocol { server: server.to_owned(), message })
    })?;
    checked_call_result(server, result)
}

/// A `tools/call` result, checked to have the shape of a `CallToolResult` (a `content` array).
pub(crate) fn checked_call_result(server: &str, result: JsValue) -> Result<JsValue, JsFailure> {
    if has_content_array(&result) {
        return Ok(result);
    }
    let message = "tools/call result content is not an array".to_owned();
    Err(JsFailure::from(Error::Protocol { server: server.to_owned(), message }))
}
