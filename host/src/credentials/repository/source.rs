//! The repository as the manager's [`CredentialSource`]: a server the manager starts gets its declared credentials
//! from here, and when one is missing or the repository is locked, the reason (naming what is missing) puts the
//! server in `needs_credentials` until [`crate::manager::McpTransportManager::credentials_changed`] is called.

use super::CredentialsRepository;
use crate::credentials::scope::CredentialDecl;
use crate::manager::CredentialSource;
use futures_util::future::LocalBoxFuture;

impl CredentialSource for CredentialsRepository {
    fn credentials(
        &self,
        server: &str,
        names: &[String],
    ) -> LocalBoxFuture<'static, Result<Vec<(String, String)>, String>> {
        let repository = self.clone();
        let server = server.to_owned();
        // The manager's configuration lists names only: each is required.
        let declared: Vec<CredentialDecl> = names.iter().map(|name| CredentialDecl::required(name, "")).collect();
        Box::pin(async move {
            let values = repository.credentials_for_server(&server, &declared).await.map_err(|e| e.to_string())?;
            // The worker's `env` is plain text: this copy leaves Rust's reach, as the wire protocol requires.
            Ok(values.into_iter().map(|(name, value)| (name, value.expose().to_owned())).collect())
        })
    }
}
