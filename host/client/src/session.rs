//! An MCP client session over a [`Connection`]: the lifecycle, discovery and tool calls.

mod feature_reads;
mod features;
pub(crate) mod first_tools;
mod listing;
mod modern;
mod pages;

pub use feature_reads::FeatureRead;
pub use features::MAX_LISTED;
pub use listing::ListedTools;
pub use modern::{MAX_INPUT_ROUNDS, Protocol};

use crate::connection::{Connection, RequestOptions};
use crate::error::{Error, Result};
use crate::limits::{NotificationLimits, ServerRequestLimits};
use crate::transport::Transport;
use mcp_worker_protocol::jsonrpc::EmptyResult;
use mcp_worker_protocol::{
    CallToolResult, ClientCapabilities, Implementation, InitializeParams, InitializeResult, JsonObject,
    ListToolsResult, PaginatedParams, Tool, methods, version,
};
pub(crate) use pages::Pages;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use std::cell::RefCell;
use std::rc::Rc;

/// The default per-request timeout (as the official SDKs: 60 s).
pub const DEFAULT_REQUEST_TIMEOUT_MS: u32 = 60_000;

/// The most pages `list_tools` follows before it calls the server broken.
pub const MAX_LIST_PAGES: usize = 10_000;

/// A list page at least this large (in bytes of JSON) is decoded in a later task than the one that read its frame:
/// the page's stall is the longer of the two, not their sum (see [`crate::next_task`]).
const READ_PAGE_LATER_FROM_BYTES: usize = 1024 * 1024;

/// How the client introduces itself and how long it waits.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ClientOptions {
    /// Who the client is (`clientInfo`).
    pub client_info: Implementation,
    /// What the client offers.
    pub capabilities: ClientCapabilities,
    /// Timeout of each request unless a call says otherwise.
    pub request_timeout_ms: u32,
    /// Timeout of `initialize`.
    pub initialize_timeout_ms: u32,
    /// Which era to speak ([`Protocol::Auto`]: MCP 2026-07-28 when the server does, else the handshake).
    pub protocol: Protocol,
    /// How long the `server/discover` probe of [`Protocol::Auto`] waits before it takes a silent server for one
    /// of the handshake era.
    pub probe_timeout_ms: u32,
    /// How many notifications the server may send ([`NotificationLimits::default`]: 1,000 a second, bursts of
    /// 500); what goes past is dropped or coalesced and reported ([`Connection::set_flood_handler`]), and a server
    /// that goes on past the bound is disconnected.
    pub notification_limits: NotificationLimits,
    /// How many requests the server may have waiting on the host, and for how long
    /// ([`ServerRequestLimits::default`]: 8, 60 s each).
    pub server_request_limits: ServerRequestLimits,
}

impl Default for ClientOptions {
    fn default() -> Self {
        Self {
            client_info: Implementation::new("mcp-worker-host", env!("CARGO_PKG_VERSION")),
            capabilities: ClientCapabilities::default(),
            request_timeout_ms: DEFAULT_REQUEST_TIMEOUT_MS,
            initialize_timeout_ms: 10_000,
            protocol: Protocol::Auto,
            probe_timeout_ms: 3_000,
            notification_limits: NotificationLimits::default(),
            server_request_limits: ServerRequestLimits::default(),
        }
    }
}

/// An MCP session with one server: initialized (MCP 2025-11-25 and before), or discovered (MCP 2026-07-28).
pub struct McpClient {
    connection: Connection,
    init: InitializeResult,
    request_timeout_ms: u32,
    transport: Option<Rc<dyn Transport>>,
    modern: Option<Rc<modern::ModernState>>,
    /// The first page of `tools/list`, asked for with the probe, for the first listing (see [`first_tools`]).
    first_tools: RefCell<Option<first_tools::FirstTools<Box<RawValue>>>>,
}

impl std::fmt::Debug for McpClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpClient")
            .field("connection", &self.connection)
            .field("server_info", &self.init.server_info)
            .finish_non_exhaustive()
    }
}

/// Options of one tool call.
#[derive(Clone, Default)]
#[non_exhaustive]
pub struct CallOptions {
    /// Overrides the client's request timeout.
    pub timeout_ms: Option<u32>,
    /// Receives the server's progress notifications for this call.
    pub on_progress: Option<crate::connection::ProgressHandler>,
    /// Each progress notification restarts the timeout (the call then asks the server for progress).
    pub reset_timeout_on_progress: bool,
    /// With `reset_timeout_on_progress`: the call fails after this many milliseconds in total.
    pub max_total_timeout_ms: Option<u32>,
}

