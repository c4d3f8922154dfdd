//! `${NAME}` references in the `env` (and a remote server's `headers`) of an imported `mcpServers` config (Claude
//! Desktop, Cursor, Claude Code write `"env": {"API_KEY": "${API_KEY}"}`). Each reference names a credential of the
//! same server in the repository; `${NAME:-fallback}` uses the fallback when it is not stored. Text around
//! references is kept.

use super::error::{CredentialError, CredentialResult};
use super::scope::CredentialDecl;
use super::secret::Secret;
use mcp_worker_protocol::quoted::quoted;

/// One `env` value, split into text and references.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvTemplate {
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Text(String),
    Ref { name: String, fallback: Option<String> },
}

impl EnvTemplate {
    /// Parses a value. `$` not followed by `{` is plain text; an unterminated `${` or a name that is not an
    /// environment-variable name (`[A-Za-z_][A-Za-z0-9_]*`) is refused rather than passed on half-resolved.
    pub fn parse(value: &str) -> CredentialResult<Self> {
        let mut parts = Vec::new();
        let mut rest = value;
        while let Some(start) = rest.find("${") {
            push_text(&mut parts, &rest[..start]);
            let after = &rest[start + 2..];
            let end = after.find('}').ok_or_else(|| {
                CredentialError::InvalidInput(format!("unterminated ${{ in env value {value}", value = quoted(value)))
            })?;
            let inner = &after[..end];
            let (name, fallback) = match inner.split_once(":-") {
                Some((name, fallback)) => (name, Some(fallback.to_owned())),
                None => (inner, None),
            };
            if !is_env_name(name) {
                return Err(CredentialError::InvalidInput(format!("${{{inner}}} is not a valid reference")));
            }
            parts.push(Part::Ref { name: name.to_owned(), fallback });
            rest = &after[end + 1..];
        }
        push_text(&mut parts, rest);
        Ok(Self { parts })
    }

    /// The credential names referenced, each with whether it has a fallback.
    pub(crate) fn references(&self) -> impl Iterator<Item = (&str, bool)> {
        self.parts.iter().filter_map(|part| match part {
            Part::Ref { name, fallback } => Some((name.as_str(), fallback.is_some())),
            Part::Text(_) => None,
        })
    }

    /// The value with each reference replaced by `lookup(name)`, or its fallback; `None` if a reference without
    /// fallback has no value (the caller reports it as missing before rendering).
    pub fn render<'a>(&self, lookup: impl Fn(&str) -> Option<&'a Secret>) -> Option<Secret> {
        let pieces: Vec<&str> = self
            .parts
            .iter()
            .map(|part| match part {
                Part::Text(text) => Some(text.as_str()),
                Part::Ref { name, fallback } => lookup(name).map(Secret::expose).or(fallback.as_deref()),
            })
            .collect::<Option<_>>()?;
        // Allocated once at its final size: growing it would leave unwiped copies of secrets behind.
        let mut out = Secret::new(String::with_capacity(pieces.iter().map(|p| p.len()).sum()));
        pieces.iter().for_each(|piece| out.push_str(piece));
        Some(out)
    }
}

fn push_text(parts: &mut Vec<Part>, text: &str) {
    if !text.is_empty() {
        parts.push(Part::Text(text.to_owned()));
    }
}

fn is_env_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

/// Parses every value of an `env` map.
pub fn parse_env(env: &[(String, String)]) -> CredentialResult<Vec<(String, EnvTemplate)>> {
    env.iter().map(|(key, value)| Ok((key.clone(), EnvTemplate::parse(value)?))).collect()
}

/// The credentials an `env` map refers to, as declarations: required unless every reference has a fallback. This
/// is how a server imported from an `mcpServers` config (which has no manifest) declares its credentials.
pub fn env_declarations(env: &[(String, String)]) -> CredentialResult<Vec<CredentialDecl>> {
    reference_declarations(env, "env")
}

