//! One JSON-RPC connection to a server: its requests in flight, their replies, timeouts and cancellation.
//!
//! The connection knows nothing of workers or the browser. Frames go out through a [`Sink`]; frames that come
//! in are fed to [`Connection::receive`]; the time comes from a [`Clock`]. So the same code runs over a
//! MessagePort in the page and over an in-memory pipe in native tests.
//!
//! The requests in flight are the protocol's [`PendingTable`], shared with the worker SDK; the connection adds how
//! replies reach their callers, errors that name the server, and the time. Timeouts cost nothing per request: each
//! pending request records its deadline, and one periodic [`Connection::sweep`] per connection fails the overdue
//! ones (the browser glue calls it on a timer). A deadline can move with each progress notification, up to a hard
//! maximum ([`RequestOptions::reset_on_progress`]).
//!
//! Hooks let an owner (the manager) follow the connection: [`Connection::set_close_handler`] (it closed, and why),
//! [`Connection::set_cancel_handler`] (the host cancelled a request; the server kept reporting progress on it), and
//! [`Connection::set_server_request_handlers`] (requests from the server: elicitation, sampling, roots), and
//! [`Connection::set_flood_handler`] (what the server sent beyond its limits: [`NotificationLimits`] on its
//! notifications, [`ServerRequestLimits`] on its requests).

mod flood;
mod incoming;
mod watch;

pub use flood::{FloodHandler, FloodReport, Screened};
pub(crate) use incoming::REQUEST_TIMEOUT;
pub use watch::{CancelEvent, CancelHandler};

use crate::error::{Error, Result};
use crate::limits::{NotificationLimits, ServerRequestLimits};
use crate::server_requests::ServerRequestHandlers;
use futures_channel::oneshot;
use mcp_worker_protocol::id_map::IdMap;
use mcp_worker_protocol::jsonrpc::{encode_error, encode_notification, encode_request};
use mcp_worker_protocol::notifications::ProgressParams;
use mcp_worker_protocol::pending::{Deadline, PendingTable, cancel_notice};
use mcp_worker_protocol::{IncomingError, Message, Notification, RequestId, methods};
use serde::Serialize;
use serde_json::value::RawValue;
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::{Rc, Weak};
use std::task::{Context, Poll};

/// Writes one frame to the peer.
pub type Sink = Box<dyn Fn(&str) -> std::result::Result<(), SendError>>;

/// Why a transport could not send a frame (the port is closed, the worker is gone); the connection fails the
/// request with [`Error::Closed`] naming it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
#[non_exhaustive]
pub struct SendError {
    /// What the transport reported.
    pub reason: String,
}

impl SendError {
    /// The transport could not send, because of `reason`.
    pub fn new(reason: impl Into<String>) -> Self {
        Self { reason: reason.into() }
    }
}

/// Milliseconds on a monotonic-enough clock (`Date.now()` in the browser).
pub type Clock = Rc<dyn Fn() -> f64>;

/// Called with every progress notification for a request.
pub type ProgressHandler = Rc<dyn Fn(&ProgressParams)>;

/// Called with every notification that is not progress (list changes, log messages, …).
pub type NotificationHandler = Rc<dyn Fn(&Notification)>;

/// Called once when the connection closes, with the cause.
pub type CloseHandler = Rc<dyn Fn(&Error)>;

/// Per-request options.
#[derive(Clone, Default)]
#[non_exhaustive]
pub struct RequestOptions {
    /// Fail the request after this many milliseconds (`None`: wait for ever).
    pub timeout_ms: Option<u32>,
    /// Receives `notifications/progress` for this request; its progress token is the request id.
    pub on_progress: Option<ProgressHandler>,
    /// Each progress notification restarts the timeout (the request must carry a progress token to get any).
    pub reset_on_progress: bool,
    /// With `reset_on_progress`: the request fails after this many milliseconds in total, whatever progress comes.
    pub max_total_ms: Option<u32>,
}

