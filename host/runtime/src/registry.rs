//! The union tool registry: tools that run in the page (`Native`) and tools of MCP servers (`Mcp`), in one map
//! with one naming scheme, per-thread enablement and destructive-tool gating.
//!
//! - Names are unique; registering a taken native name is an error, never a silent overwrite.
//! - MCP tools are named `mcp__{server}__{tool}` ([`naming`]); the entry keeps the server and the tool's own name.
//!   Names are a function of the whole set of servers and tools, never of who came first: when two would
//!   coincide, each gets a clash name and the clash is reported ([`clashes`], [`RegistryChange::clashes`]).
//! - Each server's list is bounded ([`limits`]): tool count, title and description lengths, no control characters.
//! - A tool that may be destructive ([`destructive`]) is hidden from agents unless its server's config allows it.
//! - A thread sees only the tools enabled for it ([`enablement`]); an unknown thread sees none.
//! - [`ToolRegistry::export`] gives the list in the format of each LLM API, with schemas prepared for it
//!   ([`schema_prep`]).

pub mod clashes;
pub use mcp_worker_protocol::destructive;
pub mod enablement;
mod entry;
mod export;
pub mod limits;
pub mod naming;
pub mod schema_prep;
pub(crate) mod table;

pub use clashes::{ClashedTool, NameClash};
pub use enablement::ThreadEnablement;
pub use entry::{ExecutionContext, NativeTool, ToolEntry, ToolError, ToolSource};
pub use export::{Export, ExportFormat, ExportOptions};
pub use limits::{LimitReport, LimitViolation, TextField, ToolLimits};

use crate::listeners::{ListenerId, Listeners};
use mcp_worker_client::session::ListedTools;
use mcp_worker_protocol::Tool;
use mcp_worker_protocol::quoted::quoted;
use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;
use std::rc::Rc;
use table::{Listed, Naming, Table};

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
    #[error("tool name {name} is not usable: {reason}", name = quoted(.name))]
    InvalidName {
        /// The name.
        name: String,
        /// Why.
        reason: String,
    },
    /// A tool's name clashed, and so did the name it got instead (two equal SHA-256 hashes): it is not
    /// registered while the clash lasts.
    #[error("tool {tool} of server {server} is not registered: its name clashed, and so did its clash name", tool = quoted(.tool), server = quoted(.server))]
    Unnamed {
        /// The server.
        server: String,
        /// The tool's own name.
        tool: String,
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
    /// Names added (a tool renamed after a clash began or ended: its new name).
    pub added: Vec<String>,
    /// Names removed (a tool renamed: its old name).
    pub removed: Vec<String>,
    /// Threads whose enabled tools changed (see [`ToolRegistry::enablement`]).
    pub threads: Vec<String>,
    /// Clashes that began with this change: tools whose names would have coincided, with the names each got.
    pub clashes: Vec<NameClash>,
    /// Bounds a server's tool list went past ([`limits`]).
    pub limited: Vec<LimitReport>,
}

impl RegistryChange {
    fn is_empty(&self) -> bool {
        self.added.is_empty()
            && self.removed.is_empty()
            && self.threads.is_empty()
            && self.clashes.is_empty()
            && self.limited.is_empty()
    }
}

/// The result of replacing one server's tools.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ServerTools {
    /// Registry names now registered for the server, in the order it listed the tools.
    pub registered: Vec<String>,
    /// Tools that could not be registered, each with why.
    pub rejected: Vec<RegistryError>,
    /// Bounds the list went past, and what was done about each ([`ToolLimits`]).
    pub violations: Vec<LimitViolation>,
}

impl ServerTools {
    /// What went wrong, in a sentence for the `lastError` of `server`, naming it; `None` when nothing did.
    pub fn problems(&self, server: &str) -> Option<String> {
        let mut parts = Vec::new();
        if !self.rejected.is_empty() {
            let shown: Vec<String> = self.rejected.iter().map(ToString::to_string).collect();
            parts.push(format!("some tools were not registered: {}", shown.join("; ")));
        }
        if !self.violations.is_empty() {
            parts
                .push(format!("its tool list went past the registry's limits: {}", limits::describe(&self.violations)));
        }
        (!parts.is_empty()).then(|| format!("server {}: {}", quoted(server), parts.join("; ")))
    }
}

/// A registered tool agents do not see (see [`ToolRegistry::hidden`]), and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct HiddenTool {
    /// Its registry name.
    pub name: String,
    /// Its server.
    pub server: String,
    /// Its name on the server.
    pub tool: String,
    /// Why it counts as destructive, in words for whoever configures the server or writes it.
    pub reason: String,
}

/// The union registry. Shared (`Rc`) by the manager, which registers MCP tools, and the tool system, which
/// looks them up.
#[derive(Default)]
pub struct ToolRegistry {
    table: RefCell<Table>,
    enablement: RefCell<ThreadEnablement>,
    changes: Listeners<RegistryChange>,
    limits: ToolLimits,
    naming: Naming,
}

