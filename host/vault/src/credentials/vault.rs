//! A runtime's credentials: the repository in its database, or why there is none (IndexedDB could not be opened:
//! private mode, quota, a blocked upgrade). Either way it is the manager's credential source, so that a server with a
//! required credential waits in `needs_credentials` with the reason, and one with only optional credentials starts.

use super::lookup::lookup_outcome;
use super::{CredentialError, CredentialsRepository};
use futures_util::future::LocalBoxFuture;
use mcp_worker_runtime::credentials::{CredentialDecl, Secret, ServerIdentity};
use mcp_worker_runtime::manager::{CredentialSource, CredentialsNeeded};
use mcp_worker_runtime::persist::StorageError;
use std::rc::Rc;

/// The runtime's repository, or why it has none.
#[derive(Debug)]
pub struct Vault {
    repository: Result<CredentialsRepository, StorageError>,
}

impl Vault {
    /// The vault over `repository`, or over the error that kept it from opening.
    pub fn new(repository: Result<CredentialsRepository, StorageError>) -> Rc<Self> {
        Rc::new(Self { repository })
    }

    /// The repository, or why there is none.
    pub fn repository(&self) -> Result<&CredentialsRepository, CredentialError> {
        self.repository.as_ref().map_err(|e| CredentialError::Storage(e.clone()))
    }
}

impl CredentialSource for Vault {
    fn credentials(
        &self,
        server: &str,
        identity: &ServerIdentity,
        declared: &[CredentialDecl],
    ) -> LocalBoxFuture<'static, Result<Vec<(String, Secret)>, CredentialsNeeded>> {
        match &self.repository {
            Ok(repository) => repository.credentials(server, identity, declared),
            Err(error) => {
                let outcome = lookup_outcome(declared, Err(CredentialError::Storage(error.clone())));
                Box::pin(async move { outcome })
            }
        }
    }

    fn confirm_identity(&self, server: &str, identity: &ServerIdentity) -> LocalBoxFuture<'static, Result<(), String>> {
        match &self.repository {
            Ok(repository) => CredentialSource::confirm_identity(repository, server, identity),
            Err(error) => {
                let reason = CredentialError::Storage(error.clone()).to_string();
                Box::pin(async move { Err(reason) })
            }
        }
    }

    fn forget_server(&self, server: &str) -> LocalBoxFuture<'static, Result<(), String>> {
        match &self.repository {
            Ok(repository) => CredentialSource::forget_server(repository, server),
            // Nothing could be stored: nothing to forget.
            Err(_) => Box::pin(async { Ok(()) }),
        }
    }

    fn saved_authorization(&self, server: &str, identity: &ServerIdentity) -> LocalBoxFuture<'static, Option<Secret>> {
        match &self.repository {
            Ok(repository) => CredentialSource::saved_authorization(repository, server, identity),
            Err(_) => Box::pin(async { None }),
        }
    }

    fn save_authorization(
        &self,
        server: &str,
        identity: &ServerIdentity,
        record: Option<Secret>,
    ) -> LocalBoxFuture<'static, Result<(), String>> {
        match &self.repository {
            Ok(repository) => CredentialSource::save_authorization(repository, server, identity, record),
            Err(error) => {
                let reason = CredentialError::Storage(error.clone()).to_string();
                Box::pin(async move { Err(reason) })
            }
        }
    }
}
