//! The runtime's errors as JavaScript failures (see [`crate::convert`]).

pub(crate) use crate::convert::*;
use mcp_worker_runtime::config::ConfigError;
use mcp_worker_runtime::persist::StateError;
use mcp_worker_runtime::registry::RegistryError;
#[cfg(feature = "vault")]
use mcp_worker_vault::credentials::CredentialError;
use serde_json::Value;

impl From<mcp_worker_runtime::Error> for JsFailure {
    fn from(error: mcp_worker_runtime::Error) -> Self {
        match error {
            mcp_worker_runtime::Error::Client(error) => Self::from(error),
            other => Self::new(other.code(), other.to_string()),
        }
    }
}

impl From<StateError> for JsFailure {
    fn from(error: StateError) -> Self {
        Self::new(error.code(), error.to_string())
    }
}

#[cfg(feature = "vault")]
impl From<CredentialError> for JsFailure {
    fn from(error: CredentialError) -> Self {
        let failure = Self::new(error.code(), error.to_string());
        match &error {
            CredentialError::Missing(missing) => {
                failure.with("missing", serde_json::to_value(&missing.missing).unwrap_or(Value::Null))
            }
            _ => failure,
        }
    }
}

impl From<RegistryError> for JsFailure {
    fn from(error: RegistryError) -> Self {
        let code = match &error {
            RegistryError::Duplicate { .. } => "DUPLICATE_TOOL",
            _ => "INVALID_TOOL_NAME",
        };
        Self::new(code, error.to_string())
    }
}

impl From<Vec<ConfigError>> for JsFailure {
    fn from(errors: Vec<ConfigError>) -> Self {
        let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
        Self::new("INVALID_CONFIG", shown.join("; ")).with("errors", config_errors_json(&errors))
    }
}

/// `[{entry, field, message}]`.
pub(crate) fn config_errors_json(errors: &[ConfigError]) -> Value {
    errors
        .iter()
        .map(|e| serde_json::json!({"entry": e.entry, "field": e.field, "message": e.message}))
        .collect::<Vec<Value>>()
        .into()
}
