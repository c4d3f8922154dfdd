//! The union tool registry: tools that run in the page (`Native`) and tools of MCP servers (`Mcp`), in one map
//! with one naming scheme, per-thread enablement and destructive-tool gating.
//!
//! - Names are unique; registering a taken name is an error, never a silent overwrite.
//! - MCP tools are named `mcp__{server}__{tool}` ([`naming`]); the entry keeps the server and the tool's own name.
//! - A tool that may be destructive ([`destructive`]) is hidden from agents unless its server's config allows it.
//! - A thread sees only the tools enabled for it ([`enablement`]); an unknown thread sees none.
//! - [`ToolRegistry::export`] gives the list in the format of each LLM API, with schemas prepared for it
//!   ([`schema_prep`]).

pub mod destructive;
pub mod enablement;
mod export;
pub mod naming;
pub mod schema_prep;

pub use enablement::ThreadEnablement;
pub use export::{Export, ExportFormat};

use crate::listeners::{ListenerId, Listeners};
use futures_util::future::LocalBoxFuture;
use mcp_worker_protocol::Tool;
use serde_json::Value;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::rc::Rc;

/// Who is calling a tool: the thread and trace of the agent run, and the LLM's call id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExecutionContext {
    /// The agent thread.
    pub thread_id: String,
    /// The trace of the agent run, when there is one.
    pub trace_id: Option<String>,
    /// The LLM's id for this call.
    pub call_id: String,
}

/// Why a native tool failed, in words the model can read (they become the call's `error`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
#[non_exhaustive]
pub struct ToolError {
    /// What went wrong.
    pub message: String,
}

impl ToolError {
    /// A failure described by `message`.
    pub fn new(message: impl Into<String>) -> Self {
        Self { message: message.into() }
    }
}

impl From<String> for ToolError {
    fn from(message: String) -> Self {
        Self { message }
    }
}

impl From<&str> for ToolError {
    fn from(message: &str) -> Self {
        Self::new(message)
    }
}

/// A tool that runs in the page. Return the output (JSON) or a [`ToolError`].
pub trait NativeTool {
    /// Runs the tool with arguments already checked against its input schema.
    fn execute(&self, arguments: Value, context: ExecutionContext)
    -> LocalBoxFuture<'static, Result<Value, ToolError>>;
}

impl<F, Fut> NativeTool for F
where
    F: Fn(Value, ExecutionContext) -> Fut,
    Fut: Future<Output = Result<Value, ToolError>> + 'static,
{
    fn execute(
        &self,
        arguments: Value,
        context: ExecutionContext,
    ) -> LocalBoxFuture<'static, Result<Value, ToolError>> {
        Box::pin(self(arguments, context))
    }
}

/// Where a tool runs.
#[derive(Clone)]
#[non_exhaustive]
pub enum ToolSource {
    /// In the page.
    Native(Rc<dyn NativeTool>),
    /// On an MCP server, under the tool's own name (`definition.name`).
    Mcp {
        /// The server's name.
        server: String,
    },
}

impl fmt::Debug for ToolSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Native(_) => f.write_str("Native"),
            Self::Mcp { server } => f.debug_struct("Mcp").field("server", server).finish(),
        }
    }
}

/// One registered tool.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ToolEntry {
    /// The registry name, unique, within `^[a-zA-Z0-9_-]{1,64}$`.
    pub name: String,
    /// The definition as its source gave it (for MCP: as the server listed it, with its own name).
    pub definition: Rc<Tool>,
    /// Where it runs.
    pub source: ToolSource,
    /// Whether it may be destructive (see [`destructive`]).
    pub destructive: bool,
    /// Whether agents may see and call it: false for a destructive tool whose server does not allow those.
    pub exposed: bool,
}

impl ToolEntry {
    /// The server, for an MCP tool.
    pub fn server(&self) -> Option<&str> {
        match &self.source {
            ToolSource::Mcp { server } => Some(server),
            ToolSource::Native(_) => None,
        }
    }

    /// The tool's own name (the MCP server's name for it; the registry name for a native tool).
    pub fn original_name(&self) -> &str {
        &self.definition.name
    }
}

/// Why a registration was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RegistryError {
    /// The name is taken.
    #[error("tool name {name} is already registered ({existing}); not overwritten")]
    Duplicate {
        /// The name.
        name: String,
        /// What holds it.
        existing: String,
    },
    /// The name is not usable.
    #[error("tool name {name:?} is not usable: {reason}")]
    InvalidName {
        /// The name.
        name: String,
        /// Why.
        reason: String,
    },
}

