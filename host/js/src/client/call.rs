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

/// Sends `tools/call` and returns a promise of the result. In MCP 2026-07-28 an answer `input_required` (a question
/// for the application) is not a plain result: the session takes over from there and asks again with the answers.
pub(super) fn call_tool(client: &Rc<McpClient>, calls: &JsCalls, call: (&JsValue, &JsValue, &JsValue)) -> Promise {
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
    let rounds = (client.clone(), name.as_string(), args.clone(), options.clone());
    let sent = calls.call_tool(
        client,
        (name, args),
        options,
        Box::new(move |result| by_page.settle(checked_call_result(&page_server, result))),
        Box::new(move |outcome| match outcome {
            Ok(raw)
                if mcp_worker_client::protocol::modern::result_kind(raw.get())
                    == Ok(mcp_worker_client::protocol::modern::ResultKind::InputRequired) =>
            {
                let (client, name, args, options) = rounds;
                wasm_bindgen_futures::spawn_local(async move {
                    let outcome = after_input(&client, name, &args, options, raw).await;
                    by_session.settle(outcome.and_then(|raw| call_result(&server, raw.get())));
                });
            }
            outcome => {
                by_session.settle(outcome.map_err(JsFailure::from).and_then(|raw| call_result(&server, raw.get())));
            }
        }),
    );
    if let Err(error) = sent {
        settle.settle(Err(JsFailure::from(error)));
    }
    promise
}

/// Goes on with a call whose first answer was `input_required`: the arguments cross as JSON text now.
async fn after_input(
    client: &McpClient,
    name: Option<String>,
    args: &JsValue,
    options: mcp_worker_client::CallOptions,
    first: Box<serde_json::value::RawValue>,
) -> Result<Box<serde_json::value::RawValue>, JsFailure> {
    let invalid = |message: &str| JsFailure::from(mcp_worker_client::Error::InvalidInput(message.to_owned()));
    let name = name.ok_or_else(|| invalid("the tool name must be a string"))?;
    let arguments = if args.is_undefined() || args.is_null() {
        None
    } else {
        let text = js_sys::JSON::stringify(args).ok().and_then(|t| t.as_string());
        let text = text.ok_or_else(|| invalid("tool arguments must be an object JSON can encode"))?;
        Some(serde_json::value::RawValue::from_string(text).map_err(|e| invalid(&e.to_string()))?)
    };
    Ok(client.call_tool_after_input(&name, arguments.as_deref(), options, first).await?)
}
