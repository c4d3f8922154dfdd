//! Native test rig: host connections wired to SDK sessions over in-memory queues (as a MessagePort is), a manual
//! clock, and timers the test fires by advancing it.

use crate::config::TransportConfig;
use crate::manager::{LaunchRequest, Launcher, Platform};
use crate::manifest::BundleManifest;
use crate::tool_system::McpCaller;
use crate::{Error, Result};
use futures_channel::{mpsc, oneshot};
use futures_executor::{LocalPool, LocalSpawner};
use futures_util::StreamExt;
use futures_util::future::LocalBoxFuture;
use futures_util::task::LocalSpawnExt;
use mcp_worker_client::Error as ClientError;
use mcp_worker_client::connection::{Clock, Connection, SendError};
use mcp_worker_client::{CallOptions, ClientOptions, McpClient, Transport};
use mcp_worker_sdk::{Env, Server, Session};
use serde_json::value::RawValue;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

/// Timers: when each is due, and how to fire it.
type Timers = Rc<RefCell<Vec<(f64, oneshot::Sender<()>)>>>;

/// A manual clock and the timers waiting on it.
#[derive(Clone, Default)]
pub(crate) struct ManualTime {
    now: Rc<Cell<f64>>,
    timers: Timers,
}

impl ManualTime {
    pub(crate) fn clock(&self) -> Clock {
        let now = self.now.clone();
        Rc::new(move || now.get())
    }

    pub(crate) fn now(&self) -> f64 {
        self.now.get()
    }

    /// A future that resolves once the clock has advanced by `ms`.
    pub(crate) fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()> {
        let (tx, rx) = oneshot::channel();
        self.timers.borrow_mut().push((self.now.get() + f64::from(ms), tx));
        Box::pin(async move {
            let _ = rx.await;
        })
    }

    /// Moves the clock and fires the timers that are due.
    pub(crate) fn advance(&self, ms: f64) {
        self.now.set(self.now.get() + ms);
        let now = self.now.get();
        let due: Vec<oneshot::Sender<()>> = {
            let mut timers = self.timers.borrow_mut();
            let (due, later): (Vec<_>, Vec<_>) = timers.drain(..).partition(|(at, _)| *at <= now);
            *timers = later;
            due.into_iter().map(|(_, tx)| tx).collect()
        };
        for tx in due {
            let _ = tx.send(());
        }
    }
}

/// The in-memory "worker": closing it stops both directions, as terminating a worker does.
pub(crate) struct PipeTransport {
    pub(crate) alive: Rc<Cell<bool>>,
    /// False while the "worker" is wedged: frames are accepted and never delivered.
    pub(crate) delivering: Rc<Cell<bool>>,
    pub(crate) connection: Connection,
    /// Whether the host terminated it.
    pub(crate) terminated: Cell<bool>,
}

impl Transport for PipeTransport {
    fn close(&self) {
        self.terminated.set(true);
        self.alive.set(false);
        self.connection.close(ClientError::Closed { server: self.connection.server().into(), reason: "closed".into() });
    }
}

impl PipeTransport {
    /// What a crashing worker does: the connection fails with `WorkerCrashed` and nothing more flows.
    pub(crate) fn crash(&self, cause: &str) {
        self.alive.set(false);
        let server = self.connection.server().to_owned();
        self.connection.close(ClientError::WorkerCrashed { server, cause: cause.into() });
    }

    /// What a wedged worker does: nothing. Frames are accepted and dropped both ways; the connection stays open.
    pub(crate) fn freeze(&self) {
        self.delivering.set(false);
    }
}

