//! One MCP session: reads frames, answers requests, runs tools concurrently, honours cancellation.
//!
//! The session knows nothing of the browser: it writes frames through an [`Outbound`] function and runs handler
//! futures through a [`Spawner`], so it runs the same in a worker and in native tests.

use crate::context::Ctx;
use crate::env::Env;
use crate::pagination;
use crate::server::ServerCore;
use futures_util::future::{AbortHandle, Abortable, LocalBoxFuture};
use mcp_worker_protocol::jsonrpc::{EmptyResult, encode_error, encode_result};
use mcp_worker_protocol::lifecycle::ListChangedCapability;
use mcp_worker_protocol::notifications::{CancelledParams, ProgressToken};
use mcp_worker_protocol::{
    ErrorObject, InitializeParams, InitializeResult, ListToolsResult, Message, Notification, PaginatedParams, Request,
    RequestId, ServerCapabilities, methods, version,
};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

/// Where a session writes its frames (one JSON text per message).
pub type Outbound = Rc<dyn Fn(String)>;

/// How a session runs handler futures (`wasm_bindgen_futures::spawn_local` in a worker).
pub type Spawner = Rc<dyn Fn(LocalBoxFuture<'static, ()>)>;

/// A running session. Feed it every incoming frame with [`Session::handle`].
#[derive(Clone)]
pub struct Session {
    inner: Rc<Inner>,
}

struct Inner {
    server: Rc<ServerCore>,
    env: Rc<Env>,
    out: Outbound,
    spawn: Spawner,
    in_flight: RefCell<HashMap<RequestId, AbortHandle>>,
    initialized: Cell<bool>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("server", &self.inner.server.info.name)
            .field("in_flight", &self.inner.in_flight.borrow().len())
            .finish_non_exhaustive()
    }
}

/// `tools/call` params, with the arguments left raw so they deserialize straight into the tool's type.
#[derive(Deserialize)]
struct CallParams<'a> {
    name: String,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
    #[serde(rename = "_meta", default)]
    meta: Option<RequestMeta>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RequestMeta {
    progress_token: Option<ProgressToken>,
}

impl Session {
    pub(crate) fn new(server: Rc<ServerCore>, env: Rc<Env>, out: Outbound, spawn: Spawner) -> Self {
        let inner =
            Inner { server, env, out, spawn, in_flight: RefCell::new(HashMap::new()), initialized: Cell::new(false) };
        Self { inner: Rc::new(inner) }
    }

    /// Whether the client has sent `notifications/initialized`.
    pub fn is_initialized(&self) -> bool {
        self.inner.initialized.get()
    }

    /// How many requests are being served right now.
    pub fn in_flight(&self) -> usize {
        self.inner.in_flight.borrow().len()
    }

    /// Handles one incoming frame. Never panics on malformed input: bad frames get the JSON-RPC error they are
    /// owed (or none, for notifications and responses).
    pub fn handle(&self, frame: &str) {
        match Message::parse(frame) {
            Ok(Message::Request(request)) => self.on_request(request),
            Ok(Message::Notification(notification)) => self.on_notification(notification),
            // This server sends no requests yet, so any response is unsolicited and dropped.
            Ok(_) => {}
            Err(bad) if bad.answerable => self.send(encode_error(bad.id.as_ref(), &bad.error)),
            Err(_) => {}
        }
    }

    fn send(&self, frame: String) {
        (self.inner.out)(frame);
    }

    fn reply<R: serde::Serialize>(&self, id: &RequestId, outcome: Result<R, ErrorObject>) {
        let frame = match outcome {
            Ok(result) => encode_result(id, &result).unwrap_or_else(|e| {
                encode_error(Some(id), &ErrorObject::internal_error(format!("result not serializable: {e}")))
            }),
            Err(error) => encode_error(Some(id), &error),
        };
        self.send(frame);
    }

