//! The status socket's events: what happened, to which server, in which thread.
//!
//! Every event serializes as one flat JSON object with a `type` tag (`serverStatus`, `toolExecutionFinished`, …),
//! an `id`, a gap-free `seq` and a `timestamp`, which is what a UI in JavaScript receives. No event carries a
//! credential value: credentials appear by name only, and values a server received are scrubbed from everything
//! the server or its tools say (see [`super::Redactor`]).

use crate::credentials::CredentialDecl;
use crate::manager::{ListKind, ServerHealth, ServerStatus};
use crate::registry::{HiddenTool, LimitReport, NameClash};
use crate::tool_system::{ExecutionCall, ExecutionFinished};
use mcp_worker_client::connection::FloodReport;
use mcp_worker_client::http::oauth::setup::AuthorizationRequired;
use mcp_worker_client::sandbox::BlockedRequest;
use mcp_worker_protocol::LoggingLevel;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One event, as the status socket delivers it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct StatusEvent {
    /// Unique id (`{runtime id}-{seq}`); also the id of the event's ART observation.
    pub id: String,
    /// Position in the stream: 1, 2, 3, … without gaps, so a subscriber can tell what it missed.
    pub seq: u64,
    /// Milliseconds since the epoch.
    pub timestamp: f64,
    /// What happened.
    #[serde(flatten)]
    pub body: EventBody,
}

impl StatusEvent {
    /// The event's kind.
    pub fn kind(&self) -> EventKind {
        self.body.kind()
    }

    /// The server the event concerns, if it concerns one.
    pub fn server(&self) -> Option<&str> {
        self.body.server()
    }

    /// The agent thread the event belongs to, if it belongs to one (tool executions do).
    pub fn thread_id(&self) -> Option<&str> {
        match &self.body {
            EventBody::ToolExecutionStarted(e) => Some(&e.thread_id),
            EventBody::ToolExecutionFinished(e) => Some(&e.call.thread_id),
            _ => None,
        }
    }
}

/// The kinds of events, named as their `type` tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum EventKind {
    /// [`EventBody::ServerStatus`].
    ServerStatus,
    /// [`EventBody::ServerRemoved`].
    ServerRemoved,
    /// [`EventBody::CredentialsRequired`].
    CredentialsRequired,
    /// [`EventBody::AuthorizationRequired`].
    AuthorizationRequired,
    /// [`EventBody::ToolsChanged`].
    ToolsChanged,
    /// [`EventBody::ToolsHidden`].
    ToolsHidden,
    /// [`EventBody::ToolNamesClashed`].
    ToolNamesClashed,
    /// [`EventBody::ToolListLimited`].
    ToolListLimited,
    /// [`EventBody::ListChanged`].
    ListChanged,
    /// [`EventBody::ResourceUpdated`].
    ResourceUpdated,
    /// [`EventBody::ToolExecutionStarted`].
    ToolExecutionStarted,
    /// [`EventBody::ToolExecutionFinished`].
    ToolExecutionFinished,
    /// [`EventBody::ServerLog`].
    ServerLog,
    /// [`EventBody::Progress`].
    Progress,
    /// [`EventBody::ServerRestarting`].
    ServerRestarting,
    /// [`EventBody::NetworkBlocked`].
    NetworkBlocked,
    /// [`EventBody::ElicitationRequested`].
    ElicitationRequested,
    /// [`EventBody::SamplingRequested`].
    SamplingRequested,
    /// [`EventBody::ServerRequestSettled`].
    ServerRequestSettled,
    /// [`EventBody::ServerThrottled`].
    ServerThrottled,
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
#[non_exhaustive]
pub enum EventBody {
    /// A server's status changed (also: its tool count or last error).
    ServerStatus(ServerStatusEvent),
    /// A server was removed from the configuration.
    ServerRemoved(ServerEvent),
    /// A server cannot start without credentials: which, and what they are for.
    CredentialsRequired(CredentialsRequiredEvent),
    /// A remote server cannot be used until the user signs in (again) or grants more.
    AuthorizationRequired(AuthorizationRequiredEvent),
    /// Tools were added to or removed from the registry.
    ToolsChanged(ToolsChangedEvent),
    /// A server's tools were registered, and some are hidden from agents: which, and why.
    ToolsHidden(ToolsHiddenEvent),
    /// Tools would have had the same registry name: each got a name of its own, and none keeps that one.
    ToolNamesClashed(ToolNamesClashedEvent),
    /// A server's tool list went past the registry's limits (too many tools, long texts, control characters).
    ToolListLimited(ToolListLimitedEvent),
    /// A server said its resources or prompts changed.
    ListChanged(ListChangedEvent),
    /// A resource the application subscribed to changed: read it again.
    ResourceUpdated(ResourceUpdatedEvent),
    /// A tool call was accepted and is about to be checked and run.
    ToolExecutionStarted(ToolExecutionStartedEvent),
    /// A tool call ended (successfully or not).
    ToolExecutionFinished(ToolExecutionFinishedEvent),
    /// A server logged a message (`notifications/message`).
    ServerLog(ServerLogEvent),
    /// A server reported progress on a call (`notifications/progress`).
    Progress(ProgressEvent),
    /// A server failed and will be restarted after a backoff.
    ServerRestarting(ServerRestartingEvent),
    /// The browser blocked a request of a sandboxed server: its network policy does not allow the origin.
    NetworkBlocked(BlockedRequest),
    /// A server asks the user for input (`elicitation/create`); answer it with the request id.
    ElicitationRequested(ServerRequestEvent),
    /// A server asks the application's model for a completion (`sampling/createMessage`); answer it with the id.
    SamplingRequested(ServerRequestEvent),
    /// A server request was answered, refused, cancelled by the server, or timed out.
    ServerRequestSettled(ServerRequestSettledEvent),
    /// A server sent more notifications or requests than its limits allow: what was dropped, coalesced or refused
    /// since the last such event (at most one a second per server).
    ServerThrottled(ServerThrottledEvent),
}

