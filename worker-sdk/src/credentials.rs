//! Declared credentials and the server manifest.
//!
//! A server declares the secrets it needs. The build writes them, with the server's name and version, into
//! `manifest.json` next to the bundle (see `docs/wire-protocol.md`), so that a host can ask the user for them before
//! it starts the server, and then hands over only those in the `connect` message. Handlers read them with
//! [`crate::Ctx::credential`].

use crate::error::Error;
use serde::{Deserialize, Serialize};

/// A secret the server needs (an API key, a token…), read from the `env` of the `connect` message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Credential {
    /// The name in `env`, e.g. `GITHUB_TOKEN`.
    pub name: String,
    /// What it is and where to get it, for the person asked to provide it.
    pub description: String,
    /// Whether the server is of no use without it.
    pub required: bool,
}

impl Credential {
    /// A credential the server cannot work without.
    pub fn required(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self { name: name.into(), description: description.into(), required: true }
    }

    /// A credential that unlocks more, but that the server can do without.
    pub fn optional(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self { name: name.into(), description: description.into(), required: false }
    }

    /// Names are what environment variables accept: 1-128 characters of `A-Z a-z 0-9 _`, not starting with a digit.
    pub(crate) fn check(&self) -> Result<(), Error> {
        let name = &self.name;
        let valid = !name.is_empty()
            && name.len() <= 128
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if valid {
            Ok(())
        } else {
            Err(Error::InvalidName {
                kind: "credential",
                name: name.clone(),
                reason: "use 1-128 characters of A-Z, a-z, 0-9 and '_', not starting with a digit".into(),
            })
        }
    }
}

/// What a host needs to know about a server before starting it: `manifest.json` in the bundle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Manifest {
    /// The server's name (`serverInfo.name`).
    pub name: String,
    /// Its version.
    pub version: String,
    /// Its display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The secrets it declared, in declaration order.
    pub credentials: Vec<Credential>,
    /// The tools it lists when it starts (built with an empty environment), so that a host can offer them before it
    /// starts the server.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<mcp_worker_protocol::Tool>,
}

impl Manifest {
    /// The manifest as compact JSON text (the format of `manifest.json`, which the build pretty-prints).
    pub fn to_json(&self) -> String {
        // Strings, booleans and tools (JSON already): serialization cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credential_names_are_environment_variable_names() {
        assert!(Credential::required("GITHUB_TOKEN", "").check().is_ok());
        assert!(Credential::optional("api_key_2", "").check().is_ok());
        for bad in ["", "2FA", "WITH SPACE", "dash-ed", "ü"] {
            assert!(Credential::required(bad, "").check().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_manifest_format_is_stable() {
        let manifest = Manifest {
            name: "weather".into(),
            version: "1.0.0".into(),
            title: None,
            credentials: vec![Credential::required("API_KEY", "The weather service key")],
            tools: Vec::new(),
        };
        let value: serde_json::Value = mcp_worker_protocol::json::from_str(&manifest.to_json()).unwrap();
        assert_eq!(
            value,
            serde_json::json!({
                "name": "weather",
                "version": "1.0.0",
                "credentials": [{"name": "API_KEY", "description": "The weather service key", "required": true}]
            })
        );
    }
}
