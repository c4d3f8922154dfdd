#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod content;
pub mod error;
pub mod jsonrpc;
pub mod lifecycle;
pub mod methods;
pub mod notifications;
pub mod tools;
pub mod version;

pub use content::{
    Annotations, AudioContent, ContentBlock, EmbeddedResource, ImageContent, Resource, ResourceContents, Role,
    TextContent,
};
pub use error::{ErrorCode, ErrorObject};
pub use jsonrpc::{IncomingError, Message, Notification, Request, RequestId, Response};
pub use lifecycle::{ClientCapabilities, Icon, Implementation, InitializeParams, InitializeResult, ServerCapabilities};
pub use tools::{CallToolParams, CallToolResult, ListToolsResult, PaginatedParams, Tool, ToolAnnotations};

/// A JSON object, as MCP uses for schemas, arguments, structured content and `_meta`.
pub type JsonObject = serde_json::Map<String, serde_json::Value>;
