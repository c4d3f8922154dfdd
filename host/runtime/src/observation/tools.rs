//! Tool executions with their `toolExecutionStarted` events (the tool system records only finished ones).

use super::events::{EventBody, ToolExecutionStartedEvent};
use super::hub::ObservationManager;
use crate::registry::{ToolRegistry, ToolSource};
use crate::tool_system::{ExecuteOptions, ParsedToolCall, ToolResult, ToolSystem};

impl ObservationManager {
    /// Publishes `toolExecutionStarted` for each call, naming the tool's server and source when it is registered.
    pub fn tool_calls_started(
        &self,
        registry: &ToolRegistry,
        calls: &[ParsedToolCall],
        thread_id: &str,
        trace_id: Option<&str>,
    ) {
        for call in calls {
            let entry = registry.get(&call.tool_name);
            let source = entry.as_ref().map(|e| match e.source {
                ToolSource::Native(_) => "native".to_owned(),
                _ => "mcp".to_owned(),
            });
            self.emit(EventBody::ToolExecutionStarted(ToolExecutionStartedEvent {
                call_id: call.call_id.clone(),
                tool_name: call.tool_name.clone(),
                tool: entry.as_ref().map(|e| e.original_name().to_owned()),
                server: entry.as_ref().and_then(|e| e.server().map(str::to_owned)),
                source,
                thread_id: thread_id.to_owned(),
                trace_id: trace_id.map(str::to_owned),
            }));
        }
    }

    /// Runs `calls` on `system` (whose registry is `registry`), publishing `toolExecutionStarted` for each before
    /// it runs; `toolExecutionFinished` follows from [`Self::watch_tool_system`].
    pub async fn execute_tools(
        &self,
        system: &ToolSystem,
        registry: &ToolRegistry,
        calls: Vec<ParsedToolCall>,
        thread_id: &str,
        trace_id: Option<&str>,
        options: &ExecuteOptions,
    ) -> Vec<ToolResult> {
        self.tool_calls_started(registry, &calls, thread_id, trace_id);
        system.execute_tools_with(calls, thread_id, trace_id, options).await
    }
}