impl EventBody {
    /// The body's kind.
    pub fn kind(&self) -> EventKind {
        match self {
            Self::ServerStatus(_) => EventKind::ServerStatus,
            Self::ServerRemoved(_) => EventKind::ServerRemoved,
            Self::CredentialsRequired(_) => EventKind::CredentialsRequired,
            Self::AuthorizationRequired(_) => EventKind::AuthorizationRequired,
            Self::ToolsChanged(_) => EventKind::ToolsChanged,
            Self::ToolsHidden(_) => EventKind::ToolsHidden,
            Self::ToolNamesClashed(_) => EventKind::ToolNamesClashed,
            Self::ToolListLimited(_) => EventKind::ToolListLimited,
            Self::ListChanged(_) => EventKind::ListChanged,
            Self::ResourceUpdated(_) => EventKind::ResourceUpdated,
            Self::ToolExecutionStarted(_) => EventKind::ToolExecutionStarted,
            Self::ToolExecutionFinished(_) => EventKind::ToolExecutionFinished,
            Self::ServerLog(_) => EventKind::ServerLog,
            Self::Progress(_) => EventKind::Progress,
            Self::ServerRestarting(_) => EventKind::ServerRestarting,
            Self::NetworkBlocked(_) => EventKind::NetworkBlocked,
            Self::ElicitationRequested(_) => EventKind::ElicitationRequested,
            Self::SamplingRequested(_) => EventKind::SamplingRequested,
            Self::ServerRequestSettled(_) => EventKind::ServerRequestSettled,
            Self::ServerThrottled(_) => EventKind::ServerThrottled,
        }
    }

    /// The server the event concerns, if it concerns one (a clash concerns several: see [`Self::concerns`]).
    pub fn server(&self) -> Option<&str> {
        match self {
            Self::ServerStatus(e) => Some(&e.server),
            Self::ServerRemoved(e) => Some(&e.server),
            Self::CredentialsRequired(e) => Some(&e.server),
            Self::AuthorizationRequired(e) => Some(&e.server),
            Self::ToolsChanged(e) => e.server.as_deref(),
            Self::ToolsHidden(e) => e.server.as_deref(),
            Self::ToolNamesClashed(_) => None,
            Self::ToolListLimited(e) => Some(&e.server),
            Self::ListChanged(e) => Some(&e.server),
            Self::ResourceUpdated(e) => Some(&e.server),
            Self::ToolExecutionStarted(e) => e.server.as_deref(),
            Self::ToolExecutionFinished(e) => e.call.server.as_deref(),
            Self::ServerLog(e) => Some(&e.server),
            Self::Progress(e) => Some(&e.server),
            Self::ServerRestarting(e) => Some(&e.server),
            Self::NetworkBlocked(e) => Some(&e.server),
            Self::ElicitationRequested(e) | Self::SamplingRequested(e) => Some(&e.server),
            Self::ServerRequestSettled(e) => Some(&e.server),
            Self::ServerThrottled(e) => Some(&e.server),
        }
    }