/// Which entries a listing returns.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct ToolFilter {
    /// Only tools enabled for this thread (and exposed). `None`: every thread's tools.
    pub thread_id: Option<String>,
    /// Only this server's tools.
    pub server: Option<String>,
    /// Include tools hidden from agents (destructive, not allowed). Ignored when `thread_id` is set.
    pub include_hidden: bool,
}

impl ToolFilter {
    /// What an agent in `thread_id` may see and call.
    pub fn for_thread(thread_id: impl Into<String>) -> Self {
        Self { thread_id: Some(thread_id.into()), ..Self::default() }
    }

    /// Everything, hidden tools included (for settings screens).
    pub fn everything() -> Self {
        Self { include_hidden: true, ..Self::default() }
    }

    /// Only one server's tools.
    #[must_use]
    pub fn server(mut self, server: impl Into<String>) -> Self {
        self.server = Some(server.into());
        self
    }
}

/// What changed in the registry.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct RegistryChange {
    /// Names added.
    pub added: Vec<String>,
    /// Names removed.
    pub removed: Vec<String>,
    /// Threads whose enabled tools changed (see [`ToolRegistry::enablement`]).
    pub threads: Vec<String>,
}

/// The result of replacing one server's tools.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ServerTools {
    /// Registry names now registered for the server.
    pub registered: Vec<String>,
    /// Tools that could not be registered, each with why.
    pub rejected: Vec<RegistryError>,
}

/// The union registry. Shared (`Rc`) by the manager, which registers MCP tools, and the tool system, which
/// looks them up.
#[derive(Default)]
pub struct ToolRegistry {
    tools: RefCell<BTreeMap<String, ToolEntry>>,
    enablement: RefCell<ThreadEnablement>,
    changes: Listeners<RegistryChange>,
}

impl fmt::Debug for ToolRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolRegistry").field("tools", &self.tools.borrow().len()).finish_non_exhaustive()
    }
}

