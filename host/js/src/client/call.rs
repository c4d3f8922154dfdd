//! `McpClient.callTool`, the hot path of the JavaScript API: the session's one way to send a tool call
//! ([`McpClient::send_tool_call`]), settling a promise instead of a future.
//!
//! The result reaches the promise parsed once: the worker transport parses each frame with the page's `JSON.parse`
//! while calls wait, and hands a plain result to its call as a JS object ([`JsAnswers`]), never copied into wasm and
//! decoded back. Errors, timeouts and the connection's close come through the session's reply callback. No future,
//! no task, no extra microtask on either path. Measured with `cargo xtask bench`.

use crate::convert::{JsFailure, call_options, call_result, checked_call_result, tool_arguments};
use js_sys::{Function, Promise};
use mcp_worker_client::session::McpClient;
use mcp_worker_client::worker::JsAnswers;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// The two ends of a call's promise, settled once by whichever path answers first.
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

/// Sends `tools/call` and returns a promise of the result.
pub(super) fn call_tool(client: &McpClient, answers: &JsAnswers, call: (&JsValue, &JsValue, &JsValue)) -> Promise {
    let (name, args, options) = call;
    let mut ends = None;
    let promise = Promise::new(&mut |resolve, reject| ends = Some((resolve, reject)));
    let settle = Settle(Rc::new(RefCell::new(ends)));
    let prepared = (|| -> Result<_, JsFailure> {
        let name = name.as_string().ok_or_else(|| JsFailure::invalid("the tool name must be a string"))?;
        let arguments = tool_arguments(args)?;
        Ok((name, arguments, call_options(options)?))
    })();
    let (name, arguments, options) = match prepared {
        Ok(prepared) => prepared,
        Err(failure) => {
            settle.settle(Err(failure));
            return promise;
        }
    };
    let server = client.connection().server().to_owned();
    let id = client.connection().next_request_id();
    let (by_page, page_server) = (settle.clone(), server.clone());
    answers.expect(id, Box::new(move |result| by_page.settle(checked_call_result(&page_server, result))));
    let (by_session, waiting) = (settle, answers.clone());
    client.send_tool_call(
        id,
        &name,
        arguments.as_deref(),
        options,
        Box::new(move |outcome| {
            waiting.forget(id);
            by_session.settle(outcome.map_err(JsFailure::from).and_then(|raw| call_result(&server, raw.get())));
        }),
    );
    promise
}
