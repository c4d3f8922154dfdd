//! The environment a host hands a server in its `connect` message: the settings and credentials it declared.

use std::collections::BTreeMap;
use std::fmt;

/// Named string values from the host. Values may be secrets: `Debug` shows names only.
#[derive(Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Env {
    values: BTreeMap<String, String>,
}

impl Env {
    /// An environment from name/value pairs.
    pub fn from_pairs<K: Into<String>, V: Into<String>>(pairs: impl IntoIterator<Item = (K, V)>) -> Self {
        Self { values: pairs.into_iter().map(|(k, v)| (k.into(), v.into())).collect() }
    }

    /// The value of `name`, if the host provided it.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// The names provided.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.values.keys().map(String::as_str)
    }
}

impl fmt::Debug for Env {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.values.keys()).finish()
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
}
