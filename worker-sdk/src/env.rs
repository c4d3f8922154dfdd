//! The environment a host hands a server in its `connect` message: the settings and credentials it declared.

use std::fmt;

/// Named string values from the host. Values may be secrets: `Debug` shows names only.
#[derive(Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Env {
    /// Sorted by name, each name once. (A `BTreeMap` cost every bundle about 15 KB of wasm, the B-tree and the sort
    /// its `collect` runs, for the handful of values a host declares.)
    values: Vec<(String, String)>,
}

impl Env {
    /// An environment from name/value pairs; a name given twice keeps its last value.
    pub fn from_pairs<K: Into<String>, V: Into<String>>(pairs: impl IntoIterator<Item = (K, V)>) -> Self {
        let mut env = Self::default();
        for (name, value) in pairs {
            let (name, value) = (name.into(), value.into());
            match env.position(&name) {
                Ok(at) => env.values[at].1 = value,
                Err(at) => env.values.insert(at, (name, value)),
            }
        }
        env
    }

    fn position(&self, name: &str) -> Result<usize, usize> {
        self.values.binary_search_by(|(held, _)| held.as_str().cmp(name))
    }

    /// The value of `name`, if the host provided it.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.position(name).ok().map(|at| self.values[at].1.as_str())
    }

    /// The names provided, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.values.iter().map(|(name, _)| name.as_str())
    }
}

impl fmt::Debug for Env {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.names()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_shows_values() {
        let env = Env::from_pairs([("API_KEY", "sk-secret")]);
        let shown = format!("{env:?}");
        assert!(shown.contains("API_KEY") && !shown.contains("sk-secret"), "{shown}");
        assert_eq!(env.get("API_KEY"), Some("sk-secret"));
    }

    #[test]
    fn names_come_sorted_once_each_and_a_repeated_name_keeps_its_last_value() {
        let env = Env::from_pairs([("TOKEN", "a"), ("API_KEY", "k"), ("TOKEN", "b"), ("HOST", "h")]);
        assert_eq!(env.names().collect::<Vec<_>>(), ["API_KEY", "HOST", "TOKEN"]);
        assert_eq!(env.get("TOKEN"), Some("b"));
        assert_eq!(env.get("MISSING"), None);
    }
}
