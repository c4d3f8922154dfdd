//! Starting a server in a module Web Worker: the boot/connect handshake of `docs/wire-protocol.md`, and the
//! events that tell the host a worker died.

mod js_calls;

pub use js_calls::{JsAnswer, JsCalls};

use crate::connection::Connection;
use crate::error::{Error, Result};
use crate::session::{ClientOptions, McpClient};
use crate::transport::Transport;
use futures_channel::oneshot;
use futures_util::future::{Either, select};
use gloo_timers::future::TimeoutFuture;
use js_sys::{Array, Object, Reflect, WebAssembly};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, Event, MessageChannel, MessageEvent, MessagePort, Worker, WorkerOptions, WorkerType};
use zeroize::Zeroizing;

/// How often pending requests are checked against their deadlines.
const SWEEP_INTERVAL_MS: u32 = 100;

/// The default time a worker has to post `boot`.
pub const DEFAULT_BOOT_TIMEOUT_MS: u32 = 10_000;

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
    module: Option<WebAssembly::Module>,
    /// Names and values; the values may be credentials, so they are wiped when the spec (or a clone) is dropped.
    env: Vec<(String, Zeroizing<String>)>,
    boot_timeout_ms: u32,
    client: ClientOptions,
    on_connection: Option<ConnectionHook>,
}

impl std::fmt::Debug for WorkerSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let env: Vec<&str> = self.env.iter().map(|(name, _)| name.as_str()).collect();
        f.debug_struct("WorkerSpec")
            .field("name", &self.name)
            .field("url", &self.url)
            .field("module", &self.module)
            .field("env", &env)
            .field("boot_timeout_ms", &self.boot_timeout_ms)
            .field("client", &self.client)
            .field("on_connection", &self.on_connection)
            .finish()
    }
}

impl WorkerSpec {
    /// A server named `name` whose worker script (the bundle's `bootstrap.js`) is at `url`.
    pub fn new(name: impl Into<String>, url: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            url: url.into(),
            module: None,
            env: Vec::new(),
            boot_timeout_ms: DEFAULT_BOOT_TIMEOUT_MS,
            client: ClientOptions::default(),
            on_connection: None,
        }
    }

    /// Runs `hook` on the connection as soon as it exists, before `initialize`: to install handlers for what
    /// the server may send first (notifications, requests, the cancellation watch).
    pub fn on_connection(mut self, hook: Rc<dyn Fn(&Connection)>) -> Self {
        self.on_connection = Some(ConnectionHook(hook));
        self
    }

    /// Hands the worker a compiled module (see [`compile_module`]) so it skips its own fetch and compile.
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

    /// How the client introduces itself.
    pub fn client_options(mut self, options: ClientOptions) -> Self {
        self.client = options;
        self
    }
}

impl McpClient {
    /// Starts the server in a new module Web Worker and runs the MCP lifecycle with it.
    ///
    /// Fails, rather than hangs, when the script does not load ([`Error::WorkerLoad`]), the worker throws or
    /// reports `fatal` ([`Error::WorkerCrashed`]), or it does not boot or initialize in time
    /// ([`Error::HandshakeTimeout`]). The worker is terminated on failure, and when the client is closed or dropped.
    pub async fn spawn(spec: WorkerSpec) -> Result<McpClient> {
        spawn_with_js_calls(spec).await.map(|spawned| spawned.client)
    }
}

