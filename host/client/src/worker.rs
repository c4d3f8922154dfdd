//! Starting a server in a module Web Worker: the boot/connect handshake of `docs/wire-protocol.md`, and the
//! events that tell the host a worker died.

mod detached;
mod endpoint;
mod inbox;
mod js_calls;
mod js_listing;
mod long_text;
mod module_keeper;
mod port_disposal;
mod sender;

pub use js_calls::{JsAnswer, JsCalls};

use crate::connection::Connection;
use crate::error::{Error, Result};
use crate::limits::{MAX_BATCH_CHARS, MAX_BATCH_FRAMES, WorkerLimits};
use crate::liveness::{Beat, Heartbeat};
use crate::sandbox::{BlockedRequest, Isolation};
use crate::session::{ClientOptions, McpClient, Protocol, first_tools};
use crate::transport::Transport;
use endpoint::{Endpoint, Entry, SpareAfterStart, Start};
use futures_channel::oneshot;
use futures_util::future::{Either, select};
use gloo_timers::future::TimeoutFuture;
use inbox::Inbox;
use js_sys::{Array, Object, Reflect, WebAssembly};
use mcp_worker_protocol::modern::MODERN_PROTOCOL_VERSION;
use sender::FrameSender;
use std::cell::RefCell;
use std::future::Future;
use std::pin::pin;
use std::rc::{Rc, Weak};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, Event, MessageChannel, MessageEvent, MessagePort};
use zeroize::Zeroizing;

/// How often pending requests are checked against their deadlines.
const SWEEP_INTERVAL_MS: u32 = 100;

/// The default time a worker has to post `boot`.
pub const DEFAULT_BOOT_TIMEOUT_MS: u32 = 10_000;

/// Runs for each request the browser blocked (see [`WorkerSpec::on_blocked`]).
#[derive(Clone)]
struct BlockedHook(Rc<dyn Fn(BlockedRequest)>);

impl std::fmt::Debug for BlockedHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BlockedHook")
    }
}

/// Runs on a new connection before any frame flows (see [`WorkerSpec::on_connection`]).
#[derive(Clone)]
struct ConnectionHook(Rc<dyn Fn(&Connection)>);

impl std::fmt::Debug for ConnectionHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ConnectionHook")
    }
}

/// What to start: a server bundle's worker script, and how.
///
/// Its environment holds decrypted credentials, so `Debug` shows the names in it and never the values.
#[derive(Clone)]
#[must_use]
pub struct WorkerSpec {
    name: String,
    url: String,
    wasm_url: Option<String>,
    module: Option<WebAssembly::Module>,
    isolation: Isolation,
    /// Names and values; the values may be credentials, so they are wiped when the spec (or a clone) is dropped.
    env: Vec<(String, Zeroizing<String>)>,
    boot_timeout_ms: u32,
    limits: WorkerLimits,
    client: ClientOptions,
    on_connection: Option<ConnectionHook>,
    on_blocked: Option<BlockedHook>,
}

impl std::fmt::Debug for WorkerSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let env: Vec<&str> = self.env.iter().map(|(name, _)| name.as_str()).collect();
        f.debug_struct("WorkerSpec")
            .field("name", &self.name)
            .field("url", &self.url)
            .field("wasm_url", &self.wasm_url)
            .field("module", &self.module)
            .field("isolation", &self.isolation)
            .field("env", &env)
            .field("boot_timeout_ms", &self.boot_timeout_ms)
            .field("limits", &self.limits)
            .field("client", &self.client)
            .field("on_connection", &self.on_connection)
            .field("on_blocked", &self.on_blocked)
            .finish()
    }
}

