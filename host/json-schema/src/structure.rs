//! Keywords that look into arrays and objects, and so recurse. Each item, member, name and rule read is a step of
//! the validation's work, and the loops end once the budget is gone.

use super::{ValidationError, excerpt, push, with_segment};
use crate::MAX_ERRORS;
use crate::checks;
use crate::validator::Validator;
use crate::work;
use serde_json::{Map, Value};

/// How many bytes of known property names an "unexpected property" message lists.
const KNOWN_SHOWN: usize = 200;

impl<'s> Validator<'s> {
    pub(super) fn array(
        &mut self,
        schema: &'s Map<String, Value>,
        items: &[Value],
        path: &mut String,
        depth: usize,
        errors: &mut Vec<ValidationError>,
    ) {
        let count = items.len() as u64;
        if let Some(min) = schema.get("minItems").and_then(Value::as_u64)
            && count < min
        {
            push(errors, path, || format!("must have at least {min} items, got {count}"));
        }
        if let Some(max) = schema.get("maxItems").and_then(Value::as_u64)
            && count > max
        {
            push(errors, path, || format!("must have at most {max} items, got {count}"));
        }
        if schema.get("uniqueItems").and_then(Value::as_bool) == Some(true)
            && let Some(j) = self.first_repeat(items)
        {
            push(errors, path, || format!("items must be unique, but item {j} repeats an earlier one"));
        }
        // 2020-12 `prefixItems` + `items`, or draft-07 tuple `items` (an array) + `additionalItems`.
        let (prefix, rest): (&[Value], Option<&'s Value>) = match (schema.get("prefixItems"), schema.get("items")) {
            (Some(Value::Array(prefix)), rest) => (prefix, rest),
            (_, Some(Value::Array(prefix))) => (prefix, schema.get("additionalItems")),
            (_, rest) => (&[], rest),
        };
        for (i, item) in items.iter().enumerate() {
            // Past MAX_ERRORS nothing more is recorded, so nothing more is looked at.
            if self.work.exhausted() || errors.len() >= MAX_ERRORS {
                return;
            }
            let sub = prefix.get(i).or(if i >= prefix.len() { rest } else { None });
            if let Some(sub) = sub {
                with_segment(path, &i.to_string(), |path| self.check(sub, item, path, depth + 1, errors));
            }
        }
        if let Some(contains) = schema.get("contains") {
            let found = items.iter().filter(|item| self.is_valid(contains, item, depth + 1)).count() as u64;
            let min = schema.get("minContains").and_then(Value::as_u64).unwrap_or(1);
            if found < min {
                push(errors, path, || format!("must contain at least {min} matching items, found {found}"));
            }
            if let Some(max) = schema.get("maxContains").and_then(Value::as_u64)
                && found > max
            {
                push(errors, path, || format!("must contain at most {max} matching items, found {found}"));
            }
        }
    }

    /// The index of the first item equal to an earlier one (each comparison paid for).
    fn first_repeat(&mut self, items: &[Value]) -> Option<usize> {
        for j in 1..items.len() {
            for i in 0..j {
                if checks::equal(&items[i], &items[j], &mut self.work) {
                    return Some(j);
                }
                if self.work.exhausted() {
                    return None;
                }
            }
        }
        None
    }

    pub(super) fn object(
        &mut self,
        schema: &'s Map<String, Value>,
        instance: &Value,
        members: &Map<String, Value>,
        path: &mut String,
        depth: usize,
        errors: &mut Vec<ValidationError>,
    ) {
        let count = members.len() as u64;
        if let Some(min) = schema.get("minProperties").and_then(Value::as_u64)
            && count < min
        {
            push(errors, path, || format!("must have at least {min} properties, got {count}"));
        }
        if let Some(max) = schema.get("maxProperties").and_then(Value::as_u64)
            && count > max
        {
            push(errors, path, || format!("must have at most {max} properties, got {count}"));
        }
        if let Some(Value::Array(required)) = schema.get("required") {
            for name in required.iter().filter_map(Value::as_str) {
                if !self.work.spend(work::READ) || errors.len() >= MAX_ERRORS {
                    return;
                }
                if !members.contains_key(name) {
                    push(errors, path, || format!("missing required property {}", excerpt::quoted(name)));
                }
            }
        }
        let properties = schema.get("properties").and_then(Value::as_object);
        let patterns = schema.get("patternProperties").and_then(Value::as_object);
        let additional = schema.get("additionalProperties");
        for (name, value) in members {
            if !self.work.spend(work::READ) || errors.len() >= MAX_ERRORS {
                return;
            }
            let mut matched = false;
            if let Some(sub) = properties.and_then(|p| p.get(name)) {
                matched = true;
                with_segment(path, name, |path| self.check(sub, value, path, depth + 1, errors));
            }
            for (regex, sub) in patterns.into_iter().flatten() {
                if self.patterns.matches(regex, name, &mut self.work) {
                    matched = true;
                    with_segment(path, name, |path| self.check(sub, value, path, depth + 1, errors));
                }
            }
            match additional {
                Some(Value::Bool(false)) if !matched => {
                    push(errors, path, || {
                        format!("unexpected property {}{}", excerpt::quoted(name), known(properties))
                    });
                }
                Some(sub) if !matched => {
                    with_segment(path, name, |path| self.check(sub, value, path, depth + 1, errors));
                }
                _ => {}
            }
            if let Some(names) = schema.get("propertyNames") {
                let key = self.name_value(name);
                if !self.is_valid(names, &key, depth + 1) {
                    push(errors, path, || format!("property name {} is not allowed", excerpt::quoted(name)));
                }
            }
        }
        self.dependencies(schema, instance, members, path, depth, errors);
    }

    fn dependencies(
        &mut self,
        schema: &'s Map<String, Value>,
        instance: &Value,
        members: &Map<String, Value>,
        path: &mut String,
        depth: usize,
        errors: &mut Vec<ValidationError>,
    ) {
        for keyword in ["dependentRequired", "dependentSchemas", "dependencies"] {
            let Some(Value::Object(rules)) = schema.get(keyword) else { continue };
            for (trigger, rule) in rules {
                if !self.work.spend(work::READ) || errors.len() >= MAX_ERRORS {
                    return;
                }
                if !members.contains_key(trigger) {
                    continue;
                }
                match rule {
                    Value::Array(needed) => {
                        for name in needed.iter().filter_map(Value::as_str) {
                            if !self.work.spend(work::READ) {
                                return;
                            }
                            if !members.contains_key(name) {
                                push(errors, path, || {
                                    let (name, trigger) = (excerpt::quoted(name), excerpt::quoted(trigger));
                                    format!("property {name} is required when {trigger} is present")
                                });
                            }
                        }
                    }
                    sub => self.check(sub, instance, path, depth + 1, errors),
                }
            }
        }
    }
}

/// " (known: a, b, c)": the names of `properties`, as many as fit in [`KNOWN_SHOWN`] bytes.
fn known(properties: Option<&Map<String, Value>>) -> String {
    let Some(properties) = properties.filter(|p| !p.is_empty()) else { return String::new() };
    let mut shown = String::new();
    for name in properties.keys() {
        if shown.len() + name.len() > KNOWN_SHOWN {
            if shown.is_empty() {
                shown.push_str(excerpt::prefix(name, KNOWN_SHOWN));
            } else {
                shown.push_str(", ");
            }
            shown.push('…');
            break;
        }
        if !shown.is_empty() {
            shown.push_str(", ");
        }
        shown.push_str(name);
    }
    format!(" (known: {shown})")
}
