//! The credentials repository: encrypted credentials in the runtime database.
//!
//! Every operation that needs WebCrypto (PBKDF2, the device key) does it before opening its IndexedDB transaction:
//! awaiting anything but IndexedDB inside a transaction ends the transaction. AES-GCM itself is synchronous (the
//! `aes-gcm` crate), so encryption and decryption can happen inside one.

mod import;
mod listing;
mod release;
mod source;
mod stored;
mod unlock;

use super::app_key::AppKey;
use super::error::{CredentialError, CredentialResult};
use super::key::{DataKey, KeyMode, MAX_PBKDF2_ITERATIONS, PBKDF2_ITERATIONS};
use super::record::{CredentialRecord, reseal_all};
use crate::state::Database;
use crate::state::database::{self as db, CREDENTIAL_KEYS, CREDENTIALS};
use futures_util::future::join;
use mcp_worker_runtime::credentials::{Secret, ServerIdentity, check_name};
use rexie::{Store, TransactionMode};
use std::cell::RefCell;
use std::rc::Rc;
use stored::{CURRENT_KEY, StoredKey, credential_key, parse_credential_key, record_from_js, record_to_js};
use wasm_bindgen::JsValue;

/// What unlocks the data key. Which one is right for an application is the subject of `docs/credentials.md`.
#[derive(Debug)]
#[non_exhaustive]
pub enum KeySource {
    /// A passphrase, stretched with PBKDF2-SHA-256 ([`super::PBKDF2_ITERATIONS`] iterations, random salt).
    Passphrase(Secret),
    /// A 256-bit key the application supplies.
    AppKey(AppKey),
    /// The device key: a non-extractable WebCrypto key kept in the database.
    Device,
}

impl KeySource {
    /// The mode this source unlocks.
    pub fn mode(&self) -> KeyMode {
        match self {
            Self::Passphrase(_) => KeyMode::Passphrase,
            Self::AppKey(_) => KeyMode::AppKey,
            Self::Device => KeyMode::Device,
        }
    }
}

/// Encrypted credentials, per server. Cheap to clone: clones share the connection and the lock state.
///
/// A new repository starts locked. Names (never values) can be listed, checked and deleted while locked; reading,
/// writing and rotating need the key and fail with [`CredentialError::Locked`] without it.
#[derive(Debug, Clone)]
pub struct CredentialsRepository {
    db: Database,
    key: Rc<RefCell<Option<Rc<DataKey>>>>,
    max_pbkdf2_iterations: u32,
}

fn storage(operation: &str) -> impl Fn(rexie::Error) -> CredentialError + '_ {
    move |e| db::idb_error(operation, e).into()
}

impl CredentialsRepository {
    /// The credentials kept in `db`, locked.
    pub fn new(db: &Database) -> Self {
        Self { db: db.clone(), key: Rc::new(RefCell::new(None)), max_pbkdf2_iterations: MAX_PBKDF2_ITERATIONS }
    }

    /// The most PBKDF2 iterations a stored passphrase record may ask for ([`MAX_PBKDF2_ITERATIONS`] by default; never
    /// less than the [`PBKDF2_ITERATIONS`] written today). A record asking for more is refused as altered before
    /// any iteration runs, so an edited count cannot keep the page busy.
    #[must_use]
    pub fn with_max_pbkdf2_iterations(mut self, iterations: u32) -> Self {
        self.max_pbkdf2_iterations = iterations.max(PBKDF2_ITERATIONS);
        self
    }

    /// The mode of the stored key, or `None` when no key has been set up yet.
    pub async fn key_mode(&self) -> CredentialResult<Option<KeyMode>> {
        Ok(self.load_key().await?.map(|stored| stored.record.mode()))
    }

    /// Whether the data key is in memory.
    pub fn is_unlocked(&self) -> bool {
        self.key.borrow().is_some()
    }

    /// Sets up the data key of an empty repository, wrapped as `source` says, and leaves the repository unlocked.
    ///
    /// Credentials left without their key (the key record was deleted) are [`CredentialError::Orphaned`]: a new key
    /// would never read them, so they are not passed over in silence; [`Self::wipe`] is the way out.
    pub async fn setup(&self, source: KeySource) -> CredentialResult<()> {
        if let Some(stored) = self.load_key().await? {
            return Err(CredentialError::AlreadySetUp { mode: stored.record.mode() });
        }
        self.inventory(None).await?.check()?;
        let (stored, data_key) = unlock::new_key(&source).await?;
        let value = stored.to_js()?;
        let operation = "store the credentials key";
        let tx = self.db.transaction(&[CREDENTIAL_KEYS], TransactionMode::ReadWrite, operation)?;
        let keys = tx.store(CREDENTIAL_KEYS).map_err(storage(operation))?;
        // Another tab may have set up a key since the check above; never replace it.
        if let Some(existing) = keys.get(JsValue::from_str(CURRENT_KEY)).await.map_err(storage(operation))? {
            db::abort(tx).await;
            let mode = StoredKey::from_js(&existing).map(|s| s.record.mode()).unwrap_or(source.mode());
            return Err(CredentialError::AlreadySetUp { mode });
        }
        keys.put(&value, Some(&JsValue::from_str(CURRENT_KEY))).await.map_err(storage(operation))?;
        db::commit(tx, operation).await?;
        self.key.replace(Some(Rc::new(data_key)));
        Ok(())
    }

