//! How state is stored: each value as JSON inside a small versioned envelope, `{"v": 1, "value": …}`, and how
//! records that cannot be read are reported (and skipped) instead of failing the whole load.

use super::error::StateError;
use mcp_worker_protocol::quoted::quoted;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::fmt;

/// Version of the state envelope.
pub const STATE_FORMAT_VERSION: u64 = 1;

/// A stored record that could not be read. Loading goes on without it; the caller shows it to the user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct CorruptRecord {
    /// The object store.
    pub store: String,
    /// The record's key, as text.
    pub key: String,
    /// What is wrong with it.
    pub reason: String,
}

impl CorruptRecord {
    /// The record `key` of `store` cannot be read, because of `reason`.
    pub fn new(store: impl Into<String>, key: impl Into<String>, reason: impl Into<String>) -> Self {
        Self { store: store.into(), key: key.into(), reason: reason.into() }
    }
}

impl fmt::Display for CorruptRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unreadable record {} in {}: {}", quoted(&self.key), self.store, self.reason)
    }
}

/// What a load found: the readable records, in key order, and the unreadable ones.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Loaded<T> {
    /// Key and value of each readable record.
    pub items: Vec<(String, T)>,
    /// The records that were skipped, and why.
    pub problems: Vec<CorruptRecord>,
}

impl<T> Default for Loaded<T> {
    fn default() -> Self {
        Self { items: Vec::new(), problems: Vec::new() }
    }
}

impl<T> Loaded<T> {
    /// The value stored under `key`, if it was readable.
    pub fn get(&self, key: &str) -> Option<&T> {
        self.items.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

/// The envelope around `value`.
pub fn encode<T: Serialize + ?Sized>(what: &str, value: &T) -> Result<Value, StateError> {
    let value =
        serde_json::to_value(value).map_err(|e| StateError::Encode { what: what.to_owned(), cause: e.to_string() })?;
    Ok(json!({ "v": STATE_FORMAT_VERSION, "value": value }))
}

/// The value inside an envelope, or why there is none.
pub fn decode<T: DeserializeOwned>(stored: Value) -> Result<T, String> {
    let Value::Object(mut envelope) = stored else { return Err("not a state record".into()) };
    match envelope.get("v").and_then(Value::as_u64) {
        Some(STATE_FORMAT_VERSION) => {}
        Some(v) => return Err(format!("format version {v} (written by a newer version?)")),
        None => return Err("no format version".into()),
    }
    let value = envelope.remove("value").ok_or("no value")?;
    mcp_worker_protocol::json::from_value(value).map_err(|e| e.to_string())
}

/// Sorts decoded records into items and problems.
pub fn collect<T: DeserializeOwned>(
    store: &str,
    records: impl IntoIterator<Item = (Result<String, String>, Result<Value, String>)>,
) -> Loaded<T> {
    let mut loaded = Loaded::default();
    for (key, value) in records {
        let problem = |key: String, reason: String| CorruptRecord { store: store.to_owned(), key, reason };
        match (key, value.and_then(decode::<T>)) {
            (Ok(key), Ok(value)) => loaded.items.push((key, value)),
            (Ok(key), Err(reason)) => loaded.problems.push(problem(key, reason)),
            (Err(key), _) => loaded.problems.push(problem(key, "the key is not text".into())),
        }
    }
    loaded
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Config {
        url: String,
    }

    #[test]
    fn values_round_trip_through_the_envelope() {
        let stored = encode("server a", &Config { url: "/a.js".into() }).unwrap();
        assert_eq!(stored, json!({"v": 1, "value": {"url": "/a.js"}}));
        assert_eq!(decode::<Config>(stored).unwrap(), Config { url: "/a.js".into() });
    }

    #[test]
    fn unreadable_records_are_reported_and_the_rest_loads() {
        let loaded: Loaded<Config> = collect(
            "servers",
            [
                (Ok("a".into()), Ok(json!({"v": 1, "value": {"url": "/a.js"}}))),
                (Ok("b".into()), Ok(json!({"v": 1, "value": {"uri": "/b.js"}}))),
                (Ok("c".into()), Ok(json!("garbage"))),
                (Ok("d".into()), Ok(json!({"v": 7, "value": {"url": "/d.js"}}))),
                (Ok("e".into()), Err("not JSON-like: a Blob".into())),
                (Err("[object ArrayBuffer]".into()), Ok(json!({"v": 1, "value": {"url": "/x.js"}}))),
                (Ok("f".into()), Ok(json!({"v": 1, "value": {"url": "/f.js"}}))),
            ],
        );
        let keys: Vec<&str> = loaded.items.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["a", "f"]);
        assert_eq!(loaded.get("f"), Some(&Config { url: "/f.js".into() }));
        let problems: Vec<(&str, &str)> = loaded.problems.iter().map(|p| (p.key.as_str(), p.reason.as_str())).collect();
        assert_eq!(problems.len(), 5, "{problems:?}");
        assert!(problems[0].1.contains("missing field `url`"), "{problems:?}");
        assert_eq!(problems[1], ("c", "not a state record"));
        assert!(problems[2].1.contains("format version 7"));
        assert_eq!(problems[4].1, "the key is not text");
        assert_eq!(loaded.problems[1].to_string(), "unreadable record \"c\" in servers: not a state record");
    }
}