impl std::fmt::Debug for RequestOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RequestOptions")
            .field("timeout_ms", &self.timeout_ms)
            .field("on_progress", &self.on_progress.is_some())
            .field("reset_on_progress", &self.reset_on_progress)
            .field("max_total_ms", &self.max_total_ms)
            .finish()
    }
}

impl RequestOptions {
    /// Options with a timeout.
    pub fn timeout(ms: u32) -> Self {
        Self { timeout_ms: Some(ms), ..Self::default() }
    }

    /// The deadline of a request sent at `now` with these options (`None`: it waits for ever).
    fn deadline(&self, now: f64) -> Option<Deadline> {
        let timeout_ms = self.timeout_ms?;
        Some(match self.reset_on_progress {
            true => Deadline::reset_on_progress(now, timeout_ms, self.max_total_ms),
            // The hard maximum bounds only what progress extends.
            false => Deadline::fixed(now, timeout_ms),
        })
    }
}

/// What waits for the answer to one request.
struct Waiter {
    on_progress: Option<ProgressHandler>,
    reply: Reply,
}

/// Called once with the outcome of a request: its answer, a timeout, or the connection's close.
pub type ReplyCallback = Box<dyn FnOnce(Result<Box<RawValue>>)>;

/// How a request's outcome reaches its caller.
enum Reply {
    /// A [`ResponseFuture`] waits on the other end.
    Channel(oneshot::Sender<Result<Box<RawValue>>>),
    /// Called from the receive path itself: no task, no wake-up (the JavaScript API resolves its promise here).
    Callback(ReplyCallback),
}

impl Reply {
    fn complete(self, outcome: Result<Box<RawValue>>) {
        match self {
            Self::Channel(sender) => {
                let _ = sender.send(outcome);
            }
            Self::Callback(callback) => callback(outcome),
        }
    }
}

struct Inner {
    server: String,
    sink: Sink,
    clock: Clock,
    pending: RefCell<PendingTable<Waiter>>,
    closed: RefCell<Option<Error>>,
    on_notification: RefCell<Option<NotificationHandler>>,
    on_close: RefCell<Option<CloseHandler>>,
    on_cancel: RefCell<Option<CancelHandler>>,
    /// Requests the host cancelled, and when (only while a cancel handler is set).
    cancelled: RefCell<IdMap<i64, f64>>,
    server_requests: RefCell<Option<ServerRequestHandlers>>,
    /// Requests from the server being handled, to drop them if the server cancels, they time out or the
    /// connection closes.
    incoming: RefCell<IdMap<RequestId, incoming::Incoming>>,
    server_request_limits: std::cell::Cell<ServerRequestLimits>,
    flood: RefCell<flood::Flood>,
    on_flood: RefCell<Option<FloodHandler>>,
    /// MCP 2026-07-28: the protocol fields every request carries in `_meta` (see [`Connection::set_envelope`]).
    envelope: RefCell<Option<Rc<str>>>,
    /// How many questions of MCP 2026-07-28 requests were put to the application (their ids).
    local_inputs: std::cell::Cell<u64>,
    /// How many `notifications/tools/list_changed` came, delivered or not.
    tools_changes: std::cell::Cell<u64>,
}

/// A connection to one server. Cheap to clone; all clones are the same connection.
#[derive(Clone)]
pub struct Connection {
    inner: Rc<Inner>,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("server", &self.inner.server)
            .field("pending", &self.inner.pending.borrow().len())
            .field("closed", &self.inner.closed.borrow().is_some())
            .finish()
    }
}

