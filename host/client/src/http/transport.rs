//! The Streamable HTTP transport in the browser, on `fetch` and its body streams (decisions in
//! [`super::exchange`], events in [`super::sse`]).
//!
//! Each frame the connection sends is POSTed. An answer in JSON is delivered at once; an answer as a stream is
//! read event by event until it ends, and when it ends before the request's answer, it is resumed with a GET that
//! carries `Last-Event-ID`, after the server's `retry` time. Once `notifications/initialized` is accepted, a GET
//! opens the server's own stream (405 means the server has none), reopened with `Last-Event-ID` when it drops.
//! HTTP 404 to a request that carried the session id means the server ended the session: the connection closes
//! (pending calls fail, naming the server) and whoever owns the client starts a new session. Closing aborts
//! every request in flight and ends the session with DELETE.
//!
//! Configured headers are sent with every request; while there are any, redirects are not followed (a redirect
//! could carry them to another address), and one is reported as such.

use super::exchange::{
    FramePeek, GetReply, HttpSession, PostReply, RequestKind, SESSION_HEADER, classify_get, classify_post,
    json_body_frames,
};
use super::sse::SseDecoder;
use crate::connection::{Connection, SendError, WeakConnection};
use crate::limits::DEFAULT_MAX_FRAME_CHARS;
use crate::session::{ClientOptions, McpClient};
use crate::{Error, Result, Transport};
use gloo_timers::future::TimeoutFuture;
use js_sys::{Promise, Reflect, Uint8Array};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    AbortController, Headers, ReadableStream, ReadableStreamDefaultReader, RequestInit, RequestRedirect, Response,
    ResponseType, TextDecodeOptions, TextDecoder,
};
use zeroize::Zeroizing;

/// How often deadlines are checked.
const SWEEP_INTERVAL_MS: u32 = 100;
/// How long to wait before resuming a stream when the server did not say (`retry`).
const DEFAULT_RETRY_MS: u32 = 1_000;
/// How many times in a row a dropped stream is resumed before the request is given up.
const MAX_RESUMPTIONS: u32 = 5;

#[wasm_bindgen]
extern "C" {
    /// The global `fetch` (of a window or a worker).
    #[wasm_bindgen(js_name = fetch)]
    fn global_fetch(url: &str, init: &RequestInit) -> Promise;
}

/// Runs on a new connection before `initialize`.
type Hook = Rc<dyn Fn(&Connection)>;

/// What to connect to, and how.
pub struct HttpSpec {
    server: String,
    url: String,
    headers: Vec<(String, Zeroizing<String>)>,
    client: ClientOptions,
    on_connection: Option<Hook>,
    max_frame_chars: u32,
}

impl std::fmt::Debug for HttpSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let headers: Vec<&str> = self.headers.iter().map(|(name, _)| name.as_str()).collect();
        f.debug_struct("HttpSpec")
            .field("server", &self.server)
            .field("url", &self.url)
            .field("headers", &headers)
            .finish_non_exhaustive()
    }
}

impl HttpSpec {
    /// The server `server` at the endpoint `url`.
    pub fn new(server: impl Into<String>, url: impl Into<String>) -> Self {
        Self {
            server: server.into(),
            url: url.into(),
            headers: Vec::new(),
            client: ClientOptions::default(),
            on_connection: None,
            max_frame_chars: DEFAULT_MAX_FRAME_CHARS,
        }
    }

    /// A header sent with every request (its value is wiped with the spec and the transport).
    #[must_use]
    pub fn header(mut self, name: impl Into<String>, value: &str) -> Self {
        self.headers.push((name.into(), Zeroizing::new(value.to_owned())));
        self
    }

    /// Client identity, capabilities, timeouts and limits.
    #[must_use]
    pub fn client_options(mut self, options: ClientOptions) -> Self {
        self.client = options;
        self
    }

    /// Runs on the new connection before `initialize`.
    #[must_use]
    pub fn on_connection(mut self, hook: Hook) -> Self {
        self.on_connection = Some(hook);
        self
    }

    /// The largest message the server may send, in characters (default 16 Mi).
    #[must_use]
    pub fn max_frame_chars(mut self, chars: u32) -> Self {
        self.max_frame_chars = chars;
        self
    }
}

