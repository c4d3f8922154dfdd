//! `McpClient.callTool`, the hot path of the JavaScript API.
//!
//! Out: the frame is built in JavaScript from `JSON.stringify(args)` and posted as it is, so arguments never pass
//! through Rust strings; the request is registered with [`Connection::expect_response`].
//! In: while calls wait, each frame from the server is parsed once with `JSON.parse` on the page; a plain result
//! for a waiting call settles its promise right there ([`interceptor`]), so the result is never copied into Rust
//! and decoded back. Everything else (errors, notifications, malformed frames, answers to Rust callers) goes the
//! connection's way, which also settles waiting calls on timeout, error and close. No future, no task, no extra
//! microtask on either path. Measured with `cargo xtask bench`.

use super::to_js_error;
use js_sys::{Function, Promise, Reflect};
use mcp_worker_client::connection::{Connection, ProgressHandler, ReplyCallback, RequestOptions};
use mcp_worker_client::error::Error;
use mcp_worker_client::session::McpClient;
use mcp_worker_client::worker::{FrameInterceptor, describe_js};
use mcp_worker_protocol::methods;
use serde::Deserialize;
use serde_json::value::RawValue;
use std::cell::RefCell;
use std::collections::HashMap;
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
export function plainResult(data) {
  if (typeof data !== "string") return null;
  let m;
  try { m = JSON.parse(data); } catch { return null; }
  if (m === null || typeof m !== "object" || m.jsonrpc !== "2.0" || !Number.isSafeInteger(m.id)) return null;
  if (!("result" in m) || "error" in m || "method" in m) return null;
  return m;
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

    /// The parsed message when `data` is a well-formed result response with an integer id, else `null`.
    #[wasm_bindgen(js_name = plainResult)]
    fn plain_result(data: &JsValue) -> JsValue;

    #[wasm_bindgen(js_name = hasContentArray)]
    fn has_content_array(result: &JsValue) -> bool;
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct JsCallOptions {
    timeout_ms: Option<u32>,
}

/// The promises of the calls in flight, by request id.
pub(super) type Waiters = Rc<RefCell<HashMap<i64, Waiter>>>;

/// The two ends of a call's promise.
#[derive(Debug)]
pub(super) struct Waiter {
    resolve: Function,
    reject: Function,
}

impl Waiter {
    fn settle(self, outcome: Result<JsValue, Error>) {
        let _ = match outcome {
            Ok(result) => self.resolve.call1(&JsValue::NULL, &result),
            Err(error) => self.reject.call1(&JsValue::NULL, &to_js_error(&error)),
        };
    }
}

/// Answers waiting calls from frames parsed in JS; declines (returns false) every other frame.
pub(super) fn interceptor(connection: Connection, waiters: Waiters) -> FrameInterceptor {
    Rc::new(move |data: &JsValue| {
        if waiters.borrow().is_empty() {
            return false;
        }
        let message = plain_result(data);
        if message.is_null() {
            return false;
        }
        let Some(id) = Reflect::get(&message, &"id".into()).ok().and_then(|id| id.as_f64()) else { return false };
        let id = id as i64;
        if !waiters.borrow().contains_key(&id) {
            return false;
        }
        if !connection.take_answered(id) {
            return true;
        }
        let waiter = waiters.borrow_mut().remove(&id);
        if let Some(waiter) = waiter {
            let result = Reflect::get(&message, &"result".into()).unwrap_or(JsValue::UNDEFINED);
            waiter.settle(checked(connection.server(), result));
        }
        true
    })
}

/// Sends `tools/call` and returns a promise of the result.
pub(super) fn call_tool(
    client: &McpClient,
    port: &MessagePort,
    waiters: &Waiters,
    call: (&JsValue, &JsValue, &JsValue),
) -> Promise {
    let (name, args, options) = call;
    let mut settle = None;
    let promise = Promise::new(&mut |resolve, reject| settle = Some(Waiter { resolve, reject }));
    let Some(waiter) = settle else { return promise };
    let (timeout_ms, on_progress) = match read_options(options) {
        Ok(read) => read,
        Err(error) => {
            waiter.settle(Err(error));
            return promise;
        }
    };
    let connection = client.connection();
    let id = connection.next_request_id();
    let token = if on_progress.is_some() { JsValue::from_f64(id as f64) } else { JsValue::UNDEFINED };
    let frame = match call_frame(id as f64, name, args, token) {
        Ok(frame) => frame,
        Err(thrown) => {
            waiter.settle(Err(Error::InvalidInput(describe_js(&thrown))));
            return promise;
        }
    };
    waiters.borrow_mut().insert(id, waiter);
    let (server, waiting) = (connection.server().to_owned(), waiters.clone());
    let callback: ReplyCallback = Box::new(move |outcome| {
        let waiter = waiting.borrow_mut().remove(&id);
        if let Some(waiter) = waiter {
            waiter.settle(outcome.and_then(|raw| parse_result(&server, &raw)));
        }
    });
    let mut options = RequestOptions::timeout(timeout_ms.unwrap_or_else(|| client.request_timeout_ms()));
    options.on_progress = on_progress;
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
    let result = js_sys::JSON::parse(raw.get()).map_err(|e| Error::Protocol {
        server: server.to_owned(),
        message: format!("unreadable tools/call result: {}", describe_js(&e)),
    })?;
    checked(server, result)
}

fn checked(server: &str, result: JsValue) -> Result<JsValue, Error> {
    if has_content_array(&result) {
        Ok(result)
    } else {
        Err(Error::Protocol { server: server.to_owned(), message: "tools/call result content is not an array".into() })
    }
}
