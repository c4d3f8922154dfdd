//! The encrypted credentials as the manager's credential source, or why there are none (the database could not be
//! opened). What each server declares, and what it lacks, the manager works out (`manager::credentials`).

use futures_util::future::LocalBoxFuture;
use mcp_worker_runtime::credentials::CredentialDecl;
use mcp_worker_runtime::manager::{CredentialSource, CredentialsNeeded};
use mcp_worker_vault::credentials::{CredentialError, CredentialsRepository, Secret, lookup_outcome};
use mcp_worker_vault::state::StorageError;
use std::rc::Rc;

/// The runtime's repository, or why it has none.
#[derive(Debug)]
pub(crate) struct Vault {
    repository: Result<CredentialsRepository, StorageError>,
}

impl Vault {
    pub(crate) fn new(repository: Result<CredentialsRepository, StorageError>) -> Rc<Self> {
        Rc::new(Self { repository })
    }

    /// The repository, or why there is none.
    pub(crate) fn repository(&self) -> Result<&CredentialsRepository, CredentialError> {
        self.repository.as_ref().map_err(|e| CredentialError::Storage(e.clone()))
    }
}

impl CredentialSource for Vault {
    fn credentials(
        &self,
        server: &str,
        declared: &[CredentialDecl],
    ) -> LocalBoxFuture<'static, Result<Vec<(String, Secret)>, CredentialsNeeded>> {
        match &self.repository {
            Ok(repository) => repository.credentials(server, declared),
            Err(error) => {
                let outcome = lookup_outcome(declared, Err(CredentialError::Storage(error.clone())));
                Box::pin(async move { outcome })
            }
        }
    }
}
