//! One MCP session: reads frames, answers requests, runs handlers concurrently, honours cancellation, and sends
//! the server's own notifications and requests.
//!
//! The session knows nothing of the browser: it writes frames through an [`Outbound`] function, runs handler
//! futures through a [`Spawner`] and waits with a [`Sleeper`], so it runs the same in a worker and in native tests.
//! Each feature lives in a submodule: `lifecycle` (initialize, logging level), `tools`, `resources`, `prompts`,
//! `completion`, and `outgoing` (notifications and server-to-client requests).

mod completion;
mod lifecycle;
pub(crate) mod outgoing;
mod prompts;
mod resources;
mod tools;

use crate::cancel::CancelSignal;
use crate::credentials::Credential;
use crate::env::Env;
use crate::handle::ServerHandle;
use crate::registry::Registry;
use futures_util::future::{AbortHandle, Abortable, LocalBoxFuture};
use mcp_worker_protocol::jsonrpc::{EmptyResult, encode_error, encode_result};
use mcp_worker_protocol::notifications::{CancelledParams, ProgressToken};
use mcp_worker_protocol::{
    ClientCapabilities, ErrorObject, Implementation, LoggingLevel, Message, Notification, Request, RequestId,
    ServerCapabilities, methods,
};
use outgoing::Outgoing;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::future::Future;
use std::rc::Rc;
use std::task::{Context, Waker};

/// Where a session writes its frames (one JSON text per message).
pub type Outbound = Rc<dyn Fn(String)>;

/// How a session runs handler futures (`wasm_bindgen_futures::spawn_local` in a worker).
pub type Spawner = Rc<dyn Fn(LocalBoxFuture<'static, ()>)>;

/// How a session waits: a future that completes after the given milliseconds (`setTimeout` in a worker). It times
/// out requests to the client and serves [`crate::Ctx::sleep`].
pub type Sleeper = Rc<dyn Fn(u32) -> LocalBoxFuture<'static, ()>>;

/// What does not change while a server runs.
pub(crate) struct Config {
    pub(crate) info: Implementation,
    pub(crate) instructions: Option<String>,
    pub(crate) page_size: usize,
    pub(crate) capabilities: ServerCapabilities,
    pub(crate) credentials: Vec<Credential>,
    pub(crate) client_request_timeout_ms: u32,
}

struct InFlight {
    abort: AbortHandle,
    cancel: CancelSignal,
}

/// The state of a session, shared by the session, every handler's [`crate::Ctx`] and (weakly) every
/// [`ServerHandle`].
pub(crate) struct State {
    pub(crate) config: Config,
    pub(crate) registry: RefCell<Registry>,
    pub(crate) env: Rc<Env>,
    out: Outbound,
    spawn: Spawner,
    sleeper: RefCell<Option<Sleeper>>,
    in_flight: RefCell<HashMap<RequestId, InFlight>>,
    initialized: Cell<bool>,
    pub(crate) client: RefCell<Option<ClientCapabilities>>,
    pub(crate) log_level: Cell<Option<LoggingLevel>>,
    /// The URIs the client subscribed to (a handful: a list is smaller code than a set).
    pub(crate) subscriptions: RefCell<Vec<String>>,
    pub(crate) outgoing: Outgoing,
}

impl State {
    pub(crate) fn send(&self, frame: String) {
        (self.out)(frame);
    }

    pub(crate) fn is_initialized(&self) -> bool {
        self.initialized.get()
    }

    /// A timer of `ms`, or `None` when the session has no [`Sleeper`].
    pub(crate) fn timer(&self, ms: u32) -> Option<LocalBoxFuture<'static, ()>> {
        self.sleeper.borrow().as_ref().map(|sleep| sleep(ms))
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
}

/// A running session. Feed it every incoming frame with [`Session::handle`].
#[derive(Clone)]
pub struct Session {
    state: Rc<State>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("server", &self.state.config.info.name)
            .field("in_flight", &self.state.in_flight.borrow().len())
            .finish_non_exhaustive()
    }
}

