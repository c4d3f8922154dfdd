//! Requests from the server: `ping` is answered here; elicitation, sampling and roots go to the application's
//! handlers ([`crate::server_requests::ServerRequestHandlers`]); anything else is answered `-32601`.
//!
//! A server may have only so many requests waiting ([`ServerRequestLimits`]): one more is refused at once, without
//! reaching the application, and one that waits too long is answered with an error and its handler dropped.

use super::Connection;
use crate::limits::{ServerRequestLimits, TOO_MANY_REQUESTS};
use crate::server_requests::{ServerRequest, TimedOut};
use futures_channel::oneshot;
use futures_util::future::{AbortHandle, Abortable};
use mcp_worker_protocol::jsonrpc::{EmptyResult, encode_error, encode_result};
use mcp_worker_protocol::notifications::CancelledParams;
use mcp_worker_protocol::{ErrorObject, Notification, Request, methods};
use serde_json::Value;
use std::cell::RefCell;
use std::future::Future;
use std::rc::Rc;

/// The JSON-RPC error code of a server request that waited too long (as the official SDKs' `RequestTimeout`).
pub(crate) const REQUEST_TIMEOUT: i64 = -32001;

/// A request from the server being handled.
pub(super) struct Incoming {
    pub(super) abort: AbortHandle,
    method: String,
    /// When it times out (ms on the connection's clock), if it does.
    deadline: Option<f64>,
    timed_out: TimedOut,
    /// Where the answer goes: `None` to the server (as a response), else to the client's own caller (the input a
    /// request of MCP 2026-07-28 asked for).
    local: Option<LocalReply>,
}

/// The caller waiting for an answer the application gives to the client itself.
type LocalReply = Rc<RefCell<Option<oneshot::Sender<Result<Value, ErrorObject>>>>>;

/// Withdraws a local question when its caller stops waiting: the handler is dropped.
struct Withdraw {
    connection: super::WeakConnection,
    id: mcp_worker_protocol::RequestId,
}

impl Drop for Withdraw {
    fn drop(&mut self) {
        let Some(connection) = self.connection.upgrade() else { return };
        let request = connection.inner.incoming.borrow_mut().remove(&self.id);
        if let Some(request) = request {
            request.abort.abort();
        }
    }
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
        let params = match request.params.as_deref().map(|raw| mcp_worker_protocol::json::from_str::<Value>(raw.get()))
        {
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
        self.serve(request.id, request.method, params, handlers, handler, None);
    }

    /// Asks the application, through the handler registered for `method`, for the input a request of MCP
    /// 2026-07-28 came back asking for: served like a request of the server (the same limits and timeout, the
    /// elicitation defaults filled in), but answered to the caller. Dropping the future withdraws the question.
    pub(crate) fn ask_application(
        &self,
        method: &str,
        params: Value,
    ) -> impl Future<Output = Result<Value, ErrorObject>> + use<> {
        let handlers = self.inner.server_requests.borrow().clone();
        let handler = handlers.as_ref().and_then(|h| h.handler(method).cloned());
        let limits = self.inner.server_request_limits.get();
        let (sender, receiver) = oneshot::channel();
        let refused = match (handlers, handler) {
            (Some(handlers), Some(handler)) if self.server_requests_waiting() < limits.max_pending => {
                self.inner.local_inputs.set(self.inner.local_inputs.get() + 1);
                let id =
                    mcp_worker_protocol::RequestId::String(format!("\u{0}input-{}", self.inner.local_inputs.get()));
                let reply = Rc::new(RefCell::new(Some(sender)));
                self.serve(id.clone(), method.to_owned(), params, handlers, handler, Some(reply));
                Ok(Withdraw { connection: self.downgrade(), id })
            }
            (Some(_), Some(_)) => Err(ErrorObject::new(
                TOO_MANY_REQUESTS,
                format!("too many pending requests: {} wait for the host's answer already", limits.max_pending),
            )),
            _ => Err(ErrorObject::method_not_found(method)),
        };
        async move {
            let _withdraw = refused?;
            receiver.await.unwrap_or_else(|_| Err(ErrorObject::internal_error("the connection closed")))
        }
    }

    /// Runs the application's `handler` for request `id`, within the limits, answering the server (or `local`).
    fn serve(
        &self,
        id: mcp_worker_protocol::RequestId,
        method: String,
        params: Value,
        handlers: crate::server_requests::ServerRequestHandlers,
        handler: crate::server_requests::RequestHandler,
        local: Option<LocalReply>,
    ) {
        let limits = self.inner.server_request_limits.get();
        let (abort, registration) = AbortHandle::new_pair();
        let deadline = (limits.timeout_ms > 0).then(|| (self.inner.clock)() + f64::from(limits.timeout_ms));
        // An accepted elicitation goes back with the schema's defaults for what the user left out.
        let requested_schema =
            (method == methods::ELICITATION_CREATE).then(|| params.get("requestedSchema").cloned()).flatten();
        let server_request = ServerRequest::new(self.inner.server.clone(), method.clone(), params);
        let timed_out = server_request.timed_out.clone();
        let incoming = Incoming { abort, method, deadline, timed_out, local: local.clone() };
        if let Some(earlier) = self.inner.incoming.borrow_mut().insert(id.clone(), incoming) {
            // The server reused the id of a request still waiting: the earlier one will never be answered.
            earlier.abort.abort();
        }
        let future = handler(server_request);
        let weak = self.downgrade();
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
            if let Some(local) = local {
                if let Some(sender) = local.borrow_mut().take() {
                    let _ = sender.send(outcome);
                }
                return;
            }
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
        let Ok(cancelled) = mcp_worker_protocol::json::from_str::<CancelledParams>(params.get()) else { return };
        let request = self.inner.incoming.borrow_mut().remove(&cancelled.request_id);
        if let Some(request) = request {
            request.abort.abort();
        }
    }

    /// Answers with an error each of the server's requests that waited past its deadline, and drops its handler.
    pub(super) fn sweep_server_requests(&self, now: f64) {
        let overdue: Vec<(mcp_worker_protocol::RequestId, Incoming)> = {
            let mut incoming = self.inner.incoming.borrow_mut();
            incoming.remove_picked(|request| request.deadline.is_some_and(|at| now >= at))
        };
        let ms = self.inner.server_request_limits.get().timeout_ms;
        for (id, request) in overdue {
            request.timed_out.set();
            request.abort.abort();
            let message = format!("{} timed out after {ms} ms waiting for the host's answer", request.method);
            let error = ErrorObject::new(REQUEST_TIMEOUT, message);
            match request.local.and_then(|local| local.borrow_mut().take()) {
                Some(sender) => {
                    let _ = sender.send(Err(error));
                }
                None => self.send_quietly(encode_error(Some(&id), &error)),
            }
        }
    }
}
