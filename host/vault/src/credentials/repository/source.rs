//! The repository as the manager's [`CredentialSource`]: a server the manager starts gets its declared credentials
//! from here, provided they were stored for the code its config names. When a required one is missing, the
//! repository is locked, or stored ones were stored for other code, what to ask for (named, with descriptions) puts
//! the server in `needs_credentials` until
//! [`mcp_worker_runtime::manager::McpTransportManager::credentials_changed`] (or, for other code,
//! `confirm_credential_identity`) is called.
//!
//! A remote server's OAuth authorization is kept here too, as the credential [`AUTHORIZATION_RECORD`] of the server,
//! bound to the URL its config named: a server whose URL changed does not get it (its user signs in again), and
//! removing the server deletes it with its credentials.

use super::CredentialsRepository;
use crate::credentials::lookup_outcome;
use futures_util::future::LocalBoxFuture;
use mcp_worker_runtime::credentials::{CredentialDecl, Secret, ServerIdentity};
use mcp_worker_runtime::manager::{AUTHORIZATION_RECORD, CredentialSource, CredentialsNeeded};

impl CredentialSource for CredentialsRepository {
    fn credentials(
        &self,
        server: &str,
        identity: &ServerIdentity,
        declared: &[CredentialDecl],
    ) -> LocalBoxFuture<'static, Result<Vec<(String, Secret)>, CredentialsNeeded>> {
        let repository = self.clone();
        let server = server.to_owned();
        let identity = identity.clone();
        let declared = declared.to_vec();
        Box::pin(async move {
            let outcome = repository.release_to(&server, &identity, &declared).await;
            lookup_outcome(&declared, outcome)
        })
    }

    fn confirm_identity(&self, server: &str, identity: &ServerIdentity) -> LocalBoxFuture<'static, Result<(), String>> {
        let repository = self.clone();
        let server = server.to_owned();
        let identity = identity.clone();
        Box::pin(async move { repository.confirm_identity(&server, &identity).await.map_err(|e| e.to_string()) })
    }

    fn forget_server(&self, server: &str) -> LocalBoxFuture<'static, Result<(), String>> {
        let repository = self.clone();
        let server = server.to_owned();
        Box::pin(async move { repository.delete_server(&server).await.map_err(|e| e.to_string()) })
    }

    fn saved_authorization(&self, server: &str, identity: &ServerIdentity) -> LocalBoxFuture<'static, Option<Secret>> {
        let repository = self.clone();
        let server = server.to_owned();
        let identity = identity.clone();
        Box::pin(async move {
            let declared = [CredentialDecl::optional(AUTHORIZATION_RECORD, "OAuth tokens")];
            // Locked, unreadable, or kept for another URL: there is none to use.
            let mut found = repository.release_to(&server, &identity, &declared).await.ok()?;
            found.pop().map(|(_, record)| record)
        })
    }

    fn save_authorization(
        &self,
        server: &str,
        identity: &ServerIdentity,
        record: Option<Secret>,
    ) -> LocalBoxFuture<'static, Result<(), String>> {
        let repository = self.clone();
        let server = server.to_owned();
        let identity = identity.clone();
        Box::pin(async move {
            let saved = match record {
                Some(record) => repository.set_for(&server, &identity, AUTHORIZATION_RECORD, &record).await,
                None => repository.delete(&server, AUTHORIZATION_RECORD).await,
            };
            saved.map_err(|e| e.to_string())
        })
    }
}
