//! The status socket from JavaScript: `subscribe` (a callback; returns the unsubscribe function), `history`,
//! `observations`, and answers to server requests.
//!
//! A subscriber's callback runs synchronously, in event order. What it throws is caught and reported on the
//! console, and a promise it returns is not awaited (its rejection is caught too): a failing or slow subscriber
//! never holds up the others or the runtime.

use super::convert::{JsFailure, options_from_js, property, to_js};
use super::{Inner, JsRuntime};
use js_sys::{Function, Promise};
use mcp_worker_client::worker::describe_js;
use mcp_worker_protocol::quoted::quoted;
use mcp_worker_protocol::{ErrorObject, methods};
use mcp_worker_runtime::observation::{EventFilter, EventKind, ObservationType, StatusEvent, Watches};
use serde::Deserialize;
use serde_json::Value;
use std::rc::{Rc, Weak};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

// The filter's members (`kinds`, `servers`, `threadId`) sit beside these in the same options object, and are read
// from it as an `EventFilter` on their own: serde's `flatten` would read through its buffered, type-erased reader
// (with the vault's records read the same way, that reader was 6.5 KiB of the host's gzip).
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct SubscribeJson {
    #[serde(default)]
    replay: Value,
    #[serde(default)]
    format: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct HistoryJson {
    limit: Option<usize>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct ObservationQuery {
    thread_id: Option<String>,
    types: Option<Vec<String>>,
    limit: Option<usize>,
}

#[wasm_bindgen(js_class = McpRuntime)]
impl JsRuntime {
    /// Calls `callback` with every later status event that passes the filter in `options` (kinds, servers,
    /// threadId); with `replay`, first with the kept ones (all, or those after a `seq`). With `format:
    /// "observation"` the callback gets ART `Observation`s. Returns the function that ends the subscription.
    #[wasm_bindgen(unchecked_return_type = "() => void")]
    pub fn subscribe(
        &self,
        #[wasm_bindgen(unchecked_param_type = "(event: StatusEvent) => unknown")] callback: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "SubscribeOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let options = options.unwrap_or(JsValue::UNDEFINED);
        self.inner.open()?;
        let callback: Function =
            callback.dyn_into().map_err(|_| JsFailure::invalid("subscribe needs a callback function"))?;
        let json: SubscribeJson = options_from_js(&options, "subscribe options")?;
        let filter: EventFilter = options_from_js(&options, "subscribe options")?;
        let observations = match json.format.as_deref() {
            None | Some("event") => false,
            Some("observation") => true,
            Some(other) => {
                return Err(JsFailure::invalid(format!("unknown format {other}", other = quoted(other))).into());
            }
        };
        let deliver: Rc<dyn Fn(&StatusEvent)> = Rc::new(move |event: &StatusEvent| {
            let value = if observations { to_js(&event.to_observation()) } else { to_js(event) };
            if let Ok(value) = value {
                call_safely(&callback, &value);
            }
        });
        let hub = &self.inner.runtime.observations();
        let id = match json.replay {
            Value::Bool(true) => hub.subscribe_with_history(filter, 0, deliver),
            Value::Number(seq) => hub.subscribe_with_history(filter, seq.as_u64().unwrap_or(0), deliver),
            Value::Null | Value::Bool(false) => hub.subscribe(filter, deliver),
            _ => return Err(JsFailure::invalid("replay must be a boolean or a seq number").into()),
        };
        let weak = Rc::downgrade(&self.inner);
        let unsubscribe = Closure::<dyn FnMut()>::new(move || {
            if let Some(inner) = weak.upgrade() {
                inner.runtime.observations().unsubscribe(id);
            }
        });
        Ok(unsubscribe.into_js_value())
    }

    /// The kept events that pass the filter, oldest first (at most the newest `limit`).
    #[wasm_bindgen(unchecked_return_type = "StatusEvent[]")]
    pub fn history(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "HistoryOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let json: HistoryJson = options_from_js(&options, "history options")?;
        let filter: EventFilter = options_from_js(&options, "history options")?;
        Ok(to_js(&self.inner.runtime.observations().history(&filter, json.limit))?)
    }

    /// The kept events as ART `Observation`s: those of a thread (and of no thread), of some types.
    #[wasm_bindgen(unchecked_return_type = "ArtObservation[]")]
    pub fn observations(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "ObservationQuery")] query: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let query: ObservationQuery = options_from_js(&query.unwrap_or(JsValue::UNDEFINED), "observation query")?;
        let mut filter = EventFilter::all();
        filter.thread_id = query.thread_id;
        let mut observations: Vec<_> = self
            .inner
            .runtime
            .observations()
            .history(&filter, None)
            .iter()
            .map(StatusEvent::to_observation)
            .filter(|o| query.types.as_ref().is_none_or(|types| types.contains(&type_name(o.kind))))
            .collect();
        if let Some(limit) = query.limit {
            let excess = observations.len().saturating_sub(limit);
            observations.drain(..excess);
        }
        Ok(to_js(&observations)?)
    }

    /// How many events are kept for late subscribers.
    #[wasm_bindgen(getter = historySize)]
    pub fn history_size(&self) -> usize {
        self.inner.runtime.observations().history_capacity()
    }

    /// Keeps up to `size` events from now on.
    #[wasm_bindgen(setter = historySize)]
    pub fn set_history_size(&self, size: usize) {
        self.inner.runtime.observations().set_history_capacity(size);
    }

    /// The server requests (elicitation, sampling) waiting for an answer.
    #[wasm_bindgen(js_name = pendingRequests, unchecked_return_type = "PendingServerRequest[]")]
    pub fn pending_requests(&self) -> Result<JsValue, JsValue> {
        Ok(to_js(&self.inner.runtime.server_requests().pending())?)
    }

    /// Answers a server request with its result (`ElicitResult` or `CreateMessageResult`). Throws
    /// `UNKNOWN_REQUEST` when it no longer waits (answered, or cancelled by the server).
    #[wasm_bindgen(js_name = answerRequest)]
    pub fn answer_request(
        &self,
        #[wasm_bindgen(js_name = "requestId")] request_id: u32,
        #[wasm_bindgen(unchecked_param_type = "ElicitResult | CreateMessageResult")] result: JsValue,
    ) -> Result<(), JsValue> {
        let result: Value = super::convert::from_js(&result, "request result")?;
        if !result.is_object() {
            return Err(JsFailure::invalid("a request's result must be an object").into());
        }
        if !self.inner.runtime.server_requests().answer(u64::from(request_id), result) {
            return Err(unknown_request(request_id).into());
        }
        Ok(())
    }

    /// Approves a server request: the handler given for its method at `create` (a sampling handler without
    /// `autoApprove`) answers it. Throws `UNKNOWN_REQUEST` when it no longer waits, `INVALID_INPUT` when no handler
    /// waits for approval for its method.
    #[wasm_bindgen(js_name = approveRequest)]
    pub fn approve_request(&self, #[wasm_bindgen(js_name = "requestId")] request_id: u32) -> Result<(), JsValue> {
        let id = u64::from(request_id);
        let pending = self.inner.runtime.server_requests().pending();
        let request =
            pending.iter().find(|request| request.request_id == id).ok_or_else(|| unknown_request(request_id))?;
        let function = self
            .inner
            .approved_by
            .borrow()
            .iter()
            .find(|(method, _)| *method == request.method)
            .map(|(_, function)| function.clone());
        let function = function.ok_or_else(|| {
            JsFailure::invalid(format!(
                "no handler answers {} on approval; answer it with answerRequest",
                request.method
            ))
        })?;
        run_handler(Rc::downgrade(&self.inner), &function, &to_js(request)?, id);
        Ok(())
    }

    /// Refuses a server request; the server receives a JSON-RPC error with `message` (and `code`, default
    /// -32603). Throws `UNKNOWN_REQUEST` when it no longer waits.
    #[wasm_bindgen(js_name = rejectRequest)]
    pub fn reject_request(
        &self,
        #[wasm_bindgen(js_name = "requestId")] request_id: u32,
        message: String,
        code: Option<i32>,
    ) -> Result<(), JsValue> {
        let error = match code {
            Some(code) => ErrorObject::new(i64::from(code), message),
            None => ErrorObject::internal_error(message),
        };
        if !self.inner.runtime.server_requests().reject(u64::from(request_id), error) {
            return Err(unknown_request(request_id).into());
        }
        Ok(())
    }
}

