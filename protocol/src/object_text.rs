//! A JSON object kept as its text, for what a peer sends that is mostly stored and passed on (a tool's schemas):
//! a host that registers thousands of tools keeps a few dozen bytes of text per schema instead of a tree of maps
//! (each map a B-tree node of hundreds of bytes, however few its members), and writes it back out as it came.

use crate::JsonObject;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use std::fmt;

/// A JSON object as text: checked to be one when made, read with [`ObjectText::to_object`].
#[derive(Clone)]
pub struct ObjectText(Box<RawValue>);

impl ObjectText {
    /// The object's text, as received (or as serialized, for one made from a [`JsonObject`]).
    pub fn get(&self) -> &str {
        self.0.get()
    }

    /// The object, parsed.
    pub fn to_object(&self) -> JsonObject {
        // The text was read as an object when this was made, so it parses as one.
        crate::json::from_str(self.0.get()).unwrap_or_default()
    }

    /// The object as a [`serde_json::Value`].
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::Value::Object(self.to_object())
    }

    /// Text that must hold one JSON object (whitespace around it is dropped).
    pub fn from_text(text: &str) -> Result<Self, serde_json::Error> {
        crate::json::from_str(text)
    }
}

impl From<JsonObject> for ObjectText {
    fn from(object: JsonObject) -> Self {
        Self::from(&object)
    }
}

impl From<&JsonObject> for ObjectText {
    fn from(object: &JsonObject) -> Self {
        // A map of strings to values always serializes.
        Self(serde_json::value::to_raw_value(object).unwrap_or_else(|_| empty()))
    }
}

fn empty() -> Box<RawValue> {
    RawValue::from_string("{}".to_owned()).unwrap_or_else(|_| unreachable!("{{}} is JSON"))
}

/// Equal when the objects are, whatever the spacing or member order of their texts.
impl PartialEq for ObjectText {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get() || self.to_object() == other.to_object()
    }
}

impl fmt::Debug for ObjectText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.get())
    }
}

impl Serialize for ObjectText {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for ObjectText {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = Box::<RawValue>::deserialize(deserializer)?;
        if raw.get().starts_with('{') {
            Ok(Self(raw))
        } else {
            Err(serde::de::Error::invalid_type(
                serde::de::Unexpected::Other("a JSON value that is not an object"),
                &"a JSON object",
            ))
        }
    }
}

/// The JSON object `object` (its text, as a JSON reader gave it: `{` first and `}` last) with the member `name`
/// of JSON text `value` written last, so that a reader that keeps the last of two members of one name (the
/// browser's `JSON.parse`, serde_json's `Value`) takes it over one of the object's own. `None` when `object` is not
/// written as an object.
pub fn with_last_member(object: &str, name: &str, value: &str) -> Option<String> {
    let body = object.strip_prefix('{')?.strip_suffix('}')?;
    let name = serde_json::to_string(name).ok()?;
    let separator = if body.trim().is_empty() { "" } else { "," };
    Some(format!("{{{body}{separator}{name}:{value}}}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_member_written_last_is_the_one_a_reader_keeps() {
        let read =
            |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let with = |object: &str| with_last_member(object, "server", r#""every""#).unwrap_or_default();
        assert_eq!(with(r#"{"uri":"a"}"#), r#"{"uri":"a","server":"every"}"#);
        assert_eq!(read(&with(r#"{"uri":"a"}"#)), json!({"uri": "a", "server": "every"}));
        assert_eq!(with("{}"), r#"{"server":"every"}"#);
        assert_eq!(with("{ \n }"), "{ \n \"server\":\"every\"}", "an empty object's spacing kept, no comma");
        assert_eq!(read(&with(r#"{"server":"theirs","uri":"a"}"#))["server"], "every", "ours over the object's own");
        assert_eq!(with_last_member("{}", "a\"b", "1").unwrap_or_default(), r#"{"a\"b":1}"#, "the name is quoted");
        assert_eq!(with_last_member("[1]", "server", "1"), None);
        assert_eq!(with_last_member("{", "server", "1"), None);
    }

    #[test]
    fn an_object_round_trips_as_its_text_and_compares_by_value() {
        let text: ObjectText =
            crate::json::from_str(r#" { "b" : 1, "a": {"x": [true]} } "#).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(text.get(), r#"{ "b" : 1, "a": {"x": [true]} }"#);
        assert_eq!(text.to_value(), json!({"a": {"x": [true]}, "b": 1}));
        let made = ObjectText::from(json!({"a": {"x": [true]}, "b": 1}).as_object().cloned().unwrap_or_default());
        assert_eq!(text, made);
        assert_eq!(serde_json::to_string(&made).unwrap_or_default(), r#"{"a":{"x":[true]},"b":1}"#);
        let from_value: ObjectText =
            crate::json::from_value(json!({"type": "object"})).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(from_value.to_value(), json!({"type": "object"}));
    }

    #[test]
    fn anything_but_an_object_is_refused() {
        for text in ["[]", "\"x\"", "1", "null", "{", "{} {}"] {
            assert!(crate::json::from_str::<ObjectText>(text).is_err(), "{text}");
        }
        assert!(crate::json::from_value::<ObjectText>(json!([1])).is_err());
    }
}
