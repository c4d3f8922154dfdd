//! A JavaScript function as a native tool of the union registry.
//!
//! The function receives the arguments (already checked against the tool's input schema) and
//! `{threadId, traceId, callId}`; it returns the output, or a promise of it. What it throws or rejects with becomes
//! the tool's error, for the model to read; it never escapes into the runtime.

use super::convert::to_js;
use futures_util::future::LocalBoxFuture;
use js_sys::{Function, Promise};
use mcp_worker_client::worker::describe_js;
use mcp_worker_runtime::registry::{ExecutionContext, NativeTool, ToolError};
use serde_json::{Value, json};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// A tool implemented by a JavaScript function.
#[derive(Debug)]
pub(crate) struct JsTool {
    pub(crate) name: String,
    pub(crate) function: Function,
}

impl NativeTool for JsTool {
    fn execute(
        &self,
        arguments: Value,
        context: ExecutionContext,
    ) -> LocalBoxFuture<'static, Result<Value, ToolError>> {
        let name = self.name.clone();
        let ctx = json!({"threadId": context.thread_id, "traceId": context.trace_id, "callId": context.call_id});
        let returned = match (to_js(&arguments), to_js(&ctx)) {
            (Ok(arguments), Ok(ctx)) => {
                self.function.call2(&JsValue::NULL, &arguments, &ctx).map_err(|thrown| describe_js(&thrown))
            }
            _ => Err(format!("tool {name}: its arguments could not be passed to JavaScript")),
        };
        Box::pin(async move {
            let value = returned?;
            let value = match value.dyn_into::<Promise>() {
                Ok(promise) => JsFuture::from(promise).await.map_err(|rejected| describe_js(&rejected))?,
                Err(value) => value,
            };
            output_json(&value)
                .map_err(|e| ToolError::new(format!("tool {name} returned output that is not JSON: {e}")))
        })
    }
}

/// What a tool function returned, as JSON (`undefined` is `null`).
fn output_json(value: &JsValue) -> Result<Value, String> {
    if value.is_undefined() {
        return Ok(Value::Null);
    }
    let text = js_sys::JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| "JSON.stringify refused it".to_owned())?;
    mcp_worker_protocol::json::from_str(&text).map_err(|e| e.to_string())
}
