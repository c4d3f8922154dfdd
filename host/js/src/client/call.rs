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

/// Sends `tools/call` and returns a promise of the result.
pub(super) fn call_tool(client: &McpClient, calls: &JsCalls, call: (&JsValue, &JsValue, &JsValue)) -> Promise {
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
