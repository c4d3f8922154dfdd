//! Which credentials a server gets: exactly the ones it declared, from its own namespace, and a clear list of what
//! is missing when a required one is not stored, so a UI can ask for it.

use super::error::{CredentialError, CredentialResult};
use super::secret::Secret;
use litemap::LiteMap;
use mcp_worker_protocol::quoted::quoted;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The longest server or credential name accepted (names are stored in the clear as IndexedDB keys).
pub const MAX_NAME_LEN: usize = 256;

/// A credential a server declares in its bundle manifest (`{"name", "description", "required"}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CredentialDecl {
    /// The name the server reads it under (an `env` key).
    pub name: String,
    /// What it is, for the person asked to provide it.
    #[serde(default)]
    pub description: String,
    /// Whether the server cannot start without it. Absent means required: a declared secret is needed unless the
    /// manifest says otherwise.
    #[serde(default = "required_by_default")]
    pub required: bool,
}

fn required_by_default() -> bool {
    true
}

impl CredentialDecl {
    /// A credential the server cannot start without.
    pub fn required(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self { name: name.into(), description: description.into(), required: true }
    }

    /// A credential the server uses when it is there.
    pub fn optional(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self { name: name.into(), description: description.into(), required: false }
    }
}

/// The required credentials of a server that are not stored: what a UI asks the user for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct MissingCredentials {
    /// The server.
    pub server: String,
    /// The missing credentials, with their descriptions, in declaration order.
    pub missing: Vec<CredentialDecl>,
}

impl MissingCredentials {
    /// `server` lacks `missing`.
    pub fn new(server: impl Into<String>, missing: Vec<CredentialDecl>) -> Self {
        Self { server: server.into(), missing }
    }
}

impl fmt::Display for MissingCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "server {} needs credentials:", quoted(&self.server))?;
        for (i, decl) in self.missing.iter().enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            if decl.description.is_empty() {
                write!(f, "{sep}{}", decl.name)?;
            } else {
                write!(f, "{sep}{} ({})", decl.name, decl.description)?;
            }
        }
        Ok(())
    }
}

/// Refuses names that cannot be a server or credential name: empty, too long, or with control characters.
pub fn check_name(kind: &str, name: &str) -> CredentialResult<()> {
    if name.is_empty() {
        return Err(CredentialError::InvalidInput(format!("empty {kind} name")));
    }
    if name.len() > MAX_NAME_LEN {
        return Err(CredentialError::InvalidInput(format!("{kind} name longer than {MAX_NAME_LEN} bytes")));
    }
    if name.chars().any(char::is_control) {
        return Err(CredentialError::InvalidInput(format!(
            "{kind} name {name} has control characters",
            name = quoted(name)
        )));
    }
    Ok(())
}

/// The declarations with their names checked, one per name (a name declared twice is required if either says so).
pub fn normalize(declared: &[CredentialDecl]) -> CredentialResult<Vec<CredentialDecl>> {
    let mut out: Vec<CredentialDecl> = Vec::with_capacity(declared.len());
    for decl in declared {
        check_name("credential", &decl.name)?;
        match out.iter_mut().find(|d| d.name == decl.name) {
            Some(existing) => {
                existing.required |= decl.required;
                if existing.description.is_empty() {
                    existing.description.clone_from(&decl.description);
                }
            }
            None => out.push(decl.clone()),
        }
    }
    Ok(out)
}

/// The required declarations that are not stored, or `None` when nothing is missing.
pub fn missing(
    server: &str,
    declared: &[CredentialDecl],
    is_stored: impl Fn(&str) -> bool,
) -> Option<MissingCredentials> {
    let missing: Vec<CredentialDecl> = declared.iter().filter(|d| d.required && !is_stored(&d.name)).cloned().collect();
    (!missing.is_empty()).then(|| MissingCredentials { server: server.to_owned(), missing })
}

