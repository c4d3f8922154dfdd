#![doc = include_str!("../README.md")]
#![warn(missing_docs)]
// Tests read JSON with serde_json itself, to compare with it.
#![cfg_attr(test, allow(clippy::disallowed_methods))]

pub mod completion;
pub mod content;
pub mod destructive;
pub mod elicitation;
pub mod error;
pub mod id_map;
pub mod invalid_arguments;
pub mod js_text;
pub mod json;
pub mod jsonrpc;
pub mod lifecycle;
pub mod logging;
pub mod members;
pub mod methods;
pub mod modern;
pub mod name_map;
pub mod notifications;
pub mod object_text;
pub mod pending;
pub mod prompts;
pub mod quoted;
pub mod resources;
pub mod roots;
pub mod sampling;
pub mod substring;
pub mod tools;
pub mod version;
pub mod worker_entry;
pub mod worker_guard;

pub use completion::{CompleteParams, CompleteResult, Completion, CompletionReference};
pub use content::{
    Annotations, AudioContent, ContentBlock, EmbeddedResource, ImageContent, Resource, ResourceContents, Role,
    TextContent,
};
pub use elicitation::{ElicitAction, ElicitParams, ElicitResult};
pub use error::{ErrorCode, ErrorObject};
pub use jsonrpc::{IncomingError, Message, Notification, Request, RequestId, Response};
pub use lifecycle::{ClientCapabilities, Icon, Implementation, InitializeParams, InitializeResult, ServerCapabilities};
pub use logging::{LoggingLevel, LoggingMessageParams, SetLevelParams};
pub use name_map::NameMap;
pub use object_text::ObjectText;
pub use pending::{Deadline, PendingTable};
pub use prompts::{GetPromptParams, GetPromptResult, ListPromptsResult, Prompt, PromptArgument, PromptMessage};
pub use resources::{
    ListResourceTemplatesResult, ListResourcesResult, ReadResourceResult, ResourceParams, ResourceTemplate,
};
pub use roots::{ListRootsResult, Root};
pub use sampling::{CreateMessageParams, CreateMessageResult, SamplingContent, SamplingMessage};
pub use tools::{CallToolParams, CallToolResult, ListToolsResult, PaginatedParams, Tool, ToolAnnotations};

/// A JSON object, as MCP uses for schemas, arguments, structured content and `_meta`.
pub type JsonObject = serde_json::Map<String, serde_json::Value>;
