//! What the manager needs from its platform, as traits: time and tasks ([`Platform`]), starting a server
//! ([`Launcher`]) and reading credentials ([`CredentialSource`]). The browser implementations are in
//! `manager::browser`; native tests use a manual clock and in-memory servers.

use crate::Result;
use crate::config::TransportConfig;
use crate::credentials::{CredentialDecl, IdentityChange, Secret, ServerIdentity};
use crate::manifest::BundleManifest;
use futures_util::future::LocalBoxFuture;
use litemap::LiteMap;
use mcp_worker_client::connection::Connection;
use mcp_worker_client::limits::WorkerLimits;
use mcp_worker_client::sandbox::{BlockedRequest, Isolation};
use mcp_worker_client::session::{ClientOptions, McpClient};
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
    /// Its environment: plain values and credentials, by name. Values are [`Secret`]s, wiped when the request is
    /// dropped: copy them only where the server receives them.
    pub env: Vec<(String, Secret)>,
    /// A remote server's headers with their `${NAME}` references resolved (the transport's own `headers` keep the
    /// references); empty for other transports.
    pub headers: Vec<(String, Secret)>,
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
    /// How a remote server that asks for OAuth authorization gets it (with its tokens kept by the credential
    /// source, when there is one).
    pub oauth: Option<mcp_worker_client::http::oauth::setup::OAuthSetup>,
    /// Runs when the user must act before a remote server can be used.
    pub on_authorization_required: mcp_worker_client::http::oauth::setup::OnAuthorizationRequired,
}

impl fmt::Debug for LaunchRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let env: Vec<&str> = self.env.iter().map(|(name, _)| name.as_str()).collect();
        let headers: Vec<&str> = self.headers.iter().map(|(name, _)| name.as_str()).collect();
        f.debug_struct("LaunchRequest")
            .field("server", &self.server)
            .field("transport", &self.transport)
            .field("env", &env)
            .field("isolation", &self.isolation)
            .field("limits", &self.limits)
            .field("headers", &headers)
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
    /// Set when stored credentials are held back because they were stored for other code than the server's
    /// config names now: what helps is the application's confirmation
    /// ([`crate::manager::McpTransportManager::confirm_credential_identity`]), not a new value.
    pub identity_change: Option<Box<IdentityChange>>,
}

impl CredentialsNeeded {
    /// `credentials` are to be provided, because of `reason`.
    pub fn new(credentials: Vec<CredentialDecl>, reason: impl Into<String>) -> Self {
        Self { credentials, locked: false, reason: reason.into(), identity_change: None }
    }

    /// `credentials` are stored but held back by `change`, until the application confirms it.
    pub fn identity_changed(credentials: Vec<CredentialDecl>, change: IdentityChange) -> Self {
        Self { credentials, locked: false, reason: change.to_string(), identity_change: Some(Box::new(change)) }
    }

    /// The same, but what helps is unlocking the vault.
    #[must_use]
    pub fn locked(mut self) -> Self {
        self.locked = true;
        self
    }
}

/// Where the credentials a server declared come from (the encrypted vault, in the browser).
///
/// A source releases a credential only to the code it was stored for ([`ServerIdentity`]): a server's name is a
/// label that a rewritten config can give to other code.
pub trait CredentialSource {
    /// The values of the credentials `server` declared that are stored, by name; an optional one may be absent.
    /// Values of other names are never returned, nor values stored for another `identity` than the server's now.
    /// `Err` when a required one is not stored or cannot be read (a locked vault), or when stored ones are held
    /// back by an identity change: the server is then marked `needs_credentials`.
    fn credentials(
        &self,
        server: &str,
        identity: &ServerIdentity,
        declared: &[CredentialDecl],
    ) -> LocalBoxFuture<'static, Result<Vec<(String, Secret)>, CredentialsNeeded>>;

    /// Binds every credential stored for `server` to `identity`: the application confirmed that the server's new
    /// code may have them. `Err` says why not (a locked vault). The default binds nothing.
    fn confirm_identity(&self, server: &str, identity: &ServerIdentity) -> LocalBoxFuture<'static, Result<(), String>> {
        let _ = (server, identity);
        Box::pin(async { Ok(()) })
    }

    /// Deletes every credential stored for `server`: it was removed, and a later server of that name must not
    /// inherit them. The default deletes nothing.
    fn forget_server(&self, server: &str) -> LocalBoxFuture<'static, Result<(), String>> {
        let _ = server;
        Box::pin(async { Ok(()) })
    }

    /// The OAuth authorization kept for `server` (a remote server's tokens, as the transport saved them), if one is
    /// kept for `identity` (the URL its config names now) and can be read now. The default keeps none.
    fn saved_authorization(&self, server: &str, identity: &ServerIdentity) -> LocalBoxFuture<'static, Option<Secret>> {
        let _ = (server, identity);
        Box::pin(async { None })
    }

    /// Keeps `server`'s OAuth authorization bound to `identity`, or forgets it (`None`). `Err` says why it could not
    /// (a locked vault): the tokens then last as long as the server's session. The default keeps nothing.
    fn save_authorization(
        &self,
        server: &str,
        identity: &ServerIdentity,
        record: Option<Secret>,
    ) -> LocalBoxFuture<'static, Result<(), String>> {
        let _ = (server, identity, record);
        Box::pin(async { Err("this credential source keeps no authorizations".to_owned()) })
    }
}

