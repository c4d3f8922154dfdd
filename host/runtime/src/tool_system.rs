//! The tool system: what an agent calls with the LLM's tool calls.
//!
//! [`ToolSystem::execute_tools`] takes ART's `ParsedToolCall`s and returns ART's `ToolResult`s, one per call, in
//! call order, each with the LLM's own `callId`. Independent calls run concurrently. Before anything is sent to a
//! server, each call is checked: the tool exists and agents may see it, it is enabled for the thread, and its
//! arguments are valid against the tool's input schema. A call that fails a check gets an error result the model can
//! act on, and no server is called. MCP results with `isError: true` are errors with the tool's text; structured
//! content is checked against the tool's output schema. Every execution is reported as typed records
//! ([`ExecutionEvent`]: started, then finished with a summary of its output) to the tool system's subscribers; the
//! status socket publishes them.

mod execution;
mod result;

pub use execution::{ContentSummary, ExecutionCall, ExecutionEvent, ExecutionFinished, OutputSummary, ToolOrigin};
/// How much work checking one call's arguments (or one result) against its tool's schema may take.
pub use mcp_worker_json_schema::Limits as SchemaLimits;
pub use result::{ParsedToolCall, ToolResult, ToolStatus};

use crate::Result;
use crate::listeners::{Callback, ListenerId, Listeners};
use crate::registry::enablement;
use crate::registry::{ExecutionContext, ToolEntry, ToolRegistry, ToolSource};
use futures_util::future::{LocalBoxFuture, join_all};
use mcp_worker_client::CallOptions;
use mcp_worker_client::connection::Clock;
use mcp_worker_client::session::check_call_result;
use mcp_worker_json_schema as json_schema;
use mcp_worker_protocol::ObjectText;
use mcp_worker_protocol::invalid_arguments::invalid_arguments;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};
use std::fmt;
use std::rc::Rc;

/// Calls tools on MCP servers (the manager does; tests use clients over in-memory pipes).
pub trait McpCaller {
    /// Calls `tool` (the server's own name for it) on `server` with `arguments` (a JSON object). Returns the
    /// `CallToolResult` as JSON text. `options.timeout_ms` of `None` means the server's configured timeout.
    fn call_tool(
        &self,
        server: &str,
        tool: &str,
        arguments: Box<RawValue>,
        options: CallOptions,
    ) -> LocalBoxFuture<'static, Result<Box<RawValue>>>;
}

/// Options of one batch of calls.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct ExecuteOptions {
    /// The agent run's trace, carried into every record and event of the batch.
    pub trace_id: Option<String>,
    /// Timeout of each MCP call (`None`: each server's configured timeout, 60 s by default).
    pub timeout_ms: Option<u32>,
    /// Put the server's `CallToolResult` in `metadata.rawResult`.
    pub include_raw_result: bool,
    /// The tools this batch may use (names, and prefixes ending in `*`), for an application that keeps thread
    /// enablement itself (an ART `StateManager`): checked instead of the thread's list in the registry, and stored
    /// nowhere. `None`: the registry's list for the thread.
    pub enabled_tools: Option<Vec<String>>,
    /// How much work checking a call's arguments, or a result, against the tool's schema may take (the schema is the
    /// server's, and checking runs on the page's main thread). A check over it fails closed: the call is not sent,
    /// or the result is an error. Default: [`SchemaLimits::default`], under about 50 ms whatever the schema.
    pub schema_limits: SchemaLimits,
}

impl ExecuteOptions {
    /// Records and events of the batch name this trace.
    #[must_use]
    pub fn trace(mut self, trace_id: impl Into<String>) -> Self {
        self.trace_id = Some(trace_id.into());
        self
    }

    /// Each MCP call of the batch fails after `ms` milliseconds.
    #[must_use]
    pub fn timeout(mut self, ms: u32) -> Self {
        self.timeout_ms = Some(ms);
        self
    }

    /// Schema checks of the batch work within `limits` (see [`ExecuteOptions::schema_limits`]).
    #[must_use]
    pub fn schema_limits(mut self, limits: SchemaLimits) -> Self {
        self.schema_limits = limits;
        self
    }