/// Wires a new host `Connection` named `name` to `server`'s session; `configure` runs on the connection before
/// any frame flows (as the launcher's hook does in the browser).
pub(crate) fn wire(
    spawner: &LocalSpawner,
    name: &str,
    server: Server,
    env: Env,
    clock: Clock,
    configure: impl FnOnce(&Connection),
) -> (Connection, Session, Rc<PipeTransport>) {
    let alive = Rc::new(Cell::new(true));
    let delivering = Rc::new(Cell::new(true));
    let (to_server, mut server_inbox) = mpsc::unbounded::<String>();
    let (to_host, mut host_inbox) = mpsc::unbounded::<String>();
    let task_spawner = spawner.clone();
    let session = server
        .into_session(
            env,
            Rc::new(move |frame| {
                let _ = to_host.unbounded_send(frame);
            }),
            Rc::new(move |fut| {
                let _ = task_spawner.spawn_local(fut);
            }),
        )
        .unwrap_or_else(|e| panic!("the test server does not start: {e}"));
    let sink_alive = alive.clone();
    let connection = Connection::new(
        name,
        Box::new(move |frame| {
            if !sink_alive.get() {
                return Err(SendError::new("the worker is gone"));
            }
            to_server.unbounded_send(frame.to_owned()).map_err(|e| SendError::new(e.to_string()))
        }),
        clock,
    );
    configure(&connection);
    let (s, a, d) = (session.clone(), alive.clone(), delivering.clone());
    let _ = spawner.spawn_local(async move {
        while let Some(frame) = server_inbox.next().await {
            if a.get() && d.get() {
                s.handle(&frame);
            }
        }
    });
    let (c, a, d) = (connection.clone(), alive.clone(), delivering.clone());
    let _ = spawner.spawn_local(async move {
        while let Some(frame) = host_inbox.next().await {
            if a.get() && d.get() {
                c.receive(&frame);
            }
        }
    });
    let transport =
        Rc::new(PipeTransport { alive, delivering, connection: connection.clone(), terminated: Cell::new(false) });
    (connection, session, transport)
}

/// Initialized clients of several servers, callable by name: the tool system's view of a manager.
#[derive(Default)]
pub(crate) struct Clients {
    pub(crate) clients: RefCell<HashMap<String, Rc<McpClient>>>,
    pub(crate) calls: Cell<usize>,
}

impl Clients {
    pub(crate) fn start(&self, pool: &mut LocalPool, name: &str, server: Server) -> Rc<McpClient> {
        let (connection, _session, transport) =
            wire(&pool.spawner(), name, server, Env::default(), Rc::new(|| 0.0), |_| {});
        let options = ClientOptions::default();
        let transport: Rc<dyn Transport> = transport;
        let init = McpClient::connect(connection, &options, Some(transport));
        let client = Rc::new(pool.run_until(init).unwrap_or_else(|e| panic!("initialize: {e}")));
        self.clients.borrow_mut().insert(name.to_owned(), client.clone());
        client
    }
}

impl McpCaller for Clients {
    fn call_tool(
        &self,
        server: &str,
        tool: &str,
        arguments: Box<RawValue>,
        options: CallOptions,
    ) -> LocalBoxFuture<'static, Result<Box<RawValue>>> {
        self.calls.set(self.calls.get() + 1);
        let client = self.clients.borrow().get(server).cloned();
        let tool = tool.to_owned();
        let server = server.to_owned();
        Box::pin(async move {
            let client = client.ok_or(Error::from(ClientError::Closed { server, reason: "not started".into() }))?;
            Ok(client.call_tool_raw(&tool, Some(&arguments), options).await?)
        })
    }
}

/// Time and tasks for the manager: the manual clock and the test's pool.
pub(crate) struct TestPlatform {
    pub(crate) time: ManualTime,
    pub(crate) spawner: LocalSpawner,
}

impl Platform for TestPlatform {
    fn now_ms(&self) -> f64 {
        self.time.now()
    }

    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()> {
        self.time.sleep(ms)
    }

    fn spawn(&self, task: LocalBoxFuture<'static, ()>) {
        let _ = self.spawner.spawn_local(task);
    }
}

/// The environment a server was launched with.
type LaunchEnv = (String, Vec<(String, String)>);

/// How a test server behaves when launched.
#[derive(Clone)]
pub(crate) enum Behaviour {
    /// Serves this SDK server (built anew at each launch).
    Serve(Rc<dyn Fn() -> Server>),
    /// Fails to load, as a bundle that 404s.
    FailLoad,
    /// Never finishes starting.
    Hang,
    /// A remote server that asks for a sign-in that does not happen.
    Unauthorized,
}

/// A launcher of in-memory servers, recording what it was asked.
pub(crate) struct TestLauncher {
    pub(crate) spawner: LocalSpawner,
    pub(crate) time: ManualTime,
    pub(crate) behaviours: RefCell<HashMap<String, Behaviour>>,
    /// Launches, in order, by server name.
    pub(crate) launches: RefCell<Vec<String>>,
    /// The environment of each launch.
    pub(crate) envs: RefCell<Vec<LaunchEnv>>,
    /// Live "workers" by server name (latest last).
    pub(crate) live: RefCell<Vec<(String, Rc<PipeTransport>)>>,
    /// The manifest each server's bundle has (none unless set), and how often each was read.
    pub(crate) manifests: RefCell<HashMap<String, Result<Option<BundleManifest>>>>,
    pub(crate) manifest_reads: RefCell<Vec<String>>,
}

