//! The JavaScript API: `McpClient.spawn`, `listTools`, `callTool`, `ping`, `close`, and `compileModule`.
//!
//! Results cross into JavaScript as JSON text parsed by the engine (`JSON.parse`), which is faster than building
//! objects field by field. Errors are `Error` objects with a stable `code` (see [`Error::code`]).

mod call;

use crate::convert::{JsFailure, from_js, to_js};
use crate::promise::{promise, started_promise};
use js_sys::{Promise, Reflect, WebAssembly};
use mcp_worker_client::Error as ClientError;
use mcp_worker_client::Protocol;
use mcp_worker_client::limits::WorkerLimits;
use mcp_worker_client::sandbox::{Isolation, NetworkPolicy};
use mcp_worker_client::session::McpClient;
use mcp_worker_client::worker::{JsCalls, WorkerSpec, compile_module, spawn_with_js_calls};
use mcp_worker_protocol::NameMap;
use mcp_worker_protocol::quoted::quoted;
use serde::Deserialize;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** How to start a server in a worker. */
export interface SpawnOptions {
  /** The server's name, shown in errors. */
  name: string;
  /** URL of the bundle's worker script (`bootstrap.js`). */
  workerUrl: string;
  /** A module from `compileModule`, so the worker skips its own fetch and compile (servers on the page's origin only: a sandboxed worker compiles its own, and the browser caches compiled code by URL). */
  module?: WebAssembly.Module;
  /** Where the worker runs. `sandbox` (the default): its own opaque origin, without the page's storage, cookies or DOM, and with network only to `network`; the bundle must be served with `Access-Control-Allow-Origin`. `page`: the page's origin, with everything the page can reach. */
  isolation?: "sandbox" | "page";
  /** Origins a sandboxed server may reach (`https://api.example.com`); everything else is blocked by the browser. */
  network?: string[];
  /** The largest frame the server may send, in UTF-16 code units (default 16 Mi): a larger one closes the connection. */
  maxFrameChars?: number;
  /** How long the worker may leave the heartbeat unanswered before it is treated as dead (default 700 ms; 0: no heartbeat). */
  unresponsiveAfterMs?: number;
  /** Values the server receives in its environment. */
  env?: Record<string, string>;
  /** Time allowed for the worker to boot, and again to initialize (default 10000). */
  handshakeTimeoutMs?: number;
  /** Default timeout of each request (default 60000). */
  requestTimeoutMs?: number;
  /** Which protocol era to speak: `auto` (the default: MCP 2026-07-28 when the server speaks it, probed with `server/discover`, else the `initialize` handshake), or `"2026-07-28"` or `"2025-11-25"` to pin one. `serverInfo.protocolVersion` says which was chosen. */
  protocol?: "auto" | "2026-07-28" | "2025-11-25";
}

/** Options of one tool call. */
export interface CallToolOptions {
  timeoutMs?: number;
  onProgress?: (progress: { progressToken: number | string; progress: number; total?: number; message?: string }) => void;
}

/** An MCP tool definition. */
export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: "object"; [key: string]: unknown };
  outputSchema?: { [key: string]: unknown };
  annotations?: { title?: string; readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  icons?: { src: string; mimeType?: string; sizes?: string[]; theme?: "light" | "dark" }[];
  _meta?: { [key: string]: unknown };
}

/** A content block of a tool result. */
export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "image" | "audio"; data: string; mimeType: string }
  | { type: "resource_link"; uri: string; name: string; [key: string]: unknown }
  | { type: "resource"; resource: { uri: string; mimeType?: string; text?: string; blob?: string } };

/** The result of `tools/call`. A failed tool run is a result with `isError: true`. */
export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: { [key: string]: unknown };
  isError?: boolean;
  _meta?: { [key: string]: unknown };
}

/** What the server said about itself in `initialize`. */
export interface InitializeResult {
  protocolVersion: string;
  capabilities: { [key: string]: unknown };
  serverInfo: { name: string; version: string; title?: string };
  instructions?: string;
}

/** The codes of the errors of `McpClient` and `compileModule`. `McpRuntime`'s errors (`RuntimeError`) have these and more. */
export type McpWorkerErrorCode =
  | "WORKER_LOAD" | "HANDSHAKE_TIMEOUT" | "WORKER_CRASHED" | "CLOSED" | "TIMEOUT" | "RPC_ERROR" | "PROTOCOL"
  | "TERMINATED" | "HTTP" | "UNREACHABLE" | "UNAUTHORIZED" | "UNSUPPORTED" | "INVALID_INPUT" | "ABORTED" | "INTERNAL"
  | "NOT_INITIALIZED";

/** Every error `McpClient` and `compileModule` throw or reject with: an `Error` with a stable `code`. */
export interface McpWorkerError extends Error {
  code: McpWorkerErrorCode;
  /** `RPC_ERROR`: the JSON-RPC error code. */
  rpcCode?: number;
}
"#;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SpawnOptions {
    name: String,
    worker_url: String,
    #[serde(default)]
    env: NameMap<String>,
    handshake_timeout_ms: Option<u32>,
    request_timeout_ms: Option<u32>,
    isolation: Option<String>,
    #[serde(default)]
    network: Vec<String>,
    max_frame_chars: Option<u32>,
    unresponsive_after_ms: Option<u32>,
    protocol: Option<String>,
}

