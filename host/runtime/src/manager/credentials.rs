//! What a server gets at start: the credentials it declares (its bundle manifest's, its config's and those its `env`
//! and `headers` refer to) from the [`CredentialSource`], bound to the code its config names now
//! ([`ServerIdentity`]), with its config's `env` and `headers` resolved. The merging is [`server_declarations`],
//! [`worker_env`] and [`resolve_headers`]; this file asks the launcher and the source, and carries the application's
//! answers: confirming that a server's new code may have its credentials, and forgetting a removed server's.

use super::platform::CredentialsNeeded;
use super::{Inner, McpTransportManager, unknown};
use crate::config::{ServerConfig, TransportConfig};
use crate::credentials::{CredentialDecl, CredentialError, Secret, resolve_headers, server_declarations, worker_env};
use crate::manifest::BundleManifest;
use crate::{Error, Result};
use litemap::LiteMap;
use std::rc::Rc;

/// What a server's start hands it: its environment and, for a remote server, its headers. Values are [`Secret`]s,
/// wiped once the launch is done with them.
pub(super) struct Released {
    pub(super) env: Vec<(String, Secret)>,
    pub(super) headers: Vec<(String, Secret)>,
}

/// The headers a config gives, for a remote server.
fn headers_of(config: &ServerConfig) -> &LiteMap<String, String> {
    static NONE: LiteMap<String, String> = LiteMap::new();
    match &config.transport {
        TransportConfig::Http { headers, .. } => headers,
        _ => &NONE,
    }
}

impl Inner {
    /// Everything `name` declares now. Fails when its manifest cannot be fetched or read.
    pub(super) fn declarations(
        name: &str,
        config: &ServerConfig,
        manifest: Option<&BundleManifest>,
    ) -> Result<Vec<CredentialDecl>> {
        let from_manifest = manifest.map(|m| m.credentials.clone()).unwrap_or_default();
        // The config was validated when it was added, so its references parse; this cannot fail on a valid config.
        server_declarations(&from_manifest, &config.credentials, &config.env, headers_of(config))
            .map_err(|e| Error::invalid(format!("server {name}: {e}")))
    }

    /// The environment (and headers) of `name`'s worker: exactly its `declared` credentials that are stored for the
    /// code its config names, and its config's `env` and `headers` resolved; or what it lacks.
    pub(super) async fn release(
        &self,
        name: &str,
        config: &ServerConfig,
        declared: &[CredentialDecl],
    ) -> Result<Released, CredentialsNeeded> {
        let values = if declared.is_empty() {
            Vec::new()
        } else {
            let source = self.credentials.borrow().clone();
            match source {
                Some(source) => source.credentials(name, &config.transport.identity(), declared).await?,
                // Only optional credentials: the server starts without them.
                None if declared.iter().all(|d| !d.required) => Vec::new(),
                None => {
                    let required = declared.iter().filter(|d| d.required).cloned().collect();
                    return Err(CredentialsNeeded::new(required, "no credential source is configured"));
                }
            }
        };
        let resolved = resolve_headers(name, declared, headers_of(config), &values)
            .and_then(|headers| Ok(Released { env: worker_env(name, declared, &config.env, values)?, headers }));
        match resolved {
            Ok(released) => Ok(released),
            Err(CredentialError::Missing(missing)) => {
                let reason = missing.to_string();
                Err(CredentialsNeeded::new(missing.missing, reason))
            }
            Err(other) => Err(CredentialsNeeded::new(Vec::new(), other.to_string())),
        }
    }

    /// Deletes a removed server's credentials from the source, in the background: the server is gone at once, and
    /// a later server of its name starts without them. (They are bound to the removed server's code as well, so
    /// until the deletion is done a server of that name and other code would not get them either.)
    pub(super) fn forget_credentials(&self, name: &str) {
        let Some(source) = self.credentials.borrow().clone() else { return };
        let forgetting = source.forget_server(name);
        self.runtime.spawn(Box::pin(async move {
            // Nobody waits for a removal; a failed deletion leaves records that stay bound to the removed code.
            let _ = forgetting.await;
        }));
    }
}

impl McpTransportManager {
    /// Binds the credentials stored for `name` to the code its config names now, then starts it again if it was
    /// waiting: the application's answer to an identity change ([`CredentialsNeeded::identity_change`], and the
    /// `identity_change` of [`super::ManagerEvent::CredentialsRequired`]), once its user agreed that the new code
    /// may have them. Fails when there is no credential source, or it cannot bind now (a locked vault).
    pub async fn confirm_credential_identity(&self, name: &str) -> Result<()> {
        let config = self.config(name).ok_or_else(|| unknown(name))?;
        let source: Option<Rc<dyn super::CredentialSource>> = self.inner.credentials.borrow().clone();
        let needs = |reason: String| Error::NeedsCredentials { server: name.to_owned(), reason };
        let source = source.ok_or_else(|| needs("no credential source is configured".into()))?;
        source.confirm_identity(name, &config.transport.identity()).await.map_err(needs)?;
        self.credentials_changed(name);
        Ok(())
    }
}

#[cfg(test)]
#[path = "credentials_tests.rs"]
mod tests;
