//! Where a server stands: the one word every part of the runtime uses for it (health, events, errors).

use serde::Serialize;

/// Where a server stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ServerStatus {
    /// Not running (never started, or disconnected by the application). Starts on first use.
    Disconnected,
    /// Starting, or waiting to restart after a failure (see [`crate::manager::ServerHealth::next_retry_ms`]).
    Connecting,
    /// Running; its tools are registered.
    Connected,
    /// Its declared credentials are missing or locked.
    NeedsCredentials,
    /// A remote server that needs the user to sign in (OAuth) first: the sign-in did not happen or failed. Its next
    /// use (a call, a reconnect) tries again.
    NeedsAuthorization,
    /// Down: too many consecutive failures, or a transport this host cannot run. Stays down until a manual
    /// [`crate::manager::McpTransportManager::connect`].
    Error,
    /// Disabled in its config.
    Disabled,
}

impl std::fmt::Display for ServerStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Disconnected => "disconnected",
            Self::Connecting => "connecting",
            Self::Connected => "connected",
            Self::NeedsCredentials => "needs_credentials",
            Self::NeedsAuthorization => "needs_authorization",
            Self::Error => "error",
            Self::Disabled => "disabled",
        })
    }
}
