//! Requests from servers that wait for the application: elicitation (ask the user) and sampling (ask the model).
//!
//! Each request gets a runtime id, is published as `elicitationRequested` / `samplingRequested`, and waits until the
//! application answers ([`ServerRequests::answer`]) or refuses ([`ServerRequests::reject`]) it by that id; then
//! `serverRequestSettled` says how it ended. When the server cancels its request (or its connection closes) first,
//! the request is dropped and settled as `cancelled`, and a late answer is refused. One that waits past its timeout
//! is answered with an error by the connection and settled as `timedOut`.

use super::events::{EventBody, ServerRequestEvent, ServerRequestSettledEvent, Settlement};
use super::hub::ObservationManager;
use futures_channel::oneshot;
use mcp_worker_client::server_requests::{RequestHandler, ServerRequest, TimedOut};
use mcp_worker_protocol::id_map::IdMap;
use mcp_worker_protocol::{ErrorObject, methods};
use serde::Serialize;
use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::fmt;
use std::rc::{Rc, Weak};

/// A request waiting for an answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PendingRequest {
    /// The id to answer with.
    pub request_id: u64,
    /// The server that asks.
    pub server: String,
    /// `elicitation/create` or `sampling/createMessage`.
    pub method: String,
    /// The request's params as the server sent them.
    pub params: Value,
}

struct Waiting {
    request: PendingRequest,
    reply: oneshot::Sender<Result<Value, ErrorObject>>,
}

/// The requests waiting for the application.
pub struct ServerRequests {
    hub: ObservationManager,
    next: Cell<u64>,
    waiting: RefCell<IdMap<u64, Waiting>>,
}

impl fmt::Debug for ServerRequests {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ids: Vec<u64> = self.waiting.borrow().keys().copied().collect();
        f.debug_struct("ServerRequests").field("waiting", &ids).finish()
    }
}

/// Settles a request as cancelled (or timed out) if its future is dropped before an answer.
struct CancelOnDrop {
    requests: Weak<ServerRequests>,
    id: u64,
    timed_out: TimedOut,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let outcome = if self.timed_out.get() { Settlement::TimedOut } else { Settlement::Cancelled };
        if let Some(requests) = self.requests.upgrade() {
            requests.settle(self.id, outcome, None);
        }
    }
}

impl ServerRequests {
    /// None waiting; events go to `hub`.
    pub fn new(hub: ObservationManager) -> Rc<Self> {
        Rc::new(Self { hub, next: Cell::new(1), waiting: RefCell::new(IdMap::new()) })
    }

    /// The handler to register for `elicitation/create` and `sampling/createMessage`
    /// (see [`mcp_worker_client::server_requests::ServerRequestHandlers`]).
    pub fn handler(self: &Rc<Self>) -> RequestHandler {
        let weak = Rc::downgrade(self);
        Rc::new(move |request: ServerRequest| {
            let Some(requests) = weak.upgrade() else {
                let error = ErrorObject::internal_error("the runtime is gone");
                return Box::pin(async move { Err(error) });
            };
            let timed_out = request.timed_out.clone();
            let (reply, answer) = oneshot::channel();
            let id = requests.next.get();
            requests.next.set(id + 1);
            let pending = PendingRequest {
                request_id: id,
                server: request.server,
                method: request.method,
                params: request.params,
            };
            requests.waiting.borrow_mut().insert(id, Waiting { request: pending.clone(), reply });
            let event = ServerRequestEvent {
                request_id: id,
                server: pending.server,
                method: pending.method.clone(),
                params: pending.params,
            };
            requests.hub.emit(if pending.method == methods::SAMPLING_CREATE_MESSAGE {
                EventBody::SamplingRequested(event)
            } else {
                EventBody::ElicitationRequested(event)
            });
            let guard = CancelOnDrop { requests: weak.clone(), id, timed_out };
            Box::pin(async move {
                let _guard = guard;
                answer.await.unwrap_or_else(|_| Err(ErrorObject::internal_error("the request was abandoned")))
            })
        })
    }

    /// Answers request `id` with `result` (the method's result object). False if no such request waits (answered
    /// already, or cancelled by the server).
    pub fn answer(&self, id: u64, result: Value) -> bool {
        self.settle(id, Settlement::Answered, Some(Ok(result)))
    }

    /// Refuses request `id`; the server receives `error`. False if no such request waits.
    pub fn reject(&self, id: u64, error: ErrorObject) -> bool {
        self.settle(id, Settlement::Rejected, Some(Err(error)))
    }

