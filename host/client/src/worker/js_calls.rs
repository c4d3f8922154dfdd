//! Tool calls whose arguments and results stay JavaScript values, for the JavaScript API: the page encodes the
//! `tools/call` frame from the arguments object with its own `JSON.stringify`, and while such calls wait, each frame
//! from the worker is first parsed with the page's `JSON.parse`; a plain result for one of them goes to its caller
//! right there, as a JS object. Neither crosses into wasm and back. Everything else about the call is the session's:
//! the request id, its timeout and progress ([`McpClient::tool_call_options`]), its place among the connection's
//! requests in flight (timeouts, cancellation, close), and every frame that is not a plain result (errors,
//! notifications, malformed frames, answers to Rust callers).

use super::sender::FrameSender;
use crate::connection::{Connection, ReplyCallback, RequestOptions};
use crate::error::Error;
use crate::session::first_tools::FirstTools;
use crate::session::{CallOptions, McpClient};
use mcp_worker_protocol::id_map::IdMap;
use mcp_worker_protocol::methods;
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/frames.js")]
extern "C" {
    /// The `tools/call` frame, as JSON text. Throws for a name that is not a string, arguments that are not an
    /// object, and arguments `JSON.stringify` refuses (cycles, BigInt).
    #[wasm_bindgen(js_name = callFrame, catch)]
    fn call_frame(
        id: f64,
        name: &JsValue,
        args: &JsValue,
        progress_token: JsValue,
        envelope: JsValue,
    ) -> Result<JsValue, JsValue>;

    /// The parsed message when `data` is a well-formed result response with an integer id, else `null`.
    #[wasm_bindgen(js_name = plainResult)]
    fn plain_result(data: &JsValue) -> JsValue;

    /// `m` when it is a plain result response with an integer id (as [`plain_result`] parses), else `null`.
    #[wasm_bindgen(js_name = plainMessage)]
    fn plain_message(m: &JsValue) -> JsValue;

    /// The `id` of a message from [`plain_result`] (keys read in JS: no key string crosses from wasm per frame).
    #[wasm_bindgen(js_name = messageId)]
    fn message_id(message: &JsValue) -> f64;

    /// The `result` of a message from [`plain_result`].
    #[wasm_bindgen(js_name = messageResult)]
    fn message_result(message: &JsValue) -> JsValue;
}

/// Gets the `result` of a response, as the page parsed it.
pub type JsAnswer = Box<dyn FnOnce(JsValue)>;

/// The envelope members, and the same as a JavaScript string.
type KeptEnvelope = (Rc<str>, JsValue);

/// A worker's tool calls with JavaScript arguments and results. Cheap to clone; clones share.
#[derive(Clone)]
pub struct JsCalls {
    sender: Rc<FrameSender>,
    waiting: Rc<RefCell<IdMap<i64, JsAnswer>>>,
    /// The connection's envelope members as a JavaScript string, made once: it is the same for every call.
    envelope: Rc<RefCell<Option<KeptEnvelope>>>,
    /// The first page of tools, asked for when the worker started (see `js_listing`).
    pub(super) first_tools: Rc<RefCell<Option<FirstTools<super::js_listing::Page>>>>,
}

impl fmt::Debug for JsCalls {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JsCalls").field("waiting", &self.waiting.borrow().len()).finish()
    }
}

impl JsCalls {
    pub(crate) fn new(sender: Rc<FrameSender>) -> Self {
        Self { sender, waiting: Rc::default(), envelope: Rc::default(), first_tools: Rc::default() }
    }

