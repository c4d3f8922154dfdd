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
