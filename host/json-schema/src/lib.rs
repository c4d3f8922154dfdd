#![doc = include_str!("../README.md")]
//!
//! A JSON Schema (2020-12) validator scoped to what tool schemas use, for checking arguments before a call and
//! `structuredContent` after one.
//!
//! Why not a crate: measured in a release wasm build with wasm-opt -Os, `jsonschema` 0.50 (no default features)
//! adds about 2.1 MB (708 KB gzipped) and `boon` 0.6 about 1.2 MB (444 KB gzipped), mostly regex and Unicode
//! tables. This module, with `regex-lite` for `pattern`, adds a few tens of KB.
//!
//! Checked: boolean schemas, `type`, `enum`, `const`, numeric bounds (2020-12 and draft-04 forms), `multipleOf`,
//! string lengths (in code points), `pattern`, `items`/`prefixItems` (and draft-07 tuple `items` with
//! `additionalItems`), `minItems`/`maxItems`, `uniqueItems`, `contains` with `minContains`/`maxContains`,
//! `properties`, `required`, `additionalProperties`, `patternProperties`, `propertyNames`,
//! `minProperties`/`maxProperties`, `dependentRequired`, `dependentSchemas`, `dependencies`, `allOf`, `anyOf`,
//! `oneOf`, `not`, `if`/`then`/`else`, and `$ref` within the document (`#`, `#/$defs/…`, any JSON pointer).
//! Not checked (they pass): `format` (an annotation by default in 2020-12), `unevaluatedProperties`/
//! `unevaluatedItems`, `$dynamicRef`, references to other documents, and patterns the engine cannot compile
//! (see [`Limits::max_pattern_size`]; lookaround and backreferences are not supported).
//! The server validates its arguments too; this check exists so that the model gets a precise error at once.

mod checks;
mod equality;
mod error;
mod excerpt;
mod frames;
mod limits;
mod pattern;
mod structure;
mod validator;
mod work;

pub use error::{Error, Exceeded, Result};
pub use limits::Limits;

use serde_json::Value;
use std::fmt;
use validator::Validator;

/// At most this many errors are reported.
pub const MAX_ERRORS: usize = 20;

/// One violation.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ValidationError {
    /// JSON pointer of the offending value in the instance (`""` for the whole instance).
    pub instance_path: String,
    /// What is wrong, in words a model can act on.
    pub message: String,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.instance_path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.instance_path, self.message)
        }
    }
}

/// Validates `instance` against `schema` within the default [`Limits`].
///
/// `Err(Error::Invalid)` holds up to [`MAX_ERRORS`] violations; `Err(Error::TooCostly)` says that checking would
/// have taken more work than the limits allow, and nothing is known about the instance.
pub fn validate(schema: &Value, instance: &Value) -> Result {
    validate_with(schema, instance, &Limits::default())
}

/// Validates `instance` against `schema` within `limits` (see [`validate`]).
pub fn validate_with(schema: &Value, instance: &Value, limits: &Limits) -> Result {
    let mut errors = Vec::new();
    let mut validator = Validator::new(schema, *limits);
    validator.check(schema, instance, &mut String::new(), 0, &mut errors);
    match validator.work.exceeded() {
        Some(exceeded) => Err(Error::TooCostly(exceeded)),
        None if errors.is_empty() => Ok(()),
        None => Err(Error::Invalid(errors)),
    }
}

/// Records a violation, unless [`MAX_ERRORS`] are recorded already (then its message is not even built).
fn push(errors: &mut Vec<ValidationError>, path: &str, message: impl FnOnce() -> String) {
    if errors.len() < MAX_ERRORS {
        errors.push(ValidationError { instance_path: path.to_owned(), message: message() });
    }
}

/// Runs `f` with `segment` appended to `path` as a JSON pointer token.
fn with_segment<R>(path: &mut String, segment: &str, f: impl FnOnce(&mut String) -> R) -> R {
    let length = path.len();
    path.push('/');
    path.push_str(&segment.replace('~', "~0").replace('/', "~1"));
    let out = f(path);
    path.truncate(length);
    out
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;

#[cfg(test)]
#[path = "bounded_tests.rs"]
mod bounded_tests;

#[cfg(test)]
#[path = "calibration_tests.rs"]
mod calibration_tests;