impl CallOptions {
    /// Fails the call after `ms` milliseconds (`None`: the client's or server's default).
    #[must_use]
    pub fn timeout(mut self, ms: Option<u32>) -> Self {
        self.timeout_ms = ms;
        self
    }

    /// Hands the server's progress notifications for this call to `handler`.
    #[must_use]
    pub fn on_progress(mut self, handler: crate::connection::ProgressHandler) -> Self {
        self.on_progress = Some(handler);
        self
    }

    /// Restarts the timeout on each progress notification, failing the call after `max_total_ms` in total.
    #[must_use]
    pub fn reset_timeout_on_progress(mut self, max_total_ms: Option<u32>) -> Self {
        self.reset_timeout_on_progress = true;
        self.max_total_timeout_ms = max_total_ms;
        self
    }
}

impl std::fmt::Debug for CallOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallOptions")
            .field("timeout_ms", &self.timeout_ms)
            .field("on_progress", &self.on_progress.is_some())
            .field("reset_timeout_on_progress", &self.reset_timeout_on_progress)
            .field("max_total_timeout_ms", &self.max_total_timeout_ms)
            .finish()
    }
}

#[derive(Serialize)]
struct CallParamsRef<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    arguments: Option<&'a RawValue>,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    meta: Option<ProgressMeta>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ProgressMeta {
    progress_token: i64,
}

impl McpClient {
    /// Runs the lifecycle on `connection`: `initialize` (version negotiation), then `notifications/initialized`.
    /// A server that answers with a protocol version this host does not speak is refused, as the spec requires.
    /// The options' limits bound the connection from now on.
    pub async fn initialize(
        connection: Connection,
        options: &ClientOptions,
        transport: Option<Rc<dyn Transport>>,
    ) -> Result<Self> {
        connection.set_notification_limits(options.notification_limits);
        connection.set_server_request_limits(options.server_request_limits);
        let params = InitializeParams::new(options.client_info.clone(), options.capabilities.clone());
        let request = connection.request(
            methods::INITIALIZE,
            Some(&params),
            RequestOptions::timeout(options.initialize_timeout_ms),
        );
        let raw = request.await.map_err(|e| match e {
            Error::Timeout { server, ms, .. } => Error::HandshakeTimeout { server, ms, stage: "initialize" },
            other => other,
        })?;
        let init: InitializeResult = decode(&connection, methods::INITIALIZE, &raw)?;
        if let Err(unsupported) = version::accept(&init.protocol_version) {
            let error = Error::Protocol { server: connection.server().to_owned(), message: unsupported.to_string() };
            connection.close(error.clone());
            return Err(error);
        }
        connection.notify::<()>(methods::INITIALIZED, None)?;
        Ok(Self {
            connection,
            init,
            request_timeout_ms: options.request_timeout_ms,
            transport,
            modern: None,
            first_tools: RefCell::default(),
        })
    }

    /// What the server said about itself in `initialize` (or, in MCP 2026-07-28, in `server/discover`).
    pub fn server_info(&self) -> &InitializeResult {
        &self.init
    }

    /// The timeout of each request unless a call says otherwise.
    pub fn request_timeout_ms(&self) -> u32 {
        self.request_timeout_ms
    }

    /// The underlying connection.
    pub fn connection(&self) -> &Connection {
        &self.connection
    }

    /// Sends `ping` and waits for the answer (in MCP 2026-07-28, which has no `ping`, `server/discover`).
    pub async fn ping(&self) -> Result<()> {
        if self.is_modern() {
            let _: serde_json::Value =
                self.request(mcp_worker_protocol::modern::methods::SERVER_DISCOVER, None::<&()>).await?;
            return Ok(());
        }
        let _: EmptyResult = self.request(methods::PING, None::<&()>).await?;
        Ok(())
    }

    /// One page of `tools/list`.
    pub async fn list_tools_page(&self, cursor: Option<String>) -> Result<ListToolsResult> {
        self.request(methods::TOOLS_LIST, Some(&PaginatedParams::new(cursor))).await
    }

    /// Every tool, following `nextCursor` to the end. A server whose cursors loop is reported, not followed
    /// for ever.
    pub async fn list_tools(&self) -> Result<Vec<Tool>> {
        let mut tools = Vec::new();
        for page in self.list_tools_raw().await? {
            tools.extend(decode::<Vec<Tool>>(&self.connection, methods::TOOLS_LIST, &page)?);
        }
        Ok(tools)
    }

