//! The walk of a schema over a value, and the keywords that combine schemas (`$ref`, `allOf`, `anyOf`, `oneOf`,
//! `not`, `if`). Every check is paid for in [`Work`] steps first; pairs being checked and branch outcomes are kept
//! in [`Frames`], so that cycles end and no branch is evaluated twice at one place.

use crate::frames::{self, Frames, Outcome};
use crate::pattern::Patterns;
use crate::work::{self, Work};
use crate::{Limits, MAX_ERRORS, ValidationError, checks, excerpt, push};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::rc::Rc;

/// How much of the closest failing branch's violation the `anyOf`/`oneOf` message shows.
const CLOSEST_SHOWN: usize = 300;

#[derive(Debug)]
pub(crate) struct Validator<'s> {
    root: &'s Value,
    pub(crate) work: Work,
    pub(crate) patterns: Patterns,
    frames: Frames,
    /// `$ref`s resolved so far, by the address of their value.
    refs: HashMap<usize, Option<&'s Value>>,
    /// Property names checked against `propertyNames`, kept for the whole validation so that each keeps an address
    /// of its own (addresses name places in the value).
    names: Vec<Rc<Value>>,
}

impl<'s> Validator<'s> {
    pub(crate) fn new(root: &'s Value, limits: Limits) -> Self {
        Self {
            root,
            work: Work::new(limits),
            patterns: Patterns::default(),
            frames: Frames::default(),
            refs: HashMap::new(),
            names: Vec::new(),
        }
    }

    /// Appends the violations of `instance` against `schema` to `errors`.
    pub(crate) fn check(
        &mut self,
        schema: &'s Value,
        instance: &Value,
        path: &mut String,
        depth: usize,
        errors: &mut Vec<ValidationError>,
    ) {
        self.frame(schema, instance, path, depth, errors);
    }

    /// Whether `instance` is valid against `schema` (a branch check, remembered).
    pub(crate) fn is_valid(&mut self, schema: &'s Value, instance: &Value, depth: usize) -> bool {
        self.evaluate(schema, instance, depth).count == 0
    }

    /// Checks `instance` against `schema` unless that pair is already being checked further up (a cycle).
    /// `Some(clean)` when it ran, `clean` when what it found rests on no cycle above it.
    fn frame(
        &mut self,
        schema: &'s Value,
        instance: &Value,
        path: &mut String,
        depth: usize,
        errors: &mut Vec<ValidationError>,
    ) -> Option<bool> {
        let keys = schema.as_object().map_or(0, Map::len);
        if errors.len() >= MAX_ERRORS || !self.work.visit(depth, keys) {
            return None;
        }
        let key = frames::key(schema, instance);
        let entered = self.frames.enter(key)?;
        self.keywords(schema, instance, path, depth, errors);
        Some(self.frames.leave(key, entered))
    }

    fn keywords(
        &mut self,
        schema: &'s Value,
        instance: &Value,
        path: &mut String,
        depth: usize,
        errors: &mut Vec<ValidationError>,
    ) {
        let object = match schema {
            Value::Bool(true) => return,
            Value::Bool(false) => return push(errors, path, || "no value is allowed here".into()),
            Value::Object(object) => object,
            _ => return,
        };
        if let Some(reference @ Value::String(text)) = object.get("$ref")
            && let Some(target) = self.resolve(reference, text)
        {
            self.check(target, instance, path, depth + 1, errors);
        }
        let before = errors.len();
        checks::generic(object, instance, path, errors, &mut self.work);
        match instance {
            Value::Number(_) => checks::number(object, instance, path, errors),
            Value::String(text) => checks::string(object, text, path, errors, &mut self.work, &mut self.patterns),
            Value::Array(items) => self.array(object, items, path, depth, errors),
            Value::Object(members) => self.object(object, instance, members, path, depth, errors),
            _ => {}
        }
        self.work.spend(errors.len().saturating_sub(before) as u64 * work::VIOLATION);
        self.combinators(object, instance, path, depth, errors);
    }

