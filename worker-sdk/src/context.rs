//! The context a handler receives: its request, progress, logging, cancellation, the server's environment and
//! credentials, and requests to the client (elicitation, sampling, roots).

mod link;

pub(crate) use link::Link;

use crate::cancel::{CancelSignal, Cancelled};
use crate::env::Env;
use crate::error::{Error, Result};
use crate::form::{Elicitation, form_schema};
use crate::input_rounds::{Asked, Rounds};
use crate::peer::{self, Peer};
use mcp_worker_protocol::notifications::{ProgressParams, ProgressToken};
use mcp_worker_protocol::{
    ClientCapabilities, CreateMessageParams, CreateMessageResult, ElicitAction, ElicitParams, ElicitResult,
    ListRootsResult, LoggingLevel, RequestId, methods,
};
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::cell::Cell;
use std::fmt;
use std::rc::Rc;

/// What a handler knows about the request it serves, and what it can do besides returning a result. Cheap to
/// clone.
#[derive(Clone)]
pub struct Ctx {
    inner: Rc<CtxInner>,
}

struct CtxInner {
    link: Rc<dyn Link>,
    request_id: RequestId,
    progress_token: Option<ProgressToken>,
    last_progress: Cell<Option<f64>>,
    cancel: CancelSignal,
    modern: Option<Modern>,
}

/// What a handler's request carried for it, read once, when the request's era was found: in the handshake era its
/// progress token, in the modern era (MCP 2026-07-28) all of [`Modern`].
pub(crate) enum Carried {
    Handshake(Option<ProgressToken>),
    Modern(Modern),
}

/// What a request of the modern era (MCP 2026-07-28) carries for its handler: the client's capabilities and log
/// level for this request alone, and the rounds of its questions to the client.
pub(crate) struct Modern {
    pub(crate) capabilities: ClientCapabilities,
    pub(crate) log_level: Option<LoggingLevel>,
    pub(crate) rounds: Option<Rc<Rounds>>,
    /// The request's progress token, as its `_meta` was read for the era.
    pub(crate) progress_token: Option<ProgressToken>,
}

impl fmt::Debug for Ctx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ctx")
            .field("request_id", &self.inner.request_id)
            .field("progress_token", &self.inner.progress_token)
            .field("cancelled", &self.inner.cancel.is_cancelled())
            .finish_non_exhaustive()
    }
}

impl Ctx {
    pub(crate) fn new(
        link: Rc<dyn Link>,
        request_id: RequestId,
        progress_token: Option<ProgressToken>,
        cancel: CancelSignal,
        modern: Option<Modern>,
    ) -> Self {
        let last_progress = Cell::new(None);
        Self { inner: Rc::new(CtxInner { link, request_id, progress_token, last_progress, cancel, modern }) }
    }

    /// The session this request belongs to.
    pub(crate) fn link(&self) -> &Rc<dyn Link> {
        &self.inner.link
    }

    fn peer(&self) -> &Peer {
        self.inner.link.peer()
    }

    /// The id of the request being served.
    pub fn request_id(&self) -> &RequestId {
        &self.inner.request_id
    }

    /// The environment the host provided in its `connect` message (settings and credentials).
    pub fn env(&self) -> &Env {
        self.inner.link.env()
    }

    /// The value of a credential the server declared (see [`crate::Server::credential`]), when the host provided
    /// it. Names the server did not declare are never returned, even when the environment has them.
    pub fn credential(&self, name: &str) -> Option<&str> {
        let declared = self.inner.link.credentials().iter().any(|c| c.name == name);
        if declared { self.env().get(name) } else { None }
    }

    /// What the client declared: in `initialize`, or (MCP 2026-07-28) with this request. `None` before
    /// `initialize`.
    pub fn client_capabilities(&self) -> Option<ClientCapabilities> {
        match &self.inner.modern {
            Some(modern) => Some(modern.capabilities.clone()),
            None => self.peer().capabilities(),
        }
    }

    // ---- progress ----

    /// Whether the caller asked for progress (sent a `progressToken`).
    pub fn wants_progress(&self) -> bool {
        self.inner.progress_token.is_some()
    }

