//! The whole runtime, assembled: what an agent in Rust holds, and what the JavaScript `McpRuntime` wraps.
//!
//! [`Runtime::builder`] takes the two things that differ between the browser and a test (the [`Platform`] for time
//! and tasks, and the [`Launcher`] that starts servers) and wires the rest the way every host needs it: one
//! [`ToolRegistry`] shared by the [`McpTransportManager`] and the [`ToolSystem`], the status socket
//! ([`ObservationManager`]) watching all three, credential values scrubbed from every event, and the requests
//! servers send the application (elicitation, sampling) kept for the application to answer.

use crate::credentials::CredentialDecl;
use crate::manager::{CredentialSource, Launcher, ManagerOptions, McpTransportManager, Platform};
use crate::observation::{
    DEFAULT_HISTORY, EventCallback, EventFilter, ObservationManager, RedactingCredentials, ServerRequests,
    SubscriptionId, Watches,
};
use crate::registry::{ToolLimits, ToolRegistry};
use crate::tool_system::{ExecuteOptions, ParsedToolCall, ToolResult, ToolSystem};
use crate::{Error, Result};
use mcp_worker_client::server_requests::{ServerRequestHandlers, Spawner};
use serde_json::{Value, json};
use std::cell::{Cell, RefCell};
use std::fmt;
use std::rc::Rc;

/// Which requests from servers the application answers (their capabilities are declared to every server).
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct ClientFeatures {
    /// Servers may ask the user for input (`elicitation/create`); each request waits in
    /// [`Runtime::server_requests`] for the application's answer.
    pub elicitation: bool,
    /// Servers may ask the application's model for a completion (`sampling/createMessage`); likewise: nothing is
    /// answered, and no model called, until the application answers each request explicitly.
    pub sampling: bool,
    /// The roots the client offers (`roots/list`), as MCP `Root` objects; `None` offers none.
    pub roots: Option<Vec<Value>>,
}

/// Assembles a [`Runtime`]. Every setting has a default that suits most pages.
#[must_use]
pub struct RuntimeBuilder {
    platform: Rc<dyn Platform>,
    launcher: Rc<dyn Launcher>,
    options: ManagerOptions,
    credentials: Option<Rc<dyn CredentialSource>>,
    features: ClientFeatures,
    history: usize,
    id_prefix: String,
    tool_limits: ToolLimits,
}

impl fmt::Debug for RuntimeBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RuntimeBuilder")
            .field("options", &self.options)
            .field("credentials", &self.credentials.is_some())
            .field("features", &self.features)
            .field("history", &self.history)
            .field("id_prefix", &self.id_prefix)
            .field("tool_limits", &self.tool_limits)
            .finish_non_exhaustive()
    }
}

impl RuntimeBuilder {
    /// Manager options: timeouts, restart policy, client identity, progress reporting.
    pub fn options(mut self, options: ManagerOptions) -> Self {
        self.options = options;
        self
    }

    /// Where the credentials servers declare come from (the encrypted vault of `mcp-worker-vault`, or the
    /// application's own). Without one, a server that declares a required credential waits in `needs_credentials`.
    pub fn credentials(mut self, source: Rc<dyn CredentialSource>) -> Self {
        self.credentials = Some(source);
        self
    }

    /// Which server→client requests the application answers.
    pub fn features(mut self, features: ClientFeatures) -> Self {
        self.features = features;
        self
    }

    /// How many status events the socket keeps for late subscribers ([`DEFAULT_HISTORY`] by default).
    pub fn history(mut self, events: usize) -> Self {
        self.history = events;
        self
    }