/// The `_meta` of request params, for the progress token.
#[derive(Deserialize)]
struct MetaOnly {
    #[serde(rename = "_meta", default)]
    meta: Option<RequestMeta>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RequestMeta {
    progress_token: Option<ProgressToken>,
}

/// The progress token of a request, if its params carry one.
fn progress_token(params: Option<&RawValue>) -> Option<ProgressToken> {
    let params = params?;
    serde_json::from_str::<MetaOnly>(params.get()).ok()?.meta?.progress_token
}

impl Session {
    pub(crate) fn new(config: Config, registry: Registry, env: Rc<Env>, out: Outbound, spawn: Spawner) -> Self {
        let state = State {
            config,
            registry: RefCell::new(registry),
            env,
            out,
            spawn,
            sleeper: RefCell::new(None),
            in_flight: RefCell::new(HashMap::new()),
            initialized: Cell::new(false),
            client: RefCell::new(None),
            log_level: Cell::new(None),
            subscriptions: RefCell::new(Vec::new()),
            outgoing: Outgoing::default(),
        };
        Self { state: Rc::new(state) }
    }

    /// Gives the session a timer. Without one, requests to the client wait without a timeout and
    /// [`crate::Ctx::sleep`] returns at once. The browser glue installs `setTimeout`.
    pub fn set_sleeper(&self, sleeper: Sleeper) {
        *self.state.sleeper.borrow_mut() = Some(sleeper);
    }

    /// Whether the client has sent `notifications/initialized`.
    pub fn is_initialized(&self) -> bool {
        self.state.is_initialized()
    }

    /// How many requests are being served right now.
    pub fn in_flight(&self) -> usize {
        self.state.in_flight.borrow().len()
    }

    /// How many requests to the client (elicitation, sampling, roots) await an answer.
    pub fn pending_client_requests(&self) -> usize {
        self.state.outgoing.pending()
    }

    /// A handle to change what the server offers while it runs, and to notify the client.
    pub fn server(&self) -> ServerHandle {
        ServerHandle::new(Rc::downgrade(&self.state))
    }

    /// Handles one incoming frame. Never panics on malformed input: bad frames get the JSON-RPC error they are
    /// owed (or none, for notifications and responses).
    pub fn handle(&self, frame: &str) {
        match Message::parse(frame) {
            Ok(Message::Request(request)) => self.on_request(request),
            Ok(Message::Notification(notification)) => self.on_notification(notification),
            Ok(Message::Response(response)) => self.state.outgoing.deliver(response),
            Ok(_) => {}
            Err(bad) if bad.answerable => self.state.send(encode_error(bad.id.as_ref(), &bad.error)),
            Err(_) => {}
        }
    }

    fn on_request(&self, request: Request) {
        if self.state.in_flight.borrow().contains_key(&request.id) {
            let error = ErrorObject::invalid_request(format!("request id {} is already in use", request.id));
            return self.state.send(encode_error(Some(&request.id), &error));
        }
        let id = &request.id;
        let params = request.params.as_deref();
        let state = &self.state;
        match request.method.as_str() {
            methods::INITIALIZE => state.reply(id, parse_params(params).map(|p| self.initialize(p))),
            methods::PING => state.reply(id, Ok(EmptyResult {})),
            methods::LOGGING_SET_LEVEL => state.reply(id, parse_params(params).map(|p| self.set_level(p))),
            methods::TOOLS_LIST => state.reply(id, parse_optional_params(params).and_then(|p| self.list_tools(p))),
            methods::TOOLS_CALL => self.call_tool(request),
            methods::RESOURCES_LIST if self.offers_resources() => {
                state.reply(id, parse_optional_params(params).and_then(|p| self.list_resources(p)))
            }
            methods::RESOURCES_TEMPLATES_LIST if self.offers_resources() => {
                state.reply(id, parse_optional_params(params).and_then(|p| self.list_resource_templates(p)))
            }
            methods::RESOURCES_READ if self.offers_resources() => self.read_resource(request),
            methods::RESOURCES_SUBSCRIBE if self.offers_resources() => {
                state.reply(id, parse_params(params).and_then(|p| self.subscribe(p)))
            }
            methods::RESOURCES_UNSUBSCRIBE if self.offers_resources() => {
                state.reply(id, parse_params(params).map(|p| self.unsubscribe(p)))
            }
            methods::PROMPTS_LIST if self.offers_prompts() => {
                state.reply(id, parse_optional_params(params).and_then(|p| self.list_prompts(p)))
            }
            methods::PROMPTS_GET if self.offers_prompts() => self.get_prompt(request),
            methods::COMPLETION_COMPLETE if self.offers_completions() => self.complete(request),
            other => state.reply::<()>(id, Err(ErrorObject::method_not_found(other))),
        }
    }