    /// The requests waiting, oldest first, with every credential value handed to a server scrubbed from them.
    pub fn pending(&self) -> Vec<PendingRequest> {
        let redactor = self.hub.redactor();
        let scrub = |text: &mut String| redactor.scrub(text);
        let mut pending: Vec<PendingRequest> = self.waiting.borrow().values().map(|w| w.request.clone()).collect();
        if !redactor.is_empty() {
            // A server's params may echo a credential value, as its events may.
            pending.iter_mut().for_each(|request| super::scrub::Scrub::scrub(request, &scrub));
        }
        pending
    }

    fn settle(&self, id: u64, outcome: Settlement, reply: Option<Result<Value, ErrorObject>>) -> bool {
        let Some(waiting) = self.waiting.borrow_mut().remove(&id) else { return false };
        if let Some(reply) = reply {
            let _ = waiting.reply.send(reply);
        }
        self.hub.emit(EventBody::ServerRequestSettled(ServerRequestSettledEvent {
            request_id: id,
            server: waiting.request.server,
            method: waiting.request.method,
            outcome,
        }));
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observation::{EventFilter, EventKind};
    use futures_executor::block_on;
    use futures_util::FutureExt;
    use serde_json::json;

    fn setup() -> (ObservationManager, Rc<ServerRequests>) {
        let hub = ObservationManager::new(Rc::new(|| 0.0), "rt", 64);
        let requests = ServerRequests::new(hub.clone());
        (hub, requests)
    }

    fn ask(method: &str) -> ServerRequest {
        ServerRequest::new("kit", method, json!({"message": "Go ahead?"}))
    }

    fn kinds(hub: &ObservationManager) -> Vec<EventKind> {
        hub.history(&EventFilter::all(), None).iter().map(|e| e.kind()).collect()
    }

    #[test]
    fn a_request_waits_for_the_answer_given_by_its_id() {
        let (hub, requests) = setup();
        let handler = requests.handler();
        let mut future = handler(ask(methods::ELICITATION_CREATE));
        assert!(future.as_mut().now_or_never().is_none(), "waits for the application");
        let pending = requests.pending();
        assert_eq!(pending.len(), 1);
        assert_eq!(pending[0].params["message"], "Go ahead?");
        assert!(requests.answer(pending[0].request_id, json!({"action": "accept", "content": {"approve": true}})));
        assert_eq!(block_on(future).unwrap()["action"], "accept");
        assert!(!requests.answer(pending[0].request_id, json!({})), "answered once");
        assert_eq!(kinds(&hub), [EventKind::ElicitationRequested, EventKind::ServerRequestSettled]);
        let settled = serde_json::to_value(&hub.history(&EventFilter::all(), None)[1]).unwrap();
        assert_eq!(settled["outcome"], "answered");
    }

    #[test]
    fn a_refusal_reaches_the_server_as_an_error() {
        let (hub, requests) = setup();
        let future = requests.handler()(ask(methods::SAMPLING_CREATE_MESSAGE));
        assert!(requests.reject(1, ErrorObject::invalid_request("no model configured")));
        let error = block_on(future).unwrap_err();
        assert_eq!(error.message, "no model configured");
        assert_eq!(kinds(&hub), [EventKind::SamplingRequested, EventKind::ServerRequestSettled]);
    }

    #[test]
    fn a_request_the_server_cancels_is_settled_as_cancelled_and_refuses_late_answers() {
        let (hub, requests) = setup();
        let future = requests.handler()(ask(methods::ELICITATION_CREATE));
        drop(future);
        assert!(requests.pending().is_empty());
        assert!(!requests.answer(1, json!({"action": "decline"})));
        let settled = serde_json::to_value(&hub.history(&EventFilter::all(), None)[1]).unwrap();
        assert_eq!(settled["outcome"], "cancelled");
        assert_eq!(settled["requestId"], 1);
    }

    #[test]
    fn a_sampling_request_waits_for_the_applications_explicit_answer() {
        let (hub, requests) = setup();
        let mut future = requests.handler()(ask(methods::SAMPLING_CREATE_MESSAGE));
        for _ in 0..3 {
            assert!(future.as_mut().now_or_never().is_none(), "no model is called unasked");
        }
        assert_eq!(requests.pending()[0].method, methods::SAMPLING_CREATE_MESSAGE);
        assert_eq!(kinds(&hub), [EventKind::SamplingRequested]);
        assert!(requests.answer(1, json!({"role": "assistant", "content": {"type": "text", "text": "hi"}})));
        assert_eq!(block_on(future).unwrap()["content"]["text"], "hi");
    }
}
