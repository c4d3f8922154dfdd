#![doc = include_str!("../README.md")]
//!
//! A JSON Schema (2020-12) validator scoped to what tool schemas use, for checking arguments before a call and
//! `structuredContent` after one.
//!
//! Why not a crate: measured in a release wasm build with wasm-opt -Os, `jsonschema` 0.50 (no default features)
//! adds about 2.1 MB (708 KB gzipped) and `boon` 0.6 about 1.2 MB (444 KB gzipped), mostly regex and Unicode
//! tables, to a host of about 250 KB. This module adds a few tens of KB: `pattern` runs on the browser's own
//! `RegExp` (ECMA-262, the dialect JSON Schema specifies); natively, on the `regex` crate (tests only).
//!
//! Checked: boolean schemas, `type`, `enum`, `const`, numeric bounds (2020-12 and draft-04 forms), `multipleOf`,
//! string lengths (in code points), `pattern`, `items`/`prefixItems` (and draft-07 tuple `items` with
//! `additionalItems`), `minItems`/`maxItems`, `uniqueItems`, `contains` with `minContains`/`maxContains`,
//! `properties`, `required`, `additionalProperties`, `patternProperties`, `propertyNames`,
//! `minProperties`/`maxProperties`, `dependentRequired`, `dependentSchemas`, `dependencies`, `allOf`, `anyOf`,
//! `oneOf`, `not`, `if`/`then`/`else`, and `$ref` within the document (`#`, `#/$defs/…`, any JSON pointer).
//! Not checked (they pass): `format` (an annotation by default in 2020-12), `unevaluatedProperties`/
//! `unevaluatedItems`, `$dynamicRef`, references to other documents, and patterns the engine cannot compile.
//! The server validates its arguments too; this check exists so that the model gets a precise error at once.

mod checks;
mod equality;
mod pattern;
mod structure;

use serde_json::Value;
use std::fmt;

/// How deep `$ref`s and nesting are followed before giving up (a cycle like `{"$ref": "#"}` must not recurse for
/// ever). Beyond it, the instance passes.
const MAX_DEPTH: usize = 128;

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

/// Validates `instance` against `schema`. `Err` holds up to [`MAX_ERRORS`] violations.
pub fn validate(schema: &Value, instance: &Value) -> Result<(), Vec<ValidationError>> {
    let mut errors = Vec::new();
    let validator = Validator { root: schema };
    validator.check(schema, instance, &mut String::new(), 0, &mut errors);
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

struct Validator<'s> {
    root: &'s Value,
}

impl<'s> Validator<'s> {
    /// Appends the violations of `instance` against `schema` to `errors`.
    fn check(
        &self,
        schema: &'s Value,
        instance: &Value,
        path: &mut String,
        depth: usize,
        errors: &mut Vec<ValidationError>,
    ) {
        if errors.len() >= MAX_ERRORS || depth > MAX_DEPTH {
            return;
        }
        let object = match schema {
            Value::Bool(true) => return,
            Value::Bool(false) => return push(errors, path, "no value is allowed here".into()),
            Value::Object(object) => object,
            _ => return,
        };
        if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
            if let Some(target) = self.resolve(reference) {
                self.check(target, instance, path, depth + 1, errors);
            }
        }
        checks::generic(object, instance, path, errors);
        match instance {
            Value::Number(_) => checks::number(object, instance, path, errors),
            Value::String(text) => checks::string(object, text, path, errors),
            Value::Array(items) => self.array(object, items, path, depth, errors),
            Value::Object(members) => self.object(object, members, path, depth, errors),
            _ => {}
        }
        self.combinators(object, instance, path, depth, errors);
    }

    /// Whether `instance` is valid against `schema` (no errors collected).
    fn is_valid(&self, schema: &'s Value, instance: &Value, depth: usize) -> bool {
        let mut errors = Vec::new();
        self.check(schema, instance, &mut String::new(), depth, &mut errors);
        errors.is_empty()
    }

    fn resolve(&self, reference: &str) -> Option<&'s Value> {
        let pointer = reference.strip_prefix('#')?;
        if pointer.is_empty() {
            return Some(self.root);
        }
        // A JSON pointer inside a URI fragment may be percent-encoded.
        let decoded = percent_decode(pointer);
        self.root.pointer(&decoded)
    }

    fn combinators(
        &self,
        object: &'s serde_json::Map<String, Value>,
        instance: &Value,
        path: &mut String,
        depth: usize,
        errors: &mut Vec<ValidationError>,
    ) {
        if let Some(Value::Array(all)) = object.get("allOf") {
            for member in all {
                self.check(member, instance, path, depth + 1, errors);
            }
        }
        if let Some(Value::Array(any)) = object.get("anyOf") {
            if !any.iter().any(|member| self.is_valid(member, instance, depth + 1)) {
                let detail = self.closest_failure(any, instance, depth);
                push(errors, path, format!("does not match any of the {} allowed shapes{detail}", any.len()));
            }
        }
        if let Some(Value::Array(one)) = object.get("oneOf") {
            let matching = one.iter().filter(|member| self.is_valid(member, instance, depth + 1)).count();
            if matching == 0 {
                let detail = self.closest_failure(one, instance, depth);
                push(errors, path, format!("does not match any of the {} allowed shapes{detail}", one.len()));
            } else if matching > 1 {
                push(errors, path, format!("matches {matching} of the allowed shapes; it must match exactly one"));
            }
        }
        if let Some(not) = object.get("not") {
            if self.is_valid(not, instance, depth + 1) {
                push(errors, path, "matches a shape that is not allowed".into());
            }
        }
        if let Some(condition) = object.get("if") {
            let branch = if self.is_valid(condition, instance, depth + 1) { "then" } else { "else" };
            if let Some(branch) = object.get(branch) {
                self.check(branch, instance, path, depth + 1, errors);
            }
        }
    }

    /// The first error of the alternative that fails least, so the model sees what to fix.
    fn closest_failure(&self, members: &'s [Value], instance: &Value, depth: usize) -> String {
        let closest = members
            .iter()
            .map(|member| {
                let mut errors = Vec::new();
                self.check(member, instance, &mut String::new(), depth + 1, &mut errors);
                errors
            })
            .filter(|errors| !errors.is_empty())
            .min_by_key(Vec::len);
        match closest.as_deref() {
            Some([first, ..]) => format!(" (closest: {first})"),
            _ => String::new(),
        }
    }
}

fn push(errors: &mut Vec<ValidationError>, path: &str, message: String) {
    if errors.len() < MAX_ERRORS {
        errors.push(ValidationError { instance_path: path.to_owned(), message });
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

fn percent_decode(text: &str) -> String {
    percent_encoding::percent_decode_str(text).decode_utf8().map_or_else(|_| text.to_owned(), |s| s.into_owned())
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
