//! Reading credentials out: for the application (a value, a server's declared set, an `env` resolved), and for a
//! server's worker, released only to the code each credential was stored for. Also what the application decides
//! about that binding: confirming a server's new code, and forgetting a removed server.

use super::stored::{CURRENT_KEY, StoredKey, credential_key, parse_credential_key, record_from_js, record_to_js};
use super::{CredentialsRepository, ensure_current, storage};
use crate::credentials::binding::{check_binding, rebind_all};
use crate::credentials::error::{CredentialError, CredentialResult};
use crate::credentials::key::DataKey;
use crate::credentials::record::CredentialRecord;
use crate::state::database::{self as db, CREDENTIAL_KEYS, CREDENTIALS};
use litemap::LiteMap;
use mcp_worker_runtime::credentials::{
    self as scope, CredentialDecl, Secret, ServerIdentity, check_name, env_declarations, parse_env,
};
use rexie::TransactionMode;
use wasm_bindgen::JsValue;

/// Stored records of one server, as read (not decrypted), with the id of the stored key.
struct Read {
    current: Option<String>,
    records: Vec<(String, CredentialRecord)>,
}

impl CredentialsRepository {
    /// The credential `name` of `server`, or `None` if it is not stored. The application's own read: it does not
    /// look at what the credential is bound to.
    pub async fn get(&self, server: &str, name: &str) -> CredentialResult<Option<Secret>> {
        let key = self.key_for().await?;
        let mut found = self.fetch(&key, server, &[name]).await?;
        Ok(found.remove(name))
    }

    /// Exactly the declared credentials of `server` that are stored, decrypted, in declaration order. Never
    /// another server's credentials, never the key. A required credential that is not stored is
    /// [`CredentialError::Missing`], naming every missing one with its description. The application's own read:
    /// what a server's worker gets goes through [`Self::release_to`], which checks what each is bound to.
    pub async fn credentials_for_server(
        &self,
        server: &str,
        declared: &[CredentialDecl],
    ) -> CredentialResult<Vec<(String, Secret)>> {
        let declared = scope::normalize(declared)?;
        if declared.is_empty() {
            return Ok(Vec::new());
        }
        let key = self.unlocked()?;
        let names: Vec<&str> = declared.iter().map(|d| d.name.as_str()).collect();
        let found = self.fetch(&key, server, &names).await?;
        Ok(scope::select(server, &declared, found)?)
    }

    /// What `server`'s worker gets when its config names `identity`: its declared credentials as
    /// [`Self::credentials_for_server`] gives them, provided every one that is stored was stored for `identity`.
    /// Otherwise [`CredentialError::IdentityChanged`] names them and both identities; that is found without the key,
    /// so a locked vault tells it too.
    pub async fn release_to(
        &self,
        server: &str,
        identity: &ServerIdentity,
        declared: &[CredentialDecl],
    ) -> CredentialResult<Vec<(String, Secret)>> {
        let declared = scope::normalize(declared)?;
        if declared.is_empty() {
            return Ok(Vec::new());
        }
        let names: Vec<&str> = declared.iter().map(|d| d.name.as_str()).collect();
        let read = self.read(server, &names).await?;
        let found: Vec<(&str, &CredentialRecord)> = read.records.iter().map(|(n, r)| (n.as_str(), r)).collect();
        check_binding(server, identity, &found)?;
        let key = self.unlocked()?;
        let values = open_all(&key, read, server)?;
        Ok(scope::select(server, &declared, values)?)
    }

    /// Resolves the `env` of an imported `mcpServers` entry for `server`: `${NAME}` references become the stored
    /// credential `NAME` of that server (or the `${NAME:-fallback}`), other text stays. A referenced credential
    /// without fallback that is not stored is [`CredentialError::Missing`]. An `env` without references needs no
    /// unlock.
    pub async fn resolve_env(&self, server: &str, env: &[(String, String)]) -> CredentialResult<Vec<(String, Secret)>> {
        let templates = parse_env(env)?;
        let declared = env_declarations(env)?;
        let found = if declared.is_empty() {
            LiteMap::new()
        } else {
            let key = self.unlocked()?;
            let names: Vec<&str> = declared.iter().map(|d| d.name.as_str()).collect();
            self.fetch(&key, server, &names).await?
        };
        if let Some(missing) = scope::missing(server, &declared, |name| found.contains_key(name)) {
            return Err(CredentialError::Missing(missing));
        }
        templates
            .into_iter()
            .map(|(env_key, template)| match template.render(|name| found.get(name)) {
                Some(value) => Ok((env_key, value)),
                None => Err(CredentialError::InvalidInput(format!("env {env_key} has an unresolved reference"))),
            })
            .collect()
    }