impl WorkerSpec {
    /// A server named `name` whose worker script (the bundle's `bootstrap.js`) is at `url`, sandboxed in its own
    /// origin with no network (see [`WorkerSpec::isolation`]).
    pub fn new(name: impl Into<String>, url: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            url: url.into(),
            wasm_url: None,
            module: None,
            isolation: Isolation::default(),
            env: Vec::new(),
            boot_timeout_ms: DEFAULT_BOOT_TIMEOUT_MS,
            limits: WorkerLimits::default(),
            client: ClientOptions::default(),
            on_connection: None,
            on_blocked: None,
        }
    }

    /// Where the worker runs: sandboxed in its own origin with a network policy (the default, with no network),
    /// or on the page's origin.
    ///
    /// A sandboxed worker loads its bundle as a cross-origin script: the bundle's files must be served with
    /// `Access-Control-Allow-Origin: *`. It compiles its own wasm, as the page's fetch through its HTTP cache
    /// streams it (an opaque origin's own requests are never cached); a module given with [`WorkerSpec::module`]
    /// serves only workers on the page's origin.
    pub fn isolation(mut self, isolation: Isolation) -> Self {
        self.isolation = isolation;
        self
    }

    /// The server's wasm, when it is not the bundle's `server_bg.wasm` beside `bootstrap.js`.
    pub fn wasm_url(mut self, url: impl Into<String>) -> Self {
        self.wasm_url = Some(url.into());
        self
    }

    /// The bounds of the connection: frame size and heartbeat (see [`WorkerLimits`]).
    pub fn limits(mut self, limits: WorkerLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Runs `hook` for each request the browser blocked because the network policy does not allow it.
    pub fn on_blocked(mut self, hook: Rc<dyn Fn(BlockedRequest)>) -> Self {
        self.on_blocked = Some(BlockedHook(hook));
        self
    }

    /// Runs `hook` on the connection as soon as it exists, before `initialize`: to install handlers for what
    /// the server may send first (notifications, requests, the cancellation watch).
    pub fn on_connection(mut self, hook: Rc<dyn Fn(&Connection)>) -> Self {
        self.on_connection = Some(ConnectionHook(hook));
        self
    }

    /// Hands the worker a compiled module (see [`compile_module`]) so it skips its own fetch and compile. A worker on
    /// the page's origin given none gets one all the same when it is an SDK bundle's (or the spec names its wasm):
    /// the page compiles it while the worker starts; one module given to many starts saves the compile of each.
    pub fn module(mut self, module: WebAssembly::Module) -> Self {
        self.module = Some(module);
        self
    }

    /// Adds a value to the environment the server receives.
    pub fn env(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.env.push((name.into(), Zeroizing::new(value.into())));
        self
    }

    /// Time allowed for `boot`, and then again for `initialize`.
    pub fn handshake_timeout_ms(mut self, ms: u32) -> Self {
        self.boot_timeout_ms = ms;
        self.client.initialize_timeout_ms = ms;
        self
    }

    /// The default timeout of each request.
    pub fn request_timeout_ms(mut self, ms: u32) -> Self {
        self.client.request_timeout_ms = ms;
        self
    }

    /// Which protocol era to speak ([`crate::Protocol::Auto`] by default).
    pub fn protocol(mut self, protocol: crate::Protocol) -> Self {
        self.client.protocol = protocol;
        self
    }

    /// How the client introduces itself.
    pub fn client_options(mut self, options: ClientOptions) -> Self {
        self.client = options;
        self
    }
}

impl McpClient {
    /// Starts the server in a new module Web Worker and runs the MCP lifecycle with it.
    ///
    /// The worker is made when this is called, not when the future is first polled, and a worker that answers MCP
    /// 2026-07-28 from its first frame is asked for its first page of tools with the probe, for the client's first
    /// listing (see [`spawn_with_js_calls`]).
    /// Fails, rather than hangs, when the script does not load ([`Error::WorkerLoad`]), the worker throws or
    /// reports `fatal` ([`Error::WorkerCrashed`]), or it does not boot or initialize in time
    /// ([`Error::HandshakeTimeout`]). The worker is terminated on failure, and when the client is closed or dropped.
    pub fn spawn(spec: WorkerSpec) -> impl Future<Output = Result<McpClient>> {
        let begun = Beginning::begin(spec);
        async move { begun?.finish(Listing::Rust).await.map(|spawned| spawned.client) }
    }
}

