//! The state manager: server configurations, per-server settings and thread configurations in the runtime
//! database. Each operation is one short IndexedDB transaction.

use super::database::{self, Database, SERVER_SETTINGS, SERVERS, THREADS, from_js, idb_error, key_text, to_js};
use mcp_worker_protocol::quoted::quoted;
use mcp_worker_runtime::persist::record::{self, CorruptRecord, Loaded};
use mcp_worker_runtime::persist::{StateError, StateResult, ThreadConfig};
use rexie::TransactionMode;
use serde::Serialize;
use serde::de::DeserializeOwned;
use wasm_bindgen::JsValue;

/// Persistent state of the runtime.
#[derive(Debug, Clone)]
pub struct StateManager {
    db: Database,
}

impl StateManager {
    /// The state kept in `db`.
    pub fn new(db: &Database) -> Self {
        Self { db: db.clone() }
    }

    /// Server configurations, keyed by server name.
    pub fn servers(&self) -> Collection {
        Collection { db: self.db.clone(), store: SERVERS }
    }

    /// Per-server settings (whatever the application keeps beside a configuration), keyed by server name.
    pub fn server_settings(&self) -> Collection {
        Collection { db: self.db.clone(), store: SERVER_SETTINGS }
    }

    /// Thread configurations, keyed by thread id.
    pub fn threads(&self) -> Threads {
        Threads { records: Collection { db: self.db.clone(), store: THREADS } }
    }
}

/// One object store of JSON values under text keys.
#[derive(Debug, Clone)]
pub struct Collection {
    db: Database,
    store: &'static str,
}

impl Collection {
    /// Stores `value` under `key`, replacing what was there.
    pub async fn put<T: Serialize + ?Sized>(&self, key: &str, value: &T) -> StateResult<()> {
        let stored = self.encode(key, value)?;
        let operation = self.operation("write", key);
        let tx = self.db.transaction(&[self.store], TransactionMode::ReadWrite, &operation)?;
        let store = tx.store(self.store).map_err(|e| idb_error(operation.as_str(), e))?;
        store.put(&stored, Some(&JsValue::from_str(key))).await.map_err(|e| idb_error(operation.as_str(), e))?;
        Ok(database::commit(tx, &operation).await?)
    }

    /// The value under `key`; [`StateError::Corrupt`] when it cannot be read as a `T`.
    pub async fn get<T: DeserializeOwned>(&self, key: &str) -> StateResult<Option<T>> {
        let operation = self.operation("read", key);
        let tx = self.db.transaction(&[self.store], TransactionMode::ReadOnly, &operation)?;
        let store = tx.store(self.store).map_err(|e| idb_error(operation.as_str(), e))?;
        let stored = store.get(JsValue::from_str(key)).await.map_err(|e| idb_error(operation.as_str(), e))?;
        stored.map(|value| self.decode(key, value)).transpose()
    }

    /// Removes the value under `key` (nothing happens if there is none).
    pub async fn delete(&self, key: &str) -> StateResult<()> {
        let operation = self.operation("delete", key);
        let tx = self.db.transaction(&[self.store], TransactionMode::ReadWrite, &operation)?;
        let store = tx.store(self.store).map_err(|e| idb_error(operation.as_str(), e))?;
        store.delete(JsValue::from_str(key)).await.map_err(|e| idb_error(operation.as_str(), e))?;
        Ok(database::commit(tx, &operation).await?)
    }

    /// Every record, in key order. Records that cannot be read as a `T` are skipped and reported in
    /// [`Loaded::problems`].
    pub async fn load_all<T: DeserializeOwned>(&self) -> StateResult<Loaded<T>> {
        let operation = format!("load {}", self.store);
        let tx = self.db.transaction(&[self.store], TransactionMode::ReadOnly, &operation)?;
        let store = tx.store(self.store).map_err(|e| idb_error(operation.as_str(), e))?;
        // Two requests, not a cursor (one request per record): keys and values come in the same key order.
        let keys = store.get_all_keys(None, None).await.map_err(|e| idb_error(operation.as_str(), e))?;
        let values = store.get_all(None, None).await.map_err(|e| idb_error(operation.as_str(), e))?;
        Ok(record::collect(self.store, keys.iter().zip(values).map(|(key, value)| (key_text(key), from_js(value)))))
    }

    /// Removes every record.
    pub async fn clear(&self) -> StateResult<()> {
        let operation = format!("clear {}", self.store);
        let tx = self.db.transaction(&[self.store], TransactionMode::ReadWrite, &operation)?;
        let store = tx.store(self.store).map_err(|e| idb_error(operation.as_str(), e))?;
        store.clear().await.map_err(|e| idb_error(operation.as_str(), e))?;
        Ok(database::commit(tx, &operation).await?)
    }

