//! The state of a running server: what it is, what it offers, and the client it talks to. The session owns it,
//! every handler's [`crate::Ctx`] reaches it as a [`Link`], and every [`crate::ServerHandle`] holds it weakly.

use crate::context::Link;
use crate::credentials::Credential;
use crate::env::Env;
use crate::peer::Peer;
use crate::registry::Registry;
use mcp_worker_protocol::{Implementation, ResourceParams, ServerCapabilities, methods};
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

/// What does not change while a server runs.
pub(crate) struct Config {
    pub(crate) info: Implementation,
    pub(crate) instructions: Option<String>,
    pub(crate) page_size: usize,
    pub(crate) capabilities: ServerCapabilities,
    pub(crate) credentials: Vec<Credential>,
    pub(crate) client_request_timeout_ms: u32,
}

/// A running server, shared.
pub(crate) struct State {
    pub(crate) config: Config,
    pub(crate) registry: RefCell<Registry>,
    pub(crate) env: Env,
    pub(crate) peer: Rc<Peer>,
    /// The URIs the client subscribed to (a handful: a list is smaller code than a set).
    pub(crate) subscriptions: RefCell<Vec<String>>,
}

impl State {
    pub(crate) fn new(config: Config, registry: Registry, env: Env, peer: Peer) -> Self {
        let peer = Rc::new(peer);
        Self { config, registry: RefCell::new(registry), env, peer, subscriptions: RefCell::new(Vec::new()) }
    }

    /// Whether the client subscribed to the resource at `uri`.
    pub(crate) fn is_subscribed(&self, uri: &str) -> bool {
        self.subscriptions.borrow().iter().any(|s| s == uri)
    }

    /// Tells the client that a resource it subscribed to changed. Returns whether it was subscribed.
    pub(crate) fn resource_updated(&self, uri: &str) -> bool {
        if !self.is_subscribed(uri) {
            return false;
        }
        self.peer.notify(methods::RESOURCES_UPDATED, Some(&ResourceParams::new(uri)));
        true
    }
}

impl Link for State {
    fn env(&self) -> &Env {
        &self.env
    }

    fn credentials(&self) -> &[Credential] {
        &self.config.credentials
    }

    fn client_request_timeout_ms(&self) -> u32 {
        self.config.client_request_timeout_ms
    }

    fn peer(&self) -> &Rc<Peer> {
        &self.peer
    }

    fn into_any(self: Rc<Self>) -> Rc<dyn Any> {
        self
    }
}
