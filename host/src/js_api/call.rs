//! `McpClient.callTool`, the hot path of the JavaScript API.
//!
//! The frame is built in JavaScript from `JSON.stringify(args)` and posted as it is, so arguments never pass
//! through Rust strings; the request is registered with [`Connection::expect_response`], and the promise is
//! settled from the receive path itself (no future, no task, no extra microtask). Measured with
//! `cargo xtask bench`.

use super::to_js_error;
use crate::client::McpClient;
use crate::connection::{ProgressHandler, ReplyCallback, RequestOptions};
use crate::error::Error;
use crate::worker::describe_js;
use js_sys::{Function, Promise, Reflect};
use mcp_worker_protocol::methods;
use serde::Deserialize;
use serde_json::value::RawValue;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::MessagePort;

#[wasm_bindgen(inline_js = r#"
export function callFrame(id, name, args, progressToken) {
  if (typeof name !== "string") throw new TypeError("the tool name must be a string");
  let frame = '{"jsonrpc":"2.0","id":' + id + ',"method":"tools/call","params":{"name":' + JSON.stringify(name);
  if (args !== undefined && args !== null) {
    if (typeof args !== "object" || Array.isArray(args)) throw new TypeError("tool arguments must be an object");
    frame += ',"arguments":' + JSON.stringify(args);
  }
  if (progressToken !== undefined) frame += ',"_meta":{"progressToken":' + progressToken + '}';
  return frame + '}}';
}
export function hasContentArray(result) {
  return result !== null && typeof result === "object" && Array.isArray(result.content);
}
"#)]
extern "C" {
    /// The `tools/call` frame, as JSON text. Throws for a name that is not a string, arguments that are not an
    /// object, and arguments `JSON.stringify` refuses (cycles, BigInt).
    #[wasm_bindgen(js_name = callFrame, catch)]
    fn call_frame(id: f64, name: &JsValue, args: &JsValue, progress_token: JsValue) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(js_name = hasContentArray)]
    fn has_content_array(result: &JsValue) -> bool;
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct JsCallOptions {
    timeout_ms: Option<u32>,
}

/// Sends `tools/call` and returns a promise of the result.
pub(super) fn call_tool(
    client: &McpClient,
    port: &MessagePort,
    name: &JsValue,
    args: &JsValue,
    options: &JsValue,
) -> Promise {
    let mut settle = None;
    let promise = Promise::new(&mut |resolve, reject| settle = Some((resolve, reject)));
    let Some((resolve, reject)) = settle else { return promise };
    let fail = |error: &Error| {
        let _ = reject.call1(&JsValue::NULL, &to_js_error(error));
    };
    let (timeout_ms, on_progress) = match read_options(options) {
        Ok(read) => read,
        Err(error) => {
            fail(&error);
            return promise;
        }
    };
    let connection = client.connection();
    let id = connection.next_request_id();
    let token = if on_progress.is_some() { JsValue::from_f64(id as f64) } else { JsValue::UNDEFINED };
    let frame = match call_frame(id as f64, name, args, token) {
        Ok(frame) => frame,
        Err(thrown) => {
            fail(&Error::InvalidInput(describe_js(&thrown)));
            return promise;
        }
    };
    let server = connection.server().to_owned();
    let reply_to = reject.clone();
    let callback: ReplyCallback = Box::new(move |outcome| {
        match outcome.and_then(|raw| parse_result(&server, &raw)) {
            Ok(result) => resolve.call1(&JsValue::NULL, &result),
            Err(error) => reply_to.call1(&JsValue::NULL, &to_js_error(&error)),
        }
        .ok();
    });
    let options = RequestOptions {
        timeout_ms: Some(timeout_ms.unwrap_or_else(|| client.request_timeout_ms())),
        on_progress,
        ..RequestOptions::default()
    };
    if connection.expect_response(id, methods::TOOLS_CALL, options, callback) {
        if let Err(thrown) = port.post_message(&frame) {
            let reason = describe_js(&thrown);
            connection.fail(id, Error::Closed { server: connection.server().to_owned(), reason });
        }
    }
    promise
}

fn read_options(options: &JsValue) -> Result<(Option<u32>, Option<ProgressHandler>), Error> {
    if options.is_undefined() || options.is_null() {
        return Ok((None, None));
    }
    let parsed: JsCallOptions = serde_wasm_bindgen::from_value(options.clone())
        .map_err(|e| Error::InvalidInput(format!("invalid call options: {e}")))?;
    let on_progress = Reflect::get(options, &"onProgress".into()).ok().and_then(|f| f.dyn_into::<Function>().ok());
    let on_progress = on_progress.map(|callback| -> ProgressHandler {
        Rc::new(move |progress| {
            if let Ok(value) = super::to_js(progress) {
                // A throwing callback must not break the call: its error stays in JS.
                let _ = callback.call1(&JsValue::NULL, &value);
            }
        })
    });
    Ok((parsed.timeout_ms, on_progress))
}

/// The result as a JS object, checked to have the shape of a `CallToolResult`.
fn parse_result(server: &str, raw: &RawValue) -> Result<JsValue, Error> {
    let protocol = |message: String| Error::Protocol { server: server.to_owned(), message };
    let result = js_sys::JSON::parse(raw.get())
        .map_err(|e| protocol(format!("unreadable tools/call result: {}", describe_js(&e))))?;
    if !has_content_array(&result) {
        return Err(protocol("tools/call result content is not an array".into()));
    }
    Ok(result)
}