impl ToolRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers a tool that runs in the page, under `definition.name`, which must match
    /// `^[a-zA-Z0-9_-]{1,64}$` and must not start with `mcp__`. Native tools are the application's own code: they
    /// are never hidden as destructive.
    pub fn register_native(&self, definition: Tool, executor: Rc<dyn NativeTool>) -> Result<String, RegistryError> {
        let name = definition.name.clone();
        if !naming::is_valid_tool_name(&name) {
            return Err(RegistryError::InvalidName { name, reason: "it must match ^[a-zA-Z0-9_-]{1,64}$".into() });
        }
        if naming::is_mcp_name(&name) {
            return Err(RegistryError::InvalidName {
                name,
                reason: "the prefix mcp__ is reserved for MCP tools".into(),
            });
        }
        let destructive = destructive::is_destructive(&definition);
        let entry = ToolEntry {
            name: name.clone(),
            definition: Rc::new(definition),
            source: ToolSource::Native(executor),
            destructive,
            exposed: true,
        };
        self.insert(entry)?;
        self.changes.emit(&RegistryChange { added: vec![name.clone()], ..RegistryChange::default() });
        Ok(name)
    }

    /// Replaces every tool of `server` with `tools` in one step. A tool whose name is taken by another source, or
    /// listed twice by the server, is rejected and reported; the others are registered.
    pub fn replace_server_tools(&self, server: &str, tools: Vec<Tool>, allow_destructive: bool) -> ServerTools {
        let removed = self.remove_where(|entry| entry.server() == Some(server));
        let mut outcome = ServerTools::default();
        for tool in tools {
            let name = naming::mcp_tool_name(server, &tool.name);
            let destructive = destructive::is_destructive(&tool);
            let entry = ToolEntry {
                name: name.clone(),
                definition: Rc::new(tool),
                source: ToolSource::Mcp { server: server.to_owned() },
                destructive,
                exposed: allow_destructive || !destructive,
            };
            match self.insert(entry) {
                Ok(()) => outcome.registered.push(name),
                Err(error) => outcome.rejected.push(error),
            }
        }
        if !removed.is_empty() || !outcome.registered.is_empty() {
            self.changes.emit(&RegistryChange { added: outcome.registered.clone(), removed, threads: Vec::new() });
        }
        outcome
    }

    /// Removes one tool; true if it was registered.
    pub fn unregister(&self, name: &str) -> bool {
        self.unregister_where(|entry| entry.name == name) == 1
    }

    /// Removes every tool of a server; returns how many.
    pub fn unregister_server(&self, server: &str) -> usize {
        self.unregister_where(|entry| entry.server() == Some(server))
    }

    /// Removes every tool `predicate` selects (ART's `unregisterTools`); returns how many.
    pub fn unregister_where(&self, predicate: impl Fn(&ToolEntry) -> bool) -> usize {
        let removed = self.remove_where(predicate);
        if !removed.is_empty() {
            self.changes.emit(&RegistryChange { removed: removed.clone(), ..RegistryChange::default() });
        }
        removed.len()
    }

    /// The entry registered under `name`.
    pub fn get(&self, name: &str) -> Option<ToolEntry> {
        self.tools.borrow().get(name).cloned()
    }

    /// How many tools are registered (hidden ones included).
    pub fn len(&self) -> usize {
        self.tools.borrow().len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The entries `filter` selects, in name order.
    pub fn list(&self, filter: &ToolFilter) -> Vec<ToolEntry> {
        let enablement = self.enablement.borrow();
        self.tools
            .borrow()
            .values()
            .filter(|entry| filter.server.as_deref().is_none_or(|server| entry.server() == Some(server)))
            .filter(|entry| match &filter.thread_id {
                Some(thread) => entry.exposed && enablement.is_enabled(thread, &entry.name),
                None => filter.include_hidden || entry.exposed,
            })
            .cloned()
            .collect()
    }

    /// Whether an agent in `thread_id` may call `name`: registered, exposed and enabled for the thread.
    pub fn is_callable(&self, thread_id: &str, name: &str) -> bool {
        self.tools.borrow().get(name).is_some_and(|entry| entry.exposed)
            && self.enablement.borrow().is_enabled(thread_id, name)
    }

    /// Replaces a thread's enabled tools (entries may end in `*`, see [`ThreadEnablement`]).
    pub fn set_thread_tools(&self, thread_id: &str, tools: impl IntoIterator<Item = impl Into<String>>) {
        self.enablement.borrow_mut().set(thread_id, tools);
        self.thread_changed(thread_id);
    }

    /// Adds tools to a thread.
    pub fn enable_for_thread(&self, thread_id: &str, tools: impl IntoIterator<Item = impl Into<String>>) {
        self.enablement.borrow_mut().enable(thread_id, tools);
        self.thread_changed(thread_id);
    }

    /// Removes tools from a thread.
    pub fn disable_for_thread<'a>(&self, thread_id: &str, tools: impl IntoIterator<Item = &'a str>) {
        self.enablement.borrow_mut().disable(thread_id, tools);
        self.thread_changed(thread_id);
    }

    /// Tells subscribers (the state manager's persistence, for one) that a thread's enablement changed.
    fn thread_changed(&self, thread_id: &str) {
        self.changes.emit(&RegistryChange { threads: vec![thread_id.to_owned()], ..RegistryChange::default() });
    }

    /// A copy of every thread's enablement.
    pub fn enablement(&self) -> ThreadEnablement {
        self.enablement.borrow().clone()
    }

    /// The entries `filter` selects, in an LLM API's format, with schemas prepared for it. A tool whose schema
    /// cannot be made acceptable is left out and reported in [`Export::skipped`].
    pub fn export(&self, format: ExportFormat, filter: &ToolFilter) -> Export {
        export::export(&self.list(filter), format)
    }

    /// Calls `listener` after every change.
    pub fn subscribe(&self, listener: Rc<dyn Fn(&RegistryChange)>) -> ListenerId {
        self.changes.subscribe(listener)
    }

    /// Stops calling a listener.
    pub fn unsubscribe(&self, id: ListenerId) -> bool {
        self.changes.unsubscribe(id)
    }

    fn insert(&self, entry: ToolEntry) -> Result<(), RegistryError> {
        let mut tools = self.tools.borrow_mut();
        if let Some(existing) = tools.get(&entry.name) {
            let existing = match existing.server() {
                Some(server) => format!("tool {:?} of server {server:?}", existing.original_name()),
                None => "a native tool".to_owned(),
            };
            return Err(RegistryError::Duplicate { name: entry.name, existing });
        }
        tools.insert(entry.name.clone(), entry);
        Ok(())
    }

    fn remove_where(&self, predicate: impl Fn(&ToolEntry) -> bool) -> Vec<String> {
        let mut tools = self.tools.borrow_mut();
        let names: Vec<String> = tools.values().filter(|e| predicate(e)).map(|e| e.name.clone()).collect();
        for name in &names {
            tools.remove(name);
        }
        names
    }
}

#[cfg(test)]
#[path = "registry_tests.rs"]
mod tests;