impl Connection {
    /// A connection to `server` that writes frames to `sink`, with the default [`NotificationLimits`] and
    /// [`ServerRequestLimits`].
    pub fn new(server: impl Into<String>, sink: Sink, clock: Clock) -> Self {
        let inner = Inner {
            server: server.into(),
            sink,
            clock,
            pending: RefCell::new(PendingTable::new()),
            closed: RefCell::new(None),
            on_notification: RefCell::new(None),
            on_close: RefCell::new(None),
            on_cancel: RefCell::new(None),
            cancelled: RefCell::new(IdMap::new()),
            server_requests: RefCell::new(None),
            incoming: RefCell::new(IdMap::new()),
            server_request_limits: std::cell::Cell::new(ServerRequestLimits::default()),
            flood: RefCell::new(flood::Flood::new(NotificationLimits::default())),
            on_flood: RefCell::new(None),
            envelope: RefCell::new(None),
            local_inputs: std::cell::Cell::new(0),
            tools_changes: std::cell::Cell::new(0),
        };
        Self { inner: Rc::new(inner) }
    }

    /// A handle that does not keep the connection alive.
    pub fn downgrade(&self) -> WeakConnection {
        WeakConnection(Rc::downgrade(&self.inner))
    }

    /// The server's name, as errors show it.
    pub fn server(&self) -> &str {
        &self.inner.server
    }

    /// How many requests await an answer.
    /// A `subscriptions/listen` stream (MCP 2026-07-28) is not counted: it awaits no answer, it carries
    /// notifications for as long as the session lasts.
    pub fn pending_count(&self) -> usize {
        let pending = self.inner.pending.borrow();
        pending.len() - pending.count_of(mcp_worker_protocol::modern::methods::SUBSCRIPTIONS_LISTEN)
    }

    /// Why the connection closed, if it has.
    pub fn closed_reason(&self) -> Option<Error> {
        self.inner.closed.borrow().clone()
    }

    /// Now, on the connection's clock (milliseconds).
    pub fn now_ms(&self) -> f64 {
        (self.inner.clock)()
    }

    /// How many times the server said its tools changed (`notifications/tools/list_changed`), counting those the
    /// connection merged or dropped as a flood: a listing made before the count last moved may be out of date.
    pub fn tools_list_changes(&self) -> u64 {
        self.inner.tools_changes.get()
    }

    /// Receives every notification other than progress.
    pub fn set_notification_handler(&self, handler: Option<NotificationHandler>) {
        *self.inner.on_notification.borrow_mut() = handler;
    }

    /// Called once when the connection closes (at once if it already has).
    pub fn set_close_handler(&self, handler: Option<CloseHandler>) {
        *self.inner.on_close.borrow_mut() = handler.clone();
        let closed = self.closed_reason();
        if let (Some(handler), Some(cause)) = (handler, closed) {
            handler(&cause);
        }
    }

    /// Answers requests from the server (elicitation, sampling, roots) with these handlers; `ping` is always
    /// answered. Without handlers, every other request is answered `-32601`.
    pub fn set_server_request_handlers(&self, handlers: Option<ServerRequestHandlers>) {
        *self.inner.server_requests.borrow_mut() = handlers;
    }

    /// The handlers that answer the server's requests, if set.
    pub fn server_request_handlers(&self) -> Option<ServerRequestHandlers> {
        self.inner.server_requests.borrow().clone()
    }

    /// Speaks MCP 2026-07-28 from now on: every request carries `members` in its `_meta` (see
    /// [`mcp_worker_protocol::modern::envelope`]), and every result must say a `resultType` this side knows,
    /// `input_required` only for the methods that may ask for input. `None` returns to the handshake era.
    pub fn set_envelope(&self, members: Option<String>) {
        *self.inner.envelope.borrow_mut() = members.map(Rc::from);
    }

    /// The protocol fields every request carries in MCP 2026-07-28 (members of a JSON object, without braces).
    pub fn envelope(&self) -> Option<Rc<str>> {
        self.inner.envelope.borrow().clone()
    }

    /// Whether the connection speaks MCP 2026-07-28 ([`Connection::set_envelope`]).
    pub fn is_modern(&self) -> bool {
        self.inner.envelope.borrow().is_some()
    }