/// The environment a server receives: its declared credentials that are stored, in declaration order. Values for
/// names it did not declare are never included, even if `stored` has them.
pub fn select(
    server: &str,
    declared: &[CredentialDecl],
    mut stored: LiteMap<String, Secret>,
) -> CredentialResult<Vec<(String, Secret)>> {
    if let Some(missing) = missing(server, declared, |name| stored.contains_key(name)) {
        return Err(CredentialError::Missing(missing));
    }
    Ok(declared.iter().filter_map(|d| stored.remove(&d.name).map(|value| (d.name.clone(), value))).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn stored(pairs: &[(&str, &str)]) -> LiteMap<String, Secret> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), Secret::new(*v))).collect()
    }

    #[test]
    fn manifest_declarations_parse_with_required_by_default() {
        let decls: Vec<CredentialDecl> = mcp_worker_protocol::json::from_value(json!([
            {"name": "API_KEY", "description": "Your key", "required": true},
            {"name": "REGION", "required": false, "helpUrl": "https://example.invalid"},
            {"name": "TOKEN"}
        ]))
        .unwrap();
        assert_eq!(decls[0], CredentialDecl::required("API_KEY", "Your key"));
        assert_eq!(decls[1], CredentialDecl::optional("REGION", ""));
        assert!(decls[2].required);
    }

    #[test]
    fn the_credentials_of_a_bundle_manifest_are_declarations() {
        // As `cargo xtask build` writes target/bundles/everything/manifest.json.
        let manifest = json!({
            "name": "everything", "version": "0.1.0", "title": "Everything",
            "credentials": [{
                "name": "EVERYTHING_API_KEY",
                "description": "An example secret. The credential_status tool says whether it was provided, never its value.",
                "required": false
            }]
        });
        let decls: Vec<CredentialDecl> =
            mcp_worker_protocol::json::from_value(manifest["credentials"].clone()).unwrap();
        assert_eq!(decls.len(), 1);
        assert_eq!(decls[0].name, "EVERYTHING_API_KEY");
        assert!(!decls[0].required);
        assert!(missing("everything", &decls, |_| false).is_none(), "an optional credential is never missing");
    }

    #[test]
    fn a_server_gets_exactly_its_declared_credentials() {
        let declared = [CredentialDecl::required("A", ""), CredentialDecl::optional("B", "")];
        let env = select("s", &declared, stored(&[("B", "b"), ("A", "a"), ("UNDECLARED", "x")])).unwrap();
        let names: Vec<&str> = env.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["A", "B"]);
        assert_eq!(env[0].1.expose(), "a");

        let env = select("s", &declared, stored(&[("A", "a")])).unwrap();
        assert_eq!(env.len(), 1, "an optional credential that is not stored is left out");
    }

    #[test]
    fn missing_required_credentials_are_named_with_their_descriptions() {
        let declared = [
            CredentialDecl::required("API_KEY", "The service's API key"),
            CredentialDecl::optional("REGION", ""),
            CredentialDecl::required("SECRET", ""),
        ];
        let err = select("weather", &declared, stored(&[])).unwrap_err();
        let CredentialError::Missing(missing) = &err else { panic!("{err:?}") };
        assert_eq!(missing.server, "weather");
        let names: Vec<&str> = missing.missing.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["API_KEY", "SECRET"]);
        assert_eq!(err.to_string(), "server \"weather\" needs credentials: API_KEY (The service's API key), SECRET");
        assert_eq!(err.code(), "MISSING_CREDENTIALS");
    }

    #[test]
    fn names_are_checked_and_duplicates_merged() {
        assert!(check_name("server", "").is_err());
        assert!(check_name("server", "a\nb").is_err());
        assert!(check_name("server", &"x".repeat(MAX_NAME_LEN + 1)).is_err());
        assert!(check_name("server", "github-😀").is_ok());
        let merged = normalize(&[
            CredentialDecl::optional("A", ""),
            CredentialDecl::required("A", "the A"),
            CredentialDecl::optional("B", ""),
        ])
        .unwrap();
        assert_eq!(merged, [CredentialDecl::required("A", "the A"), CredentialDecl::optional("B", "")]);
        assert!(normalize(&[CredentialDecl::required("", "")]).is_err());
    }
}
