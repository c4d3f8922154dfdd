//! The runtime's errors: a client error of one server's session, or what the runtime itself refuses. Every one
//! names the server it concerns and has a stable [`Error::code`].

use crate::status::ServerStatus;
use mcp_worker_client::Error as ClientError;
use mcp_worker_protocol::quoted::quoted;

/// A runtime error.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The server's session failed: it did not load, crashed, closed, timed out, answered with an error, or broke
    /// the protocol ([`ClientError`] says which).
    #[error(transparent)]
    Client(#[from] ClientError),
    /// No server of this name is configured.
    #[error("no server named {server}", server = quoted(.server))]
    UnknownServer {
        /// The name asked for.
        server: String,
    },
    /// The server is configured but cannot take calls now: disabled, down after repeated failures, starting, or
    /// over a transport this host does not have.
    #[error("server {server} is unavailable ({status}): {reason}")]
    Unavailable {
        /// The server.
        server: String,
        /// Where it stands.
        status: ServerStatus,
        /// Why, and what would help.
        reason: String,
    },
    /// The server needs credentials the host does not have (or cannot read: the vault is locked).
    #[error("server {server} needs credentials: {reason}")]
    NeedsCredentials {
        /// The server.
        server: String,
        /// Which are missing, or why they cannot be read.
        reason: String,
    },
    /// The server's bundle has a `manifest.json` that cannot be read (docs/wire-protocol.md has the format). The
    /// server is not started: it could need secrets the host does not know about.
    #[error("server {server}: invalid manifest {url}: {reason}")]
    InvalidManifest {
        /// The server.
        server: String,
        /// Where the manifest is.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
}

impl Error {
    /// A stable, machine-readable code for the error's kind (what the JS API puts in `error.code`).
    pub fn code(&self) -> &'static str {
        match self {
            Self::Client(error) => error.code(),
            Self::UnknownServer { .. } => "UNKNOWN_SERVER",
            Self::Unavailable { .. } => "UNAVAILABLE",
            Self::NeedsCredentials { .. } => "NEEDS_CREDENTIALS",
            Self::InvalidManifest { .. } => "INVALID_MANIFEST",
        }
    }

    /// The caller's input was not usable.
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::Client(ClientError::InvalidInput(message.into()))
    }

    /// The session error, when the server's session failed.
    pub fn client(&self) -> Option<&ClientError> {
        match self {
            Self::Client(error) => Some(error),
            _ => None,
        }
    }
}

/// The runtime's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    #[test]
    fn a_session_error_keeps_its_code_message_and_source() {
        let timeout = ClientError::Timeout { server: "echo".into(), method: "tools/call".into(), ms: 5 };
        let error = Error::from(timeout.clone());
        assert_eq!((error.code(), error.to_string()), ("TIMEOUT", timeout.to_string()));
        assert_eq!(error.client(), Some(&timeout));
        let unavailable =
            Error::Unavailable { server: "a".into(), status: ServerStatus::NeedsCredentials, reason: "locked".into() };
        assert_eq!(unavailable.to_string(), "server a is unavailable (needs_credentials): locked");
        assert_eq!(unavailable.code(), "UNAVAILABLE");
        assert!(unavailable.source().is_none());
    }
}