    /// The batch may use these tools, whatever the thread's list says (see [`ExecuteOptions::enabled_tools`]).
    #[must_use]
    pub fn enabled_tools<S: Into<String>>(mut self, tools: impl IntoIterator<Item = S>) -> Self {
        self.enabled_tools = Some(tools.into_iter().map(Into::into).collect());
        self
    }
}

/// Checks and runs tool calls against a registry.
pub struct ToolSystem {
    registry: Rc<ToolRegistry>,
    mcp: Rc<dyn McpCaller>,
    clock: Clock,
    events: Rc<Listeners<ExecutionEvent>>,
}

impl fmt::Debug for ToolSystem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolSystem").field("registry", &self.registry).finish_non_exhaustive()
    }
}

impl ToolSystem {
    /// A tool system over `registry`, calling MCP tools through `mcp`, timing calls with `clock` (milliseconds).
    pub fn new(registry: Rc<ToolRegistry>, mcp: Rc<dyn McpCaller>, clock: Clock) -> Self {
        Self { registry, mcp, clock, events: Rc::new(Listeners::new()) }
    }

    /// Receives an [`ExecutionEvent::Started`] before each call is checked and run, and an
    /// [`ExecutionEvent::Finished`] after.
    pub fn subscribe(&self, callback: Callback<ExecutionEvent>) -> ListenerId {
        self.events.subscribe(callback)
    }

    /// Stops a subscription.
    pub fn unsubscribe(&self, id: ListenerId) -> bool {
        self.events.unsubscribe(id)
    }

    /// The subscribers, for a watch that outlives a borrow of the tool system.
    pub(crate) fn events_handle(&self) -> Rc<Listeners<ExecutionEvent>> {
        self.events.clone()
    }

    /// Runs `calls` for `thread_id`, concurrently; results in call order.
    pub async fn execute_tools(
        &self,
        calls: Vec<ParsedToolCall>,
        thread_id: &str,
        options: &ExecuteOptions,
    ) -> Vec<ToolResult> {
        let started: Vec<(ParsedToolCall, ExecutionCall)> = calls
            .into_iter()
            .map(|call| {
                let record = self.record(&call, thread_id, options.trace_id.as_deref());
                self.events.emit(&ExecutionEvent::Started(record.clone()));
                (call, record)
            })
            .collect();
        join_all(started.into_iter().map(|(call, record)| self.execute_one(call, record, options))).await
    }

    /// The record of `call` as registered now.
    fn record(&self, call: &ParsedToolCall, thread_id: &str, trace_id: Option<&str>) -> ExecutionCall {
        let entry = self.registry.get(&call.tool_name);
        ExecutionCall {
            call_id: call.call_id.clone(),
            tool_name: call.tool_name.clone(),
            tool: entry.as_ref().map(|e| e.original_name().to_owned()),
            server: entry.as_ref().and_then(|e| e.server().map(str::to_owned)),
            origin: entry.as_ref().map(|e| match e.source {
                ToolSource::Native(_) => ToolOrigin::Native,
                _ => ToolOrigin::Mcp,
            }),
            thread_id: thread_id.to_owned(),
            trace_id: trace_id.map(str::to_owned),
        }
    }

    async fn execute_one(&self, call: ParsedToolCall, record: ExecutionCall, options: &ExecuteOptions) -> ToolResult {
        let started = (self.clock)();
        let entry = self.registry.get(&call.tool_name);
        let mut result = match self.check(&call, entry.as_ref(), &record.thread_id, options) {
            Err(refusal) => {
                let mut result = ToolResult::refused(&call, refusal.message);
                result.metadata.insert("errorCode".into(), json!(refusal.code));
                result
            }
            Ok((entry, arguments)) => {
                let context = ExecutionContext {
                    thread_id: record.thread_id.clone(),
                    trace_id: record.trace_id.clone(),
                    call_id: call.call_id.clone(),
                };
                self.dispatch(&call, entry, arguments, context, options).await
            }
        };
        let duration = ((self.clock)() - started).max(0.0);
        result.metadata.insert("durationMs".into(), json!(duration));
        let output = OutputSummary::of(&result, record.origin);
        self.events.emit(&ExecutionEvent::Finished(ExecutionFinished {
            call: record,
            status: result.status,
            error: result.error.clone(),
            error_code: result.metadata.get("errorCode").and_then(Value::as_str).map(str::to_owned),
            duration_ms: duration,
            output,
        }));
        result
    }

