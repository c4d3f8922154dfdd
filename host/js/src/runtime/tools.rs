//! Tools from JavaScript: list them in each export format, register native tools, enable them per thread, and run
//! tool calls (the agent's batch, or one MCP call), abortable with an `AbortSignal`.

use super::JsRuntime;
use super::abort::{abortable, signal_of};
use super::convert::{JsFailure, call_options, call_result, from_js, options_from_js, strings, to_js, tool_arguments};
use super::native_tool::JsTool;
use crate::promise::{promise, started_promise};
use js_sys::{Function, Promise};
use mcp_worker_protocol::Tool;
use mcp_worker_runtime::registry::{ExportFormat, ExportOptions, ToolFilter};
use mcp_worker_runtime::tool_system::{ExecuteOptions, ParsedToolCall};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// What `listTools` returns: each exported tool's text spliced in as it is.
#[derive(serde::Serialize)]
struct Listing<'a> {
    tools: &'a [Box<RawValue>],
    skipped: Vec<Value>,
}

/// `registerTool`'s options.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct NativeToolOptions {
    /// Offer the tool to agents even if it may be destructive.
    #[serde(default)]
    allow_destructive: bool,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct ListFilter {
    thread_id: Option<String>,
    server: Option<String>,
    #[serde(default)]
    include_hidden: bool,
    /// `listTools` only: `[server] ` before each MCP tool's description.
    #[serde(default)]
    server_prefix: bool,
}

