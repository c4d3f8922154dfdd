//! The client at the other end of a session, as the server talks to it: the frames it writes, the timer it waits
//! with, what the client declared, the log level it set, and the requests awaiting its answers (`requests`).
//!
//! Handlers reach it through their [`crate::Ctx`], a [`crate::ServerHandle`] through the session's state, and the
//! session itself when it answers.

mod detached;
mod kept;
mod requests;

pub(crate) use detached::Detacher;
pub use detached::{DETACH_FROM_BYTES, DetachedFrame, DetachedOutbound};
pub use kept::{KeptFrame, KeptOutbound};

pub(crate) use requests::request;

use futures_util::future::LocalBoxFuture;
use mcp_worker_protocol::jsonrpc::{Response, encode_error, encode_notification, encode_result};
use mcp_worker_protocol::{ClientCapabilities, ErrorObject, LoggingLevel, LoggingMessageParams, RequestId, methods};
use requests::Outgoing;
use serde::Serialize;
use std::cell::{Cell, OnceCell, RefCell};
use std::rc::Rc;

/// Where a session writes its frames (one JSON text per message).
pub type Outbound = Rc<dyn Fn(String)>;

/// The method of the hint [`crate::Ctx::close_sse_stream`] sends to a transport that serves the session over
/// Streamable HTTP and asked for it ([`crate::Session::enable_sse_stream_hints`]). Not an MCP message: the
/// transport consumes it, and no client sees it.
pub const CLOSE_SSE_STREAM: &str = "mcp-worker/close_sse_stream";

/// The `_meta` key that names, on a log message a handler sent, the request it belongs to, for a transport that
/// asked for hints ([`crate::Session::enable_sse_stream_hints`]) to route it to that request's stream. The
/// transport removes it; no client sees it.
pub const RELATED_REQUEST_META: &str = "mcp-worker/request";

/// How a session waits: a future that completes after the given milliseconds (`setTimeout` in a worker). It times
/// out requests to the client and serves [`crate::Ctx::sleep`].
pub type Sleeper = Rc<dyn Fn(u32) -> LocalBoxFuture<'static, ()>>;

/// The client of one session.
pub(crate) struct Peer {
    out: Outbound,
    sleeper: RefCell<Option<Sleeper>>,
    initialized: Cell<bool>,
    modern: Cell<bool>,
    capabilities: RefCell<Option<ClientCapabilities>>,
    log_level: Cell<Option<LoggingLevel>>,
    sse_stream_hints: Cell<bool>,
    detacher: OnceCell<Detacher>,
    kept_out: OnceCell<KeptOutbound>,
    outgoing: Outgoing,
}

impl Peer {
    pub(crate) fn new(out: Outbound) -> Self {
        Self {
            out,
            sleeper: RefCell::new(None),
            initialized: Cell::new(false),
            modern: Cell::new(false),
            capabilities: RefCell::new(None),
            log_level: Cell::new(None),
            sse_stream_hints: Cell::new(false),
            detacher: OnceCell::new(),
            kept_out: OnceCell::new(),
            outgoing: Outgoing::default(),
        }
    }

    pub(crate) fn send(&self, frame: String) {
        (self.out)(frame);
    }

    /// Answers a request of the client. A result whose large strings were detached for it
    /// ([`Peer::detacher`]) is sent with them.
    pub(crate) fn reply<R: Serialize>(&self, id: &RequestId, outcome: Result<R, ErrorObject>) {
        // Only the encoding depends on `R`: everything else is in `answer`, compiled once.
        self.answer(id, encode_reply(id, outcome));
    }

    /// Answers a request with its response frame ([`encode_reply`]), or its error.
    pub(crate) fn answer(&self, id: &RequestId, frame: Result<String, ErrorObject>) {
        let detached = self.detacher.get().map(|d| (d, d.take_for(id)));
        match (frame, detached) {
            (Ok(frame), Some((detacher, strings))) if !strings.is_empty() => detacher.send(frame, strings),
            (Ok(frame), _) => self.send(frame),
            (Err(error), _) => self.send(encode_error(Some(id), &error)),
        }
    }

    /// Answers a request with a result the session keeps as text (see [`KeptFrame`]): in two parts to a transport
    /// that asked for them, as one frame to any other.
    pub(crate) fn reply_kept(&self, id: &RequestId, outcome: Result<Rc<str>, ErrorObject>) {
        match (outcome, self.kept_out.get()) {
            (Ok(kept), Some(out)) => out(KeptFrame::new(id, kept)),
            (Ok(kept), None) => self.send(KeptFrame::new(id, kept).into_text()),
            (Err(error), _) => self.send(encode_error(Some(id), &error)),
        }
    }

    /// Sends the frames of kept results in two parts from now on, through `out`.
    pub(crate) fn enable_kept_frames(&self, out: KeptOutbound) {
        let _ = self.kept_out.set(out);
    }

