//! MCP 2026-07-28 from the client's side: the era is negotiated by probing with `server/discover` (a server of
//! the handshake era answers with an error or not at all, and gets `initialize`); every request then carries the
//! protocol fields in `_meta` (the connection's envelope); a request that may need input is retried with the
//! answers the application's handlers give (multi round-trip requests); change notifications flow on a
//! `subscriptions/listen` stream; the log level travels with each request; `server/discover` stands in for `ping`.

use super::{CallOptions, ClientOptions, McpClient};
use crate::connection::REQUEST_TIMEOUT;
use crate::connection::{Connection, RequestOptions, ResponseFuture};
use crate::error::{Error, Result};
use crate::transport::Transport;
use futures_util::future::join_all;
use mcp_worker_protocol::modern::{
    DiscoverResult, InputRequest, InputRequiredResult, ListenParams, MODERN_PROTOCOL_VERSION, ResultKind,
    SubscriptionFilter, codes, envelope, is_modern, methods as modern_methods, result_kind,
};
use mcp_worker_protocol::{
    ClientCapabilities, Implementation, InitializeResult, LoggingLevel, NameMap, ServerCapabilities, methods,
};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::rc::Rc;

/// How many times one request may come back `input_required` before the server is called broken.
pub const MAX_INPUT_ROUNDS: usize = 10;

/// Which protocol era a client speaks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Protocol {
    /// MCP 2026-07-28 when the server speaks it (probed with `server/discover`), else the handshake.
    #[default]
    Auto,
    /// MCP 2026-07-28 only: a server that does not speak it is refused.
    Modern,
    /// The `initialize` handshake only (MCP 2025-11-25 and before).
    Handshake,
}

/// What a modern session keeps: who the client is and what it offers (sent with every request, with the log
/// level), and the listen stream with what it asks for.
pub(super) struct ModernState {
    version: String,
    client_info: Implementation,
    capabilities: ClientCapabilities,
    filter: RefCell<SubscriptionFilter>,
    listen: RefCell<Option<ResponseFuture>>,
}

/// What the probe found.
enum Probe {
    Modern(Box<InitializeResult>),
    /// The server speaks only the handshake era (or did not answer the probe).
    Handshake,
}

impl McpClient {
    /// Starts a session on `connection` in the era `options.protocol` asks for: with [`Protocol::Auto`], MCP
    /// 2026-07-28 when the server answers `server/discover`, else the `initialize` handshake.
    pub async fn connect(
        connection: Connection,
        options: &ClientOptions,
        transport: Option<Rc<dyn Transport>>,
    ) -> Result<Self> {
        if options.protocol == Protocol::Handshake {
            return Self::initialize(connection, options, transport).await;
        }
        connection.set_notification_limits(options.notification_limits);
        connection.set_server_request_limits(options.server_request_limits);
        match probe(&connection, options).await? {
            Probe::Modern(init) => {
                let state = ModernState {
                    version: init.protocol_version.clone(),
                    client_info: options.client_info.clone(),
                    capabilities: options.capabilities.clone(),
                    filter: RefCell::new(list_changes(&init.capabilities)),
                    listen: RefCell::new(None),
                };
                let client = Self {
                    connection,
                    init: *init,
                    request_timeout_ms: options.request_timeout_ms,
                    transport,
                    modern: Some(Rc::new(state)),
                    first_tools: RefCell::default(),
                };
                // As in the handshake era, where a server sends every log until the client sets a level.
                client.set_modern_log_level(LoggingLevel::Debug);
                client.listen();
                Ok(client)
            }
            Probe::Handshake if options.protocol == Protocol::Auto => {
                connection.set_envelope(None);
                Self::initialize(connection, options, transport).await
            }
            Probe::Handshake => {
                let error = Error::Protocol {
                    server: connection.server().to_owned(),
                    message: format!(
                        "the server does not speak MCP {MODERN_PROTOCOL_VERSION}, which this client was set to require"
                    ),
                };
                connection.close(error.clone());
                Err(error)
            }
        }
    }

    /// Whether the session speaks MCP 2026-07-28.
    pub fn is_modern(&self) -> bool {
        self.modern.is_some()
    }

    /// The protocol version of the session.
    pub fn protocol_version(&self) -> &str {
        &self.init.protocol_version
    }

    /// Sends a request that may come back `input_required`: the application's handlers answer what the server
    /// asks (all at once), and the request is sent again, with a new id, its answers and the server's state, until
    /// it completes ([`MAX_INPUT_ROUNDS`] at most). `call` sets each round's timeout and progress.
    pub(super) async fn request_with_input(
        &self,
        method: &str,
        params: Map<String, Value>,
        call: CallOptions,
    ) -> Result<Box<RawValue>> {
        self.rounds(method, params, call, None).await
    }

