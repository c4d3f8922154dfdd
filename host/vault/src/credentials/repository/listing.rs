//! What is stored, by name: the credentials of a server, the servers that have some, and what a server still lacks.
//! All of it works while locked (names are not secret), and none of it lists a credential that the stored key cannot
//! read (an orphan of a deleted or replaced key record, see [`Inventory`]).

use super::stored::{CURRENT_KEY, StoredKey, parse_credential_key, record_key_id, server_range};
use super::{CredentialsRepository, storage};
use crate::credentials::error::CredentialResult;
use crate::credentials::inventory::Inventory;
use crate::state::database::{CREDENTIAL_KEYS, CREDENTIALS};
use mcp_worker_runtime::credentials::{self as scope, CredentialDecl, MissingCredentials};
use rexie::TransactionMode;
use wasm_bindgen::JsValue;

impl CredentialsRepository {
    /// The names of the credentials stored for `server` that the stored key can read, sorted. Never values; works
    /// while locked.
    pub async fn names(&self, server: &str) -> CredentialResult<Vec<String>> {
        let inventory = self.inventory(Some(server)).await?;
        Ok(inventory.readable().map(|(_, name)| name.clone()).collect())
    }

    /// The servers that have credentials stored that the stored key can read, sorted. Works while locked.
    pub async fn servers(&self) -> CredentialResult<Vec<String>> {
        let inventory = self.inventory(None).await?;
        let mut servers: Vec<String> = inventory.readable().map(|(server, _)| server.clone()).collect();
        servers.sort_unstable();
        servers.dedup();
        Ok(servers)
    }

    /// The required credentials of `server` that are not stored, or `None` if it can start. Works while locked,
    /// so a UI can ask for what is missing before anything is unlocked.
    pub async fn missing(
        &self,
        server: &str,
        declared: &[CredentialDecl],
    ) -> CredentialResult<Option<MissingCredentials>> {
        let declared = scope::normalize(declared)?;
        let stored = self.names(server).await?;
        Ok(scope::missing(server, &declared, |name| stored.iter().any(|stored| stored == name)))
    }

    /// The stored key's id and every credential record (of `server`, or all) with the key id it names, read in
    /// one transaction.
    pub(super) async fn inventory(&self, server: Option<&str>) -> CredentialResult<Inventory> {
        let operation = "list credentials";
        let tx = self.db.transaction(&[CREDENTIAL_KEYS, CREDENTIALS], TransactionMode::ReadOnly, operation)?;
        let keys = tx.store(CREDENTIAL_KEYS).map_err(storage(operation))?;
        let credentials = tx.store(CREDENTIALS).map_err(storage(operation))?;
        let current = keys.get(JsValue::from_str(CURRENT_KEY)).await.map_err(storage(operation))?;
        let current = current.map(|v| StoredKey::from_js(&v)).transpose()?.map(|stored| stored.record.key_id);
        let range = server.map(server_range).transpose()?;
        // Two requests, not a cursor: keys and values come in the same key order.
        let locations = credentials.get_all_keys(range.clone(), None).await.map_err(storage(operation))?;
        let values = credentials.get_all(range, None).await.map_err(storage(operation))?;
        let records = locations
            .iter()
            .zip(&values)
            .filter_map(|(location, value)| Some((parse_credential_key(location)?, record_key_id(value))))
            .collect();
        Ok(Inventory { current, records })
    }
}
