//! The host's errors: every one names the server and the cause.

use mcp_worker_protocol::ErrorObject;

/// A host error. Each variant names the server it concerns, so an agent juggling several servers can tell
/// which one failed and why.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The worker script could not be started (bad URL, 404, not JavaScript, threw while loading).
    #[error("server {server}: worker failed to load: {cause}")]
    WorkerLoad {
        /// The server.
        server: String,
        /// What the browser reported.
        cause: String,
    },
    /// The worker did not announce itself (`boot`) or did not answer `initialize` in time.
    #[error("server {server}: no handshake within {ms} ms ({stage})")]
    HandshakeTimeout {
        /// The server.
        server: String,
        /// The time allowed.
        ms: u32,
        /// What was awaited: `boot` or `initialize`.
        stage: &'static str,
    },
    /// The worker crashed: an uncaught error, a panic reported as `fatal`, or a failed start of its wasm.
    #[error("server {server}: worker crashed: {cause}")]
    WorkerCrashed {
        /// The server.
        server: String,
        /// What the worker or the browser reported.
        cause: String,
    },
    /// The connection was closed (by the host, or the worker went away) before an answer came.
    #[error("server {server}: connection closed: {reason}")]
    Closed {
        /// The server.
        server: String,
        /// Why it closed.
        reason: String,
    },
    /// A request got no answer in time. The host sent `notifications/cancelled` for it.
    #[error("server {server}: {method} timed out after {ms} ms")]
    Timeout {
        /// The server.
        server: String,
        /// The request's method.
        method: String,
        /// The timeout.
        ms: u32,
    },
    /// The server answered with a JSON-RPC error.
    #[error("server {server}: {method} failed: {error}")]
    Rpc {
        /// The server.
        server: String,
        /// The request's method.
        method: String,
        /// The error the server sent (also the error's `source()`).
        #[source]
        error: ErrorObject,
    },
    /// The server sent something that breaks the protocol (an unreadable result, a looping cursor, …).
    #[error("server {server}: protocol violation: {message}")]
    Protocol {
        /// The server.
        server: String,
        /// What was wrong.
        message: String,
    },
    /// The host terminated the worker: it kept working on a cancelled request, or stopped answering, past the grace
    /// period. The manager restarts it.
    #[error("server {server}: terminated by the host: {reason}")]
    Terminated {
        /// The server.
        server: String,
        /// Why.
        reason: String,
    },
    /// A remote server could not be reached, or answered an HTTP request with something other than MCP.
    #[error("server {server}: {reason}")]
    Http {
        /// The server.
        server: String,
        /// The HTTP status, when there was an answer.
        status: Option<u16>,
        /// What happened, and what to do about it.
        reason: String,
    },
    /// A request to a remote server got no answer the page may read: the server cannot be reached, or it does not
    /// allow pages of this origin to read its answers (CORS). The browser does not tell the page which (a CORS
    /// refusal and a refused connection are the same `TypeError`, and a request without CORS to find out is blocked
    /// too, by Opaque Response Blocking), so the message says what to check for each.
    #[error(
        "server {server}: no answer from {server_origin} that a page of {page_origin} may read ({detail}). Either \
         the server cannot be reached (check the URL and that it runs), or it does not allow pages of {page_origin} \
         to read its answers (CORS: its operator can send Access-Control-Allow-Origin and \
         Access-Control-Expose-Headers: Mcp-Session-Id, or its traffic can go through a proxy that adds them)"
    )]
    Unreachable {
        /// The server.
        server: String,
        /// The origin of the server's URL.
        server_origin: String,
        /// The origin of the page.
        page_origin: String,
        /// The request and what the browser said.
        detail: String,
    },
    /// A remote server refused the request for want of (other) credentials: HTTP 401 or 403.
    #[error(
        "server {server}: unauthorized (HTTP {status}){}{}",
        note(": ", .detail.as_deref()),
        note("; the server asks for ", .challenge.as_deref())
    )]
    Unauthorized {
        /// The server.
        server: String,
        /// 401 or 403.
        status: u16,
        /// The server's `WWW-Authenticate` header, if the browser let it be read.
        challenge: Option<String>,
        /// The beginning of the answer's body, which often says why.
        detail: Option<String>,
    },
    /// The server does not offer what was asked of it: it declared no capability for it at `initialize`.
    #[error("server {server} does not offer {feature} (it declared no `{capability}` capability)")]
    Unsupported {
        /// The server.
        server: String,
        /// What was asked, in words ("resources", "resource subscriptions", "prompts", …).
        feature: &'static str,
        /// The capability that would offer it.
        capability: &'static str,
    },
    /// The caller's input was not usable (arguments that are not a JSON object, a bad option).
    #[error("{0}")]
    InvalidInput(String),
}

fn note(prefix: &str, text: Option<&str>) -> String {
    text.map(|t| format!("{prefix}{t}")).unwrap_or_default()
}

impl Error {
    /// A stable, machine-readable code for the error's kind (what the JS API puts in `error.code`).
    pub fn code(&self) -> &'static str {
        match self {
            Self::WorkerLoad { .. } => "WORKER_LOAD",
            Self::HandshakeTimeout { .. } => "HANDSHAKE_TIMEOUT",
            Self::WorkerCrashed { .. } => "WORKER_CRASHED",
            Self::Closed { .. } => "CLOSED",
            Self::Timeout { .. } => "TIMEOUT",
            Self::Rpc { .. } => "RPC_ERROR",
            Self::Protocol { .. } => "PROTOCOL",
            Self::Terminated { .. } => "TERMINATED",
            Self::Http { .. } => "HTTP",
            Self::Unreachable { .. } => "UNREACHABLE",
            Self::Unauthorized { .. } => "UNAUTHORIZED",
            Self::Unsupported { .. } => "UNSUPPORTED",
            Self::InvalidInput(_) => "INVALID_INPUT",
        }
    }

    /// Whether the error means the connection to the server is gone.
    pub fn is_fatal(&self) -> bool {
        matches!(
            self,
            Self::WorkerLoad { .. } | Self::WorkerCrashed { .. } | Self::Closed { .. } | Self::Terminated { .. }
        )
    }
}

/// The host's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    #[test]
    fn a_server_error_is_the_source_of_the_rpc_error() {
        let sent = ErrorObject::new(-32602, "Unknown tool: x");
        let error = Error::Rpc { server: "echo".into(), method: "tools/call".into(), error: sent.clone() };
        let source = error.source().map(ToString::to_string);
        assert_eq!(source, Some(sent.to_string()));
        assert_eq!(error.to_string(), format!("server echo: tools/call failed: {sent}"));
    }
}
