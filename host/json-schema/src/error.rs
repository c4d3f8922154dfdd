//! What a validation that does not accept its value returns.

use crate::ValidationError;
use std::fmt;

/// The result of a validation.
pub type Result<T = (), E = Error> = std::result::Result<T, E>;

/// Why a value was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The value does not match the schema: up to [`MAX_ERRORS`](crate::MAX_ERRORS) violations, each with the
    /// JSON pointer of the offending value.
    #[error("{}", joined(.0))]
    Invalid(Vec<ValidationError>),
    /// Checking the value would take more work than the [`Limits`](crate::Limits) allow, so it was given up. Nothing
    /// is known about the value: treat it as rejected. A schema that asks for this much work is hostile or broken;
    /// the value (a model's arguments) is usually not at fault.
    #[error("the schema is too costly to check ({0})")]
    TooCostly(Exceeded),
}

/// Which limit a validation went over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Exceeded {
    /// More steps than [`Limits::max_steps`](crate::Limits::max_steps) (the limit is held).
    Steps(u64),
    /// Checks nested deeper than [`Limits::max_depth`](crate::Limits::max_depth) (the limit is held).
    Depth(usize),
}

impl fmt::Display for Exceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Steps(limit) => write!(f, "over {limit} steps"),
            Self::Depth(limit) => write!(f, "nested deeper than {limit} levels"),
        }
    }
}

fn joined(errors: &[ValidationError]) -> String {
    let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
    shown.join("; ")
}