    fn on_notification(&self, notification: Notification) {
        match notification.method.as_str() {
            methods::INITIALIZED => self.state.initialized.set(true),
            methods::CANCELLED => {
                let Ok(params) = parse_params::<CancelledParams>(notification.params.as_deref()) else { return };
                // Per the spec: stop the handler and send no response. Unknown or finished ids are ignored.
                if let Some(call) = self.state.in_flight.borrow_mut().remove(&params.request_id) {
                    call.cancel.cancel();
                    call.abort.abort();
                }
            }
            _ => {}
        }
    }

    /// Runs a handler's future concurrently with everything else, answering `id` when it completes, unless the
    /// client cancels the request first.
    fn spawn_request<R, F>(&self, id: RequestId, cancel: CancelSignal, work: F)
    where
        R: serde::Serialize + 'static,
        F: Future<Output = Result<R, ErrorObject>> + 'static,
    {
        let (abort, registration) = AbortHandle::new_pair();
        self.state.in_flight.borrow_mut().insert(id.clone(), InFlight { abort, cancel });
        let state = self.state.clone();
        let mut task: LocalBoxFuture<'static, ()> = Box::pin(async move {
            // An aborted request (notifications/cancelled) sends nothing: the spec says no response.
            if let Ok(outcome) = Abortable::new(work, registration).await {
                state.in_flight.borrow_mut().remove(&id);
                state.reply(&id, outcome);
            }
        });
        // Most handlers finish without waiting. Polling once here answers them within the message handler,
        // which saves a task hop per call; a handler that waits is handed to the spawner, whose first poll
        // re-registers a real waker (nothing can be missed: a future re-checks its state on every poll).
        let mut first_poll = Context::from_waker(Waker::noop());
        if task.as_mut().poll(&mut first_poll).is_pending() {
            (self.state.spawn)(task);
        }
    }

    /// A context for a handler serving `request`, and its cancellation signal.
    fn context(&self, request: &Request) -> (crate::Ctx, CancelSignal) {
        let cancel = CancelSignal::default();
        let token = progress_token(request.params.as_deref());
        let ctx = crate::Ctx::new(self.state.clone(), request.id.clone(), token, cancel.clone());
        (ctx, cancel)
    }

    fn offers_resources(&self) -> bool {
        self.state.config.capabilities.resources.is_some()
    }

    fn offers_prompts(&self) -> bool {
        self.state.config.capabilities.prompts.is_some()
    }

    fn offers_completions(&self) -> bool {
        self.state.config.capabilities.completions.is_some()
    }
}

pub(crate) fn parse_params<T: DeserializeOwned>(params: Option<&RawValue>) -> Result<T, ErrorObject> {
    let text = params.map_or("null", RawValue::get);
    serde_json::from_str(text).map_err(|e| ErrorObject::invalid_params(format!("invalid params: {e}")))
}

fn parse_optional_params<T: DeserializeOwned + Default>(params: Option<&RawValue>) -> Result<T, ErrorObject> {
    match params {
        None => Ok(T::default()),
        Some(p) => parse_params(Some(p)),
    }
}
