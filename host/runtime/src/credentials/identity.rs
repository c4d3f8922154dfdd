//! What a server's credentials are bound to: the code that runs as the server, not its name.
//!
//! A server's name is only a label in a configuration, and configurations can be rewritten (an edited saved state, a
//! replaced import). If credentials followed the name, a config of "weather" rewritten to point at another bundle
//! would hand that bundle the weather key. So each stored credential records the [`ServerIdentity`] it was stored
//! for (its bundle's URLs, or a remote server's URL), and a credential source releases it only to a server of that
//! identity. When they differ, the server waits with an [`IdentityChange`] until the application confirms the
//! change (after asking its user), which binds the credentials to the new identity.

use mcp_worker_protocol::quoted::quoted;
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;

/// The code a server runs, as far as its configuration says: what a credential is bound to.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
#[non_exhaustive]
pub enum ServerIdentity {
    /// A wasm bundle: its worker script and, when the config names it, its `.wasm`.
    Bundle {
        /// The worker script's URL, as configured.
        worker_url: String,
        /// The `.wasm` URL, as configured (absent: the bundle's own, beside the worker script).
        wasm_url: Option<String>,
    },
    /// A remote server, by its endpoint.
    Remote {
        /// The endpoint, as configured.
        url: String,
    },
    /// A local process, by its command line.
    Command {
        /// The program.
        command: String,
        /// Its arguments.
        args: Vec<String>,
    },
}

impl ServerIdentity {
    /// A wasm bundle's identity.
    pub fn bundle(worker_url: impl Into<String>, wasm_url: Option<String>) -> Self {
        Self::Bundle { worker_url: worker_url.into(), wasm_url }
    }

    /// A remote server's identity.
    pub fn remote(url: impl Into<String>) -> Self {
        Self::Remote { url: url.into() }
    }

    /// A local process's identity.
    pub fn command(command: impl Into<String>, args: Vec<String>) -> Self {
        Self::Command { command: command.into(), args }
    }

    /// The exact text stored with a credential (and bound into its encryption): one JSON value, so that no two
    /// identities share a text, whatever their URLs contain.
    pub fn canonical(&self) -> String {
        // Serializing an enum of strings cannot fail; the fallback keeps this total without a panic path.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The identity a stored text names, or `None` for a text that [`Self::canonical`] never writes.
    pub fn from_canonical(text: &str) -> Option<Self> {
        let identity: Self = mcp_worker_protocol::json::from_str(text).ok()?;
        (identity.canonical() == text).then_some(identity)
    }
}

/// As people read it: `bundle /bundles/weather/bootstrap.js`, `remote https://example.com/mcp`, ….
impl fmt::Display for ServerIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Bundle { worker_url, wasm_url: None } => write!(f, "bundle {worker_url}"),
            Self::Bundle { worker_url, wasm_url: Some(wasm) } => write!(f, "bundle {worker_url} (wasm {wasm})"),
            Self::Remote { url } => write!(f, "remote server {url}"),
            Self::Command { command, args } if args.is_empty() => write!(f, "command {command}"),
            Self::Command { command, args } => write!(f, "command {command} {}", args.join(" ")),
        }
    }
}

/// Why a server's stored credentials are held back: they were stored for other code than the server's config now
/// names. What a UI shows its user before the application confirms (or not).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct IdentityChange {
    /// The server.
    pub server: String,
    /// The credentials held back, by name.
    pub credentials: Vec<String>,
    /// What they were stored for (as people read it, in JSON); `None` when they were stored before credentials were
    /// bound to a server's code (by an earlier version, or before the server was configured).
    #[serde(serialize_with = "shown_maybe")]
    pub stored_for: Option<ServerIdentity>,
    /// What the server's config names now.
    #[serde(serialize_with = "shown")]
    pub current: ServerIdentity,
}

impl IdentityChange {
    /// `credentials` of `server`, stored for `stored_for` (nothing, when `None`), are held back from `current`.
    pub fn new(
        server: impl Into<String>,
        credentials: Vec<String>,
        stored_for: Option<ServerIdentity>,
        current: ServerIdentity,
    ) -> Self {
        Self { server: server.into(), credentials, stored_for, current }
    }
}

impl fmt::Display for IdentityChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = self.credentials.join(", ");
        write!(f, "the credentials {names} of server {} were stored ", quoted(&self.server))?;
        match &self.stored_for {
            Some(before) => write!(f, "for {before}")?,
            None => f.write_str("before they were bound to a server's code")?,
        }
        write!(
            f,
            ", and the server is now {}: they are held back until the application confirms the change",
            self.current
        )
    }
}

fn shown<S: Serializer>(identity: &ServerIdentity, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(identity)
}

fn shown_maybe<S: Serializer>(identity: &Option<ServerIdentity>, serializer: S) -> Result<S::Ok, S::Error> {
    match identity {
        Some(identity) => serializer.collect_str(identity),
        None => serializer.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn identities_have_one_text_each_and_read_back() {
        let plain = ServerIdentity::bundle("/bundles/weather/bootstrap.js", None);
        assert_eq!(plain.canonical(), r#"{"bundle":{"workerUrl":"/bundles/weather/bootstrap.js","wasmUrl":null}}"#);
        for identity in [
            plain.clone(),
            ServerIdentity::bundle("/b/bootstrap.js", Some("/b/x.wasm".into())),
            ServerIdentity::remote("https://example.com/mcp"),
            ServerIdentity::command("npx", vec!["-y".into(), "server".into()]),
        ] {
            assert_eq!(ServerIdentity::from_canonical(&identity.canonical()), Some(identity));
        }
        assert_eq!(ServerIdentity::from_canonical("garbage"), None);
        // Only the exact text written: a reformatted one is not the same binding.
        assert_eq!(ServerIdentity::from_canonical(r#"{"bundle": {"workerUrl": "/x", "wasmUrl": null}}"#), None);
    }

    #[test]
    fn urls_cannot_be_shifted_between_fields() {
        // The same characters split differently are different identities, with different texts.
        let one = ServerIdentity::bundle("/a b", None);
        let two = ServerIdentity::bundle("/a", Some("b".into()));
        assert_ne!(one, two);
        assert_ne!(one.canonical(), two.canonical());
    }

    #[test]
    fn a_change_names_the_server_the_credentials_and_both_identities() {
        let change = IdentityChange {
            server: "weather".into(),
            credentials: vec!["API_KEY".into(), "TOKEN".into()],
            stored_for: Some(ServerIdentity::bundle("/bundles/weather/bootstrap.js", None)),
            current: ServerIdentity::bundle("https://elsewhere.example/bootstrap.js", None),
        };
        assert_eq!(
            change.to_string(),
            "the credentials API_KEY, TOKEN of server \"weather\" were stored for bundle /bundles/weather/bootstrap.js, \
             and the server is now bundle https://elsewhere.example/bootstrap.js: they are held back until the \
             application confirms the change"
        );
        assert_eq!(
            serde_json::to_value(&change).unwrap(),
            json!({"server": "weather", "credentials": ["API_KEY", "TOKEN"],
                   "storedFor": "bundle /bundles/weather/bootstrap.js",
                   "current": "bundle https://elsewhere.example/bootstrap.js"})
        );
        let unbound = IdentityChange { stored_for: None, ..change };
        assert!(unbound.to_string().contains("stored before they were bound"), "{unbound}");
        assert_eq!(serde_json::to_value(&unbound).unwrap()["storedFor"], json!(null));
    }
}