/// Connects to a remote server over Streamable HTTP and runs the MCP lifecycle with it.
pub async fn connect(spec: HttpSpec) -> Result<McpClient> {
    let HttpSpec { server, url, headers, client, on_connection, max_frame_chars } = spec;
    let transport = Rc::new(HttpTransport {
        server: server.clone(),
        url,
        headers,
        session: RefCell::new(HttpSession::default()),
        connection: RefCell::new(None),
        in_flight: RefCell::new(HashMap::new()),
        next_fetch: Cell::new(0),
        closed: Cell::new(false),
        max_frame_chars: max_frame_chars as usize,
    });
    let weak = Rc::downgrade(&transport);
    let connection = Connection::new(
        server,
        Box::new(move |frame: &str| {
            let transport = weak.upgrade().ok_or_else(|| SendError::new("the transport is closed"))?;
            wasm_bindgen_futures::spawn_local(transport.post(frame.to_owned()));
            Ok(())
        }),
        Rc::new(js_sys::Date::now),
    );
    *transport.connection.borrow_mut() = Some(connection.downgrade());
    if let Some(hook) = on_connection {
        hook(&connection);
    }
    spawn_sweeper(Rc::downgrade(&transport));
    let handle: Rc<dyn Transport> = transport.clone();
    let client = McpClient::initialize(connection, &client, Some(handle)).await;
    if client.is_err() {
        transport.close();
    }
    client
}

struct HttpTransport {
    server: String,
    url: String,
    headers: Vec<(String, Zeroizing<String>)>,
    session: RefCell<HttpSession>,
    connection: RefCell<Option<WeakConnection>>,
    /// Every request in flight, to abort on close.
    in_flight: RefCell<HashMap<u64, AbortController>>,
    next_fetch: Cell<u64>,
    closed: Cell<bool>,
    max_frame_chars: usize,
}

impl Transport for HttpTransport {
    fn close(&self) {
        if self.closed.replace(true) {
            return;
        }
        for (_, controller) in self.in_flight.borrow_mut().drain() {
            controller.abort();
        }
        // The session ends on the server too; nothing waits for the answer.
        if self.session.borrow().id.is_some() {
            let headers = self.session.borrow().headers(RequestKind::Delete, None);
            let request = self.request("DELETE", &headers, None, None);
            wasm_bindgen_futures::spawn_local(async move {
                if let Ok(promise) = request {
                    let _ = JsFuture::from(promise).await;
                }
            });
        }
    }
}

impl HttpTransport {
    fn connection(&self) -> Option<Connection> {
        self.connection.borrow().as_ref().and_then(WeakConnection::upgrade)
    }

    /// POSTs one frame and delivers what comes back.
    async fn post(self: Rc<Self>, frame: String) {
        if self.closed.get() {
            return;
        }
        let peek = FramePeek::of(&frame);
        self.session.borrow_mut().sending(&peek);
        let with_session = self.session.borrow().id.is_some();
        let initializing = peek.method.as_deref() == Some("initialize");
        let headers = self.session.borrow().headers(RequestKind::Post, None);
        let response = match self.fetch("POST", &headers, Some(&frame)).await {
            Ok(response) => response,
            Err(reason) => {
                return self.failed(&peek, Error::Http { server: self.server.clone(), status: None, reason });
            }
        };
        let accepted = self.session.borrow_mut().accept_session_id(header(&response, SESSION_HEADER).as_deref());
        if let Err(message) = accepted {
            return self.close_connection(Error::Protocol { server: self.server.clone(), message });
        }
        let status = response.status();
        let challenge = header(&response, "WWW-Authenticate");
        match classify_post(status, header(&response, "Content-Type").as_deref(), with_session, initializing, challenge)
        {
            PostReply::Accepted if peek.is_request() => {
                let reason = format!("the server answered the request {} with 202 and no answer", peek_name(&peek));
                self.failed(&peek, Error::Http { server: self.server.clone(), status: Some(status), reason });
            }
            PostReply::Accepted => {
                if peek.method.as_deref() == Some("notifications/initialized") {
                    wasm_bindgen_futures::spawn_local(self.clone().listen());
                }
            }
            PostReply::Json => match self.read_text(&response).await {
                Ok(text) => match json_body_frames(&text) {
                    Ok(frames) => frames.iter().for_each(|frame| self.deliver(frame)),
                    Err(message) => self.close_connection(Error::Protocol { server: self.server.clone(), message }),
                },
                Err(reason) => {
                    self.failed(&peek, Error::Http { server: self.server.clone(), status: Some(status), reason });
                }
            },
            PostReply::Stream => self.read_answer_stream(response, &peek).await,
            PostReply::SessionExpired => self.session_expired(),
            PostReply::NotStreamableHttp { status } => {
                let reason = format!(
                    "the server refused Streamable HTTP (HTTP {status} to initialize): check the URL, or, for a server \
                     of the older HTTP+SSE transport, configure it with type \"sse\""
                );
                self.failed(&peek, Error::Http { server: self.server.clone(), status: Some(status), reason });
            }
            PostReply::Unauthorized { status, challenge } => {
                self.failed(&peek, Error::Unauthorized { server: self.server.clone(), status, challenge });
            }
            PostReply::Failed { reason } => {
                self.failed(&peek, Error::Http { server: self.server.clone(), status: Some(status), reason });
            }
        }
    }

