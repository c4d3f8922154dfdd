//! The McpTransportManager: the configured servers, their lifecycle and health, and tool calls to them.
//!
//! - **Configs** ([`crate::config`]): add, remove, enable, disable at run time, without disturbing other servers.
//!   `stdio` and `http` entries are kept and reported (`error` with the reason), never started.
//! - **Start**: lazily on first use (a tool call, [`McpTransportManager::connect`], or
//!   [`McpTransportManager::start_all`]), or at once when the config says `autoStart`. Concurrent first uses share
//!   one start. Discovery registers the server's tools in the shared [`ToolRegistry`].
//! - **Health** per server ([`ServerHealth`]): status, tool count, last error, last connected, consecutive
//!   failures. Every change is an event ([`ManagerEvent`]).
//! - **Failures**: a crash fails the server's pending calls at once (the connection does) and the server is
//!   restarted after an exponential, bounded backoff, with its config. After 3 consecutive failures (configurable)
//!   it is marked `error` and stays down until a manual `connect`. A successful call resets the count. Nothing
//!   about one server waits on another.
//! - **Timeouts**: each call has one (60 s by default; per server in its config; per call), optionally reset by
//!   progress up to a hard maximum; on timeout or abort the server is sent `notifications/cancelled`. A server
//!   that keeps working on a cancelled call past a grace period, or stops answering `ping` after one, is
//!   terminated (`worker.terminate()`) and restarted.
//! - **List changes**: `notifications/tools/list_changed` → rediscovery → registry updated → event.
//!   `resources`/`prompts` list changes are reported as events.
//! - **Requests from servers** (elicitation, sampling, roots) go to the application's
//!   [`ServerRequestHandlers`]; capabilities without a handler are not declared.
//!
//! The manager is platform-free: the browser supplies a [`Platform`] and a [`Launcher`] (see `manager::browser`),
//! native tests supply a manual clock and in-memory servers.

mod authorization;
mod backoff;
#[cfg(target_arch = "wasm32")]
pub mod browser;
mod calls;
mod credentials;
mod features;
mod health;
mod import;
mod lifecycle;
mod platform;
mod resource_tool;

pub use crate::status::ServerStatus;
pub use backoff::Backoff;
pub use health::{FailurePolicy, ServerHealth};
pub use import::ImportReport;
pub use platform::{
    AUTHORIZATION_RECORD, CredentialSource, CredentialsNeeded, LaunchRequest, Launcher, Platform, StaticCredentials,
};
pub use resource_tool::RESOURCE_TOOL;

use crate::config::ServerConfig;
use crate::listeners::{Callback, ListenerId, Listeners};
use crate::registry::ToolRegistry;
use crate::{Error, Result};
use futures_util::future::{LocalBoxFuture, Shared};
use litemap::LiteMap;
use mcp_worker_client::Error as ClientError;
use mcp_worker_client::connection::FloodReport;
use mcp_worker_client::http::oauth::setup::OAuthSetup;
use mcp_worker_client::limits::WorkerLimits;
use mcp_worker_client::sandbox::BlockedRequest;
use mcp_worker_client::server_requests::ServerRequestHandlers;
use mcp_worker_client::session::{ClientOptions, McpClient};
use mcp_worker_protocol::LoggingMessageParams;
use mcp_worker_protocol::notifications::ProgressParams;
use mcp_worker_protocol::quoted::quoted;
use serde::Serialize;
use std::cell::RefCell;
use std::fmt;
use std::rc::{Rc, Weak};

/// The default timeout of a tool call.
pub const DEFAULT_CALL_TIMEOUT_MS: u32 = 60_000;