    /// Calls tool `name` with `args` (an object, or `undefined`/`null` for none) on `client`'s worker. A plain
    /// result goes to `answer` as a JS object; any other outcome (an error response, a timeout, the connection's
    /// close) goes to `reply`, exactly one of the two being called. A name or arguments the page cannot encode fail
    /// at once with [`Error::InvalidInput`], and nothing is sent.
    pub fn call_tool(
        &self,
        client: &McpClient,
        (name, args): (&JsValue, &JsValue),
        options: CallOptions,
        answer: JsAnswer,
        reply: ReplyCallback,
    ) -> Result<(), Error> {
        let connection = client.connection();
        let id = connection.next_request_id();
        let (request_options, progress_token) = client.tool_call_options(id, options);
        let token = progress_token.map_or(JsValue::UNDEFINED, |token| JsValue::from_f64(token as f64));
        // MCP 2026-07-28: the protocol fields go in `_meta`; an `input_required` answer is not a plain result, so it
        // reaches `reply` (which goes on with the rounds).
        let envelope = connection.envelope().map_or(JsValue::UNDEFINED, |members| self.envelope_js(members));
        #[expect(clippy::cast_precision_loss, reason = "request ids count up from 1, far below 2^53")]
        let frame = call_frame(id as f64, name, args, token, envelope)
            .map_err(|thrown| Error::InvalidInput(super::describe_js(&thrown)))?;
        self.waiting.borrow_mut().insert(id, answer);
        let waiting = self.waiting.clone();
        let reply: ReplyCallback = Box::new(move |outcome| {
            waiting.borrow_mut().remove(&id);
            reply(outcome);
        });
        if connection.expect_reply(id, methods::TOOLS_CALL, request_options, reply)
            && let Err(thrown) = self.sender.send(&frame)
        {
            let reason = super::describe_js(&thrown);
            connection.fail(id, Error::Closed { server: connection.server().to_owned(), reason });
        }
        Ok(())
    }

    /// `members` as a JavaScript string, converted once per envelope.
    fn envelope_js(&self, members: Rc<str>) -> JsValue {
        let mut kept = self.envelope.borrow_mut();
        match &*kept {
            Some((text, js)) if Rc::ptr_eq(text, &members) => js.clone(),
            _ => {
                let js = JsValue::from_str(&members);
                *kept = Some((members, js.clone()));
                js
            }
        }
    }

    /// Sends request `method` with `params`, its frame encoded by the connection. A plain result goes to `answer` as
    /// the page parsed it; any other outcome (an error response, a result the session must read, a timeout, the
    /// connection's close) goes to `reply`, exactly one of the two being called.
    pub(crate) fn request<P: serde::Serialize>(
        &self,
        connection: &Connection,
        (method, params): (&str, Option<&P>),
        options: RequestOptions,
        answer: JsAnswer,
        reply: ReplyCallback,
    ) {
        let id = connection.next_request_id();
        self.waiting.borrow_mut().insert(id, answer);
        let waiting = self.waiting.clone();
        let reply: ReplyCallback = Box::new(move |outcome| {
            waiting.borrow_mut().remove(&id);
            reply(outcome);
        });
        connection.request_with_callback(id, method, params, options, reply);
    }

    /// Offered every frame from the worker before the connection; true when it answered a waiting call (or
    /// dropped a late answer to one).
    pub(crate) fn offer(&self, data: &JsValue, connection: &Connection) -> bool {
        self.is_waiting() && self.take(&plain_result(data), connection)
    }

    /// [`JsCalls::offer`] for a message the page parsed already.
    pub(crate) fn offer_message(&self, message: &JsValue, connection: &Connection) -> bool {
        self.is_waiting() && self.take(&plain_message(message), connection)
    }

    /// Whether a call waits for its result.
    pub(crate) fn is_waiting(&self) -> bool {
        !self.waiting.borrow().is_empty()
    }

    /// Answers the waiting call `message` (a plain result, or `null`) is for.
    fn take(&self, message: &JsValue, connection: &Connection) -> bool {
        if message.is_null() {
            return false;
        }
        #[expect(clippy::cast_possible_truncation, reason = "plainMessage accepts only safe integers")]
        let id = message_id(message) as i64;
        if !self.waiting.borrow().contains(&id) {
            return false;
        }
        // The connection forgets the request (it no longer times out); a request it no longer has is late.
        let answered = connection.take_answered(id);
        let answer = self.waiting.borrow_mut().remove(&id);
        if let (true, Some(answer)) = (answered, answer) {
            answer(message_result(message));
        }
        true
    }
}
