//! Observations: what the host records for the agent's UI, in the shape of ART's `Observation`.
//!
//! Every tool execution is recorded as a `TOOL_EXECUTION` observation (tool, server, thread, duration, status).
//! Subscribers receive each one as it happens; the status socket publishes them to the page.

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