    /// Every tool, following `nextCursor` to the end, decoding at most `max` of them: the others are only counted
    /// (a server that lists 50,000 tools costs the page a scan of them, not 50,000 decoded schemas).
    pub async fn list_tools_upto(&self, max: usize) -> Result<ListedTools> {
        let mut listed = ListedTools::default();
        self.each_page(methods::TOOLS_LIST, |page| {
            // One pass over the page: the tools within the bound decoded, the rest skipped, the cursor read.
            let mut reader = serde_json::Deserializer::from_str(page.get());
            serde::de::DeserializeSeed::deserialize(
                listing::PageUpto { listed: &mut listed, max },
                mcp_worker_protocol::json::Objects::new(&mut reader),
            )
            .and_then(|next| reader.end().map(|()| next))
            .map_err(|e| format!("unreadable {} result: {e}", methods::TOOLS_LIST))
        })
        .await?;
        Ok(listed)
    }

    /// Keeps the first page of `tools/list` asked for with the probe, for the first listing.
    #[cfg_attr(all(not(target_arch = "wasm32"), not(test)), expect(dead_code, reason = "the worker transport's"))]
    pub(crate) fn keep_first_tools(&self, first: first_tools::FirstTools<Box<RawValue>>) {
        *self.first_tools.borrow_mut() = Some(first);
    }

    /// Every page's `tools` array as JSON text, following `nextCursor` to the end, for callers that hand the tools on
    /// as JSON. (The JavaScript API reads its pages on the page instead: `JsCalls::list_tools`.)
    pub async fn list_tools_raw(&self) -> Result<Vec<Box<RawValue>>> {
        let mut pages = Vec::new();
        self.each_page(methods::TOOLS_LIST, |page| {
            let (tools, next) = read_tools_page(page)?;
            pages.push(tools);
            Ok(next)
        })
        .await?;
        Ok(pages)
    }

    /// Requests the pages of the list `method`, following the cursor `read` finds in each, until a page has none. A
    /// cursor seen before (a loop) or more than [`MAX_LIST_PAGES`] pages is a protocol error, as is what `read`
    /// refuses.
    async fn each_page(
        &self,
        method: &str,
        mut read: impl FnMut(&RawValue) -> std::result::Result<Option<String>, String>,
    ) -> Result<()> {
        let mut pages = Pages::new(method);
        let mut first = match method {
            methods::TOOLS_LIST => first_tools::take(&self.first_tools, &self.connection),
            _ => None,
        };
        loop {
            let params = pages.next_params().map_err(|message| self.protocol_error(message))?;
            let page = match first_tools::arrived(first.take()).await {
                Some(page) => page,
                None => {
                    let options = RequestOptions::timeout(self.request_timeout_ms);
                    self.connection.request(method, Some(&params), options).await?
                }
            };
            if page.get().len() >= READ_PAGE_LATER_FROM_BYTES {
                // The page's frame was read in this task: its tools are decoded in the next.
                crate::next_task::next_task().await;
            }
            let next = read(&page).map_err(|message| self.protocol_error(message))?;
            if !pages.follow(next).map_err(|message| self.protocol_error(message))? {
                return Ok(());
            }
        }
    }

    /// Calls a tool. An execution error is a result with `isError: true`, not an `Err`: the model should read it.
    pub async fn call_tool(&self, name: &str, arguments: Option<JsonObject>) -> Result<CallToolResult> {
        let arguments = match arguments {
            Some(map) => Some(serde_json::value::to_raw_value(&map).map_err(|e| Error::InvalidInput(e.to_string()))?),
            None => None,
        };
        let raw = self.call_tool_raw(name, arguments.as_deref(), CallOptions::default()).await?;
        decode(&self.connection, methods::TOOLS_CALL, &raw)
    }

    /// Calls a tool with arguments given as JSON text, and returns the result still as JSON text, for a caller
    /// that decodes it once itself (and checks its shape with [`check_call_result`] as it does). Dropping the future
    /// cancels the call on the server.
    pub async fn call_tool_raw(
        &self,
        name: &str,
        arguments: Option<&RawValue>,
        options: CallOptions,
    ) -> Result<Box<RawValue>> {
        if self.is_modern() {
            // The arguments are checked as in the handshake era, then the call may take several rounds.
            self.tool_call(0, name, arguments, CallOptions::default())?;
            let params = modern::params_object(&CallParamsRef { name, arguments, meta: None })?;
            return self.request_with_input(methods::TOOLS_CALL, params, options).await;
        }
        let id = self.connection.next_request_id();
        let (params, request_options) = self.tool_call(id, name, arguments, options)?;
        self.connection.request_with_id(id, methods::TOOLS_CALL, Some(&params), request_options).await
    }