    /// The checks made before any server is called. `Err` is the refusal: its code, and the message for the model.
    fn check<'e>(
        &self,
        call: &ParsedToolCall,
        entry: Option<&'e ToolEntry>,
        thread_id: &str,
        options: &ExecuteOptions,
    ) -> Result<(&'e ToolEntry, Value), Refusal> {
        let name = &call.tool_name;
        let entry = entry.ok_or_else(|| {
            Refusal::new(REFUSED_UNKNOWN_TOOL, format!("Unknown tool {name}. Use one of the tools you were given."))
        })?;
        if !entry.exposed {
            return Err(Refusal::new(
                REFUSED_HIDDEN,
                format!(
                    "Tool {name} is not available: it may be destructive and its server does not allow destructive \
                     tools."
                ),
            ));
        }
        let enabled = match &options.enabled_tools {
            Some(allowed) => entry.exposed && enablement::lists(allowed, name),
            None => self.registry.is_callable(thread_id, name),
        };
        if !enabled {
            return Err(Refusal::new(
                REFUSED_NOT_ENABLED,
                format!("Tool {name} is not enabled for this conversation."),
            ));
        }
        let arguments = normalize_arguments(&call.arguments)
            .map_err(|e| Refusal::new(REFUSED_INVALID_ARGUMENTS, invalid_arguments(name, [("", e.as_str())])))?;
        let schema = entry.definition.input_schema.to_value();
        match json_schema::validate_with(&schema, &arguments, &options.schema_limits) {
            Ok(()) => Ok((entry, arguments)),
            Err(json_schema::Error::TooCostly(exceeded)) => {
                let from = entry.server().map(|server| format!(" (from server {server})")).unwrap_or_default();
                Err(Refusal::new(
                    REFUSED_SCHEMA_TOO_COSTLY,
                    format!(
                        "Tool {name} cannot be called: its input schema{from} is too costly to check ({exceeded}); \
                         the call was not sent. Use another tool if one fits."
                    ),
                ))
            }
            Err(json_schema::Error::Invalid(problems)) => Err(Refusal::new(
                REFUSED_INVALID_ARGUMENTS,
                invalid_arguments(name, problems.iter().map(|p| (p.instance_path.as_str(), p.message.as_str()))),
            )),
            Err(other) => {
                let problem = other.to_string();
                Err(Refusal::new(REFUSED_INVALID_ARGUMENTS, invalid_arguments(name, [("", problem.as_str())])))
            }
        }
    }

    async fn dispatch(
        &self,
        call: &ParsedToolCall,
        entry: &ToolEntry,
        arguments: Value,
        context: ExecutionContext,
        options: &ExecuteOptions,
    ) -> ToolResult {
        let mut result = ToolResult::refused(call, String::new());
        result.metadata.insert("tool".into(), json!(entry.original_name()));
        let output_schema = entry.definition.output_schema.as_ref().map(ObjectText::to_value);
        match &entry.source {
            ToolSource::Native(executor) => {
                result.metadata.insert("source".into(), json!("native"));
                match executor.execute(arguments, context).await {
                    Ok(output) => {
                        let problem = output_schema.as_ref().and_then(|schema| {
                            let checked = json_schema::validate_with(schema, &output, &options.schema_limits);
                            result::output_problem(checked, &call.tool_name, "output")
                        });
                        result.status = if problem.is_some() { ToolStatus::Error } else { ToolStatus::Success };
                        if problem.is_some() {
                            result.metadata.insert("errorCode".into(), json!(INVALID_OUTPUT));
                        }
                        result.error = problem;
                        result.output = Some(output);
                    }
                    Err(failure) => {
                        result.metadata.insert("errorCode".into(), json!(TOOL_FAILED));
                        result.error = Some(failure.message);
                    }
                }
            }
            ToolSource::Mcp { server } => {
                result.metadata.insert("source".into(), json!("mcp"));
                result.metadata.insert("server".into(), json!(server));
                let raw = match serde_json::value::to_raw_value(&arguments) {
                    Ok(raw) => raw,
                    Err(e) => {
                        result.metadata.insert("errorCode".into(), json!(REFUSED_INVALID_ARGUMENTS));
                        result.error = Some(format!("arguments are not serializable: {e}"));
                        return result;
                    }
                };
                let call_options = CallOptions::default().timeout(options.timeout_ms);
                match self.mcp.call_tool(server, entry.original_name(), raw, call_options).await {
                    Ok(raw) => {
                        // The result is decoded once, here, and its shape checked on the decoded value.
                        let decoded = mcp_worker_protocol::json::from_str::<Value>(raw.get())
                            .map_err(|e| mcp_worker_client::Error::Protocol {
                                server: server.clone(),
                                message: format!("unreadable tools/call result: {e}"),
                            })
                            .and_then(|value| check_call_result(server, &value).map(|()| value));
                        let value = match decoded {
                            Ok(value) => value,
                            Err(error) => {
                                result.metadata.insert("errorCode".into(), json!(error.code()));
                                result.error = Some(error.to_string());
                                return result;
                            }
                        };
                        let mapped = result::map_mcp_result(
                            &value,
                            &call.tool_name,
                            output_schema.as_ref(),
                            &options.schema_limits,
                        );
                        result.status = mapped.status;
                        result.output = Some(mapped.output);
                        result.error = mapped.error;
                        if let Some(code) = mapped.code {
                            result.metadata.insert("errorCode".into(), json!(code));
                        }
                        if options.include_raw_result {
                            result.metadata.insert("rawResult".into(), value);
                        }
                    }
                    Err(error) => {
                        result.metadata.insert("errorCode".into(), json!(error.code()));
                        result.error = Some(error.to_string());
                    }
                }
            }
        }
        result
    }
}

