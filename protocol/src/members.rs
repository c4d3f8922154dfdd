//! Taking members out of a JSON object by copying the others rather than removing: `serde_json::Map::remove` (and
//! `retain`) link the B-tree's removal code (merging and rebalancing nodes) into every wasm that calls them. A
//! server's bundle took members out only where it finishes a schema, a result or a form, and the `McpClient`-only
//! host only between the rounds of a modern tool call, for which a copy costs nothing that matters: 2.1-3.4 KiB of
//! gzip off each sample server's bundle, 2.4 off the `McpClient`-only host. The full host removes members in many
//! places and keeps that code; these functions cost it 0.3 KiB.

use crate::JsonObject;
use serde_json::Value;

/// A JSON object of `members`, inserted one by one. `serde_json::json!` converts each value it is given with a
/// fallible `to_value(..).unwrap()`, whose panic message links the `Debug` of serde_json's errors, and with it the
/// standard library's Unicode tables, into every bundle: about 2 KiB of gzip.
pub fn object<const N: usize>(members: [(&str, Value); N]) -> Value {
    let mut object = JsonObject::new();
    for (key, value) in members {
        object.insert(key.to_owned(), value);
    }
    Value::Object(object)
}

/// `object` split in two: the members not named in `names`, and those named, each in the order of its keys.
pub fn split_off(object: JsonObject, names: &[&str]) -> (JsonObject, JsonObject) {
    let mut kept = JsonObject::new();
    let mut taken = JsonObject::new();
    for (key, value) in object {
        if names.contains(&key.as_str()) { &mut taken } else { &mut kept }.insert(key, value);
    }
    (kept, taken)
}

/// `object` without the members named in `names`.
pub fn without(object: JsonObject, names: &[&str]) -> JsonObject {
    split_off(object, names).0
}

/// `object`'s JSON text without the members named in `names` (in key order, as serde_json writes a map), written
/// from the object as it is: nothing is copied.
pub fn text_without(object: &JsonObject, names: &[&str]) -> String {
    struct Without<'a>(&'a JsonObject, &'a [&'a str]);
    impl serde::Serialize for Without<'_> {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.collect_map(self.0.iter().filter(|(key, _)| !self.1.contains(&key.as_str())))
        }
    }
    serde_json::to_string(&Without(object, names)).unwrap_or_default()
}

/// Takes the member `name` out of `object`, in place.
pub fn take(object: &mut JsonObject, name: &str) -> Option<Value> {
    if !object.contains_key(name) {
        return None;
    }
    let (kept, taken) = split_off(std::mem::take(object), &[name]);
    *object = kept;
    taken.into_iter().next().map(|(_, value)| value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_object_holds_its_members_as_json_would() {
        let made = super::object([("b", 1.into()), ("a", super::object([("x", "y".into())])), ("b", 2.into())]);
        assert_eq!(made, json!({"a": {"x": "y"}, "b": 2}), "a repeated name keeps its last value");
        assert_eq!(super::object([]), json!({}));
    }

    fn object(value: Value) -> JsonObject {
        match value {
            Value::Object(object) => object,
            _ => JsonObject::new(),
        }
    }

    #[test]
    fn members_are_split_by_name_and_keep_their_values() {
        let (kept, taken) = split_off(object(json!({"a": 1, "b": [2], "c": {"d": 3}})), &["b", "x"]);
        assert_eq!(Value::Object(kept), json!({"a": 1, "c": {"d": 3}}));
        assert_eq!(Value::Object(taken), json!({"b": [2]}));
        assert_eq!(Value::Object(without(object(json!({"a": 1, "b": 2})), &["a", "b"])), json!({}));
    }

    #[test]
    fn text_without_members_is_the_text_of_the_object_without_them() {
        let whole = object(json!({"c": [1, {"z": null}], "a": "x", "_meta": {"p": 1}, "b": 2.5}));
        let expected = serde_json::to_string(&without(whole.clone(), &["_meta", "q"])).unwrap();
        assert_eq!(text_without(&whole, &["_meta", "q"]), expected);
        assert_eq!(text_without(&whole, &[]), serde_json::to_string(&whole).unwrap());
        assert_eq!(text_without(&JsonObject::new(), &["a"]), "{}");
    }

    #[test]
    fn a_member_is_taken_once() {
        let mut value = object(json!({"$defs": {"X": {}}, "type": "array"}));
        assert_eq!(take(&mut value, "$defs"), Some(json!({"X": {}})));
        assert_eq!(take(&mut value, "$defs"), None);
        assert_eq!(Value::Object(value), json!({"type": "array"}));
    }
}