/// Credentials held in memory, by server then name. For tests and for applications that keep their own.
///
/// A value set with [`StaticCredentials::set`] is the application's to give to whatever the server's config names;
/// one set with [`StaticCredentials::set_bound`] is released only to that identity, as the vault does.
#[derive(Default)]
pub struct StaticCredentials {
    values: std::cell::RefCell<LiteMap<(String, String), Held>>,
}

/// A value, and the identity it is released to (any, when `None`).
type Held = (Secret, Option<ServerIdentity>);

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

    /// Sets a credential of a server, for whatever code its config names.
    pub fn set(&self, server: &str, name: &str, value: &str) {
        self.values.borrow_mut().insert((server.to_owned(), name.to_owned()), (Secret::new(value), None));
    }

    /// Sets a credential of a server, released only while the server's config names `identity`.
    pub fn set_bound(&self, server: &str, identity: &ServerIdentity, name: &str, value: &str) {
        let entry = (Secret::new(value), Some(identity.clone()));
        self.values.borrow_mut().insert((server.to_owned(), name.to_owned()), entry);
    }
}

impl CredentialSource for StaticCredentials {
    fn credentials(
        &self,
        server: &str,
        identity: &ServerIdentity,
        declared: &[CredentialDecl],
    ) -> LocalBoxFuture<'static, Result<Vec<(String, Secret)>, CredentialsNeeded>> {
        let values = self.values.borrow();
        let mut found = Vec::new();
        let mut missing = Vec::new();
        let mut held: Vec<(&CredentialDecl, &ServerIdentity)> = Vec::new();
        for decl in declared {
            match values.get(&(server.to_owned(), decl.name.clone())) {
                Some((_, Some(bound))) if bound != identity => held.push((decl, bound)),
                Some((value, _)) => found.push((decl.name.clone(), value.clone())),
                None if decl.required => missing.push(decl.clone()),
                None => {}
            }
        }
        let outcome = if let Some((_, stored_for)) = held.first() {
            let change = IdentityChange {
                server: server.to_owned(),
                credentials: held.iter().map(|(d, _)| d.name.clone()).collect(),
                stored_for: Some((*stored_for).clone()),
                current: identity.clone(),
            };
            Err(CredentialsNeeded::identity_changed(held.iter().map(|(d, _)| (*d).clone()).collect(), change))
        } else if missing.is_empty() {
            Ok(found)
        } else {
            let names: Vec<&str> = missing.iter().map(|d| d.name.as_str()).collect();
            let reason = format!("missing {}", names.join(", "));
            Err(CredentialsNeeded::new(missing, reason))
        };
        Box::pin(async move { outcome })
    }

    fn confirm_identity(&self, server: &str, identity: &ServerIdentity) -> LocalBoxFuture<'static, Result<(), String>> {
        for ((owner, _), (_, bound)) in self.values.borrow_mut().iter_mut() {
            if owner == server && bound.is_some() {
                *bound = Some(identity.clone());
            }
        }
        Box::pin(async { Ok(()) })
    }

    fn forget_server(&self, server: &str) -> LocalBoxFuture<'static, Result<(), String>> {
        self.values.borrow_mut().retain(|(owner, _), _| owner != server);
        Box::pin(async { Ok(()) })
    }

    fn saved_authorization(&self, server: &str, identity: &ServerIdentity) -> LocalBoxFuture<'static, Option<Secret>> {
        let key = (server.to_owned(), AUTHORIZATION_RECORD.to_owned());
        let found = match self.values.borrow().get(&key) {
            Some((value, Some(bound))) if bound == identity => Some(value.clone()),
            _ => None,
        };
        Box::pin(async move { found })
    }

    fn save_authorization(
        &self,
        server: &str,
        identity: &ServerIdentity,
        record: Option<Secret>,
    ) -> LocalBoxFuture<'static, Result<(), String>> {
        let key = (server.to_owned(), AUTHORIZATION_RECORD.to_owned());
        match record {
            Some(record) => self.values.borrow_mut().insert(key, (record, Some(identity.clone()))),
            None => self.values.borrow_mut().remove(&key),
        };
        Box::pin(async { Ok(()) })
    }
}

/// The name under which a credential source keeps a server's OAuth authorization, beside its credentials (not a
/// name a server can declare: it is not an environment variable's).
pub const AUTHORIZATION_RECORD: &str = "oauth:authorization";
