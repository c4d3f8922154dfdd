//! Requests a server sends to the host (elicitation, sampling, roots), answered by handlers the application
//! registers.
//!
//! A capability is declared in `initialize` only when its handler is registered, so a server never asks for what
//! nobody answers; a request without a handler is answered `-32601` (Method not found). Handlers take and return
//! raw JSON (`params` in, `result` out), which fits any version of these methods' shapes. A handler's future runs on
//! the [`Spawner`] given here, so the connection never blocks on the user; when the server cancels its request
//! (`notifications/cancelled`) the future is dropped and no answer is sent, as the spec asks. A request that waits
//! past its timeout ([`crate::limits::ServerRequestLimits`]) is answered with an error and its future dropped too;
//! [`ServerRequest::timed_out`] tells a handler's clean-up which of the two happened.

use futures_util::future::LocalBoxFuture;
use mcp_worker_protocol::lifecycle::ListChangedCapability;
use mcp_worker_protocol::{ClientCapabilities, ErrorObject, JsonObject, methods};
use serde_json::{Value, json};
use std::cell::Cell;
use std::fmt;
use std::rc::Rc;

/// Runs a future to completion in the background (`wasm_bindgen_futures::spawn_local` in the browser).
pub type Spawner = Rc<dyn Fn(LocalBoxFuture<'static, ()>)>;

/// What a handler returns: the method's `result`, or a JSON-RPC error for the server.
pub type HandlerFuture = LocalBoxFuture<'static, Result<Value, ErrorObject>>;

/// A handler of one method.
pub type RequestHandler = Rc<dyn Fn(ServerRequest) -> HandlerFuture>;

/// One request from a server.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ServerRequest {
    /// The server that asks.
    pub server: String,
    /// The method, e.g. `elicitation/create`.
    pub method: String,
    /// The request's `params` (`null` when absent).
    pub params: Value,
    /// Set when the request waited too long and the server was answered with an error.
    pub timed_out: TimedOut,
}

impl ServerRequest {
    /// A request of `server` for `method` with `params`.
    pub fn new(server: impl Into<String>, method: impl Into<String>, params: Value) -> Self {
        Self { server: server.into(), method: method.into(), params, timed_out: TimedOut::default() }
    }
}

/// Whether a server request timed out: shared between the connection, which sets it before it drops the handler's
/// future, and whoever holds the request.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TimedOut(Rc<Cell<bool>>);

impl TimedOut {
    /// True once the request timed out.
    pub fn get(&self) -> bool {
        self.0.get()
    }

    pub(crate) fn set(&self) {
        self.0.set(true);
    }
}

/// The handlers an application registers, and how their futures run.
#[derive(Clone)]
pub struct ServerRequestHandlers {
    spawner: Spawner,
    elicitation: Option<RequestHandler>,
    sampling: Option<RequestHandler>,
    roots: Option<RequestHandler>,
}

impl fmt::Debug for ServerRequestHandlers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServerRequestHandlers")
            .field("elicitation", &self.elicitation.is_some())
            .field("sampling", &self.sampling.is_some())
            .field("roots", &self.roots.is_some())
            .finish()
    }
}

impl ServerRequestHandlers {
    /// No handlers yet; futures will run on `spawner`.
    pub fn new(spawner: Spawner) -> Self {
        Self { spawner, elicitation: None, sampling: None, roots: None }
    }

    /// Answers `elicitation/create` (asks the user); declares the `elicitation` capability (form mode).
    #[must_use]
    pub fn on_elicitation(mut self, handler: RequestHandler) -> Self {
        self.elicitation = Some(handler);
        self
    }

    /// Answers `sampling/createMessage` (asks the application's model); declares `sampling`. The handler is called
    /// for every request within [`crate::limits::ServerRequestLimits`], so it is where the application asks for its
    /// user's approval before it spends model quota (the runtime's `ServerRequests` waits for an explicit answer).
    #[must_use]
    pub fn on_sampling(mut self, handler: RequestHandler) -> Self {
        self.sampling = Some(handler);
        self
    }

    /// Answers `roots/list`; declares `roots` (with `listChanged`: the application may send
    /// `notifications/roots/list_changed` when its roots change).
    #[must_use]
    pub fn on_roots(mut self, handler: RequestHandler) -> Self {
        self.roots = Some(handler);
        self
    }

    /// The handler of `method`, if registered.
    pub fn handler(&self, method: &str) -> Option<&RequestHandler> {
        match method {
            methods::ELICITATION_CREATE => self.elicitation.as_ref(),
            methods::SAMPLING_CREATE_MESSAGE => self.sampling.as_ref(),
            methods::ROOTS_LIST => self.roots.as_ref(),
            _ => None,
        }
    }

    /// Runs `future` on the spawner.
    pub(crate) fn spawn(&self, future: LocalBoxFuture<'static, ()>) {
        (self.spawner)(future);
    }

    /// `capabilities` with exactly the capabilities whose handlers are registered added.
    pub fn declare(&self, mut capabilities: ClientCapabilities) -> ClientCapabilities {
        let object = |value: Value| value.as_object().cloned().unwrap_or_else(JsonObject::new);
        capabilities.elicitation = self.elicitation.as_ref().map(|_| object(json!({"form": {}})));
        capabilities.sampling = self.sampling.as_ref().map(|_| JsonObject::new());
        capabilities.roots = self.roots.as_ref().map(|_| ListChangedCapability { list_changed: Some(true) });
        capabilities
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(value: Value) -> RequestHandler {
        Rc::new(move |_| {
            let value = value.clone();
            Box::pin(async move { Ok(value) })
        })
    }

    #[test]
    fn only_capabilities_with_a_handler_are_declared() {
        let none = ServerRequestHandlers::new(Rc::new(|_| {}));
        assert_eq!(none.declare(ClientCapabilities::default()), ClientCapabilities::default());
        let some =
            none.clone().on_elicitation(answer(json!({"action": "decline"}))).on_roots(answer(json!({"roots": []})));
        let declared = serde_json::to_value(some.declare(ClientCapabilities::default())).unwrap();
        assert_eq!(declared, json!({"elicitation": {"form": {}}, "roots": {"listChanged": true}}));
        assert!(some.handler(methods::ELICITATION_CREATE).is_some());
        assert!(some.handler(methods::SAMPLING_CREATE_MESSAGE).is_none());
        assert!(some.handler("tools/call").is_none());
    }
}
