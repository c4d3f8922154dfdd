//! Events as ART `Observation`s, for agents that record observations and UIs that read ART's observation socket.
//!
//! | event | ART `type` | `content` |
//! |---|---|---|
//! | `toolExecutionFinished` | `TOOL_EXECUTION` | ART's `ToolResult` with `outputSummary` (content kinds and sizes) in place of `output` |
//! | `toolExecutionStarted` | `TOOL_CALL` | `{callId, toolName, tool, server, source}` |
//! | `serverStatus` with status `error`, `serverRestarting`, `toolNamesClashed` | `ERROR` | the event |
//! | every other event | `STATE_UPDATE` | the event |
//!
//! `metadata` always has `source: "mcp-worker"`, `event` (the event's `type`) and `seq`, plus `server` (`servers`
//! for a clash of tool names), and for tool executions `callId`, `toolName`, `tool`, `durationMs` and `status` as
//! ART's ToolSystem puts them. Events that
//! belong to no thread get an empty `threadId`.

use super::ObservationType;
use super::events::{EventBody, StatusEvent};
use crate::manager::ServerStatus;
use crate::tool_system::ToolStatus;
use serde::Serialize;
use serde_json::{Map, Value, json};

/// An ART `Observation` with its id.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ArtObservation {
    /// The event's id.
    pub id: String,
    /// The agent thread, or empty for an event of no thread.
    pub thread_id: String,
    /// The agent run's trace, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace_id: Option<String>,
    /// Milliseconds since the epoch.
    pub timestamp: f64,
    /// ART's observation type.
    #[serde(rename = "type")]
    pub kind: ObservationType,
    /// A one-line summary.
    pub title: String,
    /// What happened (see the module table).
    pub content: Value,
    /// Correlation fields.
    pub metadata: Map<String, Value>,
}