/// How the manager behaves; the defaults suit most pages.
#[derive(Clone)]
#[non_exhaustive]
pub struct ManagerOptions {
    /// Timeout of a tool call when neither the call nor the server's config sets one.
    pub default_timeout_ms: u32,
    /// When to give up restarting a failing server, and the backoff between restarts.
    pub failure_policy: FailurePolicy,
    /// How long a server may keep working on a cancelled call (or take to answer the `ping` that follows one)
    /// before it is terminated and restarted.
    pub cancel_grace_ms: u32,
    /// Client identity, handshake timeout and base capabilities for every server.
    pub client: ClientOptions,
    /// Handlers for server→client requests; their capabilities are declared to every server.
    pub server_requests: Option<ServerRequestHandlers>,
    /// Ask servers for progress on every tool call and report it as [`ManagerEvent::Progress`] (default false:
    /// only calls that pass their own progress handler ask for progress).
    pub report_progress: bool,
    /// The bounds of each worker connection: largest frame, heartbeat (see [`WorkerLimits`]).
    pub worker_limits: WorkerLimits,
    /// How remote servers that ask for OAuth authorization get it; without it they fail with `UNAUTHORIZED`.
    pub oauth: Option<OAuthSetup>,
}

impl Default for ManagerOptions {
    fn default() -> Self {
        Self {
            default_timeout_ms: DEFAULT_CALL_TIMEOUT_MS,
            failure_policy: FailurePolicy::default(),
            cancel_grace_ms: 5_000,
            client: ClientOptions::default(),
            server_requests: None,
            report_progress: false,
            worker_limits: WorkerLimits::default(),
            oauth: None,
        }
    }
}

impl fmt::Debug for ManagerOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ManagerOptions")
            .field("default_timeout_ms", &self.default_timeout_ms)
            .field("failure_policy", &self.failure_policy)
            .field("cancel_grace_ms", &self.cancel_grace_ms)
            .field("server_requests", &self.server_requests)
            .field("report_progress", &self.report_progress)
            .field("worker_limits", &self.worker_limits)
            .finish_non_exhaustive()
    }
}

/// Where the servers stand as a whole: [`McpTransportManager::registry_status`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RegistryStatus {
    /// No server has been started (or there is none): lazy servers start at first use.
    Idle,
    /// A server is starting (connecting and listing its tools).
    Discovering,
    /// The servers that were started are connected.
    Ready,
    /// Some server cannot be used now: it failed, or waits for credentials or a sign-in.
    Partial,
}

/// What [`McpTransportManager::update`] did to a server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ConfigChange {
    /// There was no server of its name: it was added.
    Added,
    /// Its config was changed.
    Changed,
    /// Its config was already this one.
    Unchanged,
}

/// Which list a server said changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ListKind {
    /// `notifications/tools/list_changed` (the manager rediscovers and updates the registry).
    Tools,
    /// `notifications/resources/list_changed`.
    Resources,
    /// `notifications/prompts/list_changed`.
    Prompts,
}

