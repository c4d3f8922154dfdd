//! The state of a running server: what it is, what it offers, and the client it talks to. The session owns it,
//! every handler's [`crate::Ctx`] reaches it as a [`Link`], and every [`crate::ServerHandle`] holds it weakly.

use crate::context::Link;
use crate::credentials::Credential;
use crate::env::Env;
use crate::peer::Peer;
use crate::registry::Registry;
use crate::request_state::ServerKey;
use mcp_worker_protocol::members::object;
use mcp_worker_protocol::modern::{ServerInfoMeta, SubscriptionFilter, subscription_meta};
use mcp_worker_protocol::{Implementation, RequestId, ResourceParams, ServerCapabilities, methods};
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

/// What does not change while a server runs.
pub(crate) struct Config {
    pub(crate) info: Implementation,
    /// The server's `serverInfo` as every modern result's `_meta` carries it, written once.
    pub(crate) info_meta: ServerInfoMeta,
    pub(crate) instructions: Option<String>,
    pub(crate) page_size: usize,
    pub(crate) capabilities: ServerCapabilities,
    pub(crate) credentials: Vec<Credential>,
    pub(crate) client_request_timeout_ms: u32,
    /// How long list and discover results stay fresh (MCP 2026-07-28 caching hints).
    pub(crate) list_ttl_ms: u64,
}

/// An open `subscriptions/listen` stream (MCP 2026-07-28): its request id and what it agreed to carry.
pub(crate) struct Listener {
    pub(crate) id: RequestId,
    pub(crate) filter: SubscriptionFilter,
}

/// A running server, shared.
pub(crate) struct State {
    pub(crate) config: Config,
    pub(crate) registry: RefCell<Registry>,
    pub(crate) env: Env,
    pub(crate) peer: Rc<Peer>,
    /// The URIs the client subscribed to (a handful: a list is smaller code than a set).
    pub(crate) subscriptions: RefCell<Vec<String>>,
    /// The open `subscriptions/listen` streams.
    pub(crate) listeners: RefCell<Vec<Listener>>,
    /// Seals the `requestState` of multi round-trip requests (none is sealed without randomness).
    pub(crate) state_key: Rc<ServerKey>,
    /// The last answer to a `tools/list` for the first page (see `session::tools`).
    pub(crate) first_tools_page: RefCell<Option<ToolsPage>>,
}

/// A `tools/list` result as sent: for the tools of `version`, in one era.
pub(crate) struct ToolsPage {
    pub(crate) version: u64,
    pub(crate) modern: bool,
    /// The result's JSON text.
    pub(crate) result: std::rc::Rc<str>,
}

impl State {
    pub(crate) fn new(config: Config, registry: Registry, env: Env, peer: Peer) -> Self {
        Self {
            config,
            registry: RefCell::new(registry),
            env,
            peer: Rc::new(peer),
            subscriptions: RefCell::new(Vec::new()),
            listeners: RefCell::new(Vec::new()),
            state_key: Rc::default(),
            first_tools_page: RefCell::new(None),
        }
    }

    /// Whether `id` is an open `subscriptions/listen` stream.
    pub(crate) fn is_listening(&self, id: &RequestId) -> bool {
        self.listeners.borrow().iter().any(|l| l.id == *id)
    }

    /// Closes the `subscriptions/listen` stream `id` (the client cancelled it). Unknown ids are ignored.
    pub(crate) fn stop_listening(&self, id: &RequestId) {
        self.listeners.borrow_mut().retain(|l| l.id != *id);
    }

    /// Tells the client that a list changed: the session of the handshake era, and every listen stream that
    /// asked for it.
    pub(crate) fn list_changed(&self, method: &str) {
        self.peer.list_changed(method);
        let wanted = |filter: &SubscriptionFilter| match method {
            methods::TOOLS_LIST_CHANGED => filter.tools_list_changed,
            methods::PROMPTS_LIST_CHANGED => filter.prompts_list_changed,
            methods::RESOURCES_LIST_CHANGED => filter.resources_list_changed,
            _ => None,
        } == Some(true);
        for listener in self.listeners.borrow().iter().filter(|l| wanted(&l.filter)) {
            let params = object([("_meta", subscription_meta(&listener.id).into())]);
            self.peer.notify(method, Some(&params));
        }
    }

    /// Whether the client subscribed to the resource at `uri` (with `resources/subscribe`, or on a listen
    /// stream).
    pub(crate) fn is_subscribed(&self, uri: &str) -> bool {
        self.subscriptions.borrow().iter().any(|s| s == uri)
            || self
                .listeners
                .borrow()
                .iter()
                .any(|l| l.filter.resource_subscriptions.as_ref().is_some_and(|uris| uris.iter().any(|u| u == uri)))
    }

    /// Tells the client that a resource it subscribed to changed (with `resources/subscribe`, or on a listen
    /// stream). Returns whether it was subscribed.
    pub(crate) fn resource_updated(&self, uri: &str) -> bool {
        let mut sent = false;
        if self.subscriptions.borrow().iter().any(|s| s == uri) {
            self.peer.notify(methods::RESOURCES_UPDATED, Some(&ResourceParams::new(uri)));
            sent = true;
        }
        let listens =
            |l: &&Listener| l.filter.resource_subscriptions.as_ref().is_some_and(|uris| uris.iter().any(|u| u == uri));
        for listener in self.listeners.borrow().iter().filter(listens) {
            let params = object([("uri", uri.into()), ("_meta", subscription_meta(&listener.id).into())]);
            self.peer.notify(methods::RESOURCES_UPDATED, Some(&params));
            sent = true;
        }
        sent
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