impl StatusEvent {
    /// The event as an ART observation.
    pub fn to_observation(&self) -> ArtObservation {
        // Through its JSON text, which the status socket writes anyway: serializing events into `Value`s too
        // would compile every event's serialization a second time.
        let text = serde_json::to_string(self).unwrap_or_default();
        let event: Value = mcp_worker_protocol::json::from_str(&text).unwrap_or(Value::Null);
        let tag = event.get("type").and_then(Value::as_str).unwrap_or_default().to_owned();
        let mut metadata = Map::new();
        metadata.insert("source".into(), json!("mcp-worker"));
        metadata.insert("event".into(), json!(tag));
        metadata.insert("seq".into(), json!(self.seq));
        if let Some(server) = self.server() {
            metadata.insert("server".into(), json!(server));
        }
        let (kind, title, content, trace_id) = match &self.body {
            EventBody::ToolExecutionFinished(e) => {
                let call = &e.call;
                metadata.insert("callId".into(), json!(call.call_id));
                metadata.insert("toolName".into(), json!(call.tool_name));
                if let Some(tool) = &call.tool {
                    metadata.insert("tool".into(), json!(tool));
                }
                metadata.insert("durationMs".into(), json!(e.duration_ms));
                metadata.insert("status".into(), json!(e.status));
                let status = if e.status == ToolStatus::Success { "success" } else { "error" };
                let title = format!("{} {status}", call.tool_name);
                // ART's ToolResult, with a summary of the output in place of the output (see the module docs).
                let content = json!({
                    "callId": call.call_id, "toolName": call.tool_name, "status": e.status, "error": e.error,
                    "outputSummary": e.output,
                    "metadata": {"source": call.origin, "tool": call.tool, "server": call.server,
                                 "durationMs": e.duration_ms, "errorCode": e.error_code},
                });
                (ObservationType::ToolExecution, title, content, call.trace_id.clone())
            }
            EventBody::ToolExecutionStarted(e) => {
                metadata.insert("callId".into(), json!(e.call_id));
                metadata.insert("toolName".into(), json!(e.tool_name));
                let content = json!({
                    "callId": e.call_id, "toolName": e.tool_name, "tool": e.tool, "server": e.server, "source": e.origin,
                });
                (ObservationType::ToolCall, format!("{} started", e.tool_name), content, e.trace_id.clone())
            }
            EventBody::ServerStatus(e) => {
                let kind =
                    if e.status == ServerStatus::Error { ObservationType::Error } else { ObservationType::StateUpdate };
                let status = serde_json::to_value(e.status).ok().and_then(|s| s.as_str().map(str::to_owned));
                (kind, format!("{} {}", e.server, status.unwrap_or_default()), event, None)
            }
            EventBody::ToolNamesClashed(e) => {
                let mut servers: Vec<&str> = e.tools.iter().map(|tool| tool.server.as_str()).collect();
                servers.dedup();
                metadata.insert("servers".into(), json!(servers));
                let title = format!("tool names clashed: {} ({})", e.name, servers.join(", "));
                (ObservationType::Error, title, event, None)
            }
            EventBody::ServerRestarting(e) => {
                let title = format!("{} restarting (attempt {}, in {} ms)", e.server, e.attempt, e.backoff_ms);
                (ObservationType::Error, title, event, None)
            }
            _ => {
                let title = match self.server() {
                    Some(server) => format!("{server} {tag}"),
                    None => tag,
                };
                (ObservationType::StateUpdate, title, event, None)
            }
        };
        ArtObservation {
            id: self.id.clone(),
            thread_id: self.thread_id().unwrap_or_default().to_owned(),
            trace_id,
            timestamp: self.timestamp,
            kind,
            title,
            content,
            metadata,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observation::events::{ServerRestartingEvent, ToolExecutionFinishedEvent};
    use crate::tool_system::{ContentSummary, ExecutionCall, OutputSummary, ToolOrigin};

    fn event(body: EventBody) -> StatusEvent {
        StatusEvent { id: "rt-7".into(), seq: 7, timestamp: 5.0, body }
    }

    #[test]
    fn a_finished_execution_is_a_tool_execution_observation_with_a_summary_of_the_output() {
        let observation = event(EventBody::ToolExecutionFinished(ToolExecutionFinishedEvent {
            call: ExecutionCall {
                call_id: "call_1".into(),
                tool_name: "mcp__echo__echo".into(),
                tool: Some("echo".into()),
                server: Some("echo".into()),
                origin: Some(ToolOrigin::Mcp),
                thread_id: "t1".into(),
                trace_id: Some("trace".into()),
            },
            duration_ms: 3.0,
            status: ToolStatus::Success,
            error: None,
            error_code: None,
            output: OutputSummary {
                content: vec![ContentSummary { kind: "text".into(), bytes: 5 }],
                structured_bytes: None,
            },
        }))
        .to_observation();
        let json = serde_json::to_value(&observation).unwrap();
        assert_eq!(json["id"], "rt-7");
        assert_eq!(json["threadId"], "t1");
        assert_eq!(json["traceId"], "trace");
        assert_eq!(json["type"], "TOOL_EXECUTION");
        assert_eq!(json["title"], "mcp__echo__echo success");
        assert_eq!(json["content"]["callId"], "call_1");
        assert_eq!(json["content"]["status"], "success");
        assert_eq!(
            json["content"]["outputSummary"],
            json!({"content": [{"kind": "text", "bytes": 5}], "structuredBytes": null})
        );
        assert_eq!(json["content"]["metadata"]["source"], "mcp");
        assert!(json["content"].get("output").is_none(), "the output is not kept");
        assert_eq!(json["metadata"]["callId"], "call_1");
        assert_eq!(json["metadata"]["server"], "echo");
        assert_eq!(json["metadata"]["status"], "success");
    }

    #[test]
    fn failures_are_error_observations_and_other_events_state_updates() {
        let restart = event(EventBody::ServerRestarting(ServerRestartingEvent {
            server: "echo".into(),
            attempt: 2,
            backoff_ms: 200,
            reason: "crashed".into(),
        }))
        .to_observation();
        assert_eq!(restart.kind, ObservationType::Error);
        assert_eq!(restart.thread_id, "", "no thread");
        assert_eq!(restart.content["attempt"], 2);
        assert_eq!(restart.metadata["event"], "serverRestarting");
        let removed =
            event(EventBody::ServerRemoved(crate::observation::events::ServerEvent { server: "echo".into() }))
                .to_observation();
        assert_eq!(removed.kind, ObservationType::StateUpdate);
        assert_eq!(removed.title, "echo serverRemoved");
    }
}
