//! What can be wrong with a server's declared credentials. No variant carries a value.

use super::scope::MissingCredentials;

/// A declaration or lookup error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CredentialError {
    /// A server declared required credentials that have no value.
    #[error("{0}")]
    Missing(MissingCredentials),
    /// The input is not usable (an empty or malformed name, a malformed `${…}` reference).
    #[error("{0}")]
    InvalidInput(String),
}

impl CredentialError {
    /// A stable, machine-readable code for the error's kind.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Missing(_) => "MISSING_CREDENTIALS",
            Self::InvalidInput(_) => "INVALID_INPUT",
        }
    }
}

/// The result type of credential declarations.
pub type CredentialResult<T> = Result<T, CredentialError>;