    /// The frame of request `id`, with the envelope's fields in its params in the modern era.
    /// Only the params' serialization depends on `P`: the rest is compiled once, not once for every type of params.
    fn encode<P: Serialize>(&self, id: i64, method: &str, params: Option<&P>) -> Result<String> {
        let params = params.map(serde_json::value::to_raw_value).transpose();
        params
            .and_then(|params| self.encode_raw(id, method, params.as_deref()))
            .map_err(|e| Error::InvalidInput(format!("{method} params are not serializable: {e}")))
    }

    fn encode_raw(&self, id: i64, method: &str, params: Option<&RawValue>) -> serde_json::Result<String> {
        let envelope = self.inner.envelope.borrow().clone();
        let Some(members) = envelope else { return encode_request(&RequestId::Number(id), method, params) };
        let params = mcp_worker_protocol::modern::with_meta(params, &members)?;
        encode_request(&RequestId::Number(id), method, Some(&params))
    }

    /// Reserves the id of the next request (for params that must carry it, e.g. as a progress token).
    pub fn next_request_id(&self) -> i64 {
        self.inner.pending.borrow_mut().next_id()
    }

    /// Sends a request with a fresh id and waits for its raw result.
    pub fn request<P: Serialize>(&self, method: &str, params: Option<&P>, options: RequestOptions) -> ResponseFuture {
        let id = self.next_request_id();
        self.request_with_id(id, method, params, options)
    }

    /// Sends a request with an id from [`Connection::next_request_id`].
    pub fn request_with_id<P: Serialize>(
        &self,
        id: i64,
        method: &str,
        params: Option<&P>,
        options: RequestOptions,
    ) -> ResponseFuture {
        self.request_encoded(id, method, self.encode(id, method, params), options)
    }

    fn request_encoded(&self, id: i64, method: &str, frame: Result<String>, options: RequestOptions) -> ResponseFuture {
        let (reply, receiver) = oneshot::channel();
        let future = ResponseFuture { id, receiver, connection: Rc::downgrade(&self.inner), finished: false };
        match frame {
            Ok(frame) => self.send_request(id, method, &frame, options, Reply::Channel(reply)),
            Err(error) => {
                let _ = reply.send(Err(error));
            }
        }
        future
    }

    /// Sends a request whose outcome is handed to `callback`, called exactly once: with the answer, a timeout,
    /// or the connection's close. [`Connection::abandon`] cancels it.
    pub(crate) fn request_with_callback<P: Serialize>(
        &self,
        id: i64,
        method: &str,
        params: Option<&P>,
        options: RequestOptions,
        callback: ReplyCallback,
    ) {
        match self.encode(id, method, params) {
            Ok(frame) => self.send_request(id, method, &frame, options, Reply::Callback(callback)),
            Err(error) => callback(Err(error)),
        }
    }

    /// Cancels a pending request: it is forgotten, the server is told, and its reply is dropped unanswered (the
    /// caller chose to stop waiting).
    pub(crate) fn abandon(&self, id: i64, reason: &str) {
        let removed = self.inner.pending.borrow_mut().remove(id);
        if let Some(entry) = removed {
            self.send_cancelled(id, &entry.method, reason);
        }
    }

    /// Registers request `id`, whose frame the transport sends itself (encoded by the page from JavaScript values):
    /// its outcome goes to `callback` like any other request's. False, and `callback` already called, when the
    /// connection is closed.
    #[cfg_attr(all(not(target_arch = "wasm32"), not(test)), expect(dead_code, reason = "the worker transport's"))]
    pub(crate) fn expect_reply(&self, id: i64, method: &str, options: RequestOptions, callback: ReplyCallback) -> bool {
        if let Some(cause) = self.closed_reason() {
            callback(Err(cause));
            return false;
        }
        self.register(id, method, options, Reply::Callback(callback));
        true
    }

