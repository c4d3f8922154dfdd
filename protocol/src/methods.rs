//! Method names of MCP 2025-11-25, in one place so that a typo is a compile error.

/// `initialize` request.
pub const INITIALIZE: &str = "initialize";
/// `notifications/initialized`.
pub const INITIALIZED: &str = "notifications/initialized";
/// `ping` request.
pub const PING: &str = "ping";
/// `tools/list` request.
pub const TOOLS_LIST: &str = "tools/list";
/// `tools/call` request.
pub const TOOLS_CALL: &str = "tools/call";
/// `notifications/cancelled`.
pub const CANCELLED: &str = "notifications/cancelled";
/// `notifications/progress`.
pub const PROGRESS: &str = "notifications/progress";
/// `notifications/message` (logging).
pub const LOG_MESSAGE: &str = "notifications/message";
/// `notifications/tools/list_changed`.
pub const TOOLS_LIST_CHANGED: &str = "notifications/tools/list_changed";
/// `notifications/resources/list_changed`.
pub const RESOURCES_LIST_CHANGED: &str = "notifications/resources/list_changed";
/// `notifications/prompts/list_changed`.
pub const PROMPTS_LIST_CHANGED: &str = "notifications/prompts/list_changed";
/// `resources/list` request.
pub const RESOURCES_LIST: &str = "resources/list";
/// `resources/templates/list` request.
pub const RESOURCES_TEMPLATES_LIST: &str = "resources/templates/list";
/// `resources/read` request.
pub const RESOURCES_READ: &str = "resources/read";
/// `resources/subscribe` request.
pub const RESOURCES_SUBSCRIBE: &str = "resources/subscribe";
/// `resources/unsubscribe` request.
pub const RESOURCES_UNSUBSCRIBE: &str = "resources/unsubscribe";
/// `notifications/resources/updated`.
pub const RESOURCES_UPDATED: &str = "notifications/resources/updated";
/// `prompts/list` request.
pub const PROMPTS_LIST: &str = "prompts/list";
/// `prompts/get` request.
pub const PROMPTS_GET: &str = "prompts/get";
/// `completion/complete` request.
pub const COMPLETION_COMPLETE: &str = "completion/complete";
/// `logging/setLevel` request.
pub const LOGGING_SET_LEVEL: &str = "logging/setLevel";
/// `sampling/createMessage` request (server to client).
pub const SAMPLING_CREATE_MESSAGE: &str = "sampling/createMessage";
/// `elicitation/create` request (server to client).
pub const ELICITATION_CREATE: &str = "elicitation/create";
/// `roots/list` request (server to client).
pub const ROOTS_LIST: &str = "roots/list";
/// `notifications/roots/list_changed` (client to server).
pub const ROOTS_LIST_CHANGED: &str = "notifications/roots/list_changed";
