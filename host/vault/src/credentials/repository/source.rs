//! The repository as the manager's [`CredentialSource`]: a server the manager starts gets its declared credentials
//! from here, and when a required one is missing or the repository is locked, what to ask for (named, with
//! descriptions) puts the server in `needs_credentials` until
//! [`mcp_worker_runtime::manager::McpTransportManager::credentials_changed`] is called.

use super::CredentialsRepository;
use crate::credentials::lookup_outcome;
use futures_util::future::LocalBoxFuture;
use mcp_worker_runtime::credentials::{CredentialDecl, Secret};
use mcp_worker_runtime::manager::{CredentialSource, CredentialsNeeded};

impl CredentialSource for CredentialsRepository {
    fn credentials(
        &self,
        server: &str,
        declared: &[CredentialDecl],
    ) -> LocalBoxFuture<'static, Result<Vec<(String, Secret)>, CredentialsNeeded>> {
        let repository = self.clone();
        let server = server.to_owned();
        let declared = declared.to_vec();
        Box::pin(async move {
            let outcome = repository.credentials_for_server(&server, &declared).await;
            lookup_outcome(&declared, outcome)
        })
    }
}
