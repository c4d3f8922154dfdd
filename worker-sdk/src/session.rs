//! One MCP session: reads frames, answers requests, runs handlers concurrently and honours cancellation.
//!
//! The session knows nothing of the browser: it writes frames through an [`Outbound`] function, runs handler
//! futures through a [`Spawner`] and waits with a [`Sleeper`], so it runs the same in a worker and in native tests.
//! Each feature lives in a submodule: `lifecycle` (initialize, logging level), `tools`, `resources`, `prompts`,
//! `completion`, and `in_flight` (the requests being served). What the server sends on its own, notifications and
//! requests to the client, is the [`Peer`]'s.

mod completion;
mod in_flight;
mod lifecycle;
mod listen;
mod modern;
mod prompts;
mod resources;
mod tools;

use crate::cancel::CancelSignal;
use crate::context::{Carried, Ctx};
use crate::env::Env;
use crate::handle::ServerHandle;
use crate::peer::{Outbound, Peer, Sleeper};
use crate::registry::Registry;
use crate::state::{Config, State};
use futures_util::future::LocalBoxFuture;
use in_flight::InFlight;
use mcp_worker_protocol::jsonrpc::{EmptyResult, encode_error};
use mcp_worker_protocol::modern::{Era, ModernMeta, all_versions, request_meta};
use mcp_worker_protocol::notifications::{CancelledParams, ProgressToken};
use mcp_worker_protocol::{ErrorObject, Message, Notification, Request, methods};
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use std::rc::Rc;