    /// Forgets a request whose answer the transport handed over itself (a result parsed by the page): its reply is
    /// dropped uncalled. False when it was no longer pending (timed out, cancelled, closed): the answer is late.
    #[cfg_attr(all(not(target_arch = "wasm32"), not(test)), expect(dead_code, reason = "the worker transport's"))]
    pub(crate) fn take_answered(&self, id: i64) -> bool {
        let removed = self.inner.pending.borrow_mut().remove(id);
        let Some(entry) = removed else { return false };
        self.release_held_progress(id, &entry.waiter);
        true
    }

    /// Delivers the progress held back for request `id` before its answer, so that its caller sees the last value.
    fn release_held_progress(&self, id: i64, waiter: &Waiter) {
        let held = self.take_held_progress(id);
        if let (Some(progress), Some(handler)) = (held, &waiter.on_progress) {
            handler(&progress);
        }
    }

    fn send_request(&self, id: i64, method: &str, frame: &str, options: RequestOptions, reply: Reply) {
        if let Some(cause) = self.closed_reason() {
            return reply.complete(Err(cause));
        }
        self.register(id, method, options, reply);
        if let Err(SendError { reason: cause }) = (self.inner.sink)(frame) {
            self.fail(id, Error::Closed { server: self.inner.server.clone(), reason: cause });
        }
    }

    fn register(&self, id: i64, method: &str, options: RequestOptions, reply: Reply) {
        let deadline = options.deadline((self.inner.clock)());
        let waiter = Waiter { on_progress: options.on_progress, reply };
        self.inner.pending.borrow_mut().insert(id, method, deadline, waiter);
    }

    /// Sends a notification.
    pub fn notify<P: Serialize>(&self, method: &str, params: Option<&P>) -> Result<()> {
        if let Some(cause) = self.closed_reason() {
            return Err(cause);
        }
        let frame = encode_notification(method, params)
            .map_err(|e| Error::InvalidInput(format!("{method} params are not serializable: {e}")))?;
        (self.inner.sink)(&frame).map_err(|e| Error::Closed { server: self.inner.server.clone(), reason: e.reason })
    }

    /// Handles one frame from the server. Never panics on malformed input. A log message over the notification
    /// rate is counted and dropped before it is parsed.
    pub fn receive(&self, frame: &str) {
        let screened = self.screen(frame, frame.len());
        self.receive_screened(frame, screened);
    }

    /// Handles a frame after [`Connection::screen`] let it through (a frame it dropped is ignored).
    pub fn receive_screened(&self, frame: &str, screened: Screened) {
        if screened != Screened::Dropped {
            self.handle(Message::parse(frame), flood::weight(frame.len()), screened == Screened::Admitted);
        }
    }

    /// [`Connection::receive_screened`] for a frame the caller gives up: a large result keeps the frame's buffer
    /// ([`Message::parse_owned`]), so the page never holds the frame and its result at once.
    pub fn receive_owned(&self, frame: String, screened: Screened) {
        if screened != Screened::Dropped {
            let weight = flood::weight(frame.len());
            self.handle(Message::parse_owned(frame), weight, screened == Screened::Admitted);
        }
    }

    /// One parsed frame; `admitted` when it has its tokens already.
    fn handle(&self, message: std::result::Result<Message, IncomingError>, weight: f64, admitted: bool) {
        match message {
            Ok(Message::Response(response)) => {
                let taken = self.inner.pending.borrow_mut().take_response(&response.id);
                // A response for an unknown id is late (timed out, cancelled) or bogus: ignored, as the spec says.
                // A late one means the server stopped working on it: its cancellation need not be followed.
                let Some(entry) = taken else {
                    if let RequestId::Number(id) = response.id {
                        self.inner.cancelled.borrow_mut().remove(&id);
                    }
                    return;
                };
                if let RequestId::Number(id) = response.id {
                    self.release_held_progress(id, &entry.waiter);
                }
                let outcome = match response.outcome {
                    Ok(result) if self.is_modern() => self.check_result_type(&entry.method, result),
                    Ok(result) => Ok(result),
                    Err(error) => {
                        Err(Error::Rpc { server: self.inner.server.clone(), method: entry.method.into(), error })
                    }
                };
                entry.waiter.reply.complete(outcome);
            }
            Ok(Message::Notification(notification)) => self.on_notification(&notification, admitted, weight),
            Ok(Message::Request(request)) => self.on_server_request(request),
            Ok(_) => {}
            Err(bad) if bad.answerable => self.send_quietly(encode_error(bad.id.as_ref(), &bad.error)),
            Err(_) => {}
        }
    }