/// [`McpClient::spawn`], also returning the worker's [`JsCalls`]: tool calls and listings whose results stay
/// JavaScript values.
///
/// The worker is made at once, when this is called (and a worker given no module has its wasm fetched and compiled
/// from then on): its thread's start is most of a server's start and everything else waits on it, so nothing of the
/// caller's (a promise's first turn, other work before the first poll) delays it. The future does the rest. A
/// worker that says it answers MCP 2026-07-28 from its first frame is also asked for its first page of tools with
/// `server/discover`, for the first [`JsCalls::list_tools`] made soon after (`session::first_tools`).
pub fn spawn_with_js_calls(spec: WorkerSpec) -> impl Future<Output = Result<Spawned>> {
    let begun = Beginning::begin(spec);
    async move { begun?.finish(Listing::Js).await }
}

/// How the caller of a start lists the server's tools: the first page asked for with the probe is kept for it.
#[derive(Clone, Copy)]
enum Listing {
    /// With [`JsCalls::list_tools`].
    Js,
    /// With [`McpClient`]'s own listings (the runtime's).
    Rust,
}

/// What a worker is started from, again when it starts a second time through the prelude.
struct Launch {
    name: String,
    entry: Entry,
    isolation: Isolation,
    limits: WorkerLimits,
    on_blocked: Option<BlockedHook>,
}

impl Launch {
    fn start(&self, from: Start) -> Result<Booting> {
        Booting::start(&self.name, &self.entry, &self.isolation, from, self.limits, self.on_blocked.clone())
    }
}

/// A start under way: the worker made and listened to, and the wasm of one given no module compiling.
struct Beginning {
    launch: Launch,
    booting: Booting,
    module: Option<WebAssembly::Module>,
    compiling: Option<wasm_bindgen_futures::JsFuture>,
    wasm_url: Option<String>,
    env: Vec<(String, Zeroizing<String>)>,
    boot_timeout_ms: u32,
    client: ClientOptions,
    on_connection: Option<ConnectionHook>,
    /// Makes the next sandboxed frame when the start ends, however it ends.
    _spare: SpareAfterStart,
}

impl Beginning {
    fn begin(spec: WorkerSpec) -> Result<Self> {
        let WorkerSpec {
            name,
            url,
            wasm_url,
            module,
            isolation,
            env,
            boot_timeout_ms,
            limits,
            client,
            on_connection,
            on_blocked,
        } = spec;
        let entry = Entry::resolve(&url, wasm_url.as_deref())
            .map_err(|cause| Error::WorkerLoad { server: name.clone(), cause })?;
        let _spare =
            SpareAfterStart { sandboxed: matches!(isolation, Isolation::Sandboxed(_)), wasm: entry.known_wasm() };
        let compiling = match &module {
            None => compile_alongside(&entry, &isolation),
            Some(_) => None,
        };
        let launch = Launch { name, entry, isolation, limits, on_blocked };
        let booting = launch.start(Start::for_entry(&launch.entry, &launch.isolation))?;
        Ok(Self { launch, booting, module, compiling, wasm_url, env, boot_timeout_ms, client, on_connection, _spare })
    }

