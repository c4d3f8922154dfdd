//! What the manager needs from its platform, as traits: time and tasks ([`Platform`]), starting a server
//! ([`Launcher`]) and reading credentials ([`CredentialSource`]). The browser implementations are in
//! `manager::browser`; native tests use a manual clock and in-memory servers.

use crate::Result;
use crate::config::TransportConfig;
use crate::credentials::{CredentialDecl, Secret};
use crate::manifest::BundleManifest;
use futures_util::future::LocalBoxFuture;
use mcp_worker_client::connection::Connection;
use mcp_worker_client::limits::WorkerLimits;
use mcp_worker_client::sandbox::{BlockedRequest, Isolation};
use mcp_worker_client::session::{ClientOptions, McpClient};
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;

/// Time and background tasks.
pub trait Platform {
    /// Milliseconds since the epoch (`Date.now()` in the browser).
    fn now_ms(&self) -> f64;
    /// A future that resolves after `ms` milliseconds.
    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()>;
    /// Runs `task` to completion in the background.
    fn spawn(&self, task: LocalBoxFuture<'static, ()>);
}

/// What a launcher starts.
#[non_exhaustive]
pub struct LaunchRequest {
    /// The server's name.
    pub server: String,
    /// How to reach it (the manager only launches transports this host supports).
    pub transport: TransportConfig,
    /// Its environment: plain values and credentials, by name.
    pub env: Vec<(String, String)>,
    /// Client identity, capabilities and timeouts.
    pub client: ClientOptions,
    /// Runs on the new connection before `initialize`, so that nothing the server sends is missed.
    pub on_connection: Rc<dyn Fn(&Connection)>,
    /// Where its worker runs, with the network origins of its config and manifest.
    pub isolation: Isolation,
    /// The bounds of its connection.
    pub limits: WorkerLimits,
    /// Runs for each request the browser blocked.
    pub on_blocked: Rc<dyn Fn(BlockedRequest)>,
}

impl fmt::Debug for LaunchRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let env: Vec<&str> = self.env.iter().map(|(name, _)| name.as_str()).collect();
        f.debug_struct("LaunchRequest")
            .field("server", &self.server)
            .field("transport", &self.transport)
            .field("env", &env)
            .field("isolation", &self.isolation)
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

/// Starts servers: a worker per server in the browser.
pub trait Launcher {
    /// Starts the server and runs the MCP lifecycle with it.
    fn launch(&self, request: LaunchRequest) -> LocalBoxFuture<'static, Result<McpClient>>;

    /// The manifest of the server's bundle (`manifest.json` beside its worker script), read before each start:
    /// `None` when there is none. One that cannot be read is [`crate::Error::InvalidManifest`]. The default knows
    /// of no manifests.
    fn manifest(
        &self,
        server: &str,
        transport: &TransportConfig,
    ) -> LocalBoxFuture<'static, Result<Option<BundleManifest>>> {
        let _ = (server, transport);
        Box::pin(async { Ok(None) })
    }
}

/// Why a server cannot have its credentials now: what a UI asks the user for. Never holds a value.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CredentialsNeeded {
    /// The credentials to provide (or to unlock), with what each is for.
    pub credentials: Vec<CredentialDecl>,
    /// True when they may well be stored but cannot be read: unlocking is what helps.
    pub locked: bool,
    /// Why, in words (names, never values).
    pub reason: String,
}

impl CredentialsNeeded {
    /// `credentials` are to be provided, because of `reason`.
    pub fn new(credentials: Vec<CredentialDecl>, reason: impl Into<String>) -> Self {
        Self { credentials, locked: false, reason: reason.into() }
    }

    /// The same, but what helps is unlocking the vault.
    #[must_use]
    pub fn locked(mut self) -> Self {
        self.locked = true;
        self
    }
}

/// Where the credentials a server declared come from (the encrypted vault, in the browser).
pub trait CredentialSource {
    /// The values of the credentials `server` declared that are stored, by name; an optional one may be absent.
    /// Values of other names are never returned. `Err` when a required one is not stored or cannot be read (a
    /// locked vault): the server is then marked `needs_credentials`.
    fn credentials(
        &self,
        server: &str,
        declared: &[CredentialDecl],
    ) -> LocalBoxFuture<'static, Result<Vec<(String, Secret)>, CredentialsNeeded>>;
}

/// Credentials held in memory, by server then name. For tests and for applications that keep their own.
#[derive(Default)]
pub struct StaticCredentials {
    values: std::cell::RefCell<HashMap<(String, String), String>>,
}

impl fmt::Debug for StaticCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StaticCredentials").field("count", &self.values.borrow().len()).finish()
    }
}

impl StaticCredentials {
    /// None yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets a credential of a server.
    pub fn set(&self, server: &str, name: &str, value: &str) {
        self.values.borrow_mut().insert((server.to_owned(), name.to_owned()), value.to_owned());
    }
}

impl CredentialSource for StaticCredentials {
    fn credentials(
        &self,
        server: &str,
        declared: &[CredentialDecl],
    ) -> LocalBoxFuture<'static, Result<Vec<(String, Secret)>, CredentialsNeeded>> {
        let values = self.values.borrow();
        let mut found = Vec::new();
        let mut missing = Vec::new();
        for decl in declared {
            match values.get(&(server.to_owned(), decl.name.clone())) {
                Some(value) => found.push((decl.name.clone(), Secret::new(value.as_str()))),
                None if decl.required => missing.push(decl.clone()),
                None => {}
            }
        }
        let outcome = if missing.is_empty() {
            Ok(found)
        } else {
            let names: Vec<&str> = missing.iter().map(|d| d.name.as_str()).collect();
            let reason = format!("missing {}", names.join(", "));
            Err(CredentialsNeeded::new(missing, reason))
        };
        Box::pin(async move { outcome })
    }
}