/// What the manager reports to the page (the status socket publishes these).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
#[non_exhaustive]
pub enum ManagerEvent {
    /// A server's health changed.
    Status {
        /// The new health.
        health: ServerHealth,
    },
    /// A server's tools were (re)discovered and the registry updated.
    ToolsChanged {
        /// The server.
        server: String,
        /// Its tools' registry names.
        tools: Vec<String>,
    },
    /// A server said a list other than tools changed.
    ListChanged {
        /// The server.
        server: String,
        /// Which list.
        list: ListKind,
    },
    /// A server cannot start without credentials (sent after its `needs_credentials` status): which, with what
    /// each is for, so that a UI can ask the user. Never a value.
    CredentialsRequired {
        /// The server.
        server: String,
        /// The credentials to provide or unlock.
        credentials: Vec<crate::credentials::CredentialDecl>,
        /// True when they may well be stored but the vault is locked: unlocking is what helps.
        locked: bool,
        /// Why the server cannot start, as the credential source said it.
        reason: String,
        /// Set when stored credentials are held back because the server's code changed since they were stored:
        /// what changed. The application answers with [`McpTransportManager::confirm_credential_identity`] once
        /// its user agrees (or removes the server).
        identity_change: Option<crate::credentials::IdentityChange>,
    },
    /// A remote server cannot be used until the user acts: signs in (again) or grants more. Sent before the
    /// application's OAuth `authorize` is called (a popup opens, usually), and when the server asks for
    /// authorization that no `oauth` option is configured for.
    AuthorizationRequired {
        /// The server.
        server: String,
        /// What the user must do, and for which URL and authorization server.
        required: mcp_worker_client::http::oauth::setup::AuthorizationRequired,
    },
    /// The browser blocked a request of a sandboxed server: its network policy does not allow the origin.
    NetworkBlocked {
        /// The server, the origin and the directive.
        request: BlockedRequest,
    },
    /// A resource a server was subscribed to changed (`notifications/resources/updated`): read it again.
    ResourceUpdated {
        /// The server.
        server: String,
        /// The resource.
        uri: String,
    },
    /// A server was removed from the configuration.
    Removed {
        /// The server.
        server: String,
    },
    /// A server failed and will be restarted after `backoff_ms` (sent after its `Status`).
    Restarting {
        /// The server.
        server: String,
        /// Which restart since the last success (1 for the first).
        attempt: u32,
        /// The wait before the restart.
        backoff_ms: u32,
        /// The failure.
        error: String,
    },
    /// A server logged a message (`notifications/message`).
    Log {
        /// The server.
        server: String,
        /// What it sent.
        message: LoggingMessageParams,
    },
    /// A server sent more than its limits allow (see [`mcp_worker_client::limits`]): what was dropped, coalesced or
    /// refused since the last such event (at most one a second per server).
    Throttled {
        /// The server.
        server: String,
        /// What went past the limits.
        report: FloodReport,
    },
    /// A server reported progress on a call (with [`ManagerOptions::report_progress`], or for a call that passed
    /// its own progress handler).
    Progress {
        /// The server.
        server: String,
        /// What it sent.
        progress: ProgressParams,
    },
}

type StartFuture = Shared<LocalBoxFuture<'static, Result<Rc<McpClient>>>>;

/// One configured server.
struct Slot {
    config: ServerConfig,
    health: ServerHealth,
    /// Changes on every start and every intentional stop, so that events from an old connection are ignored.
    generation: u64,
    client: Option<Rc<McpClient>>,
    starting: Option<StartFuture>,
    discovery: Discovery,
    watchdog_armed: bool,
    /// What the last start lacked, while the server is `needs_credentials`.
    needs: Option<CredentialsNeeded>,
    /// Subscriptions and log level, asked again of each new session.
    interest: features::Interest,
    /// Whether the running session's tools include the `read_resource` tool the manager adds.
    resource_tool: bool,
}

/// Rediscovery after `list_changed`: one at a time, and once more if another notice came meanwhile.
#[derive(Default)]
struct Discovery {
    running: bool,
    again: bool,
}

struct Inner {
    runtime: Rc<dyn Platform>,
    launcher: Rc<dyn Launcher>,
    credentials: RefCell<Option<Rc<dyn CredentialSource>>>,
    registry: Rc<ToolRegistry>,
    options: ManagerOptions,
    slots: RefCell<LiteMap<String, Slot>>,
    events: Listeners<ManagerEvent>,
}

/// The servers of a page. Cheap to clone; clones are the same manager.
#[derive(Clone)]
pub struct McpTransportManager {
    inner: Rc<Inner>,
}

impl fmt::Debug for McpTransportManager {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpTransportManager")
            .field("servers", &self.inner.slots.borrow().keys().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

/// A handle on a manager that does not keep it alive: for listeners that the manager itself holds.
#[derive(Clone)]
pub struct WeakManager(Weak<Inner>);

impl fmt::Debug for WeakManager {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("WeakManager").field(&self.0.strong_count()).finish()
    }
}

impl WeakManager {
    /// The manager, if it is still alive.
    pub fn upgrade(&self) -> Option<McpTransportManager> {
        self.0.upgrade().map(|inner| McpTransportManager { inner })
    }
}

impl McpTransportManager {
    /// A handle that does not keep the manager alive.
    pub fn downgrade(&self) -> WeakManager {
        WeakManager(Rc::downgrade(&self.inner))
    }