    fn on_request(&self, request: Request) {
        if self.inner.in_flight.borrow().contains_key(&request.id) {
            let error = ErrorObject::invalid_request(format!("request id {} is already in use", request.id));
            return self.send(encode_error(Some(&request.id), &error));
        }
        let id = &request.id;
        let params = request.params.as_deref();
        match request.method.as_str() {
            methods::INITIALIZE => self.reply(id, parse_params(params).map(|p| self.initialize(p))),
            methods::PING => self.reply(id, Ok(EmptyResult {})),
            methods::TOOLS_LIST => self.reply(id, parse_optional_params(params).and_then(|p| self.list_tools(p))),
            methods::TOOLS_CALL => self.call_tool(request),
            other => self.reply::<()>(id, Err(ErrorObject::method_not_found(other))),
        }
    }

    fn on_notification(&self, notification: Notification) {
        match notification.method.as_str() {
            methods::INITIALIZED => self.inner.initialized.set(true),
            methods::CANCELLED => {
                let Ok(params) = parse_params::<CancelledParams>(notification.params.as_deref()) else { return };
                // Per the spec: stop the handler and send no response. Unknown or finished ids are ignored.
                if let Some(handle) = self.inner.in_flight.borrow_mut().remove(&params.request_id) {
                    handle.abort();
                }
            }
            _ => {}
        }
    }

    fn initialize(&self, params: InitializeParams) -> InitializeResult {
        let server = &self.inner.server;
        let capabilities =
            ServerCapabilities { tools: Some(ListChangedCapability::new(false)), ..ServerCapabilities::default() };
        let mut result =
            InitializeResult::new(version::negotiate(&params.protocol_version), capabilities, server.info.clone());
        result.instructions = server.instructions.clone();
        result
    }

    fn list_tools(&self, params: PaginatedParams) -> Result<ListToolsResult, ErrorObject> {
        let server = &self.inner.server;
        let (range, next) = pagination::page(server.tools.len(), params.cursor.as_deref(), server.page_size)?;
        let tools = server.tools[range].iter().map(|t| t.definition.clone()).collect();
        Ok(ListToolsResult::new(tools, next))
    }

    fn call_tool(&self, request: Request) {
        let id = request.id;
        let text = request.params.as_deref().map_or("null", RawValue::get);
        let params: CallParams<'_> = match serde_json::from_str(text) {
            Ok(p) => p,
            Err(e) => return self.reply::<()>(&id, Err(ErrorObject::invalid_params(format!("invalid params: {e}")))),
        };
        let Some(tool) = self.inner.server.tool(&params.name) else {
            let error = ErrorObject::invalid_params(format!("Unknown tool: {}", params.name))
                .with_data(serde_json::json!({ "tool": params.name }));
            return self.reply::<()>(&id, Err(error));
        };
        let token = params.meta.and_then(|m| m.progress_token);
        let ctx = Ctx::new(id.clone(), token, self.inner.env.clone(), self.inner.out.clone());
        let work = (tool.handler)(ctx, params.arguments);

        let (abort, registration) = AbortHandle::new_pair();
        self.inner.in_flight.borrow_mut().insert(id.clone(), abort);
        let session = self.clone();
        (self.inner.spawn)(Box::pin(async move {
            // An aborted call (notifications/cancelled) sends nothing: the spec says no response.
            if let Ok(result) = Abortable::new(work, registration).await {
                session.inner.in_flight.borrow_mut().remove(&id);
                session.reply(&id, Ok::<_, ErrorObject>(result));
            }
        }));
    }
}

fn parse_params<T: DeserializeOwned>(params: Option<&RawValue>) -> Result<T, ErrorObject> {
    let text = params.map_or("null", RawValue::get);
    serde_json::from_str(text).map_err(|e| ErrorObject::invalid_params(format!("invalid params: {e}")))
}

fn parse_optional_params<T: DeserializeOwned + Default>(params: Option<&RawValue>) -> Result<T, ErrorObject> {
    match params {
        None => Ok(T::default()),
        Some(p) => parse_params(Some(p)),
    }
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
