//! What a server gets in its worker's environment: the credentials it declares (its bundle manifest's, its config's
//! and those its `env` refers to) from the [`CredentialSource`], and its config's `env` with `${NAME}` references
//! resolved. The merging is [`server_declarations`] and [`worker_env`]; this file asks the launcher and the source.

use super::Inner;
use super::platform::CredentialsNeeded;
use crate::config::ServerConfig;
use crate::credentials::{CredentialDecl, CredentialError, server_declarations, worker_env};
use crate::manifest::BundleManifest;
use crate::{Error, Result};

impl Inner {
    /// Everything `name` declares now. Fails when its manifest cannot be fetched or read.
    pub(super) fn declarations(
        name: &str,
        config: &ServerConfig,
        manifest: Option<&BundleManifest>,
    ) -> Result<Vec<CredentialDecl>> {
        let from_manifest = manifest.map(|m| m.credentials.clone()).unwrap_or_default();
        // The config was validated when it was added, so its references parse; this cannot fail on a valid config.
        server_declarations(&from_manifest, &config.credentials, &config.env)
            .map_err(|e| Error::invalid(format!("server {name}: {e}")))
    }

    /// The environment of `name`'s worker: exactly its `declared` credentials that are stored, and its config's
    /// `env` resolved; or what it lacks. The values become plain strings here because the wire protocol hands
    /// them to the worker as such; nothing else keeps them.
    pub(super) async fn environment(
        &self,
        name: &str,
        config: &ServerConfig,
        declared: &[CredentialDecl],
    ) -> Result<Vec<(String, String)>, CredentialsNeeded> {
        let values = if declared.is_empty() {
            Vec::new()
        } else {
            let source = self.credentials.borrow().clone();
            match source {
                Some(source) => source.credentials(name, declared).await?,
                // Only optional credentials: the server starts without them.
                None if declared.iter().all(|d| !d.required) => Vec::new(),
                None => {
                    let required = declared.iter().filter(|d| d.required).cloned().collect();
                    return Err(CredentialsNeeded::new(required, "no credential source is configured"));
                }
            }
        };
        match worker_env(name, declared, &config.env, values) {
            Ok(env) => Ok(env.into_iter().map(|(key, value)| (key, value.expose().to_owned())).collect()),
            Err(CredentialError::Missing(missing)) => {
                let reason = missing.to_string();
                Err(CredentialsNeeded::new(missing.missing, reason))
            }
            Err(other) => Err(CredentialsNeeded::new(Vec::new(), other.to_string())),
        }
    }
}

#[cfg(test)]
#[path = "credentials_tests.rs"]
mod tests;