    /// A manager without servers that registers tools in `registry`.
    pub fn new(
        runtime: Rc<dyn Platform>,
        launcher: Rc<dyn Launcher>,
        registry: Rc<ToolRegistry>,
        options: ManagerOptions,
    ) -> Self {
        let inner = Inner {
            runtime,
            launcher,
            credentials: RefCell::new(None),
            registry,
            options,
            slots: RefCell::new(LiteMap::new()),
            events: Listeners::new(),
        };
        Self { inner: Rc::new(inner) }
    }

    /// Where the credentials servers declare come from. Without a source, a server that declares any is marked
    /// `needs_credentials`.
    pub fn set_credential_source(&self, source: Option<Rc<dyn CredentialSource>>) {
        *self.inner.credentials.borrow_mut() = source;
    }

    /// The registry the manager keeps up to date.
    pub fn registry(&self) -> &Rc<ToolRegistry> {
        &self.inner.registry
    }

    /// Adds a server. Fails when the name is taken or the config is invalid. A server with `autoStart` starts now
    /// (in the background); the others at first use.
    pub fn add(&self, config: ServerConfig) -> Result<()> {
        if let Err(errors) = config.validate() {
            let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
            return Err(Error::invalid(shown.join("; ")));
        }
        let name = config.name.clone();
        let auto_start = config.auto_start;
        {
            let mut slots = self.inner.slots.borrow_mut();
            if slots.contains_key(&name) {
                return Err(Error::invalid(format!("a server named {name} already exists", name = quoted(&name))));
            }
            let health = ServerHealth::new(&config);
            let slot = Slot {
                config,
                health,
                generation: 0,
                client: None,
                starting: None,
                discovery: Discovery::default(),
                watchdog_armed: false,
                needs: None,
                interest: features::Interest::default(),
                resource_tool: false,
            };
            slots.insert(name.clone(), slot);
        }
        self.inner.emit_status(&name);
        if auto_start {
            self.inner.start_in_background(&name);
        } else {
            self.inner.preview_tools_in_background(&name);
        }
        Ok(())
    }

    /// Adds a server, or changes the one of its name in place: what a config reloaded from a file needs. A change
    /// of `enabled` or `allowDestructiveTools` alone takes effect as [`enable`](Self::enable),
    /// [`disable`](Self::disable) and [`set_allow_destructive_tools`](Self::set_allow_destructive_tools) do; any
    /// other change stops the server (its pending calls fail, saying its config changed) and its next use, or
    /// `autoStart`, starts it with the new config. Its stored credentials stay (a credential bound to another
    /// bundle waits for the application's confirmation, as always).
    pub fn update(&self, config: ServerConfig) -> Result<ConfigChange> {
        let Some(current) = self.config(&config.name) else {
            self.add(config)?;
            return Ok(ConfigChange::Added);
        };
        if current == config {
            return Ok(ConfigChange::Unchanged);
        }
        if let Err(errors) = config.validate() {
            let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
            return Err(Error::invalid(shown.join("; ")));
        }
        let name = config.name.clone();
        let mut in_place = current.clone();
        in_place.enabled = config.enabled;
        in_place.allow_destructive_tools = config.allow_destructive_tools;
        if in_place == config {
            if current.allow_destructive_tools != config.allow_destructive_tools {
                self.set_allow_destructive_tools(&name, config.allow_destructive_tools)?;
            }
            match (current.enabled, config.enabled) {
                (false, true) => self.enable(&name)?,
                (true, false) => self.disable(&name)?,
                _ => {}
            }
            return Ok(ConfigChange::Changed);
        }
        let start = config.enabled && config.auto_start;
        self.inner.stop(&name, "its config changed", move |slot| slot.config = config)?;
        if start {
            self.inner.start_in_background(&name);
        } else {
            self.inner.preview_tools_in_background(&name);
        }
        Ok(ConfigChange::Changed)
    }

    /// Removes a server: stops it (its pending calls fail at once), unregisters its tools, and deletes its stored
    /// credentials from the credential source (in the background), so that a later server of its name does not
    /// inherit them.
    pub fn remove(&self, name: &str) -> Result<()> {
        let slot = self.inner.slots.borrow_mut().remove(name).ok_or_else(|| unknown(name))?;
        self.inner.forget_credentials(name);
        if let Some(client) = slot.client {
            client.close_with(ClientError::Closed { server: name.to_owned(), reason: "the server was removed".into() });
        }
        self.inner.registry.unregister_server(name);
        self.inner.events.emit(&ManagerEvent::Removed { server: name.to_owned() });
        Ok(())
    }

