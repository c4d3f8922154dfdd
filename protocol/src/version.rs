//! Protocol-version negotiation (MCP 2025-11-25, `basic/lifecycle`).
//!
//! The client proposes its latest version in `initialize`. A server that supports it echoes it; otherwise it answers
//! with its own latest. A client that does not support the answer must disconnect.

/// The newest protocol revision this crate implements.
pub const LATEST_PROTOCOL_VERSION: &str = "2025-11-25";

/// Every revision this crate can speak, newest first. The later revisions only add optional fields on top of the
/// older ones for the subset used here, so one implementation serves all of them.
pub const SUPPORTED_PROTOCOL_VERSIONS: &[&str] = &["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// Server side: the version to answer an `initialize` that requested `requested`.
pub fn negotiate(requested: &str) -> &'static str {
    SUPPORTED_PROTOCOL_VERSIONS.iter().find(|v| **v == requested).copied().unwrap_or(LATEST_PROTOCOL_VERSION)
}

/// Client side: accepts the version a server answered with, or names what was wrong.
pub fn accept(answered: &str) -> Result<&'static str, UnsupportedVersion> {
    SUPPORTED_PROTOCOL_VERSIONS
        .iter()
        .find(|v| **v == answered)
        .copied()
        .ok_or_else(|| UnsupportedVersion { answered: answered.to_owned() })
}

/// The server answered with a protocol version this side does not speak.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsupportedVersion {
    /// What the server answered.
    pub answered: String,
}

impl std::fmt::Display for UnsupportedVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "server answered protocol version {}; supported: {}",
            crate::quoted::quoted(&self.answered),
            SUPPORTED_PROTOCOL_VERSIONS.join(", ")
        )
    }
}

impl std::error::Error for UnsupportedVersion {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_echoes_a_supported_version() {
        assert_eq!(negotiate("2025-06-18"), "2025-06-18");
        assert_eq!(negotiate("2025-11-25"), "2025-11-25");
    }

    #[test]
    fn server_answers_its_latest_for_an_unknown_version() {
        assert_eq!(negotiate("1999-01-01"), LATEST_PROTOCOL_VERSION);
        assert_eq!(negotiate(""), LATEST_PROTOCOL_VERSION);
    }

    #[test]
    fn client_rejects_a_version_it_does_not_speak() {
        assert_eq!(accept("2024-11-05"), Ok("2024-11-05"));
        let err = accept("2026-07-28").unwrap_err();
        assert!(err.to_string().contains("2026-07-28"));
    }
}
