//! The SDK's errors: registering tools, resources and prompts, and requests the server sends to the client.

use mcp_worker_protocol::ErrorObject;
use mcp_worker_protocol::quoted::quoted;

/// What can go wrong in the SDK.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A tool, prompt, resource or credential has a name the spec (or the host) does not accept.
    #[error("{kind} name {} is not valid: {reason}", quoted(.name))]
    InvalidName {
        /// `tool`, `prompt`, `resource`, `resource template` or `credential`.
        kind: &'static str,
        /// The name as given.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Two items of one kind share a name (or URI).
    #[error("{kind} {} is registered twice", quoted(.name))]
    Duplicate {
        /// `tool`, `prompt`, `resource`, `resource template` or `credential`.
        kind: &'static str,
        /// The shared name.
        name: String,
    },
    /// A server that was built with problems cannot start.
    #[error("server {} cannot start: {}", quoted(.server), semicolon_separated(.problems))]
    InvalidServer {
        /// The server's name.
        server: String,
        /// Every problem found while building it.
        problems: Vec<String>,
    },
    /// The client did not declare the capability a server-to-client request needs.
    #[error("the client did not declare the `{capability}` capability, so the server cannot send {method}")]
    CapabilityMissing {
        /// The request that was not sent.
        method: String,
        /// The capability the client would have had to declare in `initialize`.
        capability: String,
    },
    /// The client did not answer a server-to-client request in time (it was told to stop with
    /// `notifications/cancelled`).
    #[error("the client did not answer {method} within {ms} ms")]
    Timeout {
        /// The request.
        method: String,
        /// The timeout.
        ms: u32,
    },
    /// The client answered a server-to-client request with a JSON-RPC error.
    #[error("the client answered {method} with an error: {error}")]
    Rpc {
        /// The request.
        method: String,
        /// The client's error.
        error: ErrorObject,
    },
    /// The client's answer does not have the shape the request expects.
    #[error("the client's answer to {method} is not valid: {reason}")]
    InvalidResponse {
        /// The request.
        method: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The session is over (the worker is shutting down), so nothing can be sent.
    #[error("the session has ended")]
    Closed,
    /// A type cannot be shown as an elicitation form: forms are flat objects of strings, numbers, booleans and
    /// enums.
    #[error("{type_name} cannot be an elicitation form: {reason}")]
    InvalidForm {
        /// The Rust type.
        type_name: String,
        /// What the form cannot hold.
        reason: String,
    },
}

/// `Result` with the SDK's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// `parts` with `; ` between them, in a loop: `[String]::join` would link a kilobyte of copying code into every
/// bundle for this one message.
fn semicolon_separated(parts: &[String]) -> String {
    let mut text = String::new();
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            text.push_str("; ");
        }
        text.push_str(part);
    }
    text
}
