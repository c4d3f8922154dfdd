//! Requests from the server: `ping` is answered here; elicitation, sampling and roots go to the application's
//! handlers ([`crate::server_requests::ServerRequestHandlers`]); anything else is answered `-32601`.
//!
//! A server may have only so many requests waiting ([`ServerRequestLimits`]): one more is refused at once, without
//! reaching the application, and one that waits too long is answered with an error and its handler dropped.

use super::Connection;
use crate::limits::{ServerRequestLimits, TOO_MANY_REQUESTS};
use crate::server_requests::{ServerRequest, TimedOut};
use futures_util::future::{AbortHandle, Abortable};
use mcp_worker_protocol::jsonrpc::{EmptyResult, encode_error, encode_result};
use mcp_worker_protocol::notifications::CancelledParams;
use mcp_worker_protocol::{ErrorObject, Notification, Request, methods};
use serde_json::Value;

/// The JSON-RPC error code of a server request that waited too long (as the official SDKs' `RequestTimeout`).
const REQUEST_TIMEOUT: i64 = -32001;

/// A request from the server being handled.
pub(super) struct Incoming {
    pub(super) abort: AbortHandle,
    method: String,
    /// When it times out (ms on the connection's clock), if it does.
    deadline: Option<f64>,
    timed_out: TimedOut,
}

impl Connection {
    /// Bounds the server's requests to the host from now on (those waiting keep their deadline).
    pub fn set_server_request_limits(&self, limits: ServerRequestLimits) {
        self.inner.server_request_limits.set(limits);
    }

    /// How many of the server's requests wait for the host's answer.
    pub fn server_requests_waiting(&self) -> usize {
        self.inner.incoming.borrow().len()
    }

    pub(super) fn on_server_request(&self, request: Request) {
        if request.method == methods::PING {
            self.send_quietly(encode_result(&request.id, &EmptyResult {}).unwrap_or_default());
            return;
        }
        let handlers = self.inner.server_requests.borrow().clone();
        let handler = handlers.as_ref().and_then(|h| h.handler(&request.method).cloned());
        let (Some(handlers), Some(handler)) = (handlers, handler) else {
            self.send_quietly(encode_error(Some(&request.id), &ErrorObject::method_not_found(&request.method)));
            return;
        };
        let params = match request.params.as_deref().map(|raw| serde_json::from_str::<Value>(raw.get())) {
            None => Value::Null,
            Some(Ok(params)) => params,
            Some(Err(e)) => {
                let error = ErrorObject::invalid_params(format!("unreadable params: {e}"));
                self.send_quietly(encode_error(Some(&request.id), &error));
                return;
            }
        };
        let limits = self.inner.server_request_limits.get();
        if self.server_requests_waiting() >= limits.max_pending {
            self.count_refused_request();
            let message =
                format!("too many pending requests: {} of this server's requests wait already", limits.max_pending);
            self.send_quietly(encode_error(Some(&request.id), &ErrorObject::new(TOO_MANY_REQUESTS, message)));
            return;
        }
        let (abort, registration) = AbortHandle::new_pair();
        let deadline = (limits.timeout_ms > 0).then(|| (self.inner.clock)() + f64::from(limits.timeout_ms));
        // An accepted elicitation goes back with the schema's defaults for what the user left out.
        let requested_schema =
            (request.method == methods::ELICITATION_CREATE).then(|| params.get("requestedSchema").cloned()).flatten();
        let server_request = ServerRequest::new(self.inner.server.clone(), request.method.clone(), params);
        let timed_out = server_request.timed_out.clone();
        let incoming = Incoming { abort, method: request.method, deadline, timed_out };
        if let Some(earlier) = self.inner.incoming.borrow_mut().insert(request.id.clone(), incoming) {
            // The server reused the id of a request still waiting: the earlier one will never be answered.
            earlier.abort.abort();
        }
        let future = handler(server_request);
        let weak = self.downgrade();
        let id = request.id;
        handlers.spawn(Box::pin(async move {
            let outcome = Abortable::new(future, registration).await;
            // Aborted: the server cancelled its request, it timed out (and was answered), or the connection closed;
            // whoever aborted it forgot it.
            let Ok(outcome) = outcome else { return };
            let Some(connection) = weak.upgrade() else { return };
            connection.inner.incoming.borrow_mut().remove(&id);
            let outcome = match requested_schema {
                Some(schema) => outcome.map(|result| crate::elicitation_defaults::fill(&schema, result)),
                None => outcome,
            };
            let frame = match outcome {
                Ok(result) => encode_result(&id, &result).unwrap_or_else(|e| {
                    encode_error(Some(&id), &ErrorObject::internal_error(format!("unserializable result: {e}")))
                }),
                Err(error) => encode_error(Some(&id), &error),
            };
            connection.send_quietly(frame);
        }));
    }

    /// The server cancels one of its own requests to the host.
    pub(super) fn on_server_cancelled(&self, notification: &Notification) {
        let Some(params) = notification.params.as_deref() else { return };
        let Ok(cancelled) = serde_json::from_str::<CancelledParams>(params.get()) else { return };
        let request = self.inner.incoming.borrow_mut().remove(&cancelled.request_id);
        if let Some(request) = request {
            request.abort.abort();
        }
    }

    /// Answers with an error each of the server's requests that waited past its deadline, and drops its handler.
    pub(super) fn sweep_server_requests(&self, now: f64) {
        let overdue: Vec<(mcp_worker_protocol::RequestId, Incoming)> = {
            let mut incoming = self.inner.incoming.borrow_mut();
            let ids: Vec<_> = incoming
                .iter()
                .filter(|(_, request)| request.deadline.is_some_and(|at| now >= at))
                .map(|(id, _)| id.clone())
                .collect();
            ids.into_iter().filter_map(|id| incoming.remove(&id).map(|request| (id, request))).collect()
        };
        let ms = self.inner.server_request_limits.get().timeout_ms;
        for (id, request) in overdue {
            request.timed_out.set();
            request.abort.abort();
            let message = format!("{} timed out after {ms} ms waiting for the host's answer", request.method);
            self.send_quietly(encode_error(Some(&id), &ErrorObject::new(REQUEST_TIMEOUT, message)));
        }
    }
}