    /// A modern result must say a `resultType` this side knows, and only the methods that may ask for input may
    /// answer `input_required`.
    fn check_result_type(&self, method: &str, result: Box<RawValue>) -> Result<Box<RawValue>> {
        use mcp_worker_protocol::modern::{INPUT_REQUIRED_METHODS, ResultKind, result_kind};
        let problem = match result_kind(result.get()) {
            Ok(ResultKind::Complete) => return Ok(result),
            Ok(ResultKind::InputRequired) if INPUT_REQUIRED_METHODS.contains(&method) => return Ok(result),
            Ok(ResultKind::InputRequired) => {
                format!("{method} answered input_required, which only tools/call, prompts/get and resources/read may")
            }
            Err(reason) => format!("{method} result: {reason}"),
        };
        Err(Error::Protocol { server: self.inner.server.clone(), message: problem })
    }

    /// One notification of `weight` tokens; `admitted` when it has its tokens already.
    fn on_notification(&self, notification: &Notification, admitted: bool, weight: f64) {
        if notification.method == methods::PROGRESS {
            self.on_progress(notification, weight);
            return;
        }
        if notification.method == methods::CANCELLED {
            // Always followed: it only ever drops one of the few requests the server has waiting.
            self.on_server_cancelled(notification);
            return;
        }
        if notification.method == methods::TOOLS_LIST_CHANGED {
            self.inner.tools_changes.set(self.inner.tools_changes.get() + 1);
        }
        if admitted || self.admit(weight) {
            self.deliver_notification(notification);
        } else {
            self.hold_or_drop(notification, weight);
        }
    }

    fn on_progress(&self, notification: &Notification, weight: f64) {
        let Some(params) = notification.params.as_deref() else { return };
        let Ok(progress) = mcp_worker_protocol::json::from_str::<ProgressParams>(params.get()) else { return };
        let RequestId::Number(id) = progress.progress_token else { return };
        let now = (self.inner.clock)();
        let waiting = self.inner.pending.borrow_mut().progressed(id, now).map(|w| w.on_progress.clone());
        let Some(handler) = waiting else {
            self.progress_after_cancel(id, now);
            return;
        };
        // Nobody listens: the deadline moved, and there is nothing to deliver.
        let Some(handler) = handler else { return };
        if self.admit(weight) {
            handler(&progress);
        } else {
            self.hold_progress(id, progress, weight);
        }
    }

    fn deliver_notification(&self, notification: &Notification) {
        let handler = self.inner.on_notification.borrow().clone();
        if let Some(handler) = handler {
            handler(notification);
        }
    }

    fn send_quietly(&self, frame: String) {
        if self.inner.closed.borrow().is_none() {
            let _ = (self.inner.sink)(&frame);
        }
    }

    /// Fails every request whose deadline has passed, and tells the server to stop working on it; answers the
    /// server's own requests that waited too long; delivers notifications held back by the rate as it allows, and
    /// reports what the server sent beyond its limits. Returns how many of the host's requests timed out.
    pub fn sweep(&self) -> usize {
        let now = (self.inner.clock)();
        self.sweep_server_requests(now);
        self.flood_tick(now);
        let overdue = self.inner.pending.borrow_mut().overdue(now);
        let count = overdue.len();
        for (id, entry) in overdue {
            let ms = entry.deadline.map_or(0, |d| d.expired_ms());
            self.send_cancelled(id, &entry.method, &format!("timed out after {ms} ms"));
            let error = Error::Timeout { server: self.inner.server.clone(), method: entry.method.into(), ms };
            entry.waiter.reply.complete(Err(error));
        }
        self.forget_old_cancellations(now);
        count
    }

