//! [`NameMap`]: a JSON object's members by name, in the order they came.
//!
//! MCP's small objects keyed by name (a server's input requests, a prompt's arguments) hold a handful of members. A
//! `BTreeMap` costs 5-15 KB of wasm for each value type it holds, in every package that reads one; a list searched
//! by name costs a fraction of that, and keeps the order the sender wrote, as a JavaScript object does.

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, Serializer};
use std::fmt;
use std::marker::PhantomData;

/// Members by name, in the order they came; a name given twice keeps its last value, in its first place.
#[derive(Clone, PartialEq, Eq)]
pub struct NameMap<V>(Vec<(String, V)>);

/// The most members a [`NameMap`] reads from JSON (a name given twice counts twice). Finding a name walks the list,
/// so reading n members takes up to n²/2 comparisons: the cap keeps what a hostile peer can send to about half a
/// million (a millisecond or two), where MCP's objects keyed by name hold a handful.
pub const MAX_MEMBERS: usize = 1024;

/// The error for more than [`MAX_MEMBERS`] (a constant: formatting the number in costs every package code).
const TOO_MANY_MEMBERS: &str = "an object of more than 1024 members, where at most 1024 are read";

impl<V> NameMap<V> {
    /// An empty map.
    pub const fn new() -> Self {
        Self(Vec::new())
    }

    /// Sets `name` to `value`, returning the value it replaced.
    pub fn insert(&mut self, name: impl Into<String>, value: V) -> Option<V> {
        let name = name.into();
        match self.0.iter_mut().find(|(held, _)| *held == name) {
            Some((_, held)) => Some(std::mem::replace(held, value)),
            None => {
                self.0.push((name, value));
                None
            }
        }
    }

    /// The value of `name`.
    pub fn get(&self, name: &str) -> Option<&V> {
        self.0.iter().find(|(held, _)| held == name).map(|(_, value)| value)
    }

    /// Whether `name` has a value.
    pub fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Keeps only the members for which `keep` says so.
    pub fn retain(&mut self, mut keep: impl FnMut(&str, &mut V) -> bool) {
        self.0.retain_mut(|(name, value)| keep(name, value));
    }

    /// Removes `name`, returning its value.
    pub fn remove(&mut self, name: &str) -> Option<V> {
        let at = self.0.iter().position(|(held, _)| held == name)?;
        Some(self.0.remove(at).1)
    }

    /// The names, in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(name, _)| name.as_str())
    }

    /// The members, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &V)> {
        self.0.iter().map(|(name, value)| (name.as_str(), value))
    }

    /// How many members there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<V> Default for NameMap<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: fmt::Debug> fmt::Debug for NameMap<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.0.iter().map(|(name, value)| (name, value))).finish()
    }
}

impl<K: Into<String>, V> FromIterator<(K, V)> for NameMap<V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(members: I) -> Self {
        let mut map = Self::new();
        for (name, value) in members {
            map.insert(name, value);
        }
        map
    }
}

impl<K: Into<String>, V, const N: usize> From<[(K, V); N]> for NameMap<V> {
    fn from(members: [(K, V); N]) -> Self {
        members.into_iter().collect()
    }
}

impl<V> IntoIterator for NameMap<V> {
    type Item = (String, V);
    type IntoIter = std::vec::IntoIter<(String, V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<V> std::ops::Index<&str> for NameMap<V> {
    type Output = V;

    /// The value of `name`; panics when there is none (as a map's index does).
    fn index(&self, name: &str) -> &V {
        self.get(name).unwrap_or_else(|| panic!("no member named {}", crate::quoted::quoted(name)))
    }
}

impl<V: Serialize> Serialize for NameMap<V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(name, value)| (name, value)))
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for NameMap<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Members<V>(PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for Members<V> {
            type Value = NameMap<V>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<NameMap<V>, A::Error> {
                let mut map = NameMap::new();
                let mut read = 0;
                while let Some((name, value)) = members.next_entry::<String, V>()? {
                    read += 1;
                    if read > MAX_MEMBERS {
                        return Err(serde::de::Error::custom(TOO_MANY_MEMBERS));
                    }
                    map.insert(name, value);
                }
                Ok(map)
            }
        }
        deserializer.deserialize_map(Members(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn members_keep_the_order_they_came_in_and_a_repeated_name_keeps_its_last_value_in_its_first_place() {
        let map: NameMap<u32> = crate::json::from_str(r#"{"b": 1, "a": 2, "b": 3}"#).unwrap();
        assert_eq!(map.iter().collect::<Vec<_>>(), [("b", &3), ("a", &2)]);
        assert_eq!(serde_json::to_value(&map).unwrap(), json!({ "b": 3, "a": 2 }));
        assert_eq!(serde_json::to_string(&map).unwrap(), r#"{"b":3,"a":2}"#);
    }

    #[test]
    fn reads_only_an_object() {
        let error = crate::json::from_str::<NameMap<u32>>("[1, 2]").unwrap_err().to_string();
        assert!(error.contains("expected a JSON object"), "{error}");
        assert!(crate::json::from_str::<NameMap<u32>>(r#"{"a": "one"}"#).is_err());
    }

    #[test]
    fn reads_at_most_max_members_and_refuses_more_with_a_clear_error() {
        let object =
            |n: usize| format!("{{{}}}", (0..n).map(|i| format!("\"k{i}\":{i}")).collect::<Vec<_>>().join(","));
        let read: NameMap<usize> = crate::json::from_str(&object(MAX_MEMBERS)).unwrap();
        assert_eq!((read.len(), read.get("k1023")), (MAX_MEMBERS, Some(&1023)));
        let error = crate::json::from_str::<NameMap<usize>>(&object(MAX_MEMBERS + 1)).unwrap_err().to_string();
        assert!(error.contains(&format!("more than {MAX_MEMBERS} members")), "{error}");
        // A name repeated counts each time: repeats cannot make the reading quadratic either.
        let repeats = format!("{{{}}}", vec![r#""k":1"#; MAX_MEMBERS + 1].join(","));
        assert!(crate::json::from_str::<NameMap<usize>>(&repeats).is_err());
    }

    #[test]
    fn insert_get_remove_and_index_find_members_by_name() {
        let mut map = NameMap::from([("x", "1"), ("y", "2")]);
        assert_eq!(map.insert("x", "3"), Some("1"));
        assert_eq!((map.get("x"), map["y"], map.get("z")), (Some(&"3"), "2", None));
        assert!(map.contains_key("x") && !map.contains_key("z"));
        assert_eq!(map.remove("x"), Some("3"));
        map.insert("w", "4");
        map.retain(|name, _| name != "w");
        assert_eq!((map.keys().collect::<Vec<_>>(), map.len(), map.is_empty()), (vec!["y"], 1, false));
    }
}