    /// Unlocks with `source`. A wrong passphrase or key is [`CredentialError::WrongKey`], told apart from a
    /// tampered credential because it is checked against the wrapped data key alone.
    ///
    /// Credentials sealed under another key than the stored one (the key record was deleted or replaced) are
    /// [`CredentialError::Orphaned`], found before any key is derived; [`Self::wipe`] is the way out.
    pub async fn unlock(&self, source: KeySource) -> CredentialResult<()> {
        self.inventory(None).await?.check()?;
        let stored = self.load_key().await?.ok_or(CredentialError::NotSetUp)?;
        let data_key = unlock::open_key(&stored, &source, self.max_pbkdf2_iterations).await?;
        self.key.replace(Some(Rc::new(data_key)));
        Ok(())
    }

    /// Drops the data key from memory (its bytes are wiped).
    pub fn lock(&self) {
        self.key.replace(None);
    }

    /// Stores (or replaces) the credential `name` of `server`, bound to no code yet: it is released to a server only
    /// once an identity is confirmed for it ([`Self::confirm_identity`]). Use [`Self::set_for`] when the server is
    /// configured: its credentials are then released to the code its config names, and to no other.
    pub async fn set(&self, server: &str, name: &str, value: &Secret) -> CredentialResult<()> {
        self.store(server, name, value, None).await
    }

    /// Stores (or replaces) the credential `name` of `server`, bound to `identity`: the code its config names
    /// ([`mcp_worker_runtime::config::TransportConfig::identity`]). A server whose config names other code does not
    /// get it until the application confirms the change.
    pub async fn set_for(
        &self,
        server: &str,
        identity: &ServerIdentity,
        name: &str,
        value: &Secret,
    ) -> CredentialResult<()> {
        self.store(server, name, value, Some(identity)).await
    }

    async fn store(
        &self,
        server: &str,
        name: &str,
        value: &Secret,
        identity: Option<&ServerIdentity>,
    ) -> CredentialResult<()> {
        check_name("server", server)?;
        check_name("credential", name)?;
        let key = self.key_for().await?;
        let record = record_to_js(&CredentialRecord::seal(&key, server, name, value, identity)?)?;
        let operation = "write a credential";
        let tx = self.db.transaction(&[CREDENTIAL_KEYS, CREDENTIALS], TransactionMode::ReadWrite, operation)?;
        let keys = tx.store(CREDENTIAL_KEYS).map_err(storage(operation))?;
        let credentials = tx.store(CREDENTIALS).map_err(storage(operation))?;
        // Writing under a key that is no longer current would leave a record nobody can read.
        if let Err(error) = ensure_current(&keys, &key, operation).await {
            db::abort(tx).await;
            return Err(error);
        }
        credentials.put(&record, Some(&credential_key(server, name))).await.map_err(storage(operation))?;
        Ok(db::commit(tx, operation).await?)
    }

    /// Removes the credential `name` of `server` (nothing happens if it is not stored). Works while locked.
    pub async fn delete(&self, server: &str, name: &str) -> CredentialResult<()> {
        let operation = "delete a credential";
        let tx = self.db.transaction(&[CREDENTIALS], TransactionMode::ReadWrite, operation)?;
        let credentials = tx.store(CREDENTIALS).map_err(storage(operation))?;
        credentials.delete(credential_key(server, name)).await.map_err(storage(operation))?;
        Ok(db::commit(tx, operation).await?)
    }

