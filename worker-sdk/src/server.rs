//! The `Server` builder: identity, instructions, tools.

use crate::env::Env;
use crate::session::{Outbound, Session, Spawner};
use crate::tool::{ToolDef, check_tool_name};
use mcp_worker_protocol::Implementation;
use std::collections::HashMap;
use std::rc::Rc;

/// The default number of items per page of a list.
pub const DEFAULT_PAGE_SIZE: usize = 100;

/// An MCP server: what it is and what it offers. Build one, then serve it with [`crate::export_server!`].
///
/// ```
/// use mcp_worker_sdk::{Server, ToolDef, NoArgs};
/// let server = Server::new("clock", "1.0.0")
///     .instructions("Tells the time.")
///     .tool(ToolDef::new("now", |_: NoArgs| async { "12:00" }).description("The current time"));
/// assert_eq!(server.tool_count(), 1);
/// ```
#[must_use]
#[derive(Debug)]
pub struct Server {
    info: Implementation,
    instructions: Option<String>,
    tools: Vec<ToolDef>,
    page_size: usize,
    problems: Vec<String>,
}

impl Server {
    /// A server with a name and a version.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        Self {
            info: Implementation::new(name, version),
            instructions: None,
            tools: Vec::new(),
            page_size: DEFAULT_PAGE_SIZE,
            problems: Vec::new(),
        }
    }

    /// A display name.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.info.title = Some(title.into());
        self
    }

    /// How to use this server, for the model (`instructions` in the `initialize` result).
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// Items per page of every list (at least 1).
    pub fn page_size(mut self, page_size: usize) -> Self {
        self.page_size = page_size.max(1);
        self
    }

    /// Adds a tool. An invalid or duplicate name is reported when the server starts, as a fatal error the host
    /// shows, rather than a tool that silently goes missing.
    pub fn tool(mut self, tool: ToolDef) -> Self {
        let name = &tool.definition.name;
        if let Err(problem) = check_tool_name(name) {
            self.problems.push(problem);
        } else if self.tools.iter().any(|t| &t.definition.name == name) {
            self.problems.push(format!("tool {name:?} is registered twice"));
        }
        self.tools.push(tool);
        self
    }

    /// How many tools are registered.
    pub fn tool_count(&self) -> usize {
        self.tools.len()
    }

    /// Starts a session that writes frames to `out` and runs handlers with `spawn`.
    ///
    /// Fails when the server was built with problems (invalid or duplicate tool names).
    pub fn into_session(self, env: Env, out: Outbound, spawn: Spawner) -> Result<Session, String> {
        if !self.problems.is_empty() {
            return Err(format!("server {:?} cannot start: {}", self.info.name, self.problems.join("; ")));
        }
        let index = self.tools.iter().enumerate().map(|(i, t)| (t.definition.name.clone(), i)).collect();
        let core = ServerCore {
            info: self.info,
            instructions: self.instructions,
            tools: self.tools,
            tool_index: index,
            page_size: self.page_size,
        };
        Ok(Session::new(Rc::new(core), Rc::new(env), out, spawn))
    }
}

/// The immutable part of a running server.
#[derive(Debug)]
pub(crate) struct ServerCore {
    pub(crate) info: Implementation,
    pub(crate) instructions: Option<String>,
    pub(crate) tools: Vec<ToolDef>,
    pub(crate) tool_index: HashMap<String, usize>,
    pub(crate) page_size: usize,
}

impl ServerCore {
    pub(crate) fn tool(&self, name: &str) -> Option<&ToolDef> {
        self.tool_index.get(name).and_then(|i| self.tools.get(*i))
    }
}