    /// The rest of the start, for a caller that lists as `listing` says.
    async fn finish(self, listing: Listing) -> Result<Spawned> {
        let Self {
            launch,
            mut booting,
            module,
            compiling,
            wasm_url,
            env,
            boot_timeout_ms,
            client,
            on_connection,
            _spare,
        } = self;
        let (name, entry) = (&launch.name, &launch.entry);
        let mut outcome = booting.boot(name, boot_timeout_ms).await;
        // A worker started from its bundle's own URL that did not run the guard (a bundle not built with the SDK, or
        // an older one), or did not load that way, starts again through the prelude; the bundle's next starts go
        // there at once.
        if booting.transport.endpoint.started_from_own_url()
            && matches!(&outcome, Ok(Booted { guarded: false, .. }) | Err(Error::WorkerLoad { .. }))
        {
            booting.transport.close_with(Error::Closed { server: name.clone(), reason: "started again".into() });
            endpoint::remember_unguarded(&entry.url);
            booting = launch.start(Start::Prelude)?;
            outcome = booting.boot(name, boot_timeout_ms).await;
        }
        let Booting { transport, connection, js_calls, server_port, .. } = booting;
        let module = match (module, compiling) {
            (Some(module), _) => Some(module),
            // Failed (no wasm there, not served as wasm) or not done within the handshake's time (a fetch that
            // hangs): the worker fetches what it needs, as it would have, and the handshake's own timeout bounds that.
            (None, Some(compiling)) if outcome.is_ok() => {
                match select(compiling, TimeoutFuture::new(boot_timeout_ms)).await {
                    Either::Left((Ok(module), _)) => module.dyn_into().ok().inspect(|module| {
                        if let Some(wasm) = entry.known_wasm() {
                            module_keeper::keep_on_page(&wasm, module);
                        }
                    }),
                    _ => None,
                }
            }
            (None, _) => None,
        };
        // A module can cross only to workers of the page's agent cluster; a sandboxed worker is given its wasm's URL.
        let wasm = match (&transport.endpoint, module) {
            (Endpoint::Page { .. }, Some(module)) => Some(JsValue::from(module)),
            (_, _) => wasm_url.map(|_| JsValue::from_str(entry.wasm_url.as_deref().unwrap_or_default())),
        };
        if let Some(ConnectionHook(hook)) = &on_connection {
            hook(&connection);
        }
        let modern = matches!(outcome, Ok(Booted { modern: true, .. }));
        if let Err(error) = outcome.and_then(|_| transport.send_connect(&server_port, &env, wasm.as_ref())) {
            transport.close_with(error.clone());
            return Err(error);
        }
        spawn_sweeper(Rc::downgrade(&transport));
        let transport_handle: Rc<dyn Transport> = transport.clone();
        let connecting = McpClient::connect(connection.clone(), &client, Some(transport_handle));
        // A worker that answers MCP 2026-07-28 from its first frame is asked for its first page of tools right after
        // `server/discover` (the first poll of `connecting` sends it), in the same batch: the caller's first listing,
        // which most make at once (the runtime does, right after the start), then needs no round trip of its own.
        let first_tools = async {
            if !modern || client.protocol == Protocol::Handshake {
                return None;
            }
            match listing {
                Listing::Js => {
                    js_calls.ask_first_tools(&connection, client.request_timeout_ms);
                    None
                }
                Listing::Rust => Some(first_tools::ask_as_text(&connection, client.request_timeout_ms)),
            }
        };
        // `select` polls `connecting` first: its first poll sends `server/discover`, then `first_tools` runs (once).
        let (connected, first_tools) = match select(pin!(connecting), pin!(first_tools)).await {
            Either::Left((connected, _)) => (connected, None),
            Either::Right((first_tools, connecting)) => (connecting.await, first_tools),
        };
        match connected {
            Ok(client) => {
                if let Some(first_tools) = first_tools {
                    client.keep_first_tools(first_tools);
                }
                Ok(Spawned { client, js_calls })
            }
            Err(error) => {
                transport.close_with(error.clone());
                Err(error)
            }
        }
    }
}

/// The wasm of a worker on the page's origin that is given no module, fetched and compiled by the page from the
/// start of the spawn, while the worker's thread starts and its script loads; the module then crosses with
/// `connect`, as one given with [`WorkerSpec::module`] does. Only for an SDK bundle (a `bootstrap.js`) or a spec
/// that names its wasm: other workers fetch what they need themselves.
fn compile_alongside(entry: &Entry, isolation: &Isolation) -> Option<wasm_bindgen_futures::JsFuture> {
    if !matches!(isolation, Isolation::PageOrigin) {
        return None;
    }
    let fetched = web_sys::window()?.fetch_with_str(&entry.known_wasm()?);
    // Awaited from now (a failure is read, not left unhandled), whether or not the start gets that far.
    Some(wasm_bindgen_futures::JsFuture::from(WebAssembly::compile_streaming(&fetched)))
}

/// What a worker's `boot` said.
#[derive(Clone, Copy, Debug)]
struct Booted {
    /// The worker guard ran in it (`guard: true`).
    guarded: bool,
    /// It answers MCP 2026-07-28 requests from its first frame (`modern: "2026-07-28"`).
    modern: bool,
}

