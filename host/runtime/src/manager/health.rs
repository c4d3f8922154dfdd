//! A server's health and how events move it: a small state machine without timers or I/O.

use super::backoff::Backoff;
use crate::config::{Isolation, ServerConfig};
use crate::status::ServerStatus;
use serde::Serialize;

/// What the page shows about a server.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ServerHealth {
    /// The server.
    pub name: String,
    /// Its status.
    pub status: ServerStatus,
    /// `wasm`, `http` or `stdio`.
    pub transport: &'static str,
    /// Tools of it in the registry since it was last discovered (what it listed, less what the registry's
    /// limits dropped or refused).
    pub tool_count: usize,
    /// The last error, kept after recovery so the page can show what happened.
    pub last_error: Option<String>,
    /// When it last connected (ms since the epoch).
    pub last_connected_ms: Option<f64>,
    /// The protocol version of its session: `2026-07-28`, or a version of the `initialize` handshake (kept after
    /// the session ends, like `last_connected_ms`).
    pub protocol_version: Option<String>,
    /// Failures (failed starts, crashes, terminations) since the last success.
    pub consecutive_failures: u32,
    /// When a tool call to it last succeeded (ms since the epoch; a tool's own `isError` result counts: the server
    /// answered).
    pub last_success_ms: Option<f64>,
    /// Tool calls that failed in a row (an error, a timeout, a crash during the call), since the last that succeeded.
    /// A call the caller aborted does not count.
    pub consecutive_call_failures: u32,
    /// When the next automatic restart is due, while one is.
    pub next_retry_ms: Option<f64>,
    /// Where it runs: `sandbox` (its own origin), `page` (the page's origin) or `remote` (over HTTP).
    pub isolation: &'static str,
    /// The network origins a sandboxed server may reach (its config's, and its manifest's once started).
    pub network: Vec<String>,
    /// Requests the browser blocked because the network policy does not allow them, since it was configured.
    pub blocked_requests: u32,
    /// The origin of the last blocked request.
    pub last_blocked_origin: Option<String>,
}

/// When to give up restarting, and how long to wait between tries.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct FailurePolicy {
    /// After this many consecutive failures the server is marked `error` and not restarted automatically
    /// (default 3; `None`: restart for ever).
    pub max_consecutive_failures: Option<u32>,
    /// The wait before each restart.
    pub backoff: Backoff,
}

impl Default for FailurePolicy {
    fn default() -> Self {
        Self { max_consecutive_failures: Some(3), backoff: Backoff::default() }
    }
}

/// What to do after a failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AfterFailure {
    /// Restart after this many milliseconds.
    RetryAfter(u32),
    /// Stay down.
    GiveUp,
}

impl ServerHealth {
    /// The health of a server just configured.
    pub(crate) fn new(config: &ServerConfig) -> Self {
        let mut health = Self {
            name: config.name.clone(),
            status: ServerStatus::Disconnected,
            transport: config.transport.kind(),
            tool_count: 0,
            last_error: None,
            last_connected_ms: None,
            protocol_version: None,
            consecutive_failures: 0,
            last_success_ms: None,
            consecutive_call_failures: 0,
            next_retry_ms: None,
            isolation: config.isolation_label(),
            network: Vec::new(),
            blocked_requests: 0,
            last_blocked_origin: None,
        };
        health.reset(config);
        health
    }

    /// Back to the resting state the config implies: disabled, unsupported (error), or disconnected.
    pub(crate) fn reset(&mut self, config: &ServerConfig) {
        self.next_retry_ms = None;
        self.isolation = config.isolation_label();
        self.network = match &config.isolation {
            Isolation::Sandboxed(network) => network.origins().to_vec(),
            _ => Vec::new(),
        };
        self.tool_count = 0;
        if !config.enabled {
            self.status = ServerStatus::Disabled;
        } else if let Some(reason) = config.transport.unavailable_reason() {
            self.status = ServerStatus::Error;
            self.last_error = Some(reason.to_owned());
        } else {
            self.status = ServerStatus::Disconnected;
        }
    }

    pub(crate) fn connecting(&mut self) {
        self.status = ServerStatus::Connecting;
        self.next_retry_ms = None;
    }

    pub(crate) fn connected(&mut self, tool_count: usize, now: f64, protocol_version: &str) {
        self.status = ServerStatus::Connected;
        self.protocol_version = Some(protocol_version.to_owned());
        self.tool_count = tool_count;
        self.last_connected_ms = Some(now);
        self.next_retry_ms = None;
    }

    pub(crate) fn needs_credentials(&mut self, reason: String) {
        self.status = ServerStatus::NeedsCredentials;
        self.last_error = Some(reason);
        self.next_retry_ms = None;
    }

    pub(crate) fn needs_authorization(&mut self, reason: String) {
        self.status = ServerStatus::NeedsAuthorization;
        self.last_error = Some(reason);
        self.next_retry_ms = None;
    }