    /// Enables a disabled server (and starts it if its config says `autoStart`). Enabling an enabled server
    /// changes nothing.
    pub fn enable(&self, name: &str) -> Result<()> {
        let auto_start = self.inner.with_slot(name, |slot| {
            if slot.config.enabled {
                return None;
            }
            slot.config.enabled = true;
            slot.health.reset(&slot.config);
            Some(slot.config.auto_start)
        })?;
        let Some(auto_start) = auto_start else { return Ok(()) };
        self.inner.emit_status(name);
        if auto_start {
            self.inner.start_in_background(name);
        } else {
            self.inner.preview_tools_in_background(name);
        }
        Ok(())
    }

    /// Changes whether a server's destructive tools are shown to agents (its config's `allow_destructive_tools`),
    /// at once and for its later starts, without restarting it or touching its credentials.
    pub fn set_allow_destructive_tools(&self, name: &str, allow: bool) -> Result<()> {
        let changed = self.inner.with_slot(name, |slot| {
            let changed = slot.config.allow_destructive_tools != allow;
            slot.config.allow_destructive_tools = allow;
            changed
        })?;
        if changed {
            self.inner.registry.allow_destructive(name, allow);
            self.inner.emit_status(name);
        }
        Ok(())
    }

    /// Disables a server: stops it and unregisters its tools; it will not start until enabled.
    pub fn disable(&self, name: &str) -> Result<()> {
        self.inner.stop(name, "the server was disabled", |slot| slot.config.enabled = false)
    }

    /// Stops a server (pending calls fail at once) and unregisters its tools. Its next use starts it again: its
    /// bundle's manifest lists its tools meanwhile, as before its first start, so an agent can still call them.
    pub fn disconnect(&self, name: &str) -> Result<()> {
        self.inner.stop(name, "disconnected by the application", |_| {})?;
        self.inner.preview_tools_in_background(name);
        Ok(())
    }

    /// Starts a server now and waits until it is connected, forgetting earlier failures: the manual reconnect that
    /// brings a server out of `error`.
    pub async fn connect(&self, name: &str) -> Result<()> {
        self.inner.with_slot(name, |slot| {
            slot.health.consecutive_failures = 0;
            if slot.health.status == ServerStatus::Error && slot.config.transport.unavailable_reason().is_none() {
                slot.health.status = ServerStatus::Disconnected;
            }
            slot.health.next_retry_ms = None;
        })?;
        self.inner.ensure_connected(name, true).await.map(|_| ())
    }

    /// Disconnects, then connects.
    pub async fn restart(&self, name: &str) -> Result<()> {
        self.disconnect(name)?;
        self.connect(name).await
    }

    /// Starts every enabled server that is not running (lazy ones too), concurrently, and waits for each to connect
    /// or fail. One slow or failing server delays only its own entry.
    pub async fn start_all(&self) -> Vec<(String, Result<()>)> {
        let names: Vec<String> = self
            .inner
            .slots
            .borrow()
            .iter()
            .filter(|(_, slot)| {
                slot.config.enabled
                    && slot.config.transport.unavailable_reason().is_none()
                    && slot.health.status != ServerStatus::Error
            })
            .map(|(name, _)| name.clone())
            .collect();
        let starts = names.iter().map(|name| async move {
            let outcome = self.inner.ensure_connected(name, false).await.map(|_| ());
            (name.clone(), outcome)
        });
        futures_util::future::join_all(starts).await
    }