/// A worker started and listened to, until its `boot`: its transport and connection, and the port `connect` hands it.
struct Booting {
    transport: Rc<WorkerTransport>,
    connection: Connection,
    js_calls: JsCalls,
    server_port: MessagePort,
    booted: oneshot::Receiver<Result<Booted>>,
}

impl Booting {
    fn start(
        name: &str,
        entry: &Entry,
        isolation: &Isolation,
        from: Start,
        limits: WorkerLimits,
        on_blocked: Option<BlockedHook>,
    ) -> Result<Self> {
        let load_error = |cause: String| Error::WorkerLoad { server: name.to_owned(), cause };
        let endpoint = Endpoint::start(name, entry, isolation, from).map_err(load_error)?;
        let channel = MessageChannel::new().map_err(|e| load_error(describe_js(&e)))?;
        let port = channel.port1();
        let sender = Rc::new(FrameSender::new(&port));
        let connection = connection_over(name, sender.clone());
        let (boot_signal, booted) = oneshot::channel::<Result<Booted>>();
        let js_calls = JsCalls::new(sender.clone());
        let hooks = Hooks { booted: boot_signal, on_blocked };
        let ours = Channel { port, sender };
        let transport = WorkerTransport::attach(endpoint, ours, connection.clone(), hooks, js_calls.clone(), limits);
        Ok(Self { transport, connection, js_calls, server_port: channel.port2(), booted })
    }

    /// The worker's `boot`, or why it did not come within `timeout_ms`.
    async fn boot(&mut self, name: &str, timeout_ms: u32) -> Result<Booted> {
        match select(&mut self.booted, TimeoutFuture::new(timeout_ms)).await {
            Either::Left((Ok(outcome), _)) => outcome,
            Either::Left((Err(_), _)) => {
                Err(Error::WorkerLoad { server: name.to_owned(), cause: "the worker went away during start".into() })
            }
            Either::Right(_) => Err(Error::HandshakeTimeout { server: name.to_owned(), ms: timeout_ms, stage: "boot" }),
        }
    }
}

/// Compiles a server's wasm once, to hand to many workers with [`WorkerSpec::module`].
pub async fn compile_module(wasm_url: &str) -> Result<WebAssembly::Module> {
    let failed = |e: JsValue| Error::InvalidInput(format!("cannot compile {wasm_url}: {}", describe_js(&e)));
    let window = web_sys::window().ok_or_else(|| Error::InvalidInput("compile_module needs a window".into()))?;
    let response = wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(wasm_url)).await.map_err(failed)?;
    let response: web_sys::Response = response.dyn_into().map_err(failed)?;
    if !response.ok() {
        return Err(Error::InvalidInput(format!("cannot fetch {wasm_url}: HTTP {}", response.status())));
    }
    let bytes = wasm_bindgen_futures::JsFuture::from(response.array_buffer().map_err(failed)?).await.map_err(failed)?;
    let module = wasm_bindgen_futures::JsFuture::from(WebAssembly::compile(&bytes)).await.map_err(failed)?;
    module.dyn_into().map_err(failed)
}

fn connection_over(name: &str, sender: Rc<FrameSender>) -> Connection {
    Connection::new(
        name,
        Box::new(move |frame| {
            sender.send(&JsValue::from_str(frame)).map_err(|e| crate::connection::SendError::new(describe_js(&e)))
        }),
        Rc::new(js_sys::Date::now),
    )
}

/// Checks deadlines and the worker's heartbeat while the connection is open.
fn spawn_sweeper(transport: Weak<WorkerTransport>) {
    wasm_bindgen_futures::spawn_local(async move {
        loop {
            TimeoutFuture::new(SWEEP_INTERVAL_MS).await;
            let Some(transport) = transport.upgrade() else { break };
            if transport.connection.closed_reason().is_some() {
                break;
            }
            transport.connection.sweep();
            transport.beat();
        }
    });
}

type Listener<T> = Closure<dyn FnMut(T)>;

/// A started server: the client, and its tool calls with JavaScript arguments and results.
pub struct Spawned {
    /// The initialized session.
    pub client: McpClient,
    /// Tool calls encoded and decoded by the page.
    pub js_calls: JsCalls,
}

