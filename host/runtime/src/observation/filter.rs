//! Which events a subscriber wants: by kind, by server, by thread.

use super::events::{EventKind, StatusEvent};
use serde::Deserialize;

/// A subscription's filter. Every part that is set must match; an empty filter matches everything.
///
/// - `kinds`: only these kinds.
/// - `servers`: only events about these servers (events about no server, such as a native tool's execution, are
///   left out; a clash of tool names is about each of its servers).
/// - `thread_id`: events of other threads are left out; events that belong to no thread (server status,
///   credentials, logs, …) still arrive, as in ART's sockets, where a thread filter applies when both sides set one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct EventFilter {
    /// Only these kinds.
    #[serde(default)]
    pub kinds: Option<Vec<EventKind>>,
    /// Only these servers.
    #[serde(default)]
    pub servers: Option<Vec<String>>,
    /// Only this thread's tool executions (and every event that belongs to no thread).
    #[serde(default)]
    pub thread_id: Option<String>,
}

impl EventFilter {
    /// Matches everything.
    pub fn all() -> Self {
        Self::default()
    }

    /// Only these kinds.
    #[must_use]
    pub fn kinds(mut self, kinds: impl IntoIterator<Item = EventKind>) -> Self {
        self.kinds = Some(kinds.into_iter().collect());
        self
    }

    /// Only these servers.
    #[must_use]
    pub fn servers(mut self, servers: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.servers = Some(servers.into_iter().map(Into::into).collect());
        self
    }

    /// Only this thread's events (and those of no thread).
    #[must_use]
    pub fn thread(mut self, thread_id: impl Into<String>) -> Self {
        self.thread_id = Some(thread_id.into());
        self
    }

    /// Whether `event` passes.
    pub fn matches(&self, event: &StatusEvent) -> bool {
        if self.kinds.as_ref().is_some_and(|kinds| !kinds.contains(&event.kind())) {
            return false;
        }
        if let Some(servers) = &self.servers
            && !servers.iter().any(|server| event.body.concerns(server))
        {
            return false;
        }
        match (&self.thread_id, event.thread_id()) {
            (Some(wanted), Some(thread)) => wanted == thread,
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observation::events::{EventBody, ServerEvent, ToolExecutionStartedEvent};

    fn event(body: EventBody) -> StatusEvent {
        StatusEvent { id: "t-1".into(), seq: 1, timestamp: 0.0, body }
    }

    fn removed(server: &str) -> StatusEvent {
        event(EventBody::ServerRemoved(ServerEvent { server: server.into() }))
    }

    fn started(server: Option<&str>, thread: &str) -> StatusEvent {
        event(EventBody::ToolExecutionStarted(ToolExecutionStartedEvent {
            call_id: "c".into(),
            tool_name: "t".into(),
            tool: None,
            server: server.map(str::to_owned),
            origin: None,
            thread_id: thread.into(),
            trace_id: None,
        }))
    }

    #[test]
    fn each_part_narrows_and_an_empty_filter_takes_everything() {
        assert!(EventFilter::all().matches(&removed("a")));
        let kinds = EventFilter::all().kinds([EventKind::ServerStatus]);
        assert!(!kinds.matches(&removed("a")));
        let servers = EventFilter::all().servers(["a"]);
        assert!(servers.matches(&removed("a")) && !servers.matches(&removed("b")));
        assert!(!servers.matches(&started(None, "t1")), "a native tool is about no server");
    }

    #[test]
    fn a_thread_filter_drops_other_threads_but_keeps_events_of_no_thread() {
        let thread = EventFilter::all().thread("t1");
        assert!(thread.matches(&started(Some("a"), "t1")));
        assert!(!thread.matches(&started(Some("a"), "t2")));
        assert!(thread.matches(&removed("a")), "server events belong to every thread");
    }

    #[test]
    fn filters_read_from_the_javascript_shape() {
        let filter: EventFilter = mcp_worker_protocol::json::from_str(
            r#"{"kinds":["serverStatus","toolExecutionFinished"],"servers":["echo"],"threadId":"t"}"#,
        )
        .unwrap();
        assert_eq!(
            filter,
            EventFilter::all()
                .kinds([EventKind::ServerStatus, EventKind::ToolExecutionFinished])
                .servers(["echo"])
                .thread("t")
        );
        assert!(
            mcp_worker_protocol::json::from_str::<EventFilter>(r#"{"kinds":["nope"]}"#).is_err(),
            "an unknown kind is an error"
        );
    }
}