/// How a session runs handler futures (`wasm_bindgen_futures::spawn_local` in a worker).
pub type Spawner = Rc<dyn Fn(LocalBoxFuture<'static, ()>)>;

/// A handler at work on a request: its cancellation signal and its future.
type Work<R> = (CancelSignal, LocalBoxFuture<'static, Result<R, ErrorObject>>);

/// Serves the requests of one capability (resources, prompts, completions), of either era; false when `request` is
/// not one of its methods. The builder installs one only for a server that offers the capability ([`Offered`]), so
/// a server without resources or prompts links none of their code: the echo server is 13 KiB of gzip lighter for it.
pub(crate) type ServeCapability = fn(&Session, &Request, RequestEra<'_>) -> bool;

/// The era of a request being served, with what its `_meta` said, read once when the era was found.
#[derive(Debug, Clone, Copy)]
pub(crate) enum RequestEra<'a> {
    /// The handshake era (MCP 2025-11-25 and before): the request's progress token.
    Handshake(Option<&'a ProgressToken>),
    /// MCP 2026-07-28: the request's own `_meta`, checked.
    Modern(&'a ModernMeta),
}

impl<'a> RequestEra<'a> {
    /// The request's `_meta`, if it is of the modern era.
    pub(crate) fn modern(self) -> Option<&'a ModernMeta> {
        match self {
            Self::Handshake(_) => None,
            Self::Modern(meta) => Some(meta),
        }
    }
}

/// The capabilities beyond tools that a server offers, each as the function that serves its requests.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Offered {
    pub(crate) resources: Option<ServeCapability>,
    /// Whether the server has a resource of this URI, or a template that names it (for `subscriptions/listen`).
    pub(crate) has_resource: Option<fn(&Registry, &str) -> bool>,
    pub(crate) prompts: Option<ServeCapability>,
    pub(crate) completions: Option<ServeCapability>,
}

impl Offered {
    /// Resources, and the completions of their templates' variables.
    pub(crate) fn offer_resources(&mut self) {
        self.resources = Some(resources::serve);
        self.has_resource = Some(resources::has_resource);
        self.completions = Some(completion::serve);
    }

    /// Prompts, and the completions of their arguments.
    pub(crate) fn offer_prompts(&mut self) {
        self.prompts = Some(prompts::serve);
        self.completions = Some(completion::serve);
    }
}

/// A running session. Feed it every incoming frame with [`Session::handle`].
#[derive(Clone)]
pub struct Session {
    state: Rc<State>,
    in_flight: Rc<InFlight>,
    offered: Offered,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("server", &self.state.config.info.name)
            .field("in_flight", &self.in_flight.len())
            .finish_non_exhaustive()
    }
}

impl Session {
    pub(crate) fn new(
        config: Config,
        registry: Registry,
        env: Env,
        out: Outbound,
        spawn: Spawner,
        offered: Offered,
    ) -> Self {
        let state = State::new(config, registry, env, Peer::new(out));
        Self { state: Rc::new(state), in_flight: Rc::new(InFlight::new(spawn)), offered }
    }

    /// Gives the session a timer. Without one, requests to the client wait without a timeout and
    /// [`crate::Ctx::sleep`] returns at once. The browser glue installs `setTimeout`.
    pub fn set_sleeper(&self, sleeper: Sleeper) {
        self.state.peer.set_sleeper(sleeper);
    }

    /// Tells the session that a transport serves it over Streamable HTTP and understands the hints of
    /// [`crate::Ctx::close_sse_stream`]: from then on, that method sends one (a frame of method
    /// [`crate::CLOSE_SSE_STREAM`]). The SDK's `serve.mjs` asks for them; a browser host does not.
    pub fn enable_sse_stream_hints(&self) {
        self.state.peer.enable_sse_stream_hints();
    }

    /// Sends the large strings of results (texts and data of `tools/call` content, texts and blobs of
    /// `resources/read` contents, of at least [`crate::DETACH_FROM_BYTES`]) beside their frames, through `out`,
    /// instead of escaped inside them: a transport to a host that puts them back (`docs/wire-protocol.md`,
    /// "Detached strings") asks for this. The browser bootstrap does when the host's `connect` says it can.
    pub fn enable_detached_strings(&self, out: crate::DetachedOutbound) {
        self.state.peer.enable_detached_strings(out);
    }

    /// Sends the answers whose result the session keeps as text between answers (the first `tools/list` page)
    /// through `out`, in two parts ([`crate::KeptFrame`]), so that the transport can keep its own form of that text
    /// instead of converting it for every answer. The browser transport keeps the JavaScript string.
    pub fn enable_kept_frames(&self, out: crate::KeptOutbound) {
        self.state.peer.enable_kept_frames(out);
    }

    /// Whether the client has sent `notifications/initialized`.
    pub fn is_initialized(&self) -> bool {
        self.state.peer.is_initialized()
    }

    /// How many requests are being served right now.
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// How many requests to the client (elicitation, sampling, roots) await an answer.
    pub fn pending_client_requests(&self) -> usize {
        self.state.peer.pending_requests()
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
            Ok(Message::Response(response)) => self.state.peer.deliver(response),
            Ok(_) => {}
            Err(bad) if bad.answerable => self.state.peer.send(encode_error(bad.id.as_ref(), &bad.error)),
            Err(_) => {}
        }
    }

    fn on_request(&self, request: Request) {
        let peer = &self.state.peer;
        if self.in_flight.contains(&request.id) || self.state.is_listening(&request.id) {
            let error = ErrorObject::invalid_request(format!("request id {} is already in use", request.id));
            return peer.send(encode_error(Some(&request.id), &error));
        }
        // The era is the request's own (MCP 2026-07-28 carries it in `_meta`): one session may serve both.
        match request_meta(request.params.as_deref()).era(&all_versions()) {
            Ok(Era::Handshake { progress_token }) => self.on_handshake_request(request, progress_token),
            Ok(Era::Modern(meta)) => self.on_modern_request(request, meta),
            Err(error) => peer.reply::<()>(&request.id, Err(error)),
        }
    }

    /// A request of the handshake era (MCP 2025-11-25 and before), and its progress token.
    fn on_handshake_request(&self, request: Request, progress_token: Option<ProgressToken>) {
        let peer = &self.state.peer;
        let id = &request.id;
        let params = request.params.as_deref();
        match request.method.as_str() {
            methods::INITIALIZE => peer.reply(id, parse_params(params).map(|p| self.initialize(p))),
            methods::PING => peer.reply(id, Ok(EmptyResult {})),
            methods::LOGGING_SET_LEVEL => peer.reply(id, parse_params(params).map(|p| self.set_level(p))),
            methods::TOOLS_LIST => peer.reply_kept(
                id,
                parse_optional_params(params).and_then(|p| {
                    self.tools_list_result(p, false, |page| {
                        serde_json::to_string(&page)
                            .map_err(|e| ErrorObject::internal_error(format!("result not serializable: {e}")))
                    })
                }),
            ),
            methods::TOOLS_CALL => self.serve(id, self.call_tool(&request, Carried::Handshake(progress_token))),
            _ if self.serve_offered(&request, RequestEra::Handshake(progress_token.as_ref())) => {}
            other => peer.reply::<()>(id, Err(ErrorObject::method_not_found(other))),
        }
    }

    /// Serves `request` by the capability it belongs to, if the server offers it; false otherwise.
    fn serve_offered(&self, request: &Request, era: RequestEra<'_>) -> bool {
        let offered = self.offered;
        [offered.resources, offered.prompts, offered.completions]
            .into_iter()
            .flatten()
            .any(|serve| serve(self, request, era))
    }

    fn on_notification(&self, notification: Notification) {
        match notification.method.as_str() {
            methods::INITIALIZED => self.state.peer.set_initialized(),
            methods::CANCELLED => {
                let Ok(params) = parse_params::<CancelledParams>(notification.params.as_deref()) else { return };
                self.in_flight.cancel(&params.request_id);
                self.state.stop_listening(&params.request_id);
            }
            _ => {}
        }
    }

    /// Runs a handler's work, or answers the error that kept it from starting.
    fn serve<R: serde::Serialize + 'static>(
        &self,
        id: &mcp_worker_protocol::RequestId,
        work: Result<Work<R>, ErrorObject>,
    ) {
        match work {
            Ok((cancel, future)) => self.spawn_request(id.clone(), cancel, future),
            Err(error) => self.state.peer.reply::<()>(id, Err(error)),
        }
    }

    /// A context for a handler serving `request`, with what the request carried for it, and its cancellation signal.
    fn context(&self, request: &Request, carried: Carried) -> (Ctx, CancelSignal) {
        let cancel = CancelSignal::default();
        let (token, modern) = match carried {
            Carried::Handshake(token) => (token, None),
            Carried::Modern(modern) => (modern.progress_token.clone(), Some(modern)),
        };
        let ctx = Ctx::new(self.state.clone(), request.id.clone(), token, cancel.clone(), modern);
        (ctx, cancel)
    }
}

pub(crate) fn parse_params<T: DeserializeOwned>(params: Option<&RawValue>) -> Result<T, ErrorObject> {
    let text = params.map_or("null", RawValue::get);
    mcp_worker_protocol::json::from_str(text).map_err(|e| ErrorObject::invalid_params(format!("invalid params: {e}")))
}

fn parse_optional_params<T: DeserializeOwned + Default>(params: Option<&RawValue>) -> Result<T, ErrorObject> {
    match params {
        None => Ok(T::default()),
        Some(p) => parse_params(Some(p)),
    }
}