impl std::fmt::Debug for Spawned {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Spawned").field("client", &self.client).finish_non_exhaustive()
    }
}

/// The closures JS calls; kept alive as long as they are attached.
#[expect(dead_code, reason = "held, never read: dropping a closure JS still calls would break the page")]
struct Listeners {
    on_control: Listener<MessageEvent>,
    on_error: Listener<Event>,
    on_frame: Listener<MessageEvent>,
    on_message_error: Listener<Event>,
}

/// Who hears of the worker's start and of its blocked requests.
struct Hooks {
    booted: oneshot::Sender<Result<Booted>>,
    on_blocked: Option<BlockedHook>,
}

/// The host's end of a worker's MessagePort, and what posts the page's frames on it.
struct Channel {
    port: MessagePort,
    sender: Rc<FrameSender>,
}

/// A worker, the host's end of its MessagePort, and the listeners that feed the connection.
struct WorkerTransport {
    server: String,
    endpoint: Endpoint,
    port: MessagePort,
    sender: Rc<FrameSender>,
    /// The most characters a batch from the server may have.
    max_batch_chars: u32,
    connection: Connection,
    heartbeat: RefCell<Option<Heartbeat>>,
    listeners: RefCell<Option<Listeners>>,
}

impl WorkerTransport {
    fn attach(
        endpoint: Endpoint,
        Channel { port, sender }: Channel,
        connection: Connection,
        hooks: Hooks,
        js_calls: JsCalls,
        limits: WorkerLimits,
    ) -> Rc<Self> {
        let server = connection.server().to_owned();
        let heartbeat = (limits.unresponsive_after_ms > 0).then(|| Heartbeat::new(limits.unresponsive_after_ms));
        let transport = Rc::new(Self {
            server: server.clone(),
            endpoint,
            port,
            sender,
            max_batch_chars: limits.max_batch_chars(),
            connection: connection.clone(),
            heartbeat: RefCell::new(heartbeat),
            listeners: RefCell::new(None),
        });
        let booted = Rc::new(RefCell::new(Some(hooks.booted)));

        // Control messages: boot, fatal, heartbeat, self-close, blocked requests (and, from a sandboxed frame, the
        // worker's errors).
        let weak = Rc::downgrade(&transport);
        let (boot, on_blocked) = (booted.clone(), hooks.on_blocked);
        let on_control = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let Some(transport) = weak.upgrade() else { return };
            let data = event.data();
            let text =
                |key: &str| Reflect::get(&data, &key.into()).ok().and_then(|v| v.as_string()).unwrap_or_default();
            let name = transport.server.clone();
            match text("mcpWorker").as_str() {
                "boot" => {
                    // A worker that reads batches says so; the page's frames then go to it in batches.
                    if Reflect::get(&data, &"batches".into()).is_ok_and(|v| v.is_truthy()) {
                        transport.sender.batches(MAX_BATCH_FRAMES, MAX_BATCH_CHARS);
                    }
                    // And one that takes back the buffers of the detached bytes it sent, gets them back.
                    if Reflect::get(&data, &"buffers".into()).is_ok_and(|v| v.is_truthy()) {
                        transport.sender.recycles();
                    }
                    // A worker started from its bundle's own URL ran the worker guard itself if it says so.
                    let guarded = Reflect::get(&data, &"guard".into()).is_ok_and(|v| v.is_truthy());
                    // One that answers MCP 2026-07-28 from its first frame may be sent requests with the probe.
                    let modern = Reflect::get(&data, &"modern".into())
                        .is_ok_and(|v| v.as_string().as_deref() == Some(MODERN_PROTOCOL_VERSION));
                    if let Some(tx) = boot.borrow_mut().take() {
                        let _ = tx.send(Ok(Booted { guarded, modern }));
                    }
                }
                "pong" => {
                    if let Some(heartbeat) = transport.heartbeat.borrow_mut().as_mut() {
                        heartbeat.pong();
                    }
                }
                "fatal" => transport.fail(&boot, Error::WorkerCrashed { server: name, cause: text("error") }),
                "closing" => {
                    let cause = "the worker closed itself".to_owned();
                    transport.fail(&boot, Error::WorkerCrashed { server: name, cause });
                }
                "loadError" | "error" => {
                    let cause = text("error");
                    let cause = if cause.is_empty() { LOAD_FAILURE.to_owned() } else { cause };
                    let error = if boot.borrow().is_some() {
                        Error::WorkerLoad { server: name, cause }
                    } else {
                        Error::WorkerCrashed { server: name, cause }
                    };
                    transport.fail(&boot, error);
                }
                "blocked" => {
                    if let Some(BlockedHook(hook)) = &on_blocked {
                        hook(BlockedRequest { server: name, origin: text("origin"), directive: text("directive") });
                    }
                }
                _ => {}
            }
        });
        // Uncaught errors in a worker on the page's origin, and scripts that fail to load.
        let (weak, boot) = (Rc::downgrade(&transport), booted.clone());
        let on_error = Closure::<dyn FnMut(Event)>::new(move |event: Event| {
            let Some(transport) = weak.upgrade() else { return };
            let cause = describe_error_event(&event);
            let server = transport.server.clone();
            let error = if boot.borrow().is_some() {
                Error::WorkerLoad { server, cause }
            } else {
                Error::WorkerCrashed { server, cause }
            };
            transport.fail(&boot, error);
        });
        // MCP frames from the server, read in order by the inbox.
        let weak = Rc::downgrade(&transport);
        let on_closed = Box::new(move |cause: Error| {
            if let Some(transport) = weak.upgrade() {
                transport.close_with(cause);
            }
        });
        let (max_frame, max_batch) = (limits.max_frame_chars, transport.max_batch_chars);
        let inbox = Inbox::new(connection.clone(), max_frame, max_batch, transport.sender.clone(), js_calls, on_closed);
        let on_frame = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| inbox.offer(event.data()));
        // A frame that could not be deserialized is lost; its request would wait for its timeout. Fail fast.
        let (conn, name) = (connection.clone(), server);
        let on_message_error = Closure::<dyn FnMut(Event)>::new(move |_: Event| {
            let message = "a message from the worker could not be deserialized (messageerror)".into();
            conn.close(Error::Protocol { server: name.clone(), message });
        });

        let control = transport.endpoint.control_target();
        let _ = control.add_event_listener_with_callback("message", on_control.as_ref().unchecked_ref());
        if let Some(worker) = transport.endpoint.page_worker() {
            worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
            worker.set_onmessageerror(Some(on_message_error.as_ref().unchecked_ref()));
        }
        transport.port.set_onmessage(Some(on_frame.as_ref().unchecked_ref()));
        transport.port.set_onmessageerror(Some(on_message_error.as_ref().unchecked_ref()));
        *transport.listeners.borrow_mut() = Some(Listeners { on_control, on_error, on_frame, on_message_error });
        transport
    }

    fn send_connect(
        &self,
        server_port: &MessagePort,
        env: &[(String, Zeroizing<String>)],
        wasm: Option<&JsValue>,
    ) -> Result<()> {
        let message = Object::new();
        let env_object = Object::new();
        for (name, value) in env {
            // The copy in JavaScript is out of reach (the worker receives it); ours is wiped with the spec.
            let _ = Reflect::set(&env_object, &name.into(), &JsValue::from_str(value));
        }
        let _ = Reflect::set(&message, &"mcpWorker".into(), &"connect".into());
        let _ = Reflect::set(&message, &"v".into(), &1.into());
        let _ = Reflect::set(&message, &"port".into(), server_port);
        let _ = Reflect::set(&message, &"env".into(), &env_object);
        // Results' large strings may come beside their frames, as strings or UTF-8 bytes: `detached` puts them back.
        let _ = Reflect::set(&message, &"detachStrings".into(), &JsValue::TRUE);
        let _ = Reflect::set(&message, &"detachBytes".into(), &JsValue::TRUE);
        // Small frames may come in batches, this large at most.
        let _ = Reflect::set(&message, &"batchFrames".into(), &MAX_BATCH_FRAMES.into());
        let _ = Reflect::set(&message, &"batchChars".into(), &self.max_batch_chars.into());
        if let Some(wasm) = wasm {
            let _ = Reflect::set(&message, &"module".into(), wasm);
        }
        let transfer = Array::of1(server_port);
        self.endpoint.post(&message, &transfer).map_err(|e| Error::WorkerLoad {
            server: self.server.clone(),
            cause: format!("could not send the connect message: {}", describe_js(&e)),
        })
    }

    /// One heartbeat step (see [`crate::liveness`]): a ping, or the verdict that the worker is gone.
    fn beat(&self) {
        let beat = match self.heartbeat.borrow_mut().as_mut() {
            Some(heartbeat) => heartbeat.sweep(js_sys::Date::now()),
            None => return,
        };
        match beat {
            Beat::Ping => {
                let ping = Object::new();
                let _ = Reflect::set(&ping, &"mcpWorker".into(), &"ping".into());
                let _ = self.endpoint.post(&ping, &Array::new());
            }
            Beat::Wait => {}
            Beat::Unresponsive { silent_ms } => {
                // Whole milliseconds as an integer: formatting a float to a precision links 6 KiB of wasm.
                let silent_ms = silent_ms as u64;
                let cause = format!(
                    "the worker stopped answering ({silent_ms} ms without a heartbeat): it was terminated, ran out \
                     of memory, closed itself or blocked its event loop"
                );
                self.close_with(Error::WorkerCrashed { server: self.server.clone(), cause });
            }
        }
    }

    fn fail(&self, boot: &RefCell<Option<oneshot::Sender<Result<Booted>>>>, error: Error) {
        if let Some(tx) = boot.borrow_mut().take() {
            let _ = tx.send(Err(error.clone()));
        }
        self.close_with(error);
    }

    /// Fails pending requests with `error`, stops the worker and detaches every listener. A server closed for what
    /// it sent (a protocol error) may have left a backlog on its port, which is closed off the page's thread.
    fn close_with(&self, error: Error) {
        let may_have_backlog = matches!(error, Error::Protocol { .. });
        self.connection.close(error);
        self.heartbeat.borrow_mut().take();
        self.endpoint.terminate();
        if may_have_backlog {
            port_disposal::close_off_thread(&self.port);
        } else {
            self.port.close();
        }
        let detached = self.listeners.borrow_mut().take();
        if let Some(listeners) = detached {
            let control = self.endpoint.control_target();
            let _ =
                control.remove_event_listener_with_callback("message", listeners.on_control.as_ref().unchecked_ref());
            if let Some(worker) = self.endpoint.page_worker() {
                worker.set_onerror(None);
                worker.set_onmessageerror(None);
            }
            self.port.set_onmessage(None);
            self.port.set_onmessageerror(None);
            drop(listeners);
        }
    }
}

