//! `McpClient.callTool`, the hot path of the JavaScript API: the worker's tool calls with JavaScript arguments and
//! results ([`JsCalls`]), settling a promise. The page encodes the frame and parses the result; the session decides
//! the request's id, timeout and progress, and its reply callback brings errors, timeouts and the close. No future,
//! no task, no extra microtask on either path. Measured with `cargo xtask bench`.

use crate::convert::{JsFailure, call_options, call_result, checked_call_result};
use js_sys::{Function, Promise};
use mcp_worker_client::session::McpClient;
use mcp_worker_client::worker::JsCalls;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// The two ends of a call's promise, settled once by whichever path answers.
#[derive(Clone)]
struct Settle(Rc<RefCell<Option<(Function, Function)>>>);

impl Settle {
    fn settle(&self, outcome: Result<JsValue, JsFailure>) {
        let Some((resolve, reject)) = self.0.borrow_mut().take() else { return };
        let _ = match outcome {
            Ok(result) => resolve.call1(&JsValue::NULL, &result),
            Err(failure) => reject.call1(&JsValue::NULL, &failure.into_js()),
        };
    }
}

/// Sends `tools/call` and returns a promise of the result. In MCP 2026-07-28 a call may take rounds of questions
/// to the application (`input_required`), so it goes through the session's own path instead of the page's.
pub(super) fn call_tool(client: &Rc<McpClient>, calls: &JsCalls, call: (&JsValue, &JsValue, &JsValue)) -> Promise {
    if client.is_modern() {
        return call_tool_in_rounds(client.clone(), call);
    }
    let (name, args, options) = call;
    let mut ends = None;
    let promise = Promise::new(&mut |resolve, reject| ends = Some((resolve, reject)));
    let settle = Settle(Rc::new(RefCell::new(ends)));
    let options = match call_options(options) {
        Ok(options) => options,
        Err(failure) => {
            settle.settle(Err(failure));
            return promise;
        }
    };
    let server = client.connection().server().to_owned();
    let (by_page, page_server) = (settle.clone(), server.clone());
    let by_session = settle.clone();
    let sent = calls.call_tool(
        client,
        (name, args),
        options,
        Box::new(move |result| by_page.settle(checked_call_result(&page_server, result))),
        Box::new(move |outcome| {
            by_session.settle(outcome.map_err(JsFailure::from).and_then(|raw| call_result(&server, raw.get())));
        }),
    );
    if let Err(error) = sent {
        settle.settle(Err(JsFailure::from(error)));
    }
    promise
}

/// `tools/call` through [`McpClient::call_tool_raw`], which answers `input_required` rounds: the arguments cross
/// as JSON text.
fn call_tool_in_rounds(client: Rc<McpClient>, (name, args, options): (&JsValue, &JsValue, &JsValue)) -> Promise {
    let (name, args, options) = (name.as_string(), args.clone(), call_options(options));
    wasm_bindgen_futures::future_to_promise(async move {
        let server = client.connection().server().to_owned();
        let invalid = |message: &str| JsFailure::from(mcp_worker_client::Error::InvalidInput(message.to_owned()));
        let name = name.ok_or_else(|| invalid("the tool name must be a string").into_js())?;
        let options = options.map_err(JsFailure::into_js)?;
        let arguments = if args.is_undefined() || args.is_null() {
            None
        } else {
            let text = js_sys::JSON::stringify(&args)
                .ok()
                .and_then(|t| t.as_string())
                .ok_or_else(|| invalid("tool arguments must be an object JSON can encode").into_js())?;
            Some(serde_json::value::RawValue::from_string(text).map_err(|e| invalid(&e.to_string()).into_js())?)
        };
        let raw = client
            .call_tool_raw(&name, arguments.as_deref(), options)
            .await
            .map_err(|e| JsFailure::from(e).into_js())?;
        call_result(&server, raw.get()).map_err(JsFailure::into_js)
    })
}