    /// Replaces the data key and its wrapping (a key rotation; with a new passphrase, a passphrase change; or a
    /// change of mode). Every credential is re-encrypted, and the new key record written, in ONE transaction:
    /// interrupted at any point, the database holds either everything under the old key or everything under the
    /// new one. A credential that does not decrypt stops the rotation before anything is written, and is named.
    pub async fn rotate(&self, source: KeySource) -> CredentialResult<()> {
        let old = self.key_for().await?;
        let (stored, new) = unlock::new_key(&source).await?;
        let key_value = stored.to_js()?;

        let operation = "rotate the credentials key";
        let tx = self.db.transaction(&[CREDENTIAL_KEYS, CREDENTIALS], TransactionMode::ReadWrite, operation)?;
        let keys = tx.store(CREDENTIAL_KEYS).map_err(storage(operation))?;
        let credentials = tx.store(CREDENTIALS).map_err(storage(operation))?;
        let planned = match plan_rotation(&keys, &credentials, &old, &new, operation).await {
            Ok(planned) => planned,
            Err(error) => {
                db::abort(tx).await;
                return Err(error);
            }
        };
        // Every write is issued before any is awaited (`join` polls both in the same turn), so dropping this future
        // part-way cannot leave some records under the new key and others under the old.
        let (records_written, key_written) =
            join(credentials.put_all(planned.into_iter()), keys.put(&key_value, Some(&JsValue::from_str(CURRENT_KEY))))
                .await;
        if let Some(error) = records_written.err().or(key_written.err()) {
            db::abort(tx).await;
            return Err(db::idb_error(operation, error).into());
        }
        db::commit(tx, operation).await?;
        self.key.replace(Some(Rc::new(new)));
        Ok(())
    }

    /// Deletes every credential and the key, in one transaction, and locks. Works while locked (forgetting
    /// credentials needs no key).
    pub async fn wipe(&self) -> CredentialResult<()> {
        let operation = "wipe the credentials";
        let tx = self.db.transaction(&[CREDENTIAL_KEYS, CREDENTIALS], TransactionMode::ReadWrite, operation)?;
        let keys = tx.store(CREDENTIAL_KEYS).map_err(storage(operation))?;
        let credentials = tx.store(CREDENTIALS).map_err(storage(operation))?;
        let (cleared, key_cleared) = join(credentials.clear(), keys.clear()).await;
        if let Some(error) = cleared.err().or(key_cleared.err()) {
            db::abort(tx).await;
            return Err(db::idb_error(operation, error).into());
        }
        db::commit(tx, operation).await?;
        self.lock();
        Ok(())
    }

    fn unlocked(&self) -> CredentialResult<Rc<DataKey>> {
        self.key.borrow().clone().ok_or(CredentialError::Locked)
    }

    /// The key, for an operation the application asked for: without it, [`CredentialError::NotSetUp`] when no key
    /// was ever set up (setting one up is what helps), else [`CredentialError::Locked`].
    async fn key_for(&self) -> CredentialResult<Rc<DataKey>> {
        match self.unlocked() {
            Err(CredentialError::Locked) if self.load_key().await?.is_none() => Err(CredentialError::NotSetUp),
            other => other,
        }
    }

    async fn load_key(&self) -> CredentialResult<Option<StoredKey>> {
        let operation = "read the credentials key";
        let tx = self.db.transaction(&[CREDENTIAL_KEYS], TransactionMode::ReadOnly, operation)?;
        let keys = tx.store(CREDENTIAL_KEYS).map_err(storage(operation))?;
        let value = keys.get(JsValue::from_str(CURRENT_KEY)).await.map_err(storage(operation))?;
        value.map(|v| StoredKey::from_js(&v)).transpose()
    }
}

/// Checks, inside a write transaction, that the stored key is the one held in memory.
pub(super) async fn ensure_current(keys: &Store, key: &DataKey, operation: &str) -> CredentialResult<()> {
    let stored = keys.get(JsValue::from_str(CURRENT_KEY)).await.map_err(storage(operation))?;
    match stored.map(|v| StoredKey::from_js(&v)).transpose()? {
        Some(stored) if stored.record.key_id == key.id() => Ok(()),
        _ => Err(CredentialError::KeyChanged),
    }
}

/// Reads every credential inside the rotation's transaction and re-encrypts it (synchronously: AES-GCM in wasm),
/// giving the records to write, keyed.
async fn plan_rotation(
    keys: &Store,
    credentials: &Store,
    old: &DataKey,
    new: &DataKey,
    operation: &str,
) -> CredentialResult<Vec<(JsValue, Option<JsValue>)>> {
    ensure_current(keys, old, operation).await?;
    // Two requests, not a cursor (one request per record): keys and values come in the same key order.
    let keys = credentials.get_all_keys(None, None).await.map_err(storage(operation))?;
    let values = credentials.get_all(None, None).await.map_err(storage(operation))?;
    if keys.len() != values.len() {
        return Err(CredentialError::corrupt("credentials", "keys and values do not match"));
    }
    let mut records = Vec::with_capacity(keys.len());
    for (key, value) in keys.into_iter().zip(values) {
        let (server, name) = parse_credential_key(&key)
            .ok_or_else(|| CredentialError::corrupt("credential key", "not [server, name]"))?;
        let record = record_from_js(&server, &name, value)?;
        records.push(((server, name), record));
    }
    reseal_all(old, new, records)?
        .into_iter()
        .map(|((server, name), record)| Ok((record_to_js(&record)?, Some(credential_key(&server, &name)))))
        .collect()
}