/// What a load failure without a message means.
const LOAD_FAILURE: &str = "the worker script could not be loaded (network error, HTTP error, missing CORS header, or not served as JavaScript)";

impl Transport for WorkerTransport {
    fn close(&self) {
        self.close_with(Error::Closed { server: self.server.clone(), reason: "closed by the host".into() });
    }
}

impl Drop for WorkerTransport {
    fn drop(&mut self) {
        self.close_with(Error::Closed { server: self.server.clone(), reason: "the client was dropped".into() });
    }
}

fn describe_error_event(event: &Event) -> String {
    match event.dyn_ref::<ErrorEvent>() {
        Some(e) if !e.message().is_empty() => e.message(),
        _ => LOAD_FAILURE.into(),
    }
}

/// A readable description of a thrown JS value.
pub fn describe_js(value: &JsValue) -> String {
    if let Some(error) = value.dyn_ref::<js_sys::Error>() {
        return String::from(error.message());
    }
    if let Some(text) = value.as_string() {
        return text;
    }
    if let Some(message) = Reflect::get(value, &"message".into()).ok().and_then(|m| m.as_string()) {
        return message;
    }
    js_sys::JSON::stringify(value).ok().and_then(|s| s.as_string()).unwrap_or_else(|| "an unknown error".into())
}