    /// The params and request options of a `tools/call`: progress asked for with the request id as token when the
    /// caller listens to progress or resets its timeout on it.
    fn tool_call<'a>(
        &self,
        id: i64,
        name: &'a str,
        arguments: Option<&'a RawValue>,
        options: CallOptions,
    ) -> Result<(CallParamsRef<'a>, RequestOptions)> {
        if let Some(args) = arguments
            && !args.get().trim_start().starts_with('{')
        {
            return Err(Error::InvalidInput(format!("arguments of tool {name} must be a JSON object")));
        }
        let (request_options, progress_token) = self.tool_call_options(id, options);
        let meta = progress_token.map(|progress_token| ProgressMeta { progress_token });
        Ok((CallParamsRef { name, arguments, meta }, request_options))
    }

    /// How request `id`, a `tools/call`, waits: its timeout (the call's or the client's), progress handling, and the
    /// progress token to send (the request id), when the caller listens to progress or resets its timeout on it.
    /// Every tool call goes through here, whoever encodes its frame.
    pub(crate) fn tool_call_options(&self, id: i64, options: CallOptions) -> (RequestOptions, Option<i64>) {
        let wants_progress = options.on_progress.is_some() || options.reset_timeout_on_progress;
        let request_options = RequestOptions {
            timeout_ms: Some(options.timeout_ms.unwrap_or(self.request_timeout_ms)),
            on_progress: options.on_progress,
            reset_on_progress: options.reset_timeout_on_progress,
            max_total_ms: options.max_total_timeout_ms,
        };
        (request_options, wants_progress.then_some(id))
    }

    /// Closes the session and its transport. Pending requests fail at once with [`Error::Closed`].
    pub fn close(&self) {
        self.close_with(Error::Closed {
            server: self.connection.server().to_owned(),
            reason: "closed by the host".into(),
        });
    }

    /// Closes the session and its transport (terminating the worker); pending requests fail at once with `cause`.
    pub fn close_with(&self, cause: Error) {
        self.connection.close(cause);
        if let Some(transport) = &self.transport {
            transport.close();
        }
    }

    async fn request<P: Serialize, R: DeserializeOwned>(&self, method: &str, params: Option<&P>) -> Result<R> {
        let raw = self.connection.request(method, params, RequestOptions::timeout(self.request_timeout_ms)).await?;
        decode(&self.connection, method, &raw)
    }

    pub(crate) fn protocol_error(&self, message: String) -> Error {
        Error::Protocol { server: self.connection.server().to_owned(), message }
    }
}

/// A `tools/list` result's `tools` array, as JSON text, and its `nextCursor`.
pub(crate) fn read_tools_page(page: &RawValue) -> std::result::Result<(Box<RawValue>, Option<String>), String> {
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Page {
        tools: Box<RawValue>,
        next_cursor: Option<String>,
    }
    let page: Page = mcp_worker_protocol::json::from_str(page.get())
        .map_err(|e| format!("unreadable {} result: {e}", methods::TOOLS_LIST))?;
    if !page.tools.get().starts_with('[') {
        return Err(format!("{} result tools is not an array", methods::TOOLS_LIST));
    }
    Ok((page.tools, page.next_cursor))
}

fn decode<R: DeserializeOwned>(connection: &Connection, method: &str, raw: &RawValue) -> Result<R> {
    mcp_worker_protocol::json::from_str(raw.get()).map_err(|e| Error::Protocol {
        server: connection.server().to_owned(),
        message: format!("unreadable {method} result: {e}"),
    })
}

/// Checks a decoded `tools/call` result has the shape a `CallToolResult` must have (an object with a `content`
/// array): for callers of [`McpClient::call_tool_raw`], which decode the result once themselves.
pub fn check_call_result(server: &str, result: &serde_json::Value) -> Result<()> {
    if result.get("content").is_some_and(serde_json::Value::is_array) {
        return Ok(());
    }
    Err(Error::Protocol { server: server.to_owned(), message: "tools/call result content is not an array".into() })
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
