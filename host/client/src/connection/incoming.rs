//! Requests from the server: `ping` is answered here; elicitation, sampling and roots go to the application's
//! handlers ([`ServerRequestHandlers`]); anything else is answered `-32601`.

use super::Connection;
use crate::server_requests::ServerRequest;
use futures_util::future::{AbortHandle, Abortable};
use mcp_worker_protocol::jsonrpc::{EmptyResult, encode_error, encode_result};
use mcp_worker_protocol::notifications::CancelledParams;
use mcp_worker_protocol::{ErrorObject, Notification, Request, methods};
use serde_json::Value;

impl Connection {
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
        let (abort, registration) = AbortHandle::new_pair();
        self.inner.incoming.borrow_mut().insert(request.id.clone(), abort);
        let future = handler(ServerRequest { server: self.inner.server.clone(), method: request.method, params });
        let weak = self.downgrade();
        let id = request.id;
        handlers.spawn(Box::pin(async move {
            let outcome = Abortable::new(future, registration).await;
            let Some(connection) = weak.upgrade() else { return };
            connection.inner.incoming.borrow_mut().remove(&id);
            // Aborted: the server cancelled its request (or the connection closed), so no answer is sent.
            let Ok(outcome) = outcome else { return };
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
        let handle = self.inner.incoming.borrow_mut().remove(&cancelled.request_id);
        if let Some(handle) = handle {
            handle.abort();
        }
    }
}
