//! Errors of the runtime database and the state it keeps.

use super::record::CorruptRecord;
use std::fmt;

/// IndexedDB failed: it could not be opened (private mode, quota, blocked by another tab on an older version), or a
/// transaction did not complete.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("IndexedDB: {operation} failed: {cause}")]
#[non_exhaustive]
pub struct StorageError {
    /// What was attempted ("open database mcp-worker", "write credential", …).
    pub operation: String,
    /// What the browser reported.
    pub cause: String,
}

impl StorageError {
    /// `operation` failed because of `cause`.
    pub fn new(operation: impl Into<String>, cause: impl fmt::Display) -> Self {
        Self { operation: operation.into(), cause: cause.to_string() }
    }
}

/// A state error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StateError {
    /// IndexedDB failed.
    #[error(transparent)]
    Storage(#[from] StorageError),
    /// A value could not be turned into JSON to be stored.
    #[error("cannot store {what}: {cause}")]
    Encode {
        /// Which record.
        what: String,
        /// What serde reported.
        cause: String,
    },
    /// The record asked for cannot be read (loads that read many records skip such records instead).
    #[error("{0}")]
    Corrupt(CorruptRecord),
    /// The caller's input is not usable (an empty key).
    #[error("{0}")]
    InvalidInput(String),
}

impl StateError {
    /// A stable, machine-readable code for the error's kind.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Storage(_) => "STORAGE",
            Self::Encode { .. } => "ENCODE",
            Self::Corrupt(_) => "CORRUPT",
            Self::InvalidInput(_) => "INVALID_INPUT",
        }
    }
}

/// The result type of state operations.
pub type StateResult<T> = Result<T, StateError>;