impl SpawnOptions {
    /// The protocol era: `auto` (default), `2026-07-28` or `2025-11-25`.
    fn protocol(&self) -> Result<Protocol, JsFailure> {
        match self.protocol.as_deref() {
            None | Some("auto") => Ok(Protocol::Auto),
            Some("2026-07-28") => Ok(Protocol::Modern),
            Some("2025-11-25") => Ok(Protocol::Handshake),
            Some(other) => Err(JsFailure::from(ClientError::InvalidInput(format!(
                "`protocol` must be \"auto\", \"2026-07-28\" or \"2025-11-25\", not {}",
                quoted(other)
            )))),
        }
    }

    /// The worker's isolation: `sandbox` (default) with `network`, or `page`.
    fn isolation(&self) -> Result<Isolation, JsFailure> {
        let invalid = |message: String| JsFailure::from(ClientError::InvalidInput(message));
        match self.isolation.as_deref() {
            None | Some("sandbox") => {
                NetworkPolicy::allow(&self.network).map(Isolation::Sandboxed).map_err(|e| invalid(e.to_string()))
            }
            Some("page") if self.network.is_empty() => Ok(Isolation::PageOrigin),
            Some("page") => Err(invalid(
                "`network` limits only sandboxed servers: a server on the page's origin reaches what the page can"
                    .into(),
            )),
            Some(other) => Err(invalid(format!("`isolation` must be \"sandbox\" or \"page\", not {}", quoted(other)))),
        }
    }

    /// The worker's bounds: the defaults, with what the options set.
    fn limits(&self) -> WorkerLimits {
        let mut limits = WorkerLimits::default();
        if let Some(chars) = self.max_frame_chars {
            limits = limits.max_frame_chars(chars);
        }
        if let Some(ms) = self.unresponsive_after_ms {
            limits = limits.unresponsive_after_ms(ms);
        }
        limits
    }
}

/// A connection to one MCP server running in a Web Worker.
#[derive(Debug)]
#[wasm_bindgen(js_name = McpClient)]
pub struct JsMcpClient {
    inner: Rc<McpClient>,
    calls: JsCalls,
}

#[wasm_bindgen(js_class = McpClient)]
impl JsMcpClient {
    /// Starts a server in a new module worker and initializes it.
    #[wasm_bindgen(unchecked_return_type = "Promise<McpClient>")]
    pub fn spawn(#[wasm_bindgen(unchecked_param_type = "SpawnOptions")] options: JsValue) -> Promise {
        // The worker is made now, before the promise's first turn (see `spawn_with_js_calls`).
        let spawning = spawn_spec(&options).map(spawn_with_js_calls);
        promise(async move {
            let spawned = spawning?.await.map_err(JsFailure::from)?;
            Ok(JsMcpClient { inner: Rc::new(spawned.client), calls: spawned.js_calls }.into())
        })
    }

    /// What the server said about itself in `initialize`.
    #[wasm_bindgen(getter = serverInfo, unchecked_return_type = "InitializeResult")]
    pub fn server_info(&self) -> Result<JsValue, JsValue> {
        Ok(to_js(self.inner.server_info())?)
    }

    /// Every tool the server offers (all pages).
    #[wasm_bindgen(js_name = listTools, unchecked_return_type = "Promise<Tool[]>")]
    pub fn list_tools(&self) -> Promise {
        let (client, calls) = (self.inner.clone(), self.calls.clone());
        // The request goes out in the caller's turn; each page is parsed once, by the browser, as it arrives: no
        // copy of it in wasm.
        started_promise(async move { Ok(calls.list_tools(&client).await.map_err(JsFailure::from)?.into()) })
    }

    /// Calls a tool. Resolves with the result, also when the tool failed (`isError: true`); rejects when the
    /// call could not be made (unknown tool, timeout, crashed worker, …).
    #[wasm_bindgen(js_name = callTool, unchecked_return_type = "Promise<CallToolResult>")]
    pub fn call_tool(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Record<string, unknown> | undefined")] args: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CallToolOptions | undefined")] options: JsValue,
    ) -> Promise {
        call::call_tool(&self.inner, &self.calls, (&name, &args, &options))
    }

    /// Pings the server.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn ping(&self) -> Promise {
        let client = self.inner.clone();
        promise(async move {
            client.ping().await.map_err(JsFailure::from)?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// Terminates the worker. Calls in flight reject with code `CLOSED`.
    pub fn close(&self) {
        self.inner.close();
    }
}

/// Compiles a server's wasm once; pass the module to `McpClient.spawn` for each worker of that bundle.
#[wasm_bindgen(js_name = compileModule, unchecked_return_type = "Promise<WebAssembly.Module>")]
pub fn compile_module_js(url: String) -> Promise {
    promise(async move {
        let module = compile_module(&url).await.map_err(JsFailure::from)?;
        Ok(module.into())
    })
}

/// The worker spec `McpClient.spawn` was given.
fn spawn_spec(options: &JsValue) -> Result<WorkerSpec, JsValue> {
    let parsed: SpawnOptions = from_js(options, "spawn options")?;
    let isolation = parsed.isolation()?;
    let limits = parsed.limits();
    let protocol = parsed.protocol()?;
    let mut spec =
        WorkerSpec::new(parsed.name, parsed.worker_url).isolation(isolation).limits(limits).protocol(protocol);
    if let Ok(module) = Reflect::get(options, &"module".into())?.dyn_into::<WebAssembly::Module>() {
        spec = spec.module(module);
    }
    for (name, value) in parsed.env {
        spec = spec.env(name, value);
    }
    if let Some(ms) = parsed.handshake_timeout_ms {
        spec = spec.handshake_timeout_ms(ms);
    }
    if let Some(ms) = parsed.request_timeout_ms {
        spec = spec.request_timeout_ms(ms);
    }
    Ok(spec)
}