    /// A start failed or the running server died.
    pub(crate) fn failed(&mut self, error: String, policy: &FailurePolicy, now: f64) -> AfterFailure {
        self.consecutive_failures = self.consecutive_failures.saturating_add(1);
        self.last_error = Some(error);
        if policy.max_consecutive_failures.is_some_and(|max| self.consecutive_failures >= max) {
            self.status = ServerStatus::Error;
            self.next_retry_ms = None;
            return AfterFailure::GiveUp;
        }
        let delay = policy.backoff.delay_ms(self.consecutive_failures);
        self.status = ServerStatus::Connecting;
        self.next_retry_ms = Some(now + f64::from(delay));
        AfterFailure::RetryAfter(delay)
    }

    /// A call succeeded at `now`: the server works, failures are forgotten. Returns whether a failure count changed
    /// (the time of the success alone is not worth an event).
    pub(crate) fn succeeded(&mut self, now: f64) -> bool {
        self.last_success_ms = Some(now);
        let starts = std::mem::replace(&mut self.consecutive_failures, 0);
        let calls = std::mem::replace(&mut self.consecutive_call_failures, 0);
        starts != 0 || calls != 0
    }

    /// A call failed. Returns whether the server is still connected (its status is the news otherwise).
    pub(crate) fn call_failed(&mut self) -> bool {
        self.consecutive_call_failures = self.consecutive_call_failures.saturating_add(1);
        self.status == ServerStatus::Connected
    }

    /// Whether the server waits for an automatic restart.
    pub(crate) fn restart_pending(&self) -> bool {
        self.status == ServerStatus::Connecting && self.next_retry_ms.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::TransportConfig;

    fn policy() -> FailurePolicy {
        FailurePolicy { max_consecutive_failures: Some(3), backoff: Backoff::new(100, 2.0, 1_000) }
    }

    #[test]
    fn the_config_sets_the_resting_state() {
        let wasm = ServerConfig::wasm("a", "/a.js");
        assert_eq!(ServerHealth::new(&wasm).status, ServerStatus::Disconnected);
        assert_eq!(ServerHealth::new(&wasm.clone().enabled(false)).status, ServerStatus::Disabled);
        let stdio = ServerConfig::new("s", TransportConfig::Stdio { command: "npx".into(), args: vec![] });
        let health = ServerHealth::new(&stdio);
        assert_eq!(health.status, ServerStatus::Error);
        assert!(health.last_error.unwrap().contains("browser cannot start"));
    }

    #[test]
    fn three_consecutive_failures_give_up_with_growing_waits() {
        let mut health = ServerHealth::new(&ServerConfig::wasm("a", "/a.js"));
        assert_eq!(health.failed("boom".into(), &policy(), 0.0), AfterFailure::RetryAfter(100));
        assert!(health.restart_pending());
        assert_eq!(health.next_retry_ms, Some(100.0));
        assert_eq!(health.failed("boom".into(), &policy(), 100.0), AfterFailure::RetryAfter(200));
        assert_eq!(health.failed("boom".into(), &policy(), 300.0), AfterFailure::GiveUp);
        assert_eq!(health.status, ServerStatus::Error);
        assert_eq!(health.consecutive_failures, 3);
        assert_eq!(health.next_retry_ms, None);
    }

    #[test]
    fn success_resets_the_count_and_unlimited_retries_never_give_up() {
        let mut health = ServerHealth::new(&ServerConfig::wasm("a", "/a.js"));
        health.failed("x".into(), &policy(), 0.0);
        health.connected(4, 50.0, "2026-07-28");
        assert!(health.succeeded(60.0));
        assert!(!health.succeeded(70.0), "nothing to reset the second time");
        assert_eq!(health.last_success_ms, Some(70.0));
        assert_eq!(
            (health.status, health.tool_count, health.last_connected_ms),
            (ServerStatus::Connected, 4, Some(50.0))
        );
        assert_eq!(health.last_error.as_deref(), Some("x"), "kept for display");
        let forever = FailurePolicy { max_consecutive_failures: None, ..policy() };
        for _ in 0..100 {
            assert!(matches!(health.failed("x".into(), &forever, 0.0), AfterFailure::RetryAfter(_)));
        }
    }

    #[test]
    fn health_serializes_for_the_status_socket() {
        let mut health = ServerHealth::new(&ServerConfig::wasm("echo", "/e.js"));
        health.needs_credentials("TOKEN is missing".into());
        let json = serde_json::to_value(&health).unwrap();
        assert_eq!(json["status"], "needs_credentials");
        assert_eq!(json["toolCount"], 0);
        assert_eq!(json["lastError"], "TOKEN is missing");
    }

    #[test]
    fn call_failures_are_counted_until_a_call_succeeds() {
        let mut health = ServerHealth::new(&ServerConfig::wasm("a", "/a.js"));
        assert_eq!((health.last_success_ms, health.consecutive_call_failures), (None, 0));
        assert!(!health.call_failed(), "not connected");
        health.connected(1, 5.0, "2025-11-25");
        assert!(health.call_failed(), "connected: worth an event");
        assert_eq!(health.consecutive_call_failures, 2);
        assert_eq!(health.consecutive_failures, 0, "failed calls are not failed starts");
        assert!(health.succeeded(9.0), "the count was reset");
        assert_eq!((health.last_success_ms, health.consecutive_call_failures), (Some(9.0), 0));
    }
}
