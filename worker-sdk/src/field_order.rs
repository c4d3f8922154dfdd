//! The field names of a `#[derive(Deserialize)]` struct in declaration order.
//!
//! JSON Schema objects here are sorted maps, which lose the order in which a struct declares its fields; serde's
//! derive passes that order to `deserialize_struct`, so a deserializer that only records it recovers it.

use serde::de::{self, Deserialize, Visitor};
use std::fmt;

#[derive(Debug)]
struct Found(Vec<String>);

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("field names recorded")
    }
}

impl std::error::Error for Found {}

impl de::Error for Found {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Self(Vec::new())
    }
}

struct Recorder;

impl<'de> de::Deserializer<'de> for Recorder {
    type Error = Found;

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Found> {
        Err(Found(fields.iter().map(|f| (*f).to_owned()).collect()))
    }

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Found> {
        Err(Found(Vec::new()))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit unit_struct
        newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

/// The serialized field names of `T` in declaration order, when `T` is a struct with named fields.
pub(crate) fn field_names<'de, T: Deserialize<'de>>() -> Option<Vec<String>> {
    match T::deserialize(Recorder) {
        Err(Found(names)) if !names.is_empty() => Some(names),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Args {
        zebra: String,
        #[serde(rename = "apple")]
        banana: Option<String>,
        mango: String,
    }

    #[test]
    fn declaration_order_and_serde_names_are_kept() {
        assert_eq!(field_names::<Args>(), Some(vec!["zebra".into(), "apple".into(), "mango".into()]));
        assert_eq!(field_names::<String>(), None);
        assert_eq!(field_names::<crate::NoArgs>(), None);
    }
}
