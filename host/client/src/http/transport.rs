//! Remote servers in the browser, on `fetch` and its body streams (decisions in [`super::exchange`], events in
//! [`super::sse`]): Streamable HTTP (`streamable`), and the older HTTP+SSE transport (`legacy`) for servers
//! configured with it or that refuse Streamable HTTP; requests and bodies in `fetching`.
//!
//! Configured headers are sent with every request; while there are any, redirects are not followed (a redirect
//! could carry them to another address), and one is reported as such. A request with no answer the page may read
//! names the server, its origin and the page's (the browser does not say whether CORS or the network stopped it).
//! Closing aborts every request in flight (streams included) and ends a Streamable HTTP session with DELETE.

mod authorize;
mod fetching;
mod legacy;
mod streamable;

use super::exchange::{FramePeek, HttpSession, RequestKind};
use super::oauth::setup::{OAuthSetup, OnAuthorizationRequired};
use crate::connection::{Connection, SendError, WeakConnection};
use crate::limits::DEFAULT_MAX_FRAME_CHARS;
use crate::session::{ClientOptions, McpClient};
use crate::{Error, Result, Transport};
use futures_channel::oneshot;
use futures_util::future::select;
use gloo_timers::future::TimeoutFuture;
use mcp_worker_protocol::id_map::IdMap;
use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};
use web_sys::AbortController;
use zeroize::Zeroizing;

/// How often deadlines are checked.
const SWEEP_INTERVAL_MS: u32 = 100;
/// How long a new session waits for the server's own stream before its first call goes out anyway.
const STREAM_SETTLE_TIMEOUT_MS: u32 = 2_000;

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
    legacy_sse: bool,
    proxy: Option<String>,
    oauth: Option<OAuthSetup>,
    on_authorization_required: Option<OnAuthorizationRequired>,
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
            legacy_sse: false,
            proxy: None,
            oauth: None,
            on_authorization_required: None,
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

    /// Speaks the older HTTP+SSE transport (2024-11-05) from the start: the URL is the server's event stream.
    #[must_use]
    pub fn legacy_sse(mut self, legacy: bool) -> Self {
        self.legacy_sse = legacy;
        self
    }

    /// Sends every request through a proxy: `template` is a URL with `{url}` where the target's URL goes,
    /// percent-encoded (`http://127.0.0.1:8080/proxy?url={url}`). The proxy sees the headers, credentials included:
    /// only a proxy the user runs.
    #[must_use]
    pub fn proxy(mut self, template: Option<String>) -> Self {
        self.proxy = template;
        self
    }

    /// Authorizes with OAuth 2.1 when the server asks (a 401 with a Bearer challenge); without it, such a server
    /// fails with `UNAUTHORIZED`.
    #[must_use]
    pub fn oauth(mut self, setup: Option<OAuthSetup>) -> Self {
        self.oauth = setup;
        self
    }

    /// Runs when the user must act before the server can be used: before the OAuth setup's `authorize` is called,
    /// and when the server asks for authorization and none is configured.
    #[must_use]
    pub fn on_authorization_required(mut self, hook: OnAuthorizationRequired) -> Self {
        self.on_authorization_required = Some(hook);
        self
    }
}

/// Connects to a remote server (over Streamable HTTP, or HTTP+SSE when the spec says so or the server refuses
/// Streamable HTTP) and runs the MCP lifecycle with it.
pub async fn connect(spec: HttpSpec) -> Result<McpClient> {
    let HttpSpec {
        server,
        url,
        headers,
        client,
        on_connection,
        max_frame_chars,
        legacy_sse,
        proxy,
        oauth,
        on_authorization_required,
    } = spec;
    let transport = Rc::new(HttpTransport {
        server: server.clone(),
        url,
        headers,
        session: RefCell::new(HttpSession::default()),
        mode: RefCell::new(Mode::Streamable),
        connection: RefCell::new(None),
        aborter: AbortController::new().map_err(|e| Error::Http {
            server: server.clone(),
            status: None,
            reason: format!("this browser cannot abort requests: {}", crate::worker::describe_js(&e)),
        })?,
        closed: Cell::new(false),
        max_frame_chars: max_frame_chars as usize,
        proxy,
        oauth,
        auth: authorize::AuthState::new(on_authorization_required),
        stream_settled: RefCell::new(None),
        posts: RefCell::new(IdMap::new()),
    });
    let weak = Rc::downgrade(&transport);
    let connection = Connection::new(
        server,
        Box::new(move |frame: &str| {
            let transport = weak.upgrade().ok_or_else(|| SendError::new("the transport is closed"))?;
            // Up to `fetch()` now, in the caller's turn: a call's request leaves before its caller's code goes on.
            crate::started::spawn(transport.send(frame.to_owned()));
            Ok(())
        }),
        Rc::new(js_sys::Date::now),
    );
    *transport.connection.borrow_mut() = Some(connection.downgrade());
    if let Some(hook) = on_connection {
        hook(&connection);
    }
    transport.restore_authorization().await;
    if legacy_sse && let Err(error) = transport.open_legacy().await {
        transport.close();
        return Err(error);
    }
    spawn_sweeper(Rc::downgrade(&transport));
    let (settled, stream_settled) = oneshot::channel();
    if !legacy_sse {
        *transport.stream_settled.borrow_mut() = Some(settled);
    }
    let handle: Rc<dyn Transport> = transport.clone();
    let client = McpClient::connect(connection, &client, Some(handle)).await;
    match client {
        Ok(client) => {
            // A server may send its own requests on its stream only: the first call waits until it is open. A
            // session of MCP 2026-07-28 has no such stream (nor server requests).
            if !legacy_sse && !client.is_modern() {
                let _ = select(stream_settled, TimeoutFuture::new(STREAM_SETTLE_TIMEOUT_MS)).await;
            }
            Ok(client)
        }
        Err(error) => {
            transport.close();
            Err(error)
        }
    }
}