/// [`McpClient::spawn`], also returning the worker's [`JsCalls`]: tool calls whose arguments and results stay
/// JavaScript values.
pub async fn spawn_with_js_calls(spec: WorkerSpec) -> Result<Spawned> {
    let WorkerSpec { name, url, module, env, boot_timeout_ms, client, on_connection } = spec;
    let load_error = |cause: String| Error::WorkerLoad { server: name.clone(), cause };

    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    options.set_name(&name);
    let worker = Worker::new_with_options(&url, &options).map_err(|e| load_error(describe_js(&e)))?;
    let channel = MessageChannel::new().map_err(|e| load_error(describe_js(&e)))?;
    let port = channel.port1();

    let connection = connection_over(&name, &port);
    if let Some(ConnectionHook(hook)) = &on_connection {
        hook(&connection);
    }
    let (booted, boot_signal) = oneshot::channel::<Result<()>>();
    let js_calls = JsCalls::new(port.clone());
    let transport = Rc::new(WorkerTransport::attach(worker, port, connection.clone(), booted, js_calls.clone()));

    let outcome = match select(boot_signal, TimeoutFuture::new(boot_timeout_ms)).await {
        Either::Left((Ok(outcome), _)) => outcome,
        Either::Left((Err(_), _)) => Err(load_error("the worker went away during start".into())),
        Either::Right(_) => Err(Error::HandshakeTimeout { server: name.clone(), ms: boot_timeout_ms, stage: "boot" }),
    };
    if let Err(error) = outcome.and_then(|()| transport.send_connect(&channel.port2(), &env, module.as_ref())) {
        transport.close_with(error.clone());
        return Err(error);
    }
    spawn_sweeper(&connection);
    let transport_handle: Rc<dyn Transport> = transport.clone();
    match McpClient::initialize(connection, &client, Some(transport_handle)).await {
        Ok(client) => Ok(Spawned { client, js_calls }),
        Err(error) => {
            transport.close_with(error.clone());
            Err(error)
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

fn connection_over(name: &str, port: &MessagePort) -> Connection {
    let out = port.clone();
    Connection::new(
        name,
        Box::new(move |frame| {
            out.post_message(&JsValue::from_str(frame)).map_err(|e| crate::connection::SendError::new(describe_js(&e)))
        }),
        Rc::new(js_sys::Date::now),
    )
}

/// Checks deadlines while the connection is open.
fn spawn_sweeper(connection: &Connection) {
    let weak = connection.downgrade();
    wasm_bindgen_futures::spawn_local(async move {
        loop {
            TimeoutFuture::new(SWEEP_INTERVAL_MS).await;
            match weak.upgrade() {
                Some(connection) if connection.closed_reason().is_none() => {
                    connection.sweep();
                }
                _ => break,
            }
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
    on_port_close: Listener<Event>,
}

/// A worker, the host's end of its MessagePort, and the listeners that feed the connection.
struct WorkerTransport {
    server: String,
    worker: Worker,
    port: MessagePort,
    connection: Connection,
    listeners: RefCell<Option<Listeners>>,
}

impl WorkerTransport {
    fn attach(
        worker: Worker,
        port: MessagePort,
        connection: Connection,
        booted: oneshot::Sender<Result<()>>,
        js_calls: JsCalls,
    ) -> Self {
        let server = connection.server().to_owned();
        let booted = Rc::new(RefCell::new(Some(booted)));

        // Control messages on the worker itself: boot and fatal.
        let (conn, boot, name) = (connection.clone(), booted.clone(), server.clone());
        let on_control = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let data = event.data();
            let kind = Reflect::get(&data, &"mcpWorker".into()).ok().and_then(|k| k.as_string());
            match kind.as_deref() {
                Some("boot") => {
                    if let Some(tx) = boot.borrow_mut().take() {
                        let _ = tx.send(Ok(()));
                    }
                }
                Some("fatal") => {
                    let cause = Reflect::get(&data, &"error".into()).ok().and_then(|e| e.as_string());
                    let error = Error::WorkerCrashed { server: name.clone(), cause: cause.unwrap_or_default() };
                    fail(&boot, &conn, error);
                }
                _ => {}
            }
        });
        // Uncaught errors in the worker, and scripts that fail to load.
        let (conn, boot, name) = (connection.clone(), booted.clone(), server.clone());
        let on_error = Closure::<dyn FnMut(Event)>::new(move |event: Event| {
            let cause = describe_error_event(&event);
            let error = if boot.borrow().is_some() {
                Error::WorkerLoad { server: name.clone(), cause }
            } else {
                Error::WorkerCrashed { server: name.clone(), cause }
            };
            fail(&boot, &conn, error);
        });
        // MCP frames from the server.
        let conn = connection.clone();
        let on_frame = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let data = event.data();
            if js_calls.offer(&data, &conn) {
                return;
            }
            match data.as_string() {
                Some(frame) => conn.receive(&frame),
                None => match js_sys::JSON::stringify(&data).ok().and_then(|s| s.as_string()) {
                    Some(frame) => conn.receive(&frame),
                    None => conn.receive(""),
                },
            }
        });
        // A frame that could not be deserialized is lost; its request would wait for its timeout. Fail fast.
        let (conn, name) = (connection.clone(), server.clone());
        let on_message_error = Closure::<dyn FnMut(Event)>::new(move |_: Event| {
            let message = "a message from the worker could not be deserialized (messageerror)".into();
            conn.close(Error::Protocol { server: name.clone(), message });
        });
        // The worker's end of the port closed (the worker closed itself or was torn down).
        let (conn, name) = (connection.clone(), server.clone());
        let on_port_close = Closure::<dyn FnMut(Event)>::new(move |_: Event| {
            conn.close(Error::Closed { server: name.clone(), reason: "the worker closed its port".into() });
        });

        worker.set_onmessage(Some(on_control.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        port.set_onmessage(Some(on_frame.as_ref().unchecked_ref()));
        worker.set_onmessageerror(Some(on_message_error.as_ref().unchecked_ref()));
        port.set_onmessageerror(Some(on_message_error.as_ref().unchecked_ref()));
        let _ = port.add_event_listener_with_callback("close", on_port_close.as_ref().unchecked_ref());
        let listeners =
            RefCell::new(Some(Listeners { on_control, on_error, on_frame, on_message_error, on_port_close }));
        Self { server, worker, port, connection, listeners }
    }

    fn send_connect(
        &self,
        server_port: &MessagePort,
        env: &[(String, Zeroizing<String>)],
        module: Option<&WebAssembly::Module>,
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
        if let Some(module) = module {
            let _ = Reflect::set(&message, &"module".into(), module);
        }
        let transfer = Array::of1(server_port);
        self.worker.post_message_with_transfer(&message, &transfer).map_err(|e| Error::WorkerLoad {
            server: self.server.clone(),
            cause: format!("could not send the connect message: {}", describe_js(&e)),
        })
    }

    /// Fails pending requests with `error`, terminates the worker and detaches every listener.
    fn close_with(&self, error: Error) {
        self.connection.close(error);
        self.worker.terminate();
        self.port.close();
        let detached = self.listeners.borrow_mut().take();
        if let Some(listeners) = detached {
            self.worker.set_onmessage(None);
            self.worker.set_onerror(None);
            self.worker.set_onmessageerror(None);
            self.port.set_onmessage(None);
            self.port.set_onmessageerror(None);
            let close = listeners.on_port_close.as_ref().unchecked_ref();
            let _ = self.port.remove_event_listener_with_callback("close", close);
            drop(listeners);
        }
    }
}

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

fn fail(boot: &RefCell<Option<oneshot::Sender<Result<()>>>>, connection: &Connection, error: Error) {
    if let Some(tx) = boot.borrow_mut().take() {
        let _ = tx.send(Err(error.clone()));
    }
    connection.close(error);
}

fn describe_error_event(event: &Event) -> String {
    match event.dyn_ref::<ErrorEvent>() {
        Some(e) if !e.message().is_empty() => e.message(),
        _ => "the worker script could not be loaded (network error, HTTP error, or not served as JavaScript)".into(),
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
