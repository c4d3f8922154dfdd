//! [`ServerHandle`]: changes what a running server offers, and tells the client.

use crate::context::Ctx;
use crate::error::{Error, Result};
use crate::prompt::PromptDef;
use crate::registry::{Item, Items, Registry};
use crate::resource::{ResourceDef, ResourceTemplateDef};
use crate::state::State;
use crate::tool::ToolDef;
use mcp_worker_protocol::{LoggingLevel, methods};
use serde::Serialize;
use std::rc::{Rc, Weak};

/// A handle on a running server, from [`crate::Ctx::server`] or [`crate::Session::server`]. Cheap to clone; it
/// does not keep the session alive (methods fail with [`Error::Closed`] once the session is gone).
///
/// Adding or removing a tool, resource, template or prompt sends the matching `notifications/*/list_changed` to an
/// initialized client.
///
/// ```
/// use mcp_worker_sdk::{Ctx, NoArgs, Server, ToolDef};
/// let server = Server::new("unlocker", "1.0.0").tool(
///     ToolDef::new("unlock", |ctx: Ctx, _: NoArgs| async move {
///         let secret = ToolDef::new("secret", |_: NoArgs| async { "42" }).description("The secret");
///         match ctx.server().add_tool(secret) {
///             Ok(()) => "a new tool is available".to_owned(),
///             Err(e) => e.to_string(),
///         }
///     })
///     .description("Unlocks the `secret` tool"),
/// );
/// # assert_eq!(server.tool_count(), 1);
/// ```
#[derive(Clone)]
pub struct ServerHandle {
    state: Weak<State>,
}

impl std::fmt::Debug for ServerHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerHandle").field("running", &(self.state.strong_count() > 0)).finish()
    }
}

impl ServerHandle {
    pub(crate) fn new(state: Weak<State>) -> Self {
        Self { state }
    }

    fn state(&self) -> Result<Rc<State>> {
        self.state.upgrade().ok_or(Error::Closed)
    }

    fn add<T: Item>(&self, item: T, items: impl Fn(&mut Registry) -> &mut Items<T>, method: &str) -> Result<()> {
        let state = self.state()?;
        items(&mut state.registry.borrow_mut()).add(item)?;
        state.list_changed(method);
        Ok(())
    }

    fn remove<T: Item>(&self, key: &str, items: impl Fn(&mut Registry) -> &mut Items<T>, method: &str) -> bool {
        let Ok(state) = self.state() else { return false };
        // Dropped after the borrow ends: a handler's captures may hold handles of their own.
        let removed = items(&mut state.registry.borrow_mut()).remove(key);
        if removed.is_some() {
            state.list_changed(method);
        }
        removed.is_some()
    }

    /// Adds a tool; fails on an invalid or taken name.
    pub fn add_tool(&self, tool: ToolDef) -> Result<()> {
        self.add(tool, |r| &mut r.tools, methods::TOOLS_LIST_CHANGED)
    }

    /// Removes a tool; returns whether it existed. A call already running finishes.
    pub fn remove_tool(&self, name: &str) -> bool {
        self.remove(name, |r| &mut r.tools, methods::TOOLS_LIST_CHANGED)
    }

    /// Adds a resource; fails on an invalid or taken URI. The client sees it only if the server declared the
    /// resources capability (it does when it started with a resource, or with [`crate::Server::enable_resources`]).
    pub fn add_resource(&self, resource: ResourceDef) -> Result<()> {
        self.add(resource, |r| &mut r.resources, methods::RESOURCES_LIST_CHANGED)
    }

    /// Removes a resource by URI; returns whether it existed.
    pub fn remove_resource(&self, uri: &str) -> bool {
        self.remove(uri, |r| &mut r.resources, methods::RESOURCES_LIST_CHANGED)
    }

    /// Adds a resource template; fails on an invalid or taken template.
    pub fn add_resource_template(&self, template: ResourceTemplateDef) -> Result<()> {
        self.add(template, |r| &mut r.templates, methods::RESOURCES_LIST_CHANGED)
    }

    /// Removes a resource template by its URI template; returns whether it existed.
    pub fn remove_resource_template(&self, uri_template: &str) -> bool {
        self.remove(uri_template, |r| &mut r.templates, methods::RESOURCES_LIST_CHANGED)
    }

    /// Adds a prompt; fails on an invalid or taken name. The client sees it only if the server declared the
    /// prompts capability (it does when it started with a prompt, or with [`crate::Server::enable_prompts`]).
    pub fn add_prompt(&self, prompt: PromptDef) -> Result<()> {
        self.add(prompt, |r| &mut r.prompts, methods::PROMPTS_LIST_CHANGED)
    }

    /// Removes a prompt; returns whether it existed.
    pub fn remove_prompt(&self, name: &str) -> bool {
        self.remove(name, |r| &mut r.prompts, methods::PROMPTS_LIST_CHANGED)
    }

    /// Tells the client that the resource at `uri` changed (`notifications/resources/updated`), if it subscribed
    /// to it. Returns whether the notification was sent.
    pub fn resource_updated(&self, uri: &str) -> bool {
        self.state().is_ok_and(|state| state.resource_updated(uri))
    }

    /// Whether the client subscribed to the resource at `uri`.
    pub fn is_subscribed(&self, uri: &str) -> bool {
        self.state().is_ok_and(|state| state.is_subscribed(uri))
    }

    /// Sends a log message outside any request; see [`crate::Ctx::log`].
    pub fn log(&self, level: LoggingLevel, logger: &str, data: impl Serialize) {
        if let Ok(state) = self.state() {
            let data = serde_json::to_value(data).unwrap_or_else(|e| format!("(unserializable log data: {e})").into());
            state.peer.log(level, (!logger.is_empty()).then_some(logger), data);
        }
    }
}

// Here rather than with the rest of `Ctx`, which sits below the registry and knows its session only as a `Link`.
impl Ctx {
    /// A handle to change what the server offers (tools, resources, prompts) and to notify the client.
    pub fn server(&self) -> ServerHandle {
        // Every context is made by a session, whose link is its `State`.
        let state = self.link().clone().into_any().downcast::<State>().ok();
        ServerHandle::new(state.as_ref().map_or_else(Weak::new, Rc::downgrade))
    }
}