    /// Goes on with a `tools/call` whose first answer, `input_required`, came on the page's fast path
    /// (`worker::JsCalls`, in the browser): the application answers and the call is sent again, as
    /// [`McpClient::call_tool_raw`] does.
    pub async fn call_tool_after_input(
        &self,
        name: &str,
        arguments: Option<&RawValue>,
        call: CallOptions,
        first: Box<RawValue>,
    ) -> Result<Box<RawValue>> {
        let params = params_object(&super::CallParamsRef { name, arguments, meta: None })?;
        self.rounds(mcp_worker_protocol::methods::TOOLS_CALL, params, call, Some(first)).await
    }

    async fn rounds(
        &self,
        method: &str,
        mut params: Map<String, Value>,
        call: CallOptions,
        mut answered: Option<Box<RawValue>>,
    ) -> Result<Box<RawValue>> {
        for _ in 0..MAX_INPUT_ROUNDS {
            let raw = match answered.take() {
                Some(raw) => raw,
                None => {
                    let id = self.connection.next_request_id();
                    let (options, token) = self.tool_call_options(id, call.clone());
                    match token {
                        Some(token) => params.insert("_meta".into(), serde_json::json!({ "progressToken": token })),
                        None => mcp_worker_protocol::members::take(&mut params, "_meta"),
                    };
                    self.connection.request_with_id(id, method, Some(&params), options).await?
                }
            };
            if result_kind(raw.get()).map_err(|m| self.protocol_error(m))? == ResultKind::Complete {
                return Ok(raw);
            }
            let asked: InputRequiredResult = super::decode(&self.connection, method, &raw)?;
            let answers = self.answer(asked.input_requests.unwrap_or_default()).await?;
            params.insert("inputResponses".into(), Value::Object(answers));
            match asked.request_state {
                Some(state) => params.insert("requestState".into(), Value::String(state)),
                None => mcp_worker_protocol::members::take(&mut params, "requestState"),
            };
        }
        Err(self.protocol_error(format!("{method} asked for input {MAX_INPUT_ROUNDS} times without completing")))
    }

    /// The application's answers to what a server asked, by key, from the handlers it registered (all at once,
    /// each within the limits of the server's requests: [`crate::limits::ServerRequestLimits`]).
    async fn answer(&self, asked: NameMap<InputRequest>) -> Result<Map<String, Value>> {
        let server = self.connection.server().to_owned();
        let pending = asked.into_iter().map(|(key, request)| {
            let params = request.params.unwrap_or(Value::Null);
            let question = self.connection.ask_application(&request.method, params);
            let server = server.clone();
            async move {
                let answer = match question.await {
                    Ok(answer) => answer,
                    // The application refused the question (the user closed the dialog): there is no error to send
                    // back in this era, and a dismissed form is a cancelled elicitation. A timeout fails the call.
                    Err(error) if request.method == methods::ELICITATION_CREATE && error.code != REQUEST_TIMEOUT => {
                        serde_json::json!({ "action": "cancel" })
                    }
                    Err(error) => return Err(Error::Rpc { server, method: request.method, error }),
                };
                Ok((key, answer))
            }
        });
        // Inserted one by one: a map collected from an iterator links a stable sort of its entries.
        let mut answers = Map::new();
        for answered in join_all(pending).await {
            let (key, answer) = answered?;
            answers.insert(key, answer);
        }
        Ok(answers)
    }

    /// Opens (or opens again) the listen stream with the current filter; an empty filter closes it. The stream's
    /// notifications reach the connection's notification handler like any other.
    pub(super) fn listen(&self) {
        let Some(modern) = &self.modern else { return };
        let filter = modern.filter.borrow().clone();
        // Dropping the old stream's future cancels it on the server.
        let stream = (!filter.is_empty()).then(|| {
            let params = ListenParams { notifications: filter };
            self.connection.request(modern_methods::SUBSCRIPTIONS_LISTEN, Some(&params), RequestOptions::default())
        });
        *modern.listen.borrow_mut() = stream;
    }

    /// Adds or removes `uri` from the resources the listen stream asks updates of. False in the handshake era.
    pub(super) fn listen_to_resource(&self, uri: &str, wanted: bool) -> bool {
        let Some(modern) = &self.modern else { return false };
        {
            let mut filter = modern.filter.borrow_mut();
            let uris = filter.resource_subscriptions.get_or_insert_with(Vec::new);
            uris.retain(|u| u != uri);
            if wanted {
                uris.push(uri.to_owned());
            }
            if uris.is_empty() {
                filter.resource_subscriptions = None;
            }
        }
        self.listen();
        true
    }

    /// Sets the log level sent with every request. False in the handshake era.
    pub(super) fn set_modern_log_level(&self, level: LoggingLevel) -> bool {
        let Some(modern) = &self.modern else { return false };
        let members = envelope(&modern.version, &modern.client_info, &modern.capabilities, Some(level));
        self.connection.set_envelope(members.ok());
        true
    }
}