    /// Reads the stream that answers a request; resumes it while it drops before the answer.
    async fn read_answer_stream(self: &Rc<Self>, response: Response, peek: &FramePeek) {
        let mut decoder = SseDecoder::new(self.max_frame_chars);
        let mut answered = false;
        let mut response = response;
        for attempt in 0..=MAX_RESUMPTIONS {
            let outcome = self.read_events(&response, &mut decoder, |frame| {
                let delivered = FramePeek::of(frame);
                answered |= delivered.method.is_none() && delivered.id.is_some() && delivered.id == peek.id;
            });
            let ended = outcome.await;
            if answered || self.closed.get() || !peek.is_request() {
                return;
            }
            // Ended or broken, the stream resumes from its last event, if it had one.
            let Some(last) = decoder.last_event_id().filter(|id| !id.is_empty()).map(str::to_owned) else {
                let reason = match ended {
                    Err(reason) => format!("{reason}, and there is no event ID to resume from"),
                    Ok(()) => "the server closed the stream before answering, with no event ID to resume from".into(),
                };
                return self.failed(peek, Error::Http { server: self.server.clone(), status: None, reason });
            };
            if attempt == MAX_RESUMPTIONS {
                break;
            }
            TimeoutFuture::new(decoder.retry_ms().unwrap_or(DEFAULT_RETRY_MS)).await;
            response = match self.resume(&last).await {
                Ok(Some(response)) => response,
                Ok(None) => return,
                Err(error) => return self.failed(peek, error),
            };
        }
        let reason = format!("the server's stream dropped {MAX_RESUMPTIONS} times in a row before the answer");
        self.failed(peek, Error::Http { server: self.server.clone(), status: None, reason });
    }

    /// A GET that resumes a stream after `last_event_id`: the response, or `None` when the session ended.
    async fn resume(&self, last_event_id: &str) -> Result<Option<Response>> {
        let headers = self.session.borrow().headers(RequestKind::Get, Some(last_event_id));
        let response = self.fetch("GET", &headers, None).await.map_err(|reason| Error::Http {
            server: self.server.clone(),
            status: None,
            reason,
        })?;
        let with_session = self.session.borrow().id.is_some();
        match classify_get(response.status(), header(&response, "Content-Type").as_deref(), with_session) {
            GetReply::Stream => Ok(Some(response)),
            GetReply::SessionExpired => {
                self.session_expired();
                Ok(None)
            }
            GetReply::NotOffered => Err(Error::Http {
                server: self.server.clone(),
                status: Some(405),
                reason: "the stream dropped before the answer, and the server does not resume streams (405)".into(),
            }),
            GetReply::Failed { reason } => {
                Err(Error::Http { server: self.server.clone(), status: Some(response.status()), reason })
            }
        }
    }

