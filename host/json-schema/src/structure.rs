//! Keywords that look into arrays and objects, and so recurse.

use super::{ValidationError, Validator, equality, pattern, push, with_segment};
use serde_json::{Map, Value};

impl<'s> Validator<'s> {
    pub(super) fn array(
        &self,
        schema: &'s Map<String, Value>,
        items: &[Value],
        path: &mut String,
        depth: usize,
        errors: &mut Vec<ValidationError>,
    ) {
        let count = items.len() as u64;
        if let Some(min) = schema.get("minItems").and_then(Value::as_u64) {
            if count < min {
                push(errors, path, format!("must have at least {min} items, got {count}"));
            }
        }
        if let Some(max) = schema.get("maxItems").and_then(Value::as_u64) {
            if count > max {
                push(errors, path, format!("must have at most {max} items, got {count}"));
            }
        }
        if schema.get("uniqueItems").and_then(Value::as_bool) == Some(true) {
            let duplicate = (1..items.len()).find(|&j| (0..j).any(|i| equality::equal(&items[i], &items[j])));
            if let Some(j) = duplicate {
                push(errors, path, format!("items must be unique, but item {j} repeats an earlier one"));
            }
        }
        // 2020-12 `prefixItems` + `items`, or draft-07 tuple `items` (an array) + `additionalItems`.
        let (prefix, rest): (&[Value], Option<&'s Value>) = match (schema.get("prefixItems"), schema.get("items")) {
            (Some(Value::Array(prefix)), rest) => (prefix, rest),
            (_, Some(Value::Array(prefix))) => (prefix, schema.get("additionalItems")),
            (_, rest) => (&[], rest),
        };
        for (i, item) in items.iter().enumerate() {
            let sub = prefix.get(i).or(if i >= prefix.len() { rest } else { None });
            if let Some(sub) = sub {
                with_segment(path, &i.to_string(), |path| self.check(sub, item, path, depth + 1, errors));
            }
        }
        if let Some(contains) = schema.get("contains") {
            let found = items.iter().filter(|item| self.is_valid(contains, item, depth + 1)).count() as u64;
            let min = schema.get("minContains").and_then(Value::as_u64).unwrap_or(1);
            if found < min {
                push(errors, path, format!("must contain at least {min} matching items, found {found}"));
            }
            if let Some(max) = schema.get("maxContains").and_then(Value::as_u64) {
                if found > max {
                    push(errors, path, format!("must contain at most {max} matching items, found {found}"));
                }
            }
        }
    }

    pub(super) fn object(
        &self,
        schema: &'s Map<String, Value>,
        members: &Map<String, Value>,
        path: &mut String,
        depth: usize,
        errors: &mut Vec<ValidationError>,
    ) {
        let count = members.len() as u64;
        if let Some(min) = schema.get("minProperties").and_then(Value::as_u64) {
            if count < min {
                push(errors, path, format!("must have at least {min} properties, got {count}"));
            }
        }
        if let Some(max) = schema.get("maxProperties").and_then(Value::as_u64) {
            if count > max {
                push(errors, path, format!("must have at most {max} properties, got {count}"));
            }
        }
        if let Some(Value::Array(required)) = schema.get("required") {
            for name in required.iter().filter_map(Value::as_str) {
                if !members.contains_key(name) {
                    push(errors, path, format!("missing required property {name:?}"));
                }
            }
        }
        let properties = schema.get("properties").and_then(Value::as_object);
        let patterns = schema.get("patternProperties").and_then(Value::as_object);
        let additional = schema.get("additionalProperties");
        for (name, value) in members {
            let mut matched = false;
            if let Some(sub) = properties.and_then(|p| p.get(name)) {
                matched = true;
                with_segment(path, name, |path| self.check(sub, value, path, depth + 1, errors));
            }
            for (regex, sub) in patterns.into_iter().flatten() {
                if pattern::matches(regex, name) {
                    matched = true;
                    with_segment(path, name, |path| self.check(sub, value, path, depth + 1, errors));
                }
            }
            match additional {
                Some(Value::Bool(false)) if !matched => {
                    let known: Vec<&str> =
                        properties.map(|p| p.keys().map(String::as_str).collect()).unwrap_or_default();
                    let hint = if known.is_empty() { String::new() } else { format!(" (known: {})", known.join(", ")) };
                    push(errors, path, format!("unexpected property {name:?}{hint}"));
                }
                Some(sub) if !matched => {
                    with_segment(path, name, |path| self.check(sub, value, path, depth + 1, errors));
                }
                _ => {}
            }
            if let Some(names) = schema.get("propertyNames") {
                let key = Value::String(name.clone());
                if !self.is_valid(names, &key, depth + 1) {
                    push(errors, path, format!("property name {name:?} is not allowed"));
                }
            }
        }
        self.dependencies(schema, members, path, depth, errors);
    }

    fn dependencies(
        &self,
        schema: &'s Map<String, Value>,
        members: &Map<String, Value>,
        path: &mut String,
        depth: usize,
        errors: &mut Vec<ValidationError>,
    ) {
        for keyword in ["dependentRequired", "dependentSchemas", "dependencies"] {
            let Some(Value::Object(rules)) = schema.get(keyword) else { continue };
            for (trigger, rule) in rules.iter().filter(|(trigger, _)| members.contains_key(*trigger)) {
                match rule {
                    Value::Array(needed) => {
                        for name in needed.iter().filter_map(Value::as_str) {
                            if !members.contains_key(name) {
                                push(
                                    errors,
                                    path,
                                    format!("property {name:?} is required when {trigger:?} is present"),
                                );
                            }
                        }
                    }
                    sub => self.check(sub, &Value::Object(members.clone()), path, depth + 1, errors),
                }
            }
        }
    }
}