    /// Whether the event concerns `server`: it is the event's server, or one of the servers of a clash.
    pub fn concerns(&self, server: &str) -> bool {
        match self {
            Self::ToolNamesClashed(e) => e.tools.iter().any(|tool| tool.server == server),
            _ => self.server() == Some(server),
        }
    }

    /// Calls `scrub` on every text the event carries, in every field, and every string and object key of its JSON:
    /// where a server could echo a credential value.
    pub(crate) fn scrub_text(&mut self, scrub: &dyn Fn(&mut String)) {
        super::scrub::Scrub::scrub(self, scrub);
    }
}

/// A server's health, as the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ServerStatusEvent {
    /// The server.
    pub server: String,
    /// Its status.
    pub status: ServerStatus,
    /// `wasm`, `http` or `stdio`.
    pub transport: &'static str,
    /// How many tools it offers (0 while it is not connected).
    pub tool_count: usize,
    /// The last error, kept after recovery.
    pub last_error: Option<String>,
    /// When it last connected (ms since the epoch).
    pub last_connected_ms: Option<f64>,
    /// The protocol version of its session (`2026-07-28`, or one of the handshake's).
    pub protocol_version: Option<String>,
    /// Failures since the last success.
    pub consecutive_failures: u32,
    /// When a tool call to it last succeeded (ms since the epoch).
    pub last_success_ms: Option<f64>,
    /// Tool calls that failed in a row, since the last that succeeded.
    pub consecutive_call_failures: u32,
    /// When the next automatic restart is due, while one is.
    pub next_retry_ms: Option<f64>,
    /// `sandbox` (its own origin) or `page` (the page's origin).
    pub isolation: &'static str,
    /// The network origins a sandboxed server may reach.
    pub network: Vec<String>,
    /// Requests the browser blocked because the network policy does not allow them.
    pub blocked_requests: u32,
    /// The origin of the last blocked request.
    pub last_blocked_origin: Option<String>,
}

impl From<&ServerHealth> for ServerStatusEvent {
    fn from(health: &ServerHealth) -> Self {
        Self {
            server: health.name.clone(),
            status: health.status,
            transport: health.transport,
            tool_count: health.tool_count,
            last_error: health.last_error.clone(),
            last_connected_ms: health.last_connected_ms,
            protocol_version: health.protocol_version.clone(),
            consecutive_failures: health.consecutive_failures,
            last_success_ms: health.last_success_ms,
            consecutive_call_failures: health.consecutive_call_failures,
            next_retry_ms: health.next_retry_ms,
            isolation: health.isolation,
            network: health.network.clone(),
            blocked_requests: health.blocked_requests,
            last_blocked_origin: health.last_blocked_origin.clone(),
        }
    }
}

/// An event about a server and nothing else.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ServerEvent {
    /// The server.
    pub server: String,
}

/// What a server needs before it can start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CredentialsRequiredEvent {
    /// The server.
    pub server: String,
    /// The credentials to provide, by name, with what each is for.
    pub credentials: Vec<CredentialDecl>,
    /// True when they may well be stored but the vault is locked: unlocking is what helps.
    pub locked: bool,
    /// Why the server cannot start, as the credential source said it.
    pub reason: String,
    /// Set when stored credentials are held back because the server's code changed since they were stored: what
    /// changed. The application answers with `confirm_credential_identity` once its user agrees.
    pub identity_change: Option<crate::credentials::IdentityChange>,
}

/// A remote server cannot be used until the user acts. Sent before the application's OAuth `authorize` is called
/// (`canAuthorize`), and when the server asks for authorization that no `oauth` option is configured for. Its fields
/// beside `server` are the transport's [`AuthorizationRequired`]: `url`, `reason`, `authorizationServer`, `scope`,
/// `canAuthorize`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct AuthorizationRequiredEvent {
    /// The server.
    pub server: String,
    /// What the user must do, for which URL and authorization server.
    #[serde(flatten)]
    pub required: AuthorizationRequired,
}