    /// The server's own stream, open while the session lasts: reopened (from the last event) when it drops.
    async fn listen(self: Rc<Self>) {
        let mut decoder = SseDecoder::new(self.max_frame_chars);
        let mut failures = 0;
        while !self.closed.get() && failures < MAX_RESUMPTIONS {
            let last = decoder.last_event_id().map(str::to_owned);
            let headers = self.session.borrow().headers(RequestKind::Get, last.as_deref());
            let Ok(response) = self.fetch("GET", &headers, None).await else {
                failures += 1;
                TimeoutFuture::new(decoder.retry_ms().unwrap_or(DEFAULT_RETRY_MS)).await;
                continue;
            };
            let with_session = self.session.borrow().id.is_some();
            match classify_get(response.status(), header(&response, "Content-Type").as_deref(), with_session) {
                GetReply::Stream => {
                    failures = 0;
                    let _ = self.read_events(&response, &mut decoder, |_| {}).await;
                }
                GetReply::NotOffered => return,
                GetReply::SessionExpired => return self.session_expired(),
                GetReply::Failed { .. } => failures += 1,
            }
            if !self.closed.get() {
                TimeoutFuture::new(decoder.retry_ms().unwrap_or(DEFAULT_RETRY_MS)).await;
            }
        }
    }

