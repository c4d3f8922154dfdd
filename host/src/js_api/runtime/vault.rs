//! The encrypted credentials as the manager's credential source, with what each server declared (names,
//! descriptions, required or not) and, for a server that could not start, what exactly it needs.

use crate::credentials::{CredentialDecl, CredentialError, CredentialsRepository};
use crate::manager::CredentialSource;
use crate::observation::CredentialNeeds;
use crate::state::StorageError;
use futures_util::future::LocalBoxFuture;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// What a server needs: the credentials to ask for, and whether unlocking is what helps.
type Need = (Vec<CredentialDecl>, bool);

/// Declarations and the outcome of each server's last credential lookup.
#[derive(Debug)]
pub(crate) struct Vault {
    /// The repository, or why the database could not be opened.
    repository: Result<CredentialsRepository, StorageError>,
    declared: RefCell<HashMap<String, Vec<CredentialDecl>>>,
    needs: Rc<RefCell<HashMap<String, Need>>>,
}

impl Vault {
    pub(crate) fn new(repository: Result<CredentialsRepository, StorageError>) -> Rc<Self> {
        Rc::new(Self { repository, declared: RefCell::default(), needs: Rc::default() })
    }

    /// The repository, or why there is none.
    pub(crate) fn repository(&self) -> Result<&CredentialsRepository, CredentialError> {
        self.repository.as_ref().map_err(|e| CredentialError::Storage(e.clone()))
    }

    /// Records what a server declares (from its config's `credentials`, or its bundle manifest).
    pub(crate) fn declare(&self, server: &str, declared: Vec<CredentialDecl>) {
        self.declared.borrow_mut().insert(server.to_owned(), declared);
    }

    pub(crate) fn forget(&self, server: &str) {
        self.declared.borrow_mut().remove(server);
        self.needs.borrow_mut().remove(server);
    }

    /// What `server` declares; `names` (all required) when nothing more was declared.
    pub(crate) fn declared(&self, server: &str, names: &[String]) -> Vec<CredentialDecl> {
        let declared = self.declared.borrow();
        let known = declared.get(server).cloned().unwrap_or_default();
        names
            .iter()
            .map(|name| {
                known.iter().find(|d| &d.name == name).cloned().unwrap_or_else(|| CredentialDecl::required(name, ""))
            })
            .collect()
    }
}

impl CredentialSource for Vault {
    fn credentials(
        &self,
        server: &str,
        names: &[String],
    ) -> LocalBoxFuture<'static, Result<Vec<(String, String)>, String>> {
        let declared = self.declared(server, names);
        let repository = self.repository.clone();
        let server = server.to_owned();
        let needs = self.needs.clone();
        Box::pin(async move {
            let required = declared.iter().any(|d| d.required);
            let outcome = match &repository {
                Ok(repository) => repository.credentials_for_server(&server, &declared).await,
                Err(error) => Err(CredentialError::Storage(error.clone())),
            };
            match outcome {
                Ok(values) => {
                    needs.borrow_mut().remove(&server);
                    // The worker's `env` is plain text: this copy leaves Rust's reach, as the wire protocol requires.
                    Ok(values.into_iter().map(|(name, value)| (name, value.expose().to_owned())).collect())
                }
                // Only optional credentials, and none readable: the server starts without them.
                Err(CredentialError::Locked | CredentialError::NotSetUp) if !required => Ok(Vec::new()),
                Err(error) => {
                    let need = match &error {
                        CredentialError::Missing(missing) => (missing.missing.clone(), false),
                        CredentialError::Locked => (required_only(&declared), true),
                        _ => (required_only(&declared), false),
                    };
                    needs.borrow_mut().insert(server, need);
                    Err(error.to_string())
                }
            }
        })
    }
}

fn required_only(declared: &[CredentialDecl]) -> Vec<CredentialDecl> {
    declared.iter().filter(|d| d.required).cloned().collect()
}

impl CredentialNeeds for Vault {
    fn needs(&self, server: &str, _reason: &str) -> Need {
        if let Some(need) = self.needs.borrow().get(server) {
            return need.clone();
        }
        let declared = self.declared.borrow().get(server).cloned().unwrap_or_default();
        (required_only(&declared), false)
    }
}