fn unknown_request(id: u32) -> JsFailure {
    JsFailure::new("UNKNOWN_REQUEST", format!("no server request {id} is waiting (answered or cancelled)"))
}

fn type_name(kind: ObservationType) -> String {
    serde_json::to_value(kind).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

/// Calls a subscriber. A throw or a rejected promise is reported on the console and goes no further.
fn call_safely(callback: &Function, value: &JsValue) {
    match callback.call1(&JsValue::NULL, value) {
        Err(thrown) => report("a status subscriber threw", &thrown),
        Ok(returned) => {
            if let Ok(promise) = returned.dyn_into::<Promise>() {
                let catch = property(&promise, "catch").and_then(|f| f.dyn_into::<Function>().ok());
                if let Some(catch) = catch {
                    REPORT_REJECTION.with(|report| drop(catch.call1(&promise, report.as_ref())));
                }
            }
        }
    }
}

thread_local! {
    /// One handler for every rejected subscriber promise (a closure per promise would pile up for promises that
    /// never settle).
    static REPORT_REJECTION: Closure<dyn FnMut(JsValue)> =
        Closure::new(|rejected: JsValue| report("a status subscriber rejected", &rejected));
}

fn report(what: &str, error: &JsValue) {
    web_sys::console::error_2(&JsValue::from_str(what), error);
}

/// Answers every `method` request (`elicitation/create` or `sampling/createMessage`) with a JavaScript function as
/// it comes: see [`run_handler`].
pub(super) fn answer_with(inner: &Rc<Inner>, method: &str, function: Function) -> Watches {
    let event = if method == methods::SAMPLING_CREATE_MESSAGE {
        EventKind::SamplingRequested
    } else {
        EventKind::ElicitationRequested
    };
    let weak = Rc::downgrade(inner);
    let id = inner.runtime.observations().subscribe(
        EventFilter::all().kinds([event]),
        Rc::new(move |event: &StatusEvent| {
            let Ok(request) = to_js(event) else { return };
            let Some(request_id) = property(&request, "requestId").and_then(|id| id.as_f64()) else { return };
            run_handler(weak.clone(), &function, &request, request_id as u64);
        }),
    );
    let hub = inner.runtime.observations().clone();
    Watches::on_drop(move || {
        hub.unsubscribe(id);
    })
}

/// Calls `function` with a pending request: it returns (or resolves to) the result; what it throws or rejects with
/// is sent as the error.
fn run_handler(weak: Weak<Inner>, function: &Function, request: &JsValue, request_id: u64) {
    let returned = function.call1(&JsValue::NULL, request);
    wasm_bindgen_futures::spawn_local(async move {
        let outcome = match returned {
            Ok(value) => match value.dyn_into::<Promise>() {
                Ok(promise) => JsFuture::from(promise).await,
                Err(value) => Ok(value),
            },
            Err(thrown) => Err(thrown),
        };
        let Some(inner) = weak.upgrade() else { return };
        let answer = outcome.map_err(|e| describe_js(&e)).and_then(|value| {
            super::convert::from_js::<Value>(&value, "request result")
                .map_err(|e| e.to_string())
                .and_then(|v| if v.is_object() { Ok(v) } else { Err("the result must be an object".into()) })
        });
        // The application may have answered by id meanwhile; then this answer is not needed.
        let _ = match answer {
            Ok(result) => inner.runtime.server_requests().answer(request_id, result),
            Err(message) => inner.runtime.server_requests().reject(request_id, ErrorObject::internal_error(message)),
        };
    });
}