    /// Reads a stream of events, delivering each message (and showing it to `seen`) until the stream ends.
    async fn read_events(
        &self,
        response: &Response,
        decoder: &mut SseDecoder,
        mut seen: impl FnMut(&str),
    ) -> std::result::Result<(), String> {
        let mut too_large = None;
        read_chunks(response, |chunk| match decoder.push(chunk) {
            Ok(events) => {
                for event in events.iter().filter(|e| !e.data.is_empty()) {
                    self.deliver(&event.data);
                    seen(&event.data);
                }
                if self.closed.get() { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
            }
            Err(large) => {
                too_large = Some(large.max);
                ControlFlow::Break(())
            }
        })
        .await?;
        if let Some(max) = too_large {
            let message = format!("the server sent an event larger than {max} characters");
            self.close_connection(Error::Protocol { server: self.server.clone(), message });
        }
        Ok(())
    }

    /// A JSON answer, read up to the frame bound.
    async fn read_text(&self, response: &Response) -> std::result::Result<String, String> {
        let mut text = String::new();
        let max = self.max_frame_chars;
        let mut over = false;
        read_chunks(response, |chunk| {
            text.push_str(chunk);
            over = text.len() > max;
            if over { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        })
        .await?;
        if over {
            let message = format!("the server sent an answer larger than {max} characters");
            self.close_connection(Error::Protocol { server: self.server.clone(), message: message.clone() });
            return Err(message);
        }
        Ok(text)
    }

    /// Hands one message to the connection.
    fn deliver(&self, frame: &str) {
        if frame.len() > self.max_frame_chars {
            let message = format!("the server sent a message of {} characters; the limit is {}", frame.len(), {
                self.max_frame_chars
            });
            return self.close_connection(Error::Protocol { server: self.server.clone(), message });
        }
        self.session.borrow_mut().received(frame);
        if let Some(connection) = self.connection() {
            connection.receive(frame);
        }
    }

    /// A POST that failed: its request fails; a failed `notifications/initialized` ends the session.
    fn failed(&self, peek: &FramePeek, error: Error) {
        if self.closed.get() {
            return;
        }
        let Some(connection) = self.connection() else { return };
        match (peek.id, peek.method.as_deref()) {
            (Some(id), Some(_)) => connection.fail(id, error),
            (_, Some("notifications/initialized")) => self.close_connection(error),
            // A lost notification or answer to the server: the server's own timeout covers it.
            _ => {}
        }
    }

    fn session_expired(&self) {
        let reason = "the server ended the session (HTTP 404 to a request with its session id); a new session is \
                      needed"
            .to_owned();
        self.close_connection(Error::Closed { server: self.server.clone(), reason });
    }

    fn close_connection(&self, error: Error) {
        if let Some(connection) = self.connection() {
            connection.close(error);
        }
        self.close();
    }

    /// Starts a request: the protocol headers, then the configured ones; aborted on close.
    fn request(
        &self,
        method: &str,
        protocol: &[(&'static str, String)],
        body: Option<&str>,
        controller: Option<&AbortController>,
    ) -> std::result::Result<Promise, String> {
        let headers = Headers::new().map_err(|e| crate::worker::describe_js(&e))?;
        for (name, value) in protocol {
            headers.append(name, value).map_err(|e| crate::worker::describe_js(&e))?;
        }
        for (name, value) in &self.headers {
            headers.append(name, value).map_err(|_| format!("the header {name:?} is not a valid HTTP header"))?;
        }
        let init = RequestInit::new();
        init.set_method(method);
        init.set_headers(&headers);
        if let Some(body) = body {
            init.set_body(&JsValue::from_str(body));
        }
        if let Some(controller) = controller {
            init.set_signal(Some(&controller.signal()));
        }
        if !self.headers.is_empty() {
            init.set_redirect(RequestRedirect::Manual);
        }
        Ok(global_fetch(&self.url, &init))
    }

    /// Fetches, abortable by [`Transport::close`]; a network failure or a redirect is an error in words.
    async fn fetch(
        &self,
        method: &str,
        protocol: &[(&'static str, String)],
        body: Option<&str>,
    ) -> std::result::Result<Response, String> {
        if self.closed.get() {
            return Err("the transport is closed".into());
        }
        let controller = AbortController::new().map_err(|e| crate::worker::describe_js(&e))?;
        let key = self.next_fetch.get();
        self.next_fetch.set(key + 1);
        self.in_flight.borrow_mut().insert(key, controller.clone());
        let promise = self.request(method, protocol, body, Some(&controller));
        let outcome = match promise {
            Ok(promise) => JsFuture::from(promise).await,
            Err(reason) => return Err(reason),
        };
        self.in_flight.borrow_mut().remove(&key);
        let response: Response = outcome
            .map_err(|e| {
                format!("{method} {} failed: {} (the network, or CORS)", self.url, crate::worker::describe_js(&e))
            })?
            .unchecked_into();
        if response.type_() == ResponseType::Opaqueredirect {
            return Err(format!(
                "{method} {} was redirected; requests that carry configured headers do not follow redirects (the \
                 headers could reach another address): configure the final URL",
                self.url
            ));
        }
        Ok(response)
    }
}

/// A response header, when the browser lets it be read (CORS exposes only what the server lists).
fn header(response: &Response, name: &str) -> Option<String> {
    response.headers().get(name).ok().flatten()
}

fn peek_name(peek: &FramePeek) -> String {
    peek.method.clone().unwrap_or_else(|| "(answer)".into())
}

/// Reads a body as text, chunk by chunk, until it ends or `on_chunk` breaks (the rest is cancelled).
async fn read_chunks(
    response: &Response,
    mut on_chunk: impl FnMut(&str) -> ControlFlow<()>,
) -> std::result::Result<(), String> {
    let Some(body) = response.body() else { return Ok(()) };
    let body: ReadableStream = body;
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let decoder = TextDecoder::new().map_err(|e| crate::worker::describe_js(&e))?;
    let options = TextDecodeOptions::new();
    options.set_stream(true);
    loop {
        let step = JsFuture::from(reader.read())
            .await
            .map_err(|e| format!("reading the answer failed: {}", { crate::worker::describe_js(&e) }))?;
        if Reflect::get(&step, &"done".into()).ok().and_then(|d| d.as_bool()).unwrap_or(true) {
            return Ok(());
        }
        let value: Uint8Array =
            Reflect::get(&step, &"value".into()).map_err(|e| crate::worker::describe_js(&e))?.unchecked_into();
        let text = decoder
            .decode_with_js_u8_array_and_options(&value, &options)
            .map_err(|e| format!("the answer is not UTF-8: {}", crate::worker::describe_js(&e)))?;
        if on_chunk(&text).is_break() {
            let _ = reader.cancel();
            return Ok(());
        }
    }
}

/// Checks deadlines while the connection is open.
fn spawn_sweeper(transport: Weak<HttpTransport>) {
    wasm_bindgen_futures::spawn_local(async move {
        loop {
            TimeoutFuture::new(SWEEP_INTERVAL_MS).await;
            let Some(transport) = transport.upgrade() else { break };
            // The client was dropped without closing: end the session all the same.
            let Some(connection) = transport.connection() else {
                transport.close();
                break;
            };
            if connection.closed_reason().is_some() || transport.closed.get() {
                break;
            }
            connection.sweep();
        }
    });
}