    /// Where the servers stand as a whole (disabled ones aside), for a page that shows one light for all of them:
    /// `Discovering` while any is starting, else `Partial` when any cannot be used now (`error`, or waiting for
    /// credentials or a sign-in), else `Ready` when any is connected, else `Idle` (none started yet, or none).
    pub fn registry_status(&self) -> RegistryStatus {
        let slots = self.inner.slots.borrow();
        let statuses: Vec<ServerStatus> = slots.values().map(|slot| slot.health.status).collect();
        let any = |wanted: &[ServerStatus]| statuses.iter().any(|status| wanted.contains(status));
        if any(&[ServerStatus::Connecting]) {
            RegistryStatus::Discovering
        } else if any(&[ServerStatus::Error, ServerStatus::NeedsCredentials, ServerStatus::NeedsAuthorization]) {
            RegistryStatus::Partial
        } else if any(&[ServerStatus::Connected]) {
            RegistryStatus::Ready
        } else {
            RegistryStatus::Idle
        }
    }

    /// A server's health.
    pub fn health(&self, name: &str) -> Option<ServerHealth> {
        self.inner.slots.borrow().get(name).map(|slot| slot.health.clone())
    }

    /// Every server's health, by name.
    pub fn health_all(&self) -> Vec<ServerHealth> {
        self.inner.slots.borrow().values().map(|slot| slot.health.clone()).collect()
    }

    /// A server's config.
    pub fn config(&self, name: &str) -> Option<ServerConfig> {
        self.inner.slots.borrow().get(name).map(|slot| slot.config.clone())
    }

    /// The running client of a server, if it runs.
    pub fn client(&self, name: &str) -> Option<Rc<McpClient>> {
        self.inner.slots.borrow().get(name).and_then(|slot| slot.client.clone())
    }

    /// What a server in `needs_credentials` lacks: the credentials to ask for (with descriptions), and whether
    /// unlocking the vault is what helps. `None` for a server in any other state.
    pub fn credentials_needed(&self, name: &str) -> Option<CredentialsNeeded> {
        let slots = self.inner.slots.borrow();
        let slot = slots.get(name)?;
        (slot.health.status == ServerStatus::NeedsCredentials).then(|| slot.needs.clone()).flatten()
    }

    /// Every credential the server declares, as its next start will ask for them: its bundle manifest's (fetched
    /// now), its config's, and those its `env` refers to ([`crate::credentials::server_declarations`]).
    pub async fn declared_credentials(&self, name: &str) -> Result<Vec<crate::credentials::CredentialDecl>> {
        let config = self.config(name).ok_or_else(|| unknown(name))?;
        let manifest = self.inner.launcher.manifest(name, &config.transport).await?;
        Inner::declarations(name, &config, manifest.as_ref())
    }

    /// Tries again a server that waits for credentials (call it when the vault is unlocked or a credential set).
    pub fn credentials_changed(&self, name: &str) {
        let waiting = self.health(name).is_some_and(|h| h.status == ServerStatus::NeedsCredentials);
        if waiting {
            self.inner.start_in_background(name);
        }
    }

    /// Tries again every server that waits for credentials (call it when the vault is unlocked, or credentials
    /// were set or rotated).
    pub fn credentials_changed_all(&self) {
        for health in self.health_all() {
            self.credentials_changed(&health.name);
        }
    }

    /// Receives every [`ManagerEvent`].
    pub fn subscribe(&self, callback: Callback<ManagerEvent>) -> ListenerId {
        self.inner.events.subscribe(callback)
    }

    /// Stops a subscription.
    pub fn unsubscribe(&self, id: ListenerId) -> bool {
        self.inner.events.unsubscribe(id)
    }
}

impl Inner {
    fn with_slot<R>(&self, name: &str, f: impl FnOnce(&mut Slot) -> R) -> Result<R> {
        let mut slots = self.slots.borrow_mut();
        let slot = slots.get_mut(name).ok_or_else(|| unknown(name))?;
        Ok(f(slot))
    }

    fn health_of(&self, name: &str) -> Option<ServerHealth> {
        self.slots.borrow().get(name).map(|slot| slot.health.clone())
    }

    fn emit_status(&self, name: &str) {
        if let Some(health) = self.health_of(name) {
            self.events.emit(&ManagerEvent::Status { health });
        }
    }
}

fn unknown(name: &str) -> Error {
    Error::UnknownServer { server: name.to_owned() }
}

#[cfg(test)]
#[path = "manager_tests.rs"]
mod tests;
