//! Releasing credentials only to the code they were stored for.
//!
//! Each record names, in the clear and authenticated by its encryption, the identity it was stored for
//! ([`ServerIdentity`]). A server gets its credentials only when its config names that identity now; otherwise they
//! are held back with an [`IdentityChange`], which can be told while the vault is locked. Once the application
//! confirms the change, every record of the server is opened and sealed again, bound to the new identity.

use super::error::{CredentialError, CredentialResult};
use super::key::DataKey;
use super::record::CredentialRecord;
use mcp_worker_runtime::credentials::{IdentityChange, ServerIdentity};

/// `Ok` when every record found for `server` was stored for `current`; else what changed, naming every credential
/// held back (the first one's identity as what they were stored for).
pub(crate) fn check_binding(
    server: &str,
    current: &ServerIdentity,
    found: &[(&str, &CredentialRecord)],
) -> Result<(), Box<IdentityChange>> {
    let held: Vec<(&str, Option<ServerIdentity>)> = found
        .iter()
        .map(|(name, record)| (*name, record.identity()))
        .filter(|(_, bound)| bound.as_ref() != Some(current))
        .collect();
    let Some((_, stored_for)) = held.first() else { return Ok(()) };
    let names = held.iter().map(|(name, _)| (*name).to_owned()).collect();
    Err(Box::new(IdentityChange::new(server, names, stored_for.clone(), current.clone())))
}

/// The records of `server` sealed again, bound to `identity`. Every record is opened with `key` first: the first one
/// that does not open stops it, naming the record, and nothing is to be written.
pub(crate) fn rebind_all(
    key: &DataKey,
    server: &str,
    identity: &ServerIdentity,
    records: Vec<(String, CredentialRecord)>,
) -> CredentialResult<Vec<(String, CredentialRecord)>> {
    records
        .into_iter()
        .map(|(name, record)| {
            let value = record.open(key, server, &name)?;
            let rebound = CredentialRecord::seal(key, server, &name, &value, Some(identity))?;
            Ok((name, rebound))
        })
        .collect()
}

impl From<Box<IdentityChange>> for CredentialError {
    fn from(change: Box<IdentityChange>) -> Self {
        Self::IdentityChanged(change)
    }
}

#[cfg(test)]
#[path = "binding_tests.rs"]
mod tests;