    /// What checking `instance` against `schema` finds, on its own: remembered per pair.
    fn evaluate(&mut self, schema: &'s Value, instance: &Value, depth: usize) -> Outcome {
        if !self.work.spend(work::BRANCH) {
            return Outcome::default();
        }
        let key = frames::key(schema, instance);
        if let Some(outcome) = self.frames.outcome(key) {
            return outcome;
        }
        let mut errors = Vec::new();
        let clean = self.frame(schema, instance, &mut String::new(), depth, &mut errors);
        let outcome = Outcome { count: errors.len(), first: errors.first().map(|e| Rc::from(e.to_string())) };
        if clean == Some(true) {
            self.frames.remember(key, outcome.clone());
        }
        outcome
    }

    /// The target of `reference` (the value of a `$ref`), resolved once per validation.
    fn resolve(&mut self, reference: &'s Value, text: &str) -> Option<&'s Value> {
        if !self.work.spend(work::REF) {
            return None;
        }
        let address = std::ptr::from_ref(reference) as usize;
        if let Some(target) = self.refs.get(&address) {
            return *target;
        }
        if !self.work.spend(text.len() as u64 / work::TEXT_BYTES_PER_STEP) {
            return None;
        }
        let target = text.strip_prefix('#').and_then(|pointer| {
            if pointer.is_empty() {
                return Some(self.root);
            }
            // A JSON pointer inside a URI fragment may be percent-encoded.
            self.root.pointer(&percent_decode(pointer))
        });
        self.refs.insert(address, target);
        target
    }

    fn combinators(
        &mut self,
        object: &'s Map<String, Value>,
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
        if let Some(Value::Array(any)) = object.get("anyOf")
            && !any.iter().any(|member| self.is_valid(member, instance, depth + 1))
        {
            push(errors, path, || {
                let detail = self.closest_failure(any, instance, depth);
                format!("does not match any of the {} allowed shapes{detail}", any.len())
            });
        }
        if let Some(Value::Array(one)) = object.get("oneOf") {
            let matching = one.iter().filter(|member| self.is_valid(member, instance, depth + 1)).count();
            if matching == 0 {
                push(errors, path, || {
                    let detail = self.closest_failure(one, instance, depth);
                    format!("does not match any of the {} allowed shapes{detail}", one.len())
                });
            } else if matching > 1 {
                push(errors, path, || format!("matches {matching} of the allowed shapes; it must match exactly one"));
            }
        }
        if let Some(not) = object.get("not")
            && self.is_valid(not, instance, depth + 1)
        {
            push(errors, path, || "matches a shape that is not allowed".into());
        }
        if let Some(condition) = object.get("if") {
            let branch = if self.is_valid(condition, instance, depth + 1) { "then" } else { "else" };
            if let Some(branch) = object.get(branch) {
                self.check(branch, instance, path, depth + 1, errors);
            }
        }
    }

    /// The first violation of the branch that fails least, so the model sees what to fix. The branches were
    /// evaluated already and their outcomes remembered: this looks them up.
    fn closest_failure(&mut self, members: &'s [Value], instance: &Value, depth: usize) -> String {
        let mut closest: Option<Outcome> = None;
        for member in members {
            let outcome = self.evaluate(member, instance, depth + 1);
            if outcome.count > 0 && closest.as_ref().is_none_or(|c| outcome.count < c.count) {
                closest = Some(outcome);
            }
        }
        match closest.and_then(|c| c.first) {
            Some(first) => format!(" (closest: {})", excerpt::cut(&first, CLOSEST_SHOWN)),
            None => String::new(),
        }
    }

    /// A property name as a value of its own, for `propertyNames`, with an address no other value of this
    /// validation takes.
    pub(crate) fn name_value(&mut self, name: &str) -> Rc<Value> {
        let value = Rc::new(Value::String(name.to_owned()));
        self.names.push(Rc::clone(&value));
        value
    }
}

fn percent_decode(text: &str) -> String {
    percent_encoding::percent_decode_str(text).decode_utf8().map_or_else(|_| text.to_owned(), |s| s.into_owned())
}
