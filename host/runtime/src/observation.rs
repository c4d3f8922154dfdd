//! Observations and the status socket: what the runtime tells the page and the agent about servers, tools and calls.
//!
//! - [`ObservationManager`] is the hub of the status socket: typed [`StatusEvent`]s (server status, credentials
//!   required, tools changed, tool names clashed, tool lists limited, tool executions started and finished, server
//!   logs, progress, restarts, elicitation and sampling requests), numbered without gaps, kept in a bounded history
//!   for late subscribers, delivered to subscribers by [`EventFilter`] (kinds, servers, thread) as callbacks or as a
//!   [`EventStream`]. No event carries a credential value ([`Redactor`]).
//! - The hub listens to the runtime's parts ([`ObservationManager::watch_manager`], `watch_registry`,
//!   `watch_tool_system`: the tool system's typed execution records); requests from servers that wait for the
//!   application are kept in [`ServerRequests`].
//! - Every event converts to an ART `Observation` ([`ArtObservation`]).

mod art;
mod bridge;
mod events;
mod filter;
mod history;
mod hub;
mod redact;
mod requests;
mod scrub;
mod stream;

pub use art::ArtObservation;
pub use bridge::Watches;
pub use events::{
    AuthorizationRequiredEvent, CredentialsRequiredEvent, EventBody, EventKind, ListChangedEvent, ProgressEvent,
    ResourceUpdatedEvent, ServerEvent, ServerLogEvent, ServerRequestEvent, ServerRequestSettledEvent,
    ServerRestartingEvent, ServerStatusEvent, Settlement, StatusEvent, ToolExecutionFinishedEvent,
    ToolExecutionStartedEvent, ToolListLimitedEvent, ToolNamesClashedEvent, ToolsChangedEvent, ToolsHiddenEvent,
};
pub use filter::EventFilter;
pub use hub::{DEFAULT_HISTORY, EventCallback, ObservationManager, SubscriptionId};
pub use redact::{MIN_SCRUBBED_LEN, RedactingCredentials, Redactor};
pub use requests::{PendingRequest, ServerRequests};
pub use stream::EventStream;

use serde::Serialize;

/// ART's `ObservationType` values this host records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[non_exhaustive]
pub enum ObservationType {
    /// A tool call ran (successfully or not).
    ToolExecution,
    /// A tool call began.
    ToolCall,
    /// Something about the runtime changed (a server's status, its tools, …).
    StateUpdate,
    /// Something failed (a server down, a restart after a crash).
    Error,
}