impl fmt::Debug for ToolRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolRegistry")
            .field("tools", &self.table.borrow().index.len())
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl ToolRegistry {
    /// An empty registry with the default [`ToolLimits`].
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty registry that bounds each server's tool list by `limits`.
    pub fn with_limits(limits: ToolLimits) -> Self {
        Self { limits, ..Self::default() }
    }

    /// An empty registry that names tools with `naming` (tests make clashes with weak ones).
    #[cfg(test)]
    pub(crate) fn with_naming(naming: Naming) -> Self {
        Self { naming, ..Self::default() }
    }

    /// The bounds on each server's tool list.
    pub fn limits(&self) -> ToolLimits {
        self.limits
    }

    /// Registers a tool that runs in the page, under `definition.name`, which must match
    /// `^[a-zA-Z0-9_-]{1,64}$` and must not start with `mcp__` (so it never meets an MCP tool's name). The rule
    /// for servers' tools holds for it too ([`destructive`]): a tool that may be destructive is hidden from agents
    /// unless `allow_destructive` (for a native tool, its registration is where the application allows it, as a
    /// server's config is for the server's tools). Native tools are not bounded by [`ToolLimits`].
    pub fn register_native(
        &self,
        definition: Tool,
        executor: Rc<dyn NativeTool>,
        allow_destructive: bool,
    ) -> Result<String, RegistryError> {
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
            exposed: allow_destructive || !destructive,
        };
        {
            let mut table = self.table.borrow_mut();
            if let Some(existing) = table.index.get(&name) {
                let existing = match existing.server() {
                    Some(server) => format!("tool {} of server {}", quoted(existing.original_name()), quoted(server)),
                    None => "a native tool".to_owned(),
                };
                return Err(RegistryError::Duplicate { name, existing });
            }
            table.index.insert(name.clone(), entry);
        }
        self.emit(RegistryChange { added: vec![name.clone()], ..RegistryChange::default() });
        Ok(name)
    }

    /// Replaces every tool of `server` with `tools` in one step, within the registry's [`ToolLimits`]. A tool the
    /// server lists twice is registered once (the first) and the second reported. Names are assigned over every
    /// server's tools again: a clash this list causes renames both sides, never only the newcomer.
    pub fn replace_server_tools(&self, server: &str, tools: Vec<Tool>, allow_destructive: bool) -> ServerTools {
        self.replace_listed_server_tools(server, ListedTools::all(tools), allow_destructive)
    }

    /// [`Self::replace_server_tools`] with tools of which only the first were decoded
    /// ([`McpClient::list_tools_upto`](mcp_worker_client::McpClient::list_tools_upto)): `listed.total` is what the
    /// server listed, for the report of what went past the limits.
    pub fn replace_listed_server_tools(
        &self,
        server: &str,
        listed: ListedTools,
        allow_destructive: bool,
    ) -> ServerTools {
        let (tools, violations) = limits::bound(listed.tools, listed.total, &self.limits);
        let mut rejected = Vec::new();
        let mut seen = HashSet::new();
        let mut listed = Vec::with_capacity(tools.len());
        for tool in tools {
            let base = (self.naming.base)(server, &tool.name);
            if !seen.insert(tool.name.clone()) {
                let existing = format!("tool {} of server {}", quoted(&limits::shown(&tool.name, 128)), quoted(server));
                rejected.push(RegistryError::Duplicate { name: base, existing });
                continue;
            }
            let destructive = destructive::is_destructive(&tool);
            let entry = ToolEntry {
                name: String::new(),
                definition: Rc::new(tool),
                source: ToolSource::Mcp { server: server.to_owned() },
                destructive,
                exposed: allow_destructive || !destructive,
            };
            listed.push(Listed { base, entry, registered: false });
        }
        let (reassigned, registered) = {
            let mut table = self.table.borrow_mut();
            let reassigned = table.replace_server(server, listed, self.naming);
            (reassigned, table.registered_names(server))
        };
        rejected.extend(reassigned.unnamed.into_iter().filter(|(s, _)| s == server).map(|(_, error)| error));
        let limited =
            if violations.is_empty() { Vec::new() } else { vec![LimitReport::new(server, violations.clone())] };
        self.emit(RegistryChange {
            added: reassigned.added,
            removed: reassigned.removed,
            threads: Vec::new(),
            clashes: reassigned.new_clashes,
            limited,
        });
        ServerTools { registered, rejected, violations }
    }

    /// Shows a server's destructive tools to agents (`allow`), or hides them again: what its config's
    /// `allowDestructiveTools` now says. Agents see the tools come and go as added and removed; the registry names
    /// whose visibility changed are returned.
    pub fn allow_destructive(&self, server: &str, allow: bool) -> Vec<String> {
        let changed = self.table.borrow_mut().expose_destructive(server, allow);
        let (added, removed) = if allow { (changed.clone(), Vec::new()) } else { (Vec::new(), changed.clone()) };
        self.emit(RegistryChange { added, removed, ..RegistryChange::default() });
        changed
    }

    /// Removes one tool; true if it was registered.
    pub fn unregister(&self, name: &str) -> bool {
        self.unregister_where(|entry| entry.name == name) == 1
    }

    /// Removes every tool of a server; returns how many were registered.
    pub fn unregister_server(&self, server: &str) -> usize {
        self.unregister_where(|entry| entry.server() == Some(server))
    }

    /// Removes every registered tool `predicate` selects (ART's `unregisterTools`); returns how many. Tools of other
    /// servers may be renamed as a result (a clash ended); the change says so.
    pub fn unregister_where(&self, predicate: impl Fn(&ToolEntry) -> bool) -> usize {
        let (count, reassigned) = self.table.borrow_mut().remove_where(predicate, self.naming);
        self.emit(RegistryChange {
            added: reassigned.added,
            removed: reassigned.removed,
            clashes: reassigned.new_clashes,
            ..RegistryChange::default()
        });
        count
    }

    /// The entry registered under `name`.
    pub fn get(&self, name: &str) -> Option<ToolEntry> {
        self.table.borrow().index.get(name).cloned()
    }

    /// How many tools are registered (hidden ones included).
    pub fn len(&self) -> usize {
        self.table.borrow().index.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The entries `filter` selects, in name order.
    pub fn list(&self, filter: &ToolFilter) -> Vec<ToolEntry> {
        let enablement = self.enablement.borrow();
        self.table
            .borrow()
            .index
            .values()
            .filter(|entry| filter.server.as_deref().is_none_or(|server| entry.server() == Some(server)))
            .filter(|entry| match &filter.thread_id {
                Some(thread) => entry.exposed && enablement.is_enabled(thread, &entry.name),
                None => filter.include_hidden || entry.exposed,
            })
            .cloned()
            .collect()
    }

    /// The registered tools agents do not see, by registry name, each with why: a tool that may be destructive is
    /// hidden while its server's config does not allow destructive tools (`allowDestructiveTools`), or, for a
    /// native tool (`server` empty), while its registration did not allow it.
    pub fn hidden(&self) -> Vec<HiddenTool> {
        self.hidden_where(|_| true)
    }

    /// [`Self::hidden`] for one server.
    pub fn hidden_of(&self, server: &str) -> Vec<HiddenTool> {
        self.hidden_where(|entry| entry.server() == Some(server))
    }

    /// [`Self::hidden`] for the native tools.
    pub fn hidden_of_native(&self) -> Vec<HiddenTool> {
        self.hidden_where(|entry| entry.server().is_none())
    }

    fn hidden_where(&self, keep: impl Fn(&ToolEntry) -> bool) -> Vec<HiddenTool> {
        let table = self.table.borrow();
        table
            .index
            .values()
            .filter(|entry| !entry.exposed && keep(entry))
            .map(|entry| HiddenTool {
                name: entry.name.clone(),
                server: entry.server().unwrap_or_default().to_owned(),
                tool: entry.original_name().to_owned(),
                reason: destructive::why_destructive(&entry.definition)
                    .unwrap_or_else(|| "it may be destructive".to_owned()),
            })
            .collect()
    }

    /// Whether an agent in `thread_id` may call `name`: registered, exposed and enabled for the thread.
    pub fn is_callable(&self, thread_id: &str, name: &str) -> bool {
        self.table.borrow().index.get(name).is_some_and(|entry| entry.exposed)
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
        self.emit(RegistryChange { threads: vec![thread_id.to_owned()], ..RegistryChange::default() });
    }

    /// A copy of every thread's enablement.
    pub fn enablement(&self) -> ThreadEnablement {
        self.enablement.borrow().clone()
    }

    /// The entries `filter` selects, in an LLM API's format, with schemas prepared for it. A tool whose schema
    /// cannot be made acceptable is left out and reported in [`Export::skipped`].
    pub fn export(&self, format: ExportFormat, filter: &ToolFilter) -> Export {
        self.export_with(format, filter, ExportOptions::default())
    }

    /// [`Self::export`] with [`ExportOptions`] (the `[server]` prefix on descriptions).
    pub fn export_with(&self, format: ExportFormat, filter: &ToolFilter, options: ExportOptions) -> Export {
        export::export(&self.list(filter), format, options, &self.limits)
    }

    /// Calls `listener` after every change.
    pub fn subscribe(&self, listener: Rc<dyn Fn(&RegistryChange)>) -> ListenerId {
        self.changes.subscribe(listener)
    }

    /// Stops calling a listener.
    pub fn unsubscribe(&self, id: ListenerId) -> bool {
        self.changes.unsubscribe(id)
    }

    fn emit(&self, change: RegistryChange) {
        if !change.is_empty() {
            self.changes.emit(&change);
        }
    }
}

#[cfg(test)]
#[path = "registry_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "registry_names_tests.rs"]
mod names_tests;
