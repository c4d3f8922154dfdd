//! What the manager needs from its platform, as traits: time and tasks ([`Runtime`]), starting a server
//! ([`Launcher`]) and reading credentials ([`CredentialSource`]). The browser implementations are in
//! `manager::browser`; native tests use a manual clock and in-memory servers.

use crate::client::{ClientOptions, McpClient};
use crate::config::TransportConfig;
use crate::connection::Connection;
use crate::error::Result;
use futures_util::future::LocalBoxFuture;
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;

/// Time and background tasks.
pub trait Runtime {
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
}

impl fmt::Debug for LaunchRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let env: Vec<&str> = self.env.iter().map(|(name, _)| name.as_str()).collect();
        f.debug_struct("LaunchRequest")
            .field("server", &self.server)
            .field("transport", &self.transport)
            .field("env", &env)
            .finish_non_exhaustive()
    }
}

/// Starts servers: a worker per server in the browser.
pub trait Launcher {
    /// Starts the server and runs the MCP lifecycle with it.
    fn launch(&self, request: LaunchRequest) -> LocalBoxFuture<'static, Result<McpClient>>;
}

/// Where the credentials a server declared come from (the encrypted vault, in the browser).
pub trait CredentialSource {
    /// The values of `names` for `server`. `Err` says what is missing or why they cannot be read (a locked vault);
    /// the server is then marked `needs_credentials`.
    fn credentials(
        &self,
        server: &str,
        names: &[String],
    ) -> LocalBoxFuture<'static, Result<Vec<(String, String)>, String>>;
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
        names: &[String],
    ) -> LocalBoxFuture<'static, Result<Vec<(String, String)>, String>> {
        let values = self.values.borrow();
        let mut found = Vec::new();
        let mut missing = Vec::new();
        for name in names {
            match values.get(&(server.to_owned(), name.clone())) {
                Some(value) => found.push((name.clone(), value.clone())),
                None => missing.push(name.as_str()),
            }
        }
        let outcome = if missing.is_empty() { Ok(found) } else { Err(format!("missing {}", missing.join(", "))) };
        Box::pin(async move { outcome })
    }
}