    /// Reports progress to the caller. Does nothing when the caller sent no progress token, and skips values
    /// that do not increase (the spec requires progress to increase).
    pub fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        let Some(token) = &self.inner.progress_token else { return };
        if self.inner.last_progress.get().is_some_and(|last| progress <= last) {
            return;
        }
        self.inner.last_progress.set(Some(progress));
        let mut params = ProgressParams::new(token.clone(), progress);
        params.total = total;
        params.message = message.map(str::to_owned);
        self.peer().notify(methods::PROGRESS, Some(&params));
    }

    // ---- logging ----

    /// Sends a log message (`notifications/message`) to the client when `level` passes the level it set with
    /// `logging/setLevel` (before it sets one, every message is sent). In MCP 2026-07-28 the level comes with each
    /// request, and a request without one gets no logs. `logger` names the source (`""` for none); `data` is any
    /// JSON value, typically a string. Never put credentials or personal data in a log.
    pub fn log(&self, level: LoggingLevel, logger: &str, data: impl Serialize) {
        if self.log_enabled(level) {
            let data = serde_json::to_value(data).unwrap_or_else(|e| format!("(unserializable log data: {e})").into());
            self.peer().send_log(level, (!logger.is_empty()).then_some(logger), data, Some(&self.inner.request_id));
        }
    }

    /// Whether a message of `level` would be sent, to skip building expensive log data.
    pub fn log_enabled(&self, level: LoggingLevel) -> bool {
        match &self.inner.modern {
            Some(modern) => modern.log_level.is_some_and(|min| level >= min),
            None => self.peer().log_enabled(level),
        }
    }

    /// Over Streamable HTTP, closes the SSE stream that carries this request's messages now, before the result, so
    /// that the client reconnects and polls for the rest with `Last-Event-ID` (SEP-1699): a long request then holds
    /// no connection while it waits. The request goes on; what it sends later reaches the client when it resumes.
    /// Served another way (in a browser, over stdio) it does nothing. The SDK's `serve.mjs` honours it for clients
    /// of protocol 2025-11-25 and later, whose streams can be resumed.
    pub fn close_sse_stream(&self) {
        // Modern streams cannot be resumed: the hint would lose the request's messages.
        if self.inner.modern.is_none() {
            self.peer().close_sse_stream(&self.inner.request_id);
        }
    }

    // ---- cancellation and time ----

    /// Whether the client cancelled this request. The handler's future is dropped when that happens, so this is
    /// for work that outlives it: tasks the handler spawned with a clone of this context.
    pub fn is_cancelled(&self) -> bool {
        self.inner.cancel.is_cancelled()
    }

    /// Completes when the client cancels this request (see [`Ctx::is_cancelled`]).
    pub fn cancelled(&self) -> Cancelled {
        self.inner.cancel.wait()
    }

    /// Waits `ms` milliseconds without blocking the worker (`setTimeout`). Returns at once in a session without a
    /// timer (see [`crate::Session::set_sleeper`]).
    pub async fn sleep(&self, ms: u32) {
        if let Some(timer) = self.peer().timer(ms) {
            timer.await;
        }
    }

    // ---- requests to the client ----

    /// Sends a request to the client and waits for its result, for at most `timeout_ms` (the server's default,
    /// [`crate::Server::client_request_timeout_ms`], when `None`). Prefer the typed methods below.
    ///
    /// In MCP 2026-07-28 the server sends no requests: the question goes back in an `input_required` result, and
    /// the client retries the whole request with its answer, which runs the handler again from the start (see
    /// the crate's documentation on multi round-trip requests). So ask before doing anything that must not happen
    /// twice. A question the client cannot answer (a capability it did not declare) fails the whole request with
    /// -32021 there, rather than returning [`Error::CapabilityMissing`]: check [`Ctx::client_capabilities`] first
    /// to do without.
    pub async fn request<P: Serialize, R: DeserializeOwned>(
        &self,
        method: &str,
        params: Option<&P>,
        timeout_ms: Option<u32>,
    ) -> Result<R> {
        self.request_as(None, method, params, timeout_ms).await
    }

    /// [`Ctx::request`], naming the question: in MCP 2026-07-28 its key in the `input_required` result is `key`
    /// (otherwise `elicitation-0`, `sampling-1`… in the order asked). A key is unique within a request. In the
    /// handshake era the key is not used.
    pub async fn request_as<P: Serialize, R: DeserializeOwned>(
        &self,
        key: Option<&str>,
        method: &str,
        params: Option<&P>,
        timeout_ms: Option<u32>,
    ) -> Result<R> {
        // Only writing the params and reading the result depend on their types: the rest is compiled once.
        let params = match params.map(serde_json::to_value).transpose() {
            Ok(params) => params,
            Err(e) => return Err(Error::InvalidResponse { method: method.to_owned(), reason: format!("params: {e}") }),
        };
        let answer = self.request_value(key, method, params, timeout_ms).await?;
        match mcp_worker_protocol::json::from_value(answer) {
            Ok(result) => Ok(result),
            Err(e) => Err(self.unreadable_answer(method, e.to_string()).await),
        }
    }

    /// [`Ctx::request_as`] with the params written: the client's answer. In the modern era, from this round or an
    /// earlier one; otherwise the run is interrupted and this never completes (the session drops the handler and
    /// answers `input_required`).
    async fn request_value(
        &self,
        key: Option<&str>,
        method: &str,
        params: Option<serde_json::Value>,
        timeout_ms: Option<u32>,
    ) -> Result<serde_json::Value> {
        if let Some(modern) = &self.inner.modern {
            let Some(rounds) = &modern.rounds else {
                return Err(Error::CapabilityMissing {
                    method: method.to_owned(),
                    capability: "input requests".into(),
                });
            };
            if let Asked::Answered(answer) = rounds.ask(crate::clock::now_ms(), key, method, params) {
                return Ok(answer);
            }
            return std::future::pending().await;
        }
        let link = &self.inner.link;
        let timeout = timeout_ms.unwrap_or(link.client_request_timeout_ms());
        let raw = peer::request(link.peer(), method, params.as_ref(), timeout).await?;
        mcp_worker_protocol::json::from_str(raw.get())
            .map_err(|e| Error::InvalidResponse { method: method.to_owned(), reason: e.to_string() })
    }

    /// What an answer the server cannot read as the result it asked for comes to: an error in the handshake era;
    /// in the modern era, the request fails as the client's mistake and this never completes.
    async fn unreadable_answer(&self, method: &str, reason: String) -> Error {
        match self.inner.modern.as_ref().and_then(|modern| modern.rounds.as_ref()) {
            Some(rounds) => {
                rounds.invalid_answer(method, &reason);
                std::future::pending().await
            }
            None => Error::InvalidResponse { method: method.to_owned(), reason },
        }
    }

    /// Asks the user to fill in a form (`elicitation/create`, form mode). Fails with
    /// [`Error::CapabilityMissing`] when the client did not declare form elicitation.
    pub async fn elicit(&self, params: ElicitParams) -> Result<ElicitResult> {
        self.request(methods::ELICITATION_CREATE, Some(&params), None).await
    }

    /// Asks the user to fill in a form built from `T` (a flat struct of strings, numbers, booleans and enums;
    /// doc comments become field descriptions), and reads the answer into `T`.
    ///
    /// ```
    /// # async fn handler(ctx: mcp_worker_sdk::Ctx) -> Result<String, mcp_worker_sdk::Error> {
    /// use mcp_worker_sdk::Elicitation;
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Confirm {
    ///     /// Type the name of the repository to delete it.
    ///     repository: String,
    /// }
    /// Ok(match ctx.elicit_form::<Confirm>("Delete the repository?").await? {
    ///     Elicitation::Accepted(confirm) => format!("deleting {}", confirm.repository),
    ///     _ => "kept".to_owned(),
    /// })
    /// # }
    /// ```
    pub async fn elicit_form<T: DeserializeOwned + JsonSchema>(&self, message: &str) -> Result<Elicitation<T>> {
        let schema = form_schema::<T>()?;
        let result = self.elicit(ElicitParams::form(message, schema)).await?;
        match result.action {
            ElicitAction::Accept => {
                let content = serde_json::Value::Object(result.content.unwrap_or_default());
                mcp_worker_protocol::json::from_value(content).map(Elicitation::Accepted).map_err(|e| {
                    Error::InvalidResponse {
                        method: methods::ELICITATION_CREATE.into(),
                        reason: format!("the form's values do not fit {}: {e}", T::schema_name()),
                    }
                })
            }
            ElicitAction::Decline => Ok(Elicitation::Declined),
            _ => Ok(Elicitation::Cancelled),
        }
    }

    /// Asks the client's model for a message (`sampling/createMessage`). Fails with [`Error::CapabilityMissing`]
    /// when the client did not declare sampling.
    pub async fn sample(&self, params: CreateMessageParams) -> Result<CreateMessageResult> {
        self.request(methods::SAMPLING_CREATE_MESSAGE, Some(&params), None).await
    }

    /// Asks the client for its roots (`roots/list`). Fails with [`Error::CapabilityMissing`] when the client did
    /// not declare roots.
    pub async fn list_roots(&self) -> Result<ListRootsResult> {
        self.request::<(), _>(methods::ROOTS_LIST, None, None).await
    }
}