impl TestLauncher {
    pub(crate) fn new(spawner: LocalSpawner, time: ManualTime) -> Self {
        Self {
            spawner,
            time,
            behaviours: RefCell::new(HashMap::new()),
            launches: RefCell::new(Vec::new()),
            envs: RefCell::new(Vec::new()),
            live: RefCell::new(Vec::new()),
            manifests: RefCell::new(HashMap::new()),
            manifest_reads: RefCell::new(Vec::new()),
        }
    }

    /// Gives `name`'s bundle a manifest (or makes reading it fail).
    pub(crate) fn set_manifest(&self, name: &str, manifest: Result<Option<BundleManifest>>) {
        self.manifests.borrow_mut().insert(name.to_owned(), manifest);
    }

    pub(crate) fn set(&self, name: &str, behaviour: Behaviour) {
        self.behaviours.borrow_mut().insert(name.to_owned(), behaviour);
    }

    pub(crate) fn launch_count(&self, name: &str) -> usize {
        self.launches.borrow().iter().filter(|n| *n == name).count()
    }

    /// The latest worker of `name`.
    pub(crate) fn worker(&self, name: &str) -> Rc<PipeTransport> {
        let live = self.live.borrow();
        let found = live.iter().rev().find(|(n, _)| n == name).map(|(_, t)| t.clone());
        found.unwrap_or_else(|| panic!("no worker for {name}"))
    }

    /// What the browser glue's sweeper does every 100 ms.
    pub(crate) fn sweep(&self) {
        for (_, transport) in self.live.borrow().iter() {
            transport.connection.sweep();
        }
    }
}

impl Launcher for TestLauncher {
    fn manifest(&self, server: &str, _: &TransportConfig) -> LocalBoxFuture<'static, Result<Option<BundleManifest>>> {
        self.manifest_reads.borrow_mut().push(server.to_owned());
        let manifest = self.manifests.borrow().get(server).cloned().unwrap_or(Ok(None));
        Box::pin(async move { manifest })
    }

    fn launch(&self, request: LaunchRequest) -> LocalBoxFuture<'static, Result<McpClient>> {
        let name = request.server.clone();
        self.launches.borrow_mut().push(name.clone());
        // The test reads back what the server was given, so it keeps a plain copy: tests only.
        let env: Vec<(String, String)> = request.env.iter().map(|(k, v)| (k.clone(), v.expose().to_owned())).collect();
        self.envs.borrow_mut().push((name.clone(), env.clone()));
        let behaviour = self.behaviours.borrow().get(&name).cloned();
        match behaviour {
            None | Some(Behaviour::FailLoad) => Box::pin(async move {
                Err(ClientError::WorkerLoad { server: name, cause: "HTTP 404 (test)".into() }.into())
            }),
            Some(Behaviour::Hang) => Box::pin(futures_util::future::pending()),
            Some(Behaviour::Unauthorized) => {
                let reason = mcp_worker_client::http::oauth::setup::AuthorizationReason::SignIn;
                let required = mcp_worker_client::http::oauth::setup::AuthorizationRequired::new(
                    "https://mcp.example.com/mcp",
                    reason,
                    request.oauth.is_some(),
                );
                (request.on_authorization_required)(required);
                let detail = Some("authorization failed: the sign-in window was closed".to_owned());
                Box::pin(async move {
                    Err(ClientError::Unauthorized { server: name, status: 401, challenge: None, detail }.into())
                })
            }
            Some(Behaviour::Serve(build)) => {
                let env = Env::from_pairs(env);
                let hook = request.on_connection.clone();
                let (connection, session, transport) =
                    wire(&self.spawner, &name, build(), env, self.time.clock(), |c| hook(c));
                let time = self.time.clone();
                session.set_sleeper(Rc::new(move |ms| time.sleep(ms)));
                self.live.borrow_mut().push((name, transport.clone()));
                let options = request.client;
                Box::pin(async move {
                    let transport: Rc<dyn Transport> = transport;
                    Ok(McpClient::connect(connection, &options, Some(transport)).await?)
                })
            }
        }
    }
}