    /// Sends large strings of results beside their frames from now on, through `out`. Without randomness for
    /// the markers, results go on as plain frames.
    pub(crate) fn enable_detached_strings(&self, out: DetachedOutbound) {
        if let Some(detacher) = Detacher::new(out) {
            let _ = self.detacher.set(detacher);
        }
    }

    /// What detaches large strings from results, when the transport asked for it.
    pub(crate) fn detacher(&self) -> Option<&Detacher> {
        self.detacher.get()
    }

    /// Sends a notification.
    pub(crate) fn notify<P: Serialize>(&self, method: &str, params: Option<&P>) {
        if let Ok(frame) = encode_notification(method, params) {
            self.send(frame);
        }
    }

    /// Whether the client has sent `notifications/initialized`.
    pub(crate) fn is_initialized(&self) -> bool {
        self.initialized.get()
    }

    pub(crate) fn set_initialized(&self) {
        self.initialized.set(true);
    }

    /// Marks the session as serving requests of MCP 2026-07-28.
    pub(crate) fn set_modern(&self) {
        self.modern.set(true);
    }

    /// What the client declared in `initialize` (`None` before it did).
    pub(crate) fn capabilities(&self) -> Option<ClientCapabilities> {
        self.capabilities.borrow().clone()
    }

    pub(crate) fn set_capabilities(&self, capabilities: ClientCapabilities) {
        *self.capabilities.borrow_mut() = Some(capabilities);
    }

    pub(crate) fn set_sleeper(&self, sleeper: Sleeper) {
        *self.sleeper.borrow_mut() = Some(sleeper);
    }

    /// A timer of `ms`, or `None` when the session has no [`Sleeper`].
    pub(crate) fn timer(&self, ms: u32) -> Option<LocalBoxFuture<'static, ()>> {
        self.sleeper.borrow().as_ref().map(|sleep| sleep(ms))
    }

    pub(crate) fn set_log_level(&self, level: LoggingLevel) {
        self.log_level.set(Some(level));
    }

    /// Whether a log message of `level` passes the level the client set (everything passes before it sets one).
    /// A session of MCP 2026-07-28 alone takes no log that is not a request's: the revision has no stream for one.
    pub(crate) fn log_enabled(&self, level: LoggingLevel) -> bool {
        if self.modern.get() && !self.initialized.get() {
            return false;
        }
        self.log_level.get().is_none_or(|min| level >= min)
    }

    /// Sends `notifications/message` when `level` passes the client's level.
    pub(crate) fn log(&self, level: LoggingLevel, logger: Option<&str>, data: serde_json::Value) {
        if self.log_enabled(level) {
            self.send_log(level, logger, data, None);
        }
    }

    /// Sends `notifications/message`, whatever the level (the caller checked it). A handler's log names its
    /// request for a transport that asked for hints.
    pub(crate) fn send_log(
        &self,
        level: LoggingLevel,
        logger: Option<&str>,
        data: serde_json::Value,
        request: Option<&RequestId>,
    ) {
        let meta = request.filter(|_| self.sse_stream_hints.get()).map(|id| {
            let mut meta = mcp_worker_protocol::JsonObject::new();
            meta.insert(RELATED_REQUEST_META.into(), serde_json::to_value(id).unwrap_or_default());
            meta
        });
        let params = LoggingMessageParams { level, logger: logger.map(str::to_owned), data, meta };
        self.notify(methods::LOG_MESSAGE, Some(&params));
    }

    pub(crate) fn enable_sse_stream_hints(&self) {
        self.sse_stream_hints.set(true);
    }

    /// Asks the transport to close the SSE stream of request `id`, when it asked for such hints.
    pub(crate) fn close_sse_stream(&self, id: &RequestId) {
        if self.sse_stream_hints.get() {
            self.notify(CLOSE_SSE_STREAM, Some(&mcp_worker_protocol::members::object([("requestId", id.into())])));
        }
    }

    /// Tells an initialized client that a list changed (before `initialized`, the client has not listed yet).
    pub(crate) fn list_changed(&self, method: &str) {
        if self.is_initialized() {
            self.notify::<()>(method, None);
        }
    }

    /// Hands the client's answer to the request waiting for it.
    pub(crate) fn deliver(&self, response: Response) {
        self.outgoing.deliver(response);
    }

    /// How many requests to the client await an answer.
    pub(crate) fn pending_requests(&self) -> usize {
        self.outgoing.pending()
    }
}

/// The response frame of a request's result, or the error to answer instead when the result cannot be written.
pub(crate) fn encode_reply<R: Serialize>(
    id: &RequestId,
    outcome: Result<R, ErrorObject>,
) -> Result<String, ErrorObject> {
    outcome.and_then(|result| {
        encode_result(id, &result).map_err(|e| ErrorObject::internal_error(format!("result not serializable: {e}")))
    })
}