/// The notifications a modern session listens to from the start: the list changes the server announces.
fn list_changes(capabilities: &ServerCapabilities) -> SubscriptionFilter {
    let on = |announced: Option<bool>| (announced == Some(true)).then_some(true);
    SubscriptionFilter {
        tools_list_changed: on(capabilities.tools.as_ref().and_then(|t| t.list_changed)),
        prompts_list_changed: on(capabilities.prompts.as_ref().and_then(|p| p.list_changed)),
        resources_list_changed: on(capabilities.resources.as_ref().and_then(|r| r.list_changed)),
        resource_subscriptions: None,
    }
}

/// Probes with `server/discover` in the modern era. A `DiscoverResult` naming our version, or a modern error
/// naming it, is a modern server; a modern error naming only versions of the handshake, any other error, or no
/// answer in time is a server of the handshake era. A closed connection is an error.
async fn probe(connection: &Connection, options: &ClientOptions) -> Result<Probe> {
    let members = envelope(MODERN_PROTOCOL_VERSION, &options.client_info, &options.capabilities, None)
        .map_err(|e| Error::InvalidInput(format!("client info or capabilities: {e}")))?;
    connection.set_envelope(Some(members));
    let timeout = options.probe_timeout_ms.min(options.initialize_timeout_ms);
    let answer =
        connection.request(modern_methods::SERVER_DISCOVER, None::<&()>, RequestOptions::timeout(timeout)).await;
    match answer {
        Ok(raw) => {
            // Some servers of the handshake era answer any method they do not know with an empty result.
            let Ok(discovered) = mcp_worker_protocol::json::from_str::<DiscoverResult>(raw.get()) else {
                return Ok(Probe::Handshake);
            };
            if !discovered.supported_versions.iter().any(|v| v == MODERN_PROTOCOL_VERSION) {
                return Ok(Probe::Handshake);
            }
            Ok(Probe::Modern(Box::new(initialize_result(connection, &raw, discovered))))
        }
        Err(Error::Rpc { error, .. }) if error.code == codes::UNSUPPORTED_PROTOCOL_VERSION => {
            let supported = error.data.as_ref().and_then(|d| d.get("supported")).and_then(Value::as_array);
            let speaks_modern = supported.is_some_and(|s| s.iter().filter_map(Value::as_str).any(is_modern));
            if speaks_modern {
                // It names our version as supported yet refused it: not a server to trust with either era.
                return Err(Error::Protocol {
                    server: connection.server().to_owned(),
                    message: format!("the server refused protocol {MODERN_PROTOCOL_VERSION} while naming it supported"),
                });
            }
            Ok(Probe::Handshake)
        }
        // What says nothing of the era fails the connection as it would fail `initialize`: a closed worker, a
        // refused authorization (after its own retries: asking again would be one sign-in too many), a broken server.
        Err(error @ (Error::Closed { .. } | Error::Unauthorized { .. })) => Err(error),
        Err(Error::Http { status: Some(status), server, reason }) if !matches!(status, 400 | 404 | 405 | 406 | 415) => {
            Err(Error::Http { status: Some(status), server, reason })
        }
        // An error of another kind, no answer in time, a refused preflight (the request's new headers): a server of
        // the handshake era.
        Err(_) => Ok(Probe::Handshake),
    }
}

/// The discovery result in the shape the rest of the client knows from `initialize`.
fn initialize_result(connection: &Connection, raw: &RawValue, discovered: DiscoverResult) -> InitializeResult {
    // Read from the text, not through a `Value`: a second deserializer of `Implementation` (and its icons) would
    // weigh about 2 KiB of the package.
    #[derive(serde::Deserialize)]
    struct MetaOnly {
        #[serde(rename = "_meta")]
        meta: Option<ServerInfoOnly>,
    }
    #[derive(serde::Deserialize)]
    struct ServerInfoOnly {
        #[serde(rename = "io.modelcontextprotocol/serverInfo")] // meta::SERVER_INFO
        server_info: Option<Implementation>,
    }
    let server_info = mcp_worker_protocol::json::from_str::<MetaOnly>(raw.get())
        .ok()
        .and_then(|m| m.meta)
        .and_then(|m| m.server_info)
        .unwrap_or_else(|| Implementation::new(connection.server(), "unknown"));
    let mut init = InitializeResult::new(MODERN_PROTOCOL_VERSION, discovered.capabilities, server_info);
    init.instructions = discovered.instructions;
    init
}

/// Params of a request that may need input, as a JSON object.
pub(super) fn params_object<P: Serialize>(params: &P) -> Result<Map<String, Value>> {
    match serde_json::to_value(params) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(Error::InvalidInput("request params must be an object".into())),
        Err(e) => Err(Error::InvalidInput(format!("request params are not serializable: {e}"))),
    }
}

#[cfg(test)]
#[path = "modern_tests.rs"]
mod tests;