    fn operation(&self, verb: &str, key: &str) -> String {
        format!("{verb} {} in {}", quoted(key), self.store)
    }

    fn encode<T: Serialize + ?Sized>(&self, key: &str, value: &T) -> StateResult<JsValue> {
        if key.is_empty() {
            return Err(StateError::InvalidInput(format!("empty key in {}", self.store)));
        }
        let what = format!("{} in {}", quoted(key), self.store);
        let envelope = record::encode(&what, value)?;
        to_js(&envelope).map_err(|cause| StateError::Encode { what, cause })
    }

    fn decode<T: DeserializeOwned>(&self, key: &str, stored: JsValue) -> StateResult<T> {
        from_js(stored)
            .and_then(record::decode)
            .map_err(|reason| StateError::Corrupt(CorruptRecord::new(self.store, key, reason)))
    }
}

/// Thread configurations: which tools are enabled in which thread.
#[derive(Debug, Clone)]
pub struct Threads {
    records: Collection,
}

impl Threads {
    /// The configuration of a thread, if one is stored.
    pub async fn get(&self, thread: &str) -> StateResult<Option<ThreadConfig>> {
        self.records.get(thread).await
    }

    /// Stores a thread's configuration.
    pub async fn put(&self, thread: &str, config: &ThreadConfig) -> StateResult<()> {
        self.records.put(thread, config).await
    }

    /// Removes a thread's configuration.
    pub async fn delete(&self, thread: &str) -> StateResult<()> {
        self.records.delete(thread).await
    }

    /// Every thread's configuration; unreadable ones are reported and skipped.
    pub async fn load_all(&self) -> StateResult<Loaded<ThreadConfig>> {
        self.records.load_all().await
    }

    /// The entries of a thread's `enabledTools` (none when the thread has no configuration). Deciding whether a
    /// given tool matches them (entries such as `mcp__github__*`) is the registry's job.
    pub async fn enabled_tools(&self, thread: &str) -> StateResult<Vec<String>> {
        Ok(self.get(thread).await?.map(|c| c.enabled_tools).unwrap_or_default())
    }

    /// Enables tools in a thread and returns its configuration. Read and write happen in one transaction, so
    /// concurrent changes to the same thread are not lost.
    pub async fn enable_tools<S: AsRef<str>>(&self, thread: &str, tools: &[S]) -> StateResult<ThreadConfig> {
        self.update(thread, |config| config.enable(tools)).await
    }

    /// Replaces the tools enabled in a thread (its configuration's other fields stay) and returns its
    /// configuration.
    pub async fn set_enabled_tools<S: AsRef<str>>(&self, thread: &str, tools: &[S]) -> StateResult<ThreadConfig> {
        self.update(thread, |config| {
            config.enabled_tools.clear();
            config.enable(tools);
        })
        .await
    }

    /// Disables tools in a thread and returns its configuration.
    pub async fn disable_tools<S: AsRef<str>>(&self, thread: &str, tools: &[S]) -> StateResult<ThreadConfig> {
        self.update(thread, |config| config.disable(tools)).await
    }

    async fn update(&self, thread: &str, change: impl FnOnce(&mut ThreadConfig)) -> StateResult<ThreadConfig> {
        let collection = &self.records;
        let operation = collection.operation("update", thread);
        let tx = collection.db.transaction(&[collection.store], TransactionMode::ReadWrite, &operation)?;
        let store = tx.store(collection.store).map_err(|e| idb_error(operation.as_str(), e))?;
        let key = JsValue::from_str(thread);
        let stored = store.get(key.clone()).await.map_err(|e| idb_error(operation.as_str(), e))?;
        // An unreadable configuration is not overwritten: that would silently drop whatever else it held.
        let mut config = match stored.map(|value| collection.decode::<ThreadConfig>(thread, value)).transpose() {
            Ok(config) => config.unwrap_or_default(),
            Err(error) => {
                database::abort(tx).await;
                return Err(error);
            }
        };
        change(&mut config);
        let encoded = match collection.encode(thread, &config) {
            Ok(encoded) => encoded,
            Err(error) => {
                database::abort(tx).await;
                return Err(error);
            }
        };
        store.put(&encoded, Some(&key)).await.map_err(|e| idb_error(operation.as_str(), e))?;
        database::commit(tx, &operation).await?;
        Ok(config)
    }
}
