//! A JSON object's top-level members, each kept as its JSON text, in the order they came: what [`super::with_meta`]
//! reads and writes back. (A `BTreeMap<String, Box<RawValue>>` did this before, for about 5 KiB more code in every
//! host; the members of request params are a handful, so a list does.)

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use std::fmt;

/// The members of a JSON object; a name given twice keeps its last value, in its first place, as a map would.
#[derive(Default)]
pub(super) struct RawMembers(Vec<(String, Box<RawValue>)>);

impl RawMembers {
    /// Sets member `name`, replacing its value if it has one.
    pub(super) fn insert(&mut self, name: String, value: Box<RawValue>) {
        match self.0.iter_mut().find(|(held, _)| *held == name) {
            Some((_, held)) => *held = value,
            None => self.0.push((name, value)),
        }
    }

    /// Removes member `name` and returns its value.
    pub(super) fn remove(&mut self, name: &str) -> Option<Box<RawValue>> {
        let at = self.0.iter().position(|(held, _)| held == name)?;
        Some(self.0.remove(at).1)
    }

    /// The object's JSON text.
    pub(super) fn to_raw_value(&self) -> serde_json::Result<Box<RawValue>> {
        let mut text = String::from("{");
        for (at, (name, value)) in self.0.iter().enumerate() {
            if at > 0 {
                text.push(',');
            }
            text.push_str(&serde_json::to_string(name)?);
            text.push(':');
            text.push_str(value.get());
        }
        text.push('}');
        RawValue::from_string(text)
    }
}

impl<'de> Deserialize<'de> for RawMembers {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Members;
        impl<'de> Visitor<'de> for Members {
            type Value = RawMembers;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawMembers, A::Error> {
                let mut members = RawMembers::default();
                while let Some((name, value)) = map.next_entry::<String, Box<RawValue>>()? {
                    members.insert(name, value);
                }
                Ok(members)
            }
        }
        deserializer.deserialize_map(Members)
    }
}