/// How messages travel.
#[derive(Debug, Clone)]
enum Mode {
    /// Streamable HTTP: POSTed to the URL.
    Streamable,
    /// HTTP+SSE: POSTed to the endpoint the server's event stream named.
    Legacy {
        /// Where to POST.
        endpoint: String,
    },
}

struct HttpTransport {
    server: String,
    url: String,
    headers: Vec<(String, Zeroizing<String>)>,
    session: RefCell<HttpSession>,
    mode: RefCell<Mode>,
    connection: RefCell<Option<WeakConnection>>,
    /// Aborts every request of the transport (and the reading of their bodies) on close.
    aborter: AbortController,
    closed: Cell<bool>,
    max_frame_chars: usize,
    /// The proxy's URL template, if requests go through one.
    proxy: Option<String>,
    /// How to authorize when the server asks.
    oauth: Option<OAuthSetup>,
    /// The tokens in use, and what happened to them.
    auth: authorize::AuthState,
    /// Told when the server's own stream is open (or known not to be): [`connect`] waits for it.
    stream_settled: RefCell<Option<oneshot::Sender<()>>>,
    /// MCP 2026-07-28: what aborts each request's POST, by request id. Closing a request's stream is how that
    /// revision cancels it over HTTP.
    posts: RefCell<IdMap<i64, AbortController>>,
}

impl Transport for HttpTransport {
    fn close(&self) {
        if self.closed.replace(true) {
            return;
        }
        self.aborter.abort();
        for (_, post) in self.posts.borrow_mut().drain() {
            post.abort();
        }
        // The session ends on the server too, with the tokens in use (authorization goes with every request);
        // nothing waits for the answer.
        if self.session.borrow().id.is_some() {
            let mut headers = fetching::headers(self.session.borrow().headers(RequestKind::Delete, None));
            headers.extend(self.current_bearer().map(|bearer| ("Authorization".into(), bearer)));
            let request = self.request(&self.url, "DELETE", &headers, None, fetching::Abort::Never);
            wasm_bindgen_futures::spawn_local(async move {
                if let Ok(promise) = request {
                    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
                }
            });
        }
        // After the DELETE: `fetch()` has copied its headers.
        fetching::forget_headers();
    }
}

impl HttpTransport {
    fn connection(&self) -> Option<Connection> {
        self.connection.borrow().as_ref().and_then(WeakConnection::upgrade)
    }

    /// Sends one frame the way the transport's mode says.
    async fn send(self: Rc<Self>, frame: String) {
        if self.closed.get() {
            return;
        }
        let mode = self.mode.borrow().clone();
        match mode {
            Mode::Streamable => self.post(frame).await,
            Mode::Legacy { endpoint } => self.post_legacy(&endpoint, &frame).await,
        }
    }

    /// Hands one message to the connection.
    fn deliver(&self, frame: &str) {
        if frame.len() > self.max_frame_chars {
            let message = format!(
                "the server sent a message of {} characters; the limit is {}",
                frame.len(),
                self.max_frame_chars
            );
            return self.close_connection(Error::Protocol { server: self.server.clone(), message });
        }
        let replaced = self.session.borrow_mut().received(frame);
        if let Some(connection) = self.connection() {
            connection.receive(replaced.as_deref().unwrap_or(frame));
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

    fn http_error(&self, status: Option<u16>, reason: impl Into<String>) -> Error {
        Error::Http { server: self.server.clone(), status, reason: reason.into() }
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