impl ListFilter {
    fn selection(&self) -> ToolFilter {
        let selection = match &self.thread_id {
            Some(thread) => ToolFilter::for_thread(thread.clone()),
            None if self.include_hidden => ToolFilter::everything(),
            None => ToolFilter::default(),
        };
        match &self.server {
            Some(server) => selection.server(server.clone()),
            None => selection,
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct ExecuteJson {
    trace_id: Option<String>,
    timeout_ms: Option<u32>,
    #[serde(default)]
    include_raw_result: bool,
    enabled_tools: Option<Vec<String>>,
    schema_max_steps: Option<u32>,
}

#[wasm_bindgen(js_class = McpRuntime)]
impl JsRuntime {
    /// The registry's tools in a format (`openai`, `anthropic`, `art`, `mcp`; default `mcp`), with schemas prepared
    /// for it. Tools whose schema cannot be made acceptable are in `skipped`, with why.
    ///
    /// (The declaration here covers the default format; the `McpRuntime` interface in the TypeScript section adds
    /// the signature that types each format's tools.)
    #[wasm_bindgen(js_name = listTools, unchecked_return_type = "ToolExport<Tool>")]
    pub fn list_tools(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "undefined")] format: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "ToolListFilter")] filter: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let (format, filter) = (format.unwrap_or(JsValue::UNDEFINED), filter.unwrap_or(JsValue::UNDEFINED));
        let format = match format.as_string().as_deref() {
            None if format.is_undefined() || format.is_null() => ExportFormat::Mcp,
            Some("mcp") => ExportFormat::Mcp,
            Some("openai") => ExportFormat::OpenAi,
            Some("anthropic") => ExportFormat::Anthropic,
            Some("art") => ExportFormat::Art,
            _ => return Err(JsFailure::invalid("format must be one of openai, anthropic, art, mcp").into()),
        };
        let filter: ListFilter = options_from_js(&filter, "tool filter")?;
        let options = ExportOptions::default().server_prefix(filter.server_prefix);
        let export = self.inner.runtime.registry().export_with(format, &filter.selection(), options);
        let skipped: Vec<_> =
            export.skipped.iter().map(|(name, why)| json!({"name": name, "reason": why.to_string()})).collect();
        Ok(to_js(&Listing { tools: &export.tools, skipped })?)
    }

    /// The tools agents do not see, each with why: a tool that may be destructive (by its annotations, or a
    /// destructive verb in its name) while its server's config does not say `allowDestructiveTools`, or, for a
    /// native tool (`server` empty), while its registration did not say `allowDestructive`. A `toolsHidden` event
    /// announces them each time a server's tools are registered, and when a hidden native tool is.
    #[wasm_bindgen(js_name = hiddenTools, unchecked_return_type = "HiddenTool[]")]
    pub fn hidden_tools(&self) -> Result<JsValue, JsValue> {
        self.inner.open()?;
        Ok(to_js(&self.inner.runtime.registry().hidden())?)
    }

    /// The registry's tools as a settings page shows them (default: those agents may see; `includeHidden` adds
    /// the destructive tools their server does not allow), by registry name: where each runs, its own name there,
    /// whether it counts as destructive and whether agents see it, and its definition.
    #[wasm_bindgen(js_name = toolEntries, unchecked_return_type = "RegisteredTool[]")]
    pub fn tool_entries(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "ToolListFilter")] filter: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let filter: ListFilter = options_from_js(&filter.unwrap_or(JsValue::UNDEFINED), "tool filter")?;
        let entries = self.inner.runtime.registry().list(&filter.selection());
        let entries: Vec<_> = entries
            .iter()
            .map(|entry| {
                json!({
                    "name": entry.name,
                    "source": if entry.server().is_some() { "mcp" } else { "native" },
                    "server": entry.server(),
                    "tool": entry.original_name(),
                    "destructive": entry.destructive,
                    "hidden": !entry.exposed,
                    "definition": entry.definition.as_ref(),
                })
            })
            .collect();
        Ok(to_js(&entries)?)
    }

    /// Registers a tool that runs in the page: `definition` is an MCP tool definition (its `name` must match
    /// `^[a-zA-Z0-9_-]{1,64}$` and not start with `mcp__`), `execute` is called with the checked arguments and
    /// `{threadId, traceId, callId}`. Throws `DUPLICATE_TOOL` for a taken name. Returns the registry name.
    ///
    /// The rule for servers' tools holds: a tool whose `annotations` do not say `readOnlyHint: true` or
    /// `destructiveHint: false`, or whose name has a destructive verb, is hidden from agents (listed by
    /// `hiddenTools()`, announced by a `toolsHidden` event) unless `options.allowDestructive` is true.
    #[wasm_bindgen(js_name = registerTool)]
    pub fn register_tool(
        &self,
        #[wasm_bindgen(unchecked_param_type = "NativeToolDefinition")] definition: JsValue,
        #[wasm_bindgen(unchecked_param_type = "NativeToolFunction")] execute: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "NativeToolOptions")] options: Option<JsValue>,
    ) -> Result<String, JsValue> {
        self.inner.open()?;
        let function: Function =
            execute.dyn_into().map_err(|_| JsFailure::invalid("registerTool needs a function to execute the tool"))?;
        let definition: Tool = from_js(&definition, "tool definition")?;
        let options: NativeToolOptions = options_from_js(&options.unwrap_or(JsValue::UNDEFINED), "tool options")?;
        let tool = JsTool { name: definition.name.clone(), function };
        let registry = self.inner.runtime.registry();
        let name =
            registry.register_native(definition, Rc::new(tool), options.allow_destructive).map_err(JsFailure::from)?;
        Ok(name)
    }

    /// Removes a native tool; false if there was none of that name. MCP tools go with their server (disable it).
    #[wasm_bindgen(js_name = unregisterTool)]
    pub fn unregister_tool(&self, name: String) -> Result<bool, JsValue> {
        if let Some(server) =
            self.inner.runtime.registry().get(&name).and_then(|entry| entry.server().map(str::to_owned))
        {
            let message = format!("{name} is a tool of server {server}: disable or remove the server instead");
            return Err(JsFailure::invalid(message).into());
        }
        Ok(self.inner.runtime.registry().unregister(&name))
    }

    /// Replaces the tools a thread may use (names; an entry ending in `*` enables a prefix, e.g. `mcp__echo__*`).
    /// A thread nobody configured may use none.
    #[wasm_bindgen(js_name = setThreadTools)]
    pub fn set_thread_tools(
        &self,
        #[wasm_bindgen(js_name = "threadId")] thread_id: String,
        #[wasm_bindgen(unchecked_param_type = "string[]")] tools: JsValue,
    ) -> Result<(), JsValue> {
        self.inner.runtime.registry().set_thread_tools(&thread_id, strings(&tools, "tools")?);
        Ok(())
    }

    /// Adds tools to a thread.
    #[wasm_bindgen(js_name = enableTools)]
    pub fn enable_tools(
        &self,
        #[wasm_bindgen(js_name = "threadId")] thread_id: String,
        #[wasm_bindgen(unchecked_param_type = "string[]")] tools: JsValue,
    ) -> Result<(), JsValue> {
        self.inner.runtime.registry().enable_for_thread(&thread_id, strings(&tools, "tools")?);
        Ok(())
    }

    /// Removes tools from a thread.
    #[wasm_bindgen(js_name = disableTools)]
    pub fn disable_tools(
        &self,
        #[wasm_bindgen(js_name = "threadId")] thread_id: String,
        #[wasm_bindgen(unchecked_param_type = "string[]")] tools: JsValue,
    ) -> Result<(), JsValue> {
        let tools = strings(&tools, "tools")?;
        self.inner.runtime.registry().disable_for_thread(&thread_id, tools.iter().map(String::as_str));
        Ok(())
    }

    /// The entries of a thread's tool list, or `null` when the thread is not configured.
    #[wasm_bindgen(js_name = threadTools, unchecked_return_type = "string[] | null")]
    pub fn thread_tools(&self, #[wasm_bindgen(js_name = "threadId")] thread_id: String) -> Result<JsValue, JsValue> {
        Ok(to_js(&self.inner.runtime.registry().enablement().enabled(&thread_id))?)
    }

    /// Runs an agent's tool calls for a thread: each is checked (registered, enabled for the thread, arguments
    /// valid against the schema) and run, concurrently; the results come in call order with the LLM's `callId`s.
    /// A failed call is a result with `status: "error"`, never a rejection. Aborting the `signal` rejects with an
    /// `AbortError` (code `ABORTED`) and cancels the calls on their servers.
    #[wasm_bindgen(js_name = executeTools, unchecked_return_type = "Promise<ToolResult[]>")]
    pub fn execute_tools(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ParsedToolCall[]")] calls: JsValue,
        #[wasm_bindgen(js_name = "threadId")] thread_id: String,
        #[wasm_bindgen(unchecked_optional_param_type = "ExecuteToolsOptions")] options: Option<JsValue>,
    ) -> Promise {
        let inner = self.inner.clone();
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let prepared = (|| -> Result<_, JsFailure> {
            inner.open()?;
            let calls: Vec<ParsedToolCall> = from_js(&calls, "tool calls")?;
            let json: ExecuteJson = options_from_js(&options, "execute options")?;
            Ok((calls, json, signal_of(&options)?))
        })();
        promise(async move {
            let (calls, json, signal) = prepared?;
            let mut execute = ExecuteOptions::default();
            execute.trace_id = json.trace_id;
            execute.timeout_ms = json.timeout_ms;
            execute.include_raw_result = json.include_raw_result;
            execute.enabled_tools = json.enabled_tools;
            if let Some(steps) = json.schema_max_steps {
                execute.schema_limits = execute.schema_limits.steps(u64::from(steps));
            }
            let run = async { Ok(inner.runtime.execute_tools(calls, &thread_id, &execute).await) };
            let results = abortable(signal, "executeTools", run).await?;
            Ok(to_js(&results)?)
        })
    }

    /// Calls one tool on one server directly (the server's own tool name), starting the server if needed. Resolves
    /// with the `CallToolResult` (also when the tool failed: `isError: true`); rejects when the call could not be
    /// made. Aborting the `signal` rejects with an `AbortError` and sends `notifications/cancelled`.
    #[wasm_bindgen(js_name = callTool, unchecked_return_type = "Promise<CallToolResult>")]
    pub fn call_tool(
        &self,
        server: String,
        tool: String,
        #[wasm_bindgen(unchecked_optional_param_type = "Record<string, unknown>")] args: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "RuntimeCallOptions")] options: Option<JsValue>,
    ) -> Promise {
        let inner = self.inner.clone();
        let (args, options) = (args.unwrap_or(JsValue::UNDEFINED), options.unwrap_or(JsValue::UNDEFINED));
        let prepared = (|| -> Result<_, JsFailure> {
            inner.open()?;
            let arguments = tool_arguments(&args)?;
            let call = call_options(&options)?;
            Ok((arguments, call, signal_of(&options)?))
        })();
        started_promise(async move {
            let (arguments, call, signal) = prepared?;
            let run = async {
                inner
                    .runtime
                    .manager()
                    .call_tool(&server, &tool, arguments.as_deref(), call)
                    .await
                    .map_err(JsFailure::from)
            };
            let raw = abortable(signal, "callTool", run).await?;
            Ok(call_result(&server, raw.get())?)
        })
    }
}