    /// The prefix of event ids (unique per page load, so that observation ids never repeat across loads).
    pub fn id_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.id_prefix = prefix.into();
        self
    }

    /// Bounds on each server's tool list: how many tools, how long a title and a description
    /// ([`ToolLimits::default`]: 1,000 tools, 4,096 and 256 characters).
    pub fn tool_limits(mut self, limits: ToolLimits) -> Self {
        self.tool_limits = limits;
        self
    }

    /// The runtime, with no server yet.
    pub fn build(self) -> Runtime {
        let Self { platform, launcher, mut options, credentials, features, history, id_prefix, tool_limits } = self;
        let clock: mcp_worker_client::connection::Clock = {
            let platform = platform.clone();
            Rc::new(move || platform.now_ms())
        };
        let hub = ObservationManager::new(clock.clone(), id_prefix, history);
        let requests = ServerRequests::new(hub.clone());
        let roots = features.roots.map(|roots| Rc::new(RefCell::new(roots)));
        if features.elicitation || features.sampling || roots.is_some() {
            let spawner: Spawner = {
                let platform = platform.clone();
                Rc::new(move |task| platform.spawn(task))
            };
            let mut handlers = ServerRequestHandlers::new(spawner);
            if features.elicitation {
                handlers = handlers.on_elicitation(requests.handler());
            }
            if features.sampling {
                handlers = handlers.on_sampling(requests.handler());
            }
            if let Some(roots) = &roots {
                let roots = roots.clone();
                handlers = handlers.on_roots(Rc::new(move |_| {
                    let answer = json!({ "roots": *roots.borrow() });
                    Box::pin(async move { Ok(answer) })
                }));
            }
            options.server_requests = Some(handlers);
        }
        let registry = Rc::new(ToolRegistry::with_limits(tool_limits));
        let manager = McpTransportManager::new(platform, launcher, registry.clone(), options);
        if let Some(source) = credentials {
            let scrubbing = RedactingCredentials::new(source, hub.redactor().clone());
            manager.set_credential_source(Some(Rc::new(scrubbing)));
        }
        let system = ToolSystem::new(registry.clone(), Rc::new(manager.clone()), clock);
        let mut watches = hub.watch_manager(&manager);
        watches.extend(hub.watch_registry(&registry));
        watches.extend(hub.watch_tool_system(&system));
        Runtime {
            manager,
            registry,
            system,
            hub,
            requests,
            watches: RefCell::new(Some(watches)),
            closed: Cell::new(false),
            roots,
        }
    }
}

/// The runtime of a page: its servers, one registry of their tools and the native ones, the tool system that runs an
/// agent's calls, and the status socket. Single-threaded, as the page is.
pub struct Runtime {
    manager: McpTransportManager,
    registry: Rc<ToolRegistry>,
    system: ToolSystem,
    hub: ObservationManager,
    requests: Rc<ServerRequests>,
    watches: RefCell<Option<Watches>>,
    closed: Cell<bool>,
    /// The roots servers are answered, when the application offers roots.
    roots: Option<Rc<RefCell<Vec<Value>>>>,
}

impl fmt::Debug for Runtime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Runtime")
            .field("manager", &self.manager)
            .field("registry", &self.registry)
            .field("closed", &self.closed.get())
            .finish_non_exhaustive()
    }
}

impl Runtime {
    /// A runtime for the page: time and tasks from the browser, each server in its own module Web Worker (every
    /// worker of a bundle sharing one compiled module).
    #[cfg(target_arch = "wasm32")]
    pub fn browser() -> RuntimeBuilder {
        use crate::manager::browser::{BrowserPlatform, worker_launcher};
        Self::builder(Rc::new(BrowserPlatform), worker_launcher())
    }

    /// A runtime on `platform` (time and tasks) that starts servers with `launcher`.
    pub fn builder(platform: Rc<dyn Platform>, launcher: Rc<dyn Launcher>) -> RuntimeBuilder {
        RuntimeBuilder {
            platform,
            launcher,
            options: ManagerOptions::default(),
            credentials: None,
            features: ClientFeatures::default(),
            history: DEFAULT_HISTORY,
            id_prefix: "mcpw".to_owned(),
            tool_limits: ToolLimits::default(),
        }
    }

    /// The servers: add, remove, enable, disable, connect, health.
    pub fn manager(&self) -> &McpTransportManager {
        &self.manager
    }

    /// The union registry of MCP and native tools, with per-thread enablement and the export formats.
    pub fn registry(&self) -> &Rc<ToolRegistry> {
        &self.registry
    }

    /// The tool system (for its lower-level calls; [`Runtime::execute_tools`] is what agents use).
    pub fn tool_system(&self) -> &ToolSystem {
        &self.system
    }

    /// The status socket.
    pub fn observations(&self) -> &ObservationManager {
        &self.hub
    }

