//! Logging: levels, `logging/setLevel` and `notifications/message`.

use crate::JsonObject;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

/// Severity of a log message (RFC 5424), from least to most severe: the derived order compares severities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum LoggingLevel {
    /// Detailed debugging information.
    Debug,
    /// General information.
    Info,
    /// Normal but significant events.
    Notice,
    /// Warning conditions.
    Warning,
    /// Error conditions.
    Error,
    /// Critical conditions.
    Critical,
    /// Action must be taken immediately.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl fmt::Display for LoggingLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Self::Debug => "debug",
            Self::Info => "info",
            Self::Notice => "notice",
            Self::Warning => "warning",
            Self::Error => "error",
            Self::Critical => "critical",
            Self::Alert => "alert",
            Self::Emergency => "emergency",
        };
        f.write_str(name)
    }
}

/// `logging/setLevel` params.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SetLevelParams {
    /// The least severe level the client wants to receive.
    pub level: LoggingLevel,
    /// Request metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

impl SetLevelParams {
    /// Asks for messages of `level` and above.
    pub fn new(level: LoggingLevel) -> Self {
        Self { level, meta: None }
    }
}

/// `notifications/message` params.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoggingMessageParams {
    /// Severity.
    pub level: LoggingLevel,
    /// The name of the logger.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logger: Option<String>,
    /// The message: any JSON value (a string or an object, typically).
    pub data: Value,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_order_by_severity_and_use_the_spec_names() {
        assert!(LoggingLevel::Debug < LoggingLevel::Info && LoggingLevel::Alert < LoggingLevel::Emergency);
        assert_eq!(serde_json::to_string(&LoggingLevel::Warning).unwrap(), r#""warning""#);
        assert_eq!(LoggingLevel::Critical.to_string(), "critical");
        assert!(crate::json::from_str::<LoggingLevel>(r#""verbose""#).is_err());
    }
}
