//! Results parsed once, by the page: for callers that want a request's result as a JavaScript value (the
//! JavaScript API), a frame from the worker is first parsed with the engine's `JSON.parse`, and a plain result for a
//! request such a caller waits on goes to it right there, as a JS object, never copied into wasm and decoded back.
//! Every other frame (errors, notifications, requests, malformed frames, answers to Rust callers) goes the
//! connection's way, which also ends waiting requests on timeout, error and close.

use crate::connection::Connection;
use js_sys::Reflect;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
export function plainResult(data) {
  if (typeof data !== "string") return null;
  let m;
  try { m = JSON.parse(data); } catch { return null; }
  if (m === null || typeof m !== "object" || m.jsonrpc !== "2.0" || !Number.isSafeInteger(m.id)) return null;
  if (!("result" in m) || "error" in m || "method" in m) return null;
  return m;
}
"#)]
extern "C" {
    /// The parsed message when `data` is a well-formed result response with an integer id, else `null`.
    #[wasm_bindgen(js_name = plainResult)]
    fn plain_result(data: &JsValue) -> JsValue;
}

/// Gets the `result` of a response, as the page parsed it.
pub type JsAnswer = Box<dyn FnOnce(JsValue)>;

/// The requests whose results are wanted as JavaScript values, by request id. Cheap to clone; clones share.
#[derive(Clone, Default)]
pub struct JsAnswers {
    waiting: Rc<RefCell<HashMap<i64, JsAnswer>>>,
}

impl fmt::Debug for JsAnswers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JsAnswers").field("waiting", &self.waiting.borrow().len()).finish()
    }
}

impl JsAnswers {
    /// Hands the result of request `id` to `answer` when it comes as a plain result. Register before the request
    /// is sent; when the request ends another way (an error response, a timeout, the connection's close), its
    /// reply callback must [`JsAnswers::forget`] it.
    pub fn expect(&self, id: i64, answer: JsAnswer) {
        self.waiting.borrow_mut().insert(id, answer);
    }

    /// Stops waiting on request `id`.
    pub fn forget(&self, id: i64) {
        self.waiting.borrow_mut().remove(&id);
    }

    /// Offered every frame from the worker before the connection; true when it answered a waiting request (or
    /// dropped a late answer to one).
    pub(crate) fn offer(&self, data: &JsValue, connection: &Connection) -> bool {
        if self.waiting.borrow().is_empty() {
            return false;
        }
        let message = plain_result(data);
        if message.is_null() {
            return false;
        }
        let Some(id) = Reflect::get(&message, &"id".into()).ok().and_then(|id| id.as_f64()) else { return false };
        #[expect(clippy::cast_possible_truncation, reason = "plainResult accepts only safe integers")]
        let id = id as i64;
        if !self.waiting.borrow().contains_key(&id) {
            return false;
        }
        // The connection forgets the request (it no longer times out); a request it no longer has is late.
        let answered = connection.take_answered(id);
        let answer = self.waiting.borrow_mut().remove(&id);
        if let (true, Some(answer)) = (answered, answer) {
            answer(Reflect::get(&message, &"result".into()).unwrap_or(JsValue::UNDEFINED));
        }
        true
    }
}