    /// Binds every credential stored for `server` to `identity`: the application confirmed (after asking its user)
    /// that the code `server`'s config names now may have them. Every record is opened and sealed again in one
    /// transaction; one that does not open stops it, naming the record, and nothing changes. Needs the key.
    pub async fn confirm_identity(&self, server: &str, identity: &ServerIdentity) -> CredentialResult<()> {
        check_name("server", server)?;
        let key = self.unlocked()?;
        let operation = "bind credentials to a server's code";
        let tx = self.db.transaction(&[CREDENTIAL_KEYS, CREDENTIALS], TransactionMode::ReadWrite, operation)?;
        let keys = tx.store(CREDENTIAL_KEYS).map_err(storage(operation))?;
        let credentials = tx.store(CREDENTIALS).map_err(storage(operation))?;
        let planned = async {
            ensure_current(&keys, &key, operation).await?;
            let range = super::stored::server_range(server)?;
            let locations = credentials.get_all_keys(Some(range.clone()), None).await.map_err(storage(operation))?;
            let values = credentials.get_all(Some(range), None).await.map_err(storage(operation))?;
            let mut records = Vec::with_capacity(values.len());
            for (location, value) in locations.iter().zip(values) {
                let Some((_, name)) = parse_credential_key(location) else { continue };
                let record = record_from_js(server, &name, value)?;
                records.push((name, record));
            }
            rebind_all(&key, server, identity, records)?
                .into_iter()
                .map(|(name, record)| Ok((record_to_js(&record)?, Some(credential_key(server, &name)))))
                .collect::<CredentialResult<Vec<_>>>()
        };
        let planned = match planned.await {
            Ok(planned) => planned,
            Err(error) => {
                db::abort(tx).await;
                return Err(error);
            }
        };
        if let Err(error) = credentials.put_all(planned.into_iter()).await {
            db::abort(tx).await;
            return Err(db::idb_error(operation, error).into());
        }
        Ok(db::commit(tx, operation).await?)
    }

    /// Deletes every credential of `server` (it was removed: a later server of its name must not inherit them).
    /// Works while locked.
    pub async fn delete_server(&self, server: &str) -> CredentialResult<()> {
        let operation = "delete a server's credentials";
        let range = super::stored::server_range(server)?;
        let tx = self.db.transaction(&[CREDENTIALS], TransactionMode::ReadWrite, operation)?;
        let credentials = tx.store(CREDENTIALS).map_err(storage(operation))?;
        credentials.delete(range.into()).await.map_err(storage(operation))?;
        Ok(db::commit(tx, operation).await?)
    }

    /// Decrypts the named credentials of `server` that are stored.
    pub(super) async fn fetch(
        &self,
        key: &DataKey,
        server: &str,
        names: &[&str],
    ) -> CredentialResult<LiteMap<String, Secret>> {
        let read = self.read(server, names).await?;
        open_all(key, read, server)
    }

    /// The stored records of the named credentials of `server`, and the stored key's id, in one read transaction.
    async fn read(&self, server: &str, names: &[&str]) -> CredentialResult<Read> {
        check_name("server", server)?;
        for name in names {
            check_name("credential", name)?;
        }
        let operation = "read credentials";
        let tx = self.db.transaction(&[CREDENTIAL_KEYS, CREDENTIALS], TransactionMode::ReadOnly, operation)?;
        let keys = tx.store(CREDENTIAL_KEYS).map_err(storage(operation))?;
        let credentials = tx.store(CREDENTIALS).map_err(storage(operation))?;
        let current = keys.get(JsValue::from_str(CURRENT_KEY)).await.map_err(storage(operation))?;
        let current = current.map(|v| StoredKey::from_js(&v)).transpose()?.map(|stored| stored.record.key_id);
        let mut records = Vec::with_capacity(names.len());
        for name in names {
            if let Some(value) = credentials.get(credential_key(server, name)).await.map_err(storage(operation))? {
                records.push(((*name).to_owned(), record_from_js(server, name, value)?));
            }
        }
        Ok(Read { current, records })
    }
}

/// Decrypts what was read. A record of another key than the one in memory is [`CredentialError::KeyChanged`] when
/// the stored key changed too (unlocking again helps), and [`CredentialError::Orphaned`] when it did not (nothing
/// helps but deleting it).
fn open_all(key: &DataKey, read: Read, server: &str) -> CredentialResult<LiteMap<String, Secret>> {
    let Read { current, records } = read;
    // Inserted one by one (a server declares a few credentials): a map collected from an iterator compiles a stable
    // sort of its own.
    let mut opened = LiteMap::new();
    for (name, record) in records {
        if record.key_id != key.id() && current.as_deref() == Some(key.id()) {
            return Err(CredentialError::Orphaned { count: 1, key_record_missing: false });
        }
        let value = record.open(key, server, &name)?;
        opened.insert(name, value);
    }
    Ok(opened)
}
