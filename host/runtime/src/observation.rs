//! Observations and the status socket: what the runtime tells the page and the agent about servers, tools and calls.
//!
//! - [`ObservationManager`] is the hub of the status socket: typed [`StatusEvent`]s (server status, credentials
//!   required, tools changed, tool executions started and finished, server logs, progress, restarts, elicitation and
//!   sampling requests), numbered without gaps, kept in a bounded history for late subscribers, delivered to
//!   subscribers by [`EventFilter`] (kinds, servers, thread) as callbacks or as a [`EventStream`]. No event carries a
//!   credential value ([`Redactor`]).
//! - The hub listens to the runtime's parts ([`ObservationManager::watch_manager`], `watch_registry`,
//!   `watch_tool_system`); requests from servers that wait for the application are kept in [`ServerRequests`].
//! - Every event converts to an ART `Observation` ([`ArtObservation`]), and the tool system records each tool
//!   execution as a `TOOL_EXECUTION` [`Observation`] through [`Observations`], as ART's ToolSystem does.

mod art;
mod bridge;
mod events;
mod filter;
mod history;
mod hub;
mod redact;
mod requests;
mod stream;
mod tools;

pub use art::ArtObservation;
pub use bridge::Watches;
pub use events::{
    CredentialsRequiredEvent, EventBody, EventKind, ListChangedEvent, ProgressEvent, ServerEvent, ServerLogEvent,
    ServerRequestEvent, ServerRequestSettledEvent, ServerRestartingEvent, ServerStatusEvent, Settlement, StatusEvent,
    ToolExecutionFinishedEvent, ToolExecutionStartedEvent, ToolsChangedEvent,
};
pub use filter::EventFilter;
pub use hub::{DEFAULT_HISTORY, EventCallback, ObservationManager, SubscriptionId};
pub use redact::{MIN_SCRUBBED_LEN, RedactingCredentials, Redactor};
pub use requests::{PendingRequest, ServerRequests};
pub use stream::EventStream;

use crate::listeners::{Callback, ListenerId, Listeners};
use serde::Serialize;
use serde_json::{Map, Value};

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

/// One observation: ART's `Observation` without the `id`, which the recorder assigns.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Observation {
    /// The agent thread.
    pub thread_id: String,
    /// The agent run's trace, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace_id: Option<String>,
    /// What kind of observation.
    #[serde(rename = "type")]
    pub kind: ObservationType,
    /// Milliseconds since the epoch (`Date.now()` in the browser).
    pub timestamp: f64,
    /// A one-line summary.
    pub title: String,
    /// For `TOOL_EXECUTION`: the `ToolResult`.
    pub content: Value,
    /// For `TOOL_EXECUTION`: `callId`, `toolName`, `server`, `tool`, `durationMs`, `status`.
    pub metadata: Map<String, Value>,
}

/// Where observations go: every subscriber gets every observation, in order.
#[derive(Debug, Default)]
pub struct Observations {
    listeners: Listeners<Observation>,
}

impl Observations {
    /// No subscribers yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Hands `observation` to every subscriber.
    pub fn record(&self, observation: &Observation) {
        self.listeners.emit(observation);
    }

    /// Receives every later observation.
    pub fn subscribe(&self, callback: Callback<Observation>) -> ListenerId {
        self.listeners.subscribe(callback)
    }

    /// Stops a subscription.
    pub fn unsubscribe(&self, id: ListenerId) -> bool {
        self.listeners.unsubscribe(id)
    }
}