impl AuthorizationRequiredEvent {
    /// The event for `server` of what its transport said.
    pub fn new(server: &str, required: &AuthorizationRequired) -> Self {
        Self { server: server.to_owned(), required: required.clone() }
    }
}

/// A subscribed resource changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ResourceUpdatedEvent {
    /// The server.
    pub server: String,
    /// The resource's URI.
    pub uri: String,
}

/// Registry changes, grouped by server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolsChangedEvent {
    /// The server whose tools changed; `None` for native (in-page) tools.
    pub server: Option<String>,
    /// Registry names added.
    pub added: Vec<String>,
    /// Registry names removed.
    pub removed: Vec<String>,
}

/// The tools of a server that agents do not see, each with why, announced when the server's tools are registered
/// (at each start, and when its list changes). They stay hidden while its config does not allow destructive tools
/// (`allowDestructiveTools`); a tool that says `readOnlyHint: true` or `destructiveHint: false` (and has no
/// destructive verb in its name) is shown. Native tools follow the same rule (`server` is `None`): announced when
/// one is registered hidden, without its registration allowing destructive tools.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolsHiddenEvent {
    /// The server; `None` for native tools.
    pub server: Option<String>,
    /// Its hidden tools.
    pub tools: Vec<HiddenTool>,
}

/// Tools whose registry names would have coincided (a server's names crafted to, or a hash collision), with the
/// name each got instead: none of them keeps the contested name, whoever came first. Names are assigned from the
/// whole set of servers and tools, so the same set always gets the same names.
pub type ToolNamesClashedEvent = NameClash;

/// A server's tool list went past the registry's limits: each bound, and what was done (tools dropped, text cut,
/// control characters removed). The server's `lastError` says the same.
pub type ToolListLimitedEvent = LimitReport;

/// A server's resources or prompts changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ListChangedEvent {
    /// The server.
    pub server: String,
    /// Which list.
    pub list: ListKind,
}

/// A tool call begins: the tool system's record of it.
pub type ToolExecutionStartedEvent = ExecutionCall;

/// A tool call ended: the tool system's record of it, with a summary of its output (content kinds and sizes), not
/// the output: the agent has that, and a history of events should not keep every result.
pub type ToolExecutionFinishedEvent = ExecutionFinished;

/// A log message from a server.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ServerLogEvent {
    /// The server.
    pub server: String,
    /// Severity.
    pub level: LoggingLevel,
    /// The logger's name, if the server gave one.
    pub logger: Option<String>,
    /// The message: any JSON.
    pub data: Value,
}

/// Progress on a call.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ProgressEvent {
    /// The server.
    pub server: String,
    /// The call's progress token (its request id).
    pub progress_token: Value,
    /// Progress so far.
    pub progress: f64,
    /// The total, if known.
    pub total: Option<f64>,
    /// What is happening.
    pub message: Option<String>,
}

/// A server will be restarted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ServerRestartingEvent {
    /// The server.
    pub server: String,
    /// Which restart this is since the last success (1 for the first).
    pub attempt: u32,
    /// The wait before it.
    pub backoff_ms: u32,
    /// The failure that caused it.
    pub reason: String,
}

/// A request from a server that waits for the application.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ServerRequestEvent {
    /// The id to answer with (the runtime's, not the server's JSON-RPC id).
    pub request_id: u64,
    /// The server that asks.
    pub server: String,
    /// `elicitation/create` or `sampling/createMessage`.
    pub method: String,
    /// The request's params as the server sent them.
    pub params: Value,
}

/// How a server request ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum Settlement {
    /// The application answered it.
    Answered,
    /// The application refused it with an error.
    Rejected,
    /// The server cancelled it, or its connection closed, before an answer.
    Cancelled,
    /// It waited past its timeout ([`mcp_worker_client::limits::ServerRequestLimits`]); the server was answered
    /// with an error.
    TimedOut,
}

/// A server request ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ServerRequestSettledEvent {
    /// The runtime's id of the request.
    pub request_id: u64,
    /// The server that asked.
    pub server: String,
    /// The request's method.
    pub method: String,
    /// How it ended.
    pub outcome: Settlement,
}

/// What a server sent beyond its limits.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ServerThrottledEvent {
    /// The server.
    pub server: String,
    /// How many log messages and other notifications were dropped, how many progress and list-change
    /// notifications were coalesced, and how many requests were refused.
    #[serde(flatten)]
    pub report: FloodReport,
}