/// The credentials a remote server's `headers` refer to (`"Authorization": "Bearer ${TOKEN}"`), as declarations,
/// like [`env_declarations`].
pub fn header_declarations(headers: &[(String, String)]) -> CredentialResult<Vec<CredentialDecl>> {
    reference_declarations(headers, "header")
}

fn reference_declarations(values: &[(String, String)], what: &str) -> CredentialResult<Vec<CredentialDecl>> {
    let mut decls: Vec<CredentialDecl> = Vec::new();
    for (key, template) in parse_env(values)? {
        for (name, has_fallback) in template.references() {
            let required = !has_fallback;
            match decls.iter_mut().find(|d| d.name == name) {
                Some(decl) => decl.required |= required,
                None => decls.push(CredentialDecl {
                    name: name.to_owned(),
                    description: format!("referenced by {what} {key}"),
                    required,
                }),
            }
        }
    }
    Ok(decls)
}

/// Whether `value` holds no reference: a literal, which an import moves into the vault.
pub fn is_literal(value: &str) -> bool {
    EnvTemplate::parse(value).is_ok_and(|template| template.references().next().is_none())
}

/// Whether `name` can be referred to as `${name}`.
pub fn is_reference_name(name: &str) -> bool {
    is_env_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    fn render(value: &str, stored: &BTreeMap<&str, Secret>) -> Option<String> {
        EnvTemplate::parse(value).unwrap().render(|name| stored.get(name)).map(|s| s.expose().to_owned())
    }

    #[test]
    fn references_resolve_from_stored_credentials() {
        let stored = BTreeMap::from([("API_KEY", Secret::new("k-123")), ("HOST", Secret::new("example.org"))]);
        assert_eq!(render("${API_KEY}", &stored).as_deref(), Some("k-123"));
        assert_eq!(render("Bearer ${API_KEY}", &stored).as_deref(), Some("Bearer k-123"));
        assert_eq!(
            render("https://${HOST}/v1?k=${API_KEY}", &stored).as_deref(),
            Some("https://example.org/v1?k=k-123")
        );
        assert_eq!(render("plain $5 value", &stored).as_deref(), Some("plain $5 value"));
        assert_eq!(render("${REGION:-eu-west}", &stored).as_deref(), Some("eu-west"));
        assert_eq!(render("${API_KEY:-unused}", &stored).as_deref(), Some("k-123"));
        assert_eq!(render("${MISSING}", &stored), None);
    }

    #[test]
    fn malformed_references_are_refused() {
        for bad in ["${", "x ${API_KEY", "${}", "${1ABC}", "${A-B}", "${ A }"] {
            let err = EnvTemplate::parse(bad).unwrap_err();
            assert_eq!(err.code(), "INVALID_INPUT", "{bad}");
        }
    }

    #[test]
    fn env_maps_declare_what_they_reference() {
        let decls = env_declarations(&env(&[
            ("API_KEY", "${API_KEY}"),
            ("AUTH", "Bearer ${TOKEN}"),
            ("REGION", "${REGION:-eu}"),
            ("MODE", "fast"),
            ("AGAIN", "${API_KEY}"),
        ]))
        .unwrap();
        let summary: Vec<(&str, bool)> = decls.iter().map(|d| (d.name.as_str(), d.required)).collect();
        assert_eq!(summary, [("API_KEY", true), ("TOKEN", true), ("REGION", false)]);
        assert_eq!(decls[1].description, "referenced by env AUTH");
        let headers = header_declarations(&env(&[("Authorization", "Bearer ${TOKEN}")])).unwrap();
        assert_eq!(headers, [CredentialDecl::required("TOKEN", "referenced by header Authorization")]);
    }

    #[test]
    fn literals_are_values_without_references() {
        assert!(is_literal("sk-live-123") && is_literal("") && is_literal("cost $5"));
        assert!(!is_literal("${API_KEY}") && !is_literal("Bearer ${TOKEN}") && !is_literal("${oops"));
        assert!(is_reference_name("API_KEY") && !is_reference_name("1X") && !is_reference_name("X-Y"));
    }
}
