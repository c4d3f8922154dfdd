//! Literal secrets in an imported `mcpServers` document, moved out of the configs.
//!
//! Desktop clients' files hold API keys in the clear: `"env": {"GITHUB_TOKEN": "ghp_…"}`,
//! `"headers": {"Authorization": "Bearer sk-…"}`. Configs are saved as written (in the clear, with a persisted
//! runtime), so when a vault is there to keep them, an import takes every literal `env` and `headers` value out of
//! its config, puts a `${NAME}` reference in its place, and hands the values over to be stored encrypted, bound to
//! the server's identity ([`ImportedCredential`]). The server then gets the same values at start, from the vault.

use super::{ConfigError, McpServersImport, TransportConfig};
use crate::credentials::{EnvTemplate, Secret, ServerIdentity, is_literal, is_reference_name};
use litemap::LiteMap;
use std::collections::HashSet;
use std::fmt;

/// A literal value taken out of an imported config: store it as the credential `name` of `server`, bound to
/// `identity`, before the server is added.
#[derive(Clone)]
#[non_exhaustive]
pub struct ImportedCredential {
    /// The server.
    pub server: String,
    /// The code the server's config names (what the credential is bound to).
    pub identity: ServerIdentity,
    /// The credential's name: the config now says `${name}` where the value was.
    pub name: String,
    /// Where the value was: `env.API_KEY` or `headers.Authorization`.
    pub field: String,
    /// The value.
    pub value: Secret,
}

impl fmt::Debug for ImportedCredential {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ImportedCredential")
            .field("server", &self.server)
            .field("name", &self.name)
            .field("field", &self.field)
            .finish_non_exhaustive()
    }
}

impl McpServersImport {
    /// Replaces every literal `env` and `headers` value of the imported servers by a `${NAME}` reference to a
    /// credential of the same server, and returns the values, to be stored (bound to each server's identity) before
    /// the servers are added. Empty values stay: there is nothing to hide.
    ///
    /// An `env` value keeps its key as its credential's name (`GITHUB_TOKEN` → `${GITHUB_TOKEN}`); a header gets
    /// `HEADER_` and its name (`Authorization` → `${HEADER_AUTHORIZATION}`). A name the entry already uses
    /// otherwise (referred to elsewhere, or declared) gets a suffix (`_2`, `_3`, …), so no reference changes meaning.
    pub fn take_literals(&mut self) -> Vec<ImportedCredential> {
        let mut taken = Vec::new();
        for config in &mut self.servers {
            let identity = config.transport.identity();
            let mut used = Names::of(config.env.values().chain(headers(&config.transport).values()));
            let env_keys: Vec<String> = config.env.keys().cloned().collect();
            let declared: Vec<String> = config.credentials.iter().map(|d| d.name.clone()).collect();
            for (key, value) in &mut config.env {
                if value.is_empty() || !is_literal(value) {
                    continue;
                }
                // The env sets this name itself, so a declaration of it is the same credential: only references
                // elsewhere must keep their meaning.
                let name = used.allocate(&env_name(key), &[]);
                taken.push(take(&config.name, &identity, name, format!("env.{key}"), value));
            }
            if let TransportConfig::Http { headers, .. } = &mut config.transport {
                let others: Vec<&str> = env_keys.iter().chain(&declared).map(String::as_str).collect();
                for (key, value) in headers.iter_mut() {
                    if value.is_empty() || !is_literal(value) {
                        continue;
                    }
                    let name = used.allocate(&header_name(key), &others);
                    taken.push(take(&config.name, &identity, name, format!("headers.{key}"), value));
                }
            }
        }
        taken
    }
}

impl McpServersImport {
    /// Takes the server `server` out of `servers` and reports why under `field` in `errors`: for a caller that could
    /// not store what [`Self::take_literals`] took out of it (a locked vault).
    pub fn refuse(&mut self, server: &str, field: &str, message: impl Into<String>) {
        self.servers.retain(|config| config.name != server);
        self.errors.push(ConfigError::new(server, field, message));
    }
}

/// Moves `value` out into a credential, leaving `${name}` in its place.
fn take(
    server: &str,
    identity: &ServerIdentity,
    name: String,
    field: String,
    value: &mut String,
) -> ImportedCredential {
    let reference = format!("${{{name}}}");
    let value = Secret::new(std::mem::replace(value, reference));
    ImportedCredential { server: server.to_owned(), identity: identity.clone(), name, field, value }
}

fn headers(transport: &TransportConfig) -> LiteMap<String, String> {
    match transport {
        TransportConfig::Http { headers, .. } => headers.clone(),
        _ => LiteMap::new(),
    }
}

/// The credential name for an `env` key: the key itself when it can be referred to.
fn env_name(key: &str) -> String {
    if is_reference_name(key) { key.to_owned() } else { format!("ENV_{}", upper_snake(key)) }
}

/// The credential name for a header: `HEADER_` and its name, upper snake case.
fn header_name(key: &str) -> String {
    format!("HEADER_{}", upper_snake(key))
}

fn upper_snake(text: &str) -> String {
    text.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_uppercase() } else { '_' }).collect()
}

/// The credential names an entry uses: those its values refer to, and those given out so far.
struct Names(HashSet<String>);

impl Names {
    fn of<'a>(values: impl Iterator<Item = &'a String>) -> Self {
        let referred = values
            .filter_map(|value| EnvTemplate::parse(value).ok())
            .flat_map(|template| template.references().map(|(name, _)| name.to_owned()).collect::<Vec<_>>())
            .collect();
        Self(referred)
    }

    /// `wanted`, or `wanted_2`, `wanted_3`, …: the first that is neither used nor in `others`.
    fn allocate(&mut self, wanted: &str, others: &[&str]) -> String {
        let free = |name: &str, used: &HashSet<String>| !used.contains(name) && !others.contains(&name);
        let name = std::iter::once(wanted.to_owned())
            .chain((2..).map(|n| format!("{wanted}_{n}")))
            .find(|name| free(name, &self.0))
            .unwrap_or_default();
        self.0.insert(name.clone());
        name
    }
}

#[cfg(test)]
#[path = "literals_tests.rs"]
mod tests;
