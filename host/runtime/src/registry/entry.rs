//! What a registered tool is: where it runs, and for a native tool, what runs it.

use futures_util::future::LocalBoxFuture;
use mcp_worker_protocol::Tool;
use serde_json::Value;
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
    /// The definition as its source gave it (for MCP: as the server listed it, with its own name, and its titles
    /// and descriptions within the registry's [`super::ToolLimits`]).
    pub definition: Rc<Tool>,
    /// Where it runs.
    pub source: ToolSource,
    /// Whether it may be destructive (see [`super::destructive`]).
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