    /// Closes the connection: every pending request fails with `cause` at once, and later requests fail
    /// immediately. Closing twice keeps the first cause.
    pub fn close(&self, cause: Error) {
        if self.inner.closed.borrow().is_some() {
            return;
        }
        *self.inner.closed.borrow_mut() = Some(cause.clone());
        let pending = self.inner.pending.borrow_mut().drain();
        for (_, entry) in pending {
            entry.waiter.reply.complete(Err(cause.clone()));
        }
        let incoming: Vec<incoming::Incoming> =
            self.inner.incoming.borrow_mut().drain().into_iter().map(|(_, a)| a).collect();
        for request in incoming {
            request.abort.abort();
        }
        let handler = self.inner.on_close.borrow_mut().take();
        if let Some(handler) = handler {
            handler(&cause);
        }
    }

    /// Fails one pending request (e.g. its frame could not be posted).
    pub fn fail(&self, id: i64, error: Error) {
        let removed = self.inner.pending.borrow_mut().remove(id);
        if let Some(entry) = removed {
            entry.waiter.reply.complete(Err(error));
        }
    }

    fn send_cancelled(&self, id: i64, method: &str, reason: &str) {
        // No notice for `initialize`, which is never cancelled (so there is no cancellation to follow either).
        let Some(frame) = cancel_notice(id, method, reason) else { return };
        self.send_quietly(frame);
        self.cancellation_sent(id);
    }
}

/// A connection handle that does not keep it alive (for timers and listeners).
#[derive(Clone)]
pub struct WeakConnection(Weak<Inner>);

impl std::fmt::Debug for WeakConnection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WeakConnection")
    }
}

impl WeakConnection {
    /// The connection, if it is still alive.
    pub fn upgrade(&self) -> Option<Connection> {
        self.0.upgrade().map(|inner| Connection { inner })
    }
}

/// The answer to one request. Dropping it before it resolves cancels the request: the pending entry is removed
/// and the server is sent `notifications/cancelled`.
#[must_use = "a request is cancelled when its future is dropped"]
pub struct ResponseFuture {
    id: i64,
    receiver: oneshot::Receiver<Result<Box<RawValue>>>,
    connection: Weak<Inner>,
    finished: bool,
}

impl std::fmt::Debug for ResponseFuture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResponseFuture").field("id", &self.id).field("finished", &self.finished).finish()
    }
}

impl ResponseFuture {
    /// The request's id.
    pub fn id(&self) -> i64 {
        self.id
    }

    /// Cancels the request, telling the server why.
    pub fn cancel(mut self, reason: &str) {
        self.abandon(reason);
    }

    fn abandon(&mut self, reason: &str) {
        if self.finished {
            return;
        }
        self.finished = true;
        let Some(inner) = self.connection.upgrade() else { return };
        Connection { inner }.abandon(self.id, reason);
    }
}

impl Future for ResponseFuture {
    type Output = Result<Box<RawValue>>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match Pin::new(&mut self.receiver).poll(cx) {
            Poll::Ready(outcome) => {
                self.finished = true;
                Poll::Ready(outcome.unwrap_or_else(|_| {
                    let server = self.connection.upgrade().map(|i| i.server.clone()).unwrap_or_default();
                    Err(Error::Closed { server, reason: "the connection was dropped".into() })
                }))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

impl Drop for ResponseFuture {
    fn drop(&mut self) {
        self.abandon("request abandoned by the caller");
    }
}

#[cfg(test)]
#[path = "connection_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "connection_limits_tests.rs"]
mod limits_tests;