/// `errorCode` of a call to a tool the registry does not have.
pub const REFUSED_UNKNOWN_TOOL: &str = "UNKNOWN_TOOL";
/// `errorCode` of a call to a tool hidden from agents (it may be destructive, and its server does not allow those).
pub const REFUSED_HIDDEN: &str = "TOOL_HIDDEN";
/// `errorCode` of a call to a tool not enabled for the thread (or the batch's `enabled_tools`).
pub const REFUSED_NOT_ENABLED: &str = "TOOL_NOT_ENABLED";
/// `errorCode` of a call whose arguments are not a JSON object or do not match the tool's input schema.
pub const REFUSED_INVALID_ARGUMENTS: &str = "INVALID_ARGUMENTS";
/// `errorCode` of a call whose tool's input schema is too costly to check.
pub const REFUSED_SCHEMA_TOO_COSTLY: &str = "SCHEMA_TOO_COSTLY";
/// `errorCode` of a tool that failed by its own account: a native tool that returned an error, or an MCP tool's
/// result with `isError: true`.
pub const TOOL_FAILED: &str = "TOOL_FAILED";
/// `errorCode` of a tool whose output (a native tool's) or structured content (an MCP tool's) does not match its
/// output schema, or cannot be checked against it: the output is not to be trusted.
pub const INVALID_OUTPUT: &str = "INVALID_OUTPUT";

/// A call refused before it ran: a stable code and the message for the model.
struct Refusal {
    code: &'static str,
    message: String,
}

impl Refusal {
    fn new(code: &'static str, message: String) -> Self {
        Self { code, message }
    }
}

/// Arguments as the LLM gave them, as a JSON object: null means none, and a JSON text of an object (OpenAI sends
/// arguments as a string) is parsed.
fn normalize_arguments(arguments: &Value) -> std::result::Result<Value, String> {
    match arguments {
        Value::Null => Ok(Value::Object(Map::new())),
        Value::Object(_) => Ok(arguments.clone()),
        Value::String(text) if text.trim().is_empty() => Ok(Value::Object(Map::new())),
        Value::String(text) => match mcp_worker_protocol::json::from_str::<Value>(text) {
            Ok(Value::Object(object)) => Ok(Value::Object(object)),
            Ok(_) => Err("the arguments must be a JSON object".into()),
            Err(e) => Err(format!("the arguments are not valid JSON ({e})")),
        },
        _ => Err("the arguments must be a JSON object".into()),
    }
}

#[cfg(test)]
#[path = "tool_system_tests.rs"]
mod tests;