    /// Requests from servers waiting for the application's answer (elicitation, sampling).
    pub fn server_requests(&self) -> &Rc<ServerRequests> {
        &self.requests
    }

    /// Runs an agent's tool calls for `thread_id`: each is checked (registered, enabled for the thread, arguments
    /// valid) and run, concurrently; results in call order, with the model's call ids. Each call is published as
    /// `toolExecutionStarted` and `toolExecutionFinished`.
    pub async fn execute_tools(
        &self,
        calls: Vec<ParsedToolCall>,
        thread_id: &str,
        options: &ExecuteOptions,
    ) -> Vec<ToolResult> {
        self.system.execute_tools(calls, thread_id, options).await
    }

    /// A server's health, with every credential value handed to a server scrubbed from its `last_error` (which a
    /// server's error messages fill). [`McpTransportManager::health`] gives it as it is.
    pub fn health(&self, server: &str) -> Option<crate::manager::ServerHealth> {
        let mut health = self.manager.health(server)?;
        self.hub.redactor().scrub_health(&mut health);
        Some(health)
    }

    /// Every server's health, scrubbed as [`Runtime::health`].
    pub fn health_all(&self) -> Vec<crate::manager::ServerHealth> {
        let mut all = self.manager.health_all();
        all.iter_mut().for_each(|health| self.hub.redactor().scrub_health(health));
        all
    }

    /// Receives the status events that pass `filter`.
    pub fn subscribe(&self, filter: EventFilter, callback: EventCallback) -> SubscriptionId {
        self.hub.subscribe(filter, callback)
    }

    /// Every credential a server declares, as its next start will ask for them.
    pub async fn declared_credentials(&self, server: &str) -> crate::Result<Vec<CredentialDecl>> {
        self.manager.declared_credentials(server).await
    }

    /// Binds the credentials stored for `server` to the code its config names now, and starts it again if it was
    /// waiting: the answer to a `credentialsRequired` event with an `identityChange`, once the user agreed that the
    /// server's new code may have them (see [`McpTransportManager::confirm_credential_identity`]).
    pub async fn confirm_credential_identity(&self, server: &str) -> crate::Result<()> {
        self.manager.confirm_credential_identity(server).await
    }

    /// Whether [`Runtime::close`] was called.
    pub fn is_closed(&self) -> bool {
        self.closed.get()
    }

    /// Replaces the roots servers are answered (`roots/list`), and tells every running server they changed
    /// (`notifications/roots/list_changed`). Each root is an object with a string `uri` (and optionally `name`).
    /// Fails when the runtime offers no roots: the capability is declared when each server starts, from
    /// [`ClientFeatures::roots`].
    pub fn set_roots(&self, roots: Vec<Value>) -> Result<()> {
        check_roots(&roots)?;
        let Some(current) = &self.roots else {
            return Err(Error::invalid("this runtime offers no roots: give it roots (even none) when it is created"));
        };
        *current.borrow_mut() = roots;
        self.manager.notify_running(mcp_worker_protocol::methods::ROOTS_LIST_CHANGED);
        Ok(())
    }

    /// The roots servers are answered, when the runtime offers roots.
    pub fn roots(&self) -> Option<Vec<Value>> {
        self.roots.as_ref().map(|roots| roots.borrow().clone())
    }

    /// Stops every server and ends the socket's watches of the runtime's parts. The configuration stays (a
    /// persisted runtime keeps it for the next page load).
    pub fn close(&self) {
        if self.closed.replace(true) {
            return;
        }
        for health in self.manager.health_all() {
            let _ = self.manager.disconnect(&health.name);
        }
        self.watches.borrow_mut().take();
    }
}

/// Checks roots as MCP has them: objects with a string `uri` and, optionally, a string `name`.
pub fn check_roots(roots: &[Value]) -> Result<()> {
    for (i, root) in roots.iter().enumerate() {
        let uri = root.get("uri").and_then(Value::as_str);
        let name_ok = root.get("name").is_none_or(Value::is_string);
        if !root.is_object() || uri.is_none() || !name_ok {
            return Err(Error::invalid(format!("root {i} must be {{ uri: string, name?: string }}")));
        }
    }
    Ok(())
}
