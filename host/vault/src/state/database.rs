//! The runtime's IndexedDB database: its object stores, their versions, and the conversions between stored
//! JavaScript values and JSON.

use mcp_worker_runtime::persist::StorageError;
use rexie::{ObjectStore, Rexie, Transaction, TransactionMode};
use serde::Serialize;
use std::rc::Rc;
use wasm_bindgen::JsValue;

/// The version of the database layout.
///
/// Upgrades only ever add object stores: the stores of every earlier version are listed below with the version
/// that introduced them, and opening at a higher version creates the missing ones and leaves existing stores and
/// their records as they are. Record formats carry their own version (`v`) and are read by version.
pub const SCHEMA_VERSION: u32 = 1;

/// The key record of the credentials (the wrapped data key and how to unwrap it). Since v1.
pub(crate) const CREDENTIAL_KEYS: &str = "credential_keys";
/// Encrypted credentials, keyed `[server, name]`. Since v1.
pub(crate) const CREDENTIALS: &str = "credentials";
/// Server configurations, keyed by server name. Since v1.
pub(crate) const SERVERS: &str = "servers";
/// Per-server settings, keyed by server name. Since v1.
pub(crate) const SERVER_SETTINGS: &str = "server_settings";
/// Thread configurations, keyed by thread id. Since v1.
pub(crate) const THREADS: &str = "threads";

/// Every store of the current layout. All use out-of-line keys, so any value shape can be stored and read back
/// (and reported, if unreadable).
const STORES: [&str; 5] = [CREDENTIAL_KEYS, CREDENTIALS, SERVERS, SERVER_SETTINGS, THREADS];

/// An open connection to the runtime database. Cheap to clone; every clone shares the connection, which is closed
/// when the last clone is dropped.
#[derive(Debug, Clone)]
pub struct Database {
    connection: Rc<Connection>,
    name: Rc<str>,
}

/// Closes the connection on drop. An open connection that nobody holds would block every later upgrade and
/// deletion of the database: the handler that closes it on `versionchange` goes away with its owner.
#[derive(Debug)]
struct Connection(Option<Rexie>);

impl Drop for Connection {
    fn drop(&mut self) {
        if let Some(rexie) = self.0.take() {
            rexie.close();
        }
    }
}

impl Database {
    /// Opens (creating or upgrading as needed) the runtime database called `name`.
    ///
    /// The database belongs to the runtime: do not keep other object stores in it (an upgrade removes stores it
    /// does not know).
    pub async fn open(name: &str) -> Result<Self, StorageError> {
        let builder = STORES.iter().fold(Rexie::builder(name).version(SCHEMA_VERSION), |builder, store| {
            builder.add_object_store(ObjectStore::new(store))
        });
        let rexie = builder.build().await.map_err(|e| idb_error(format!("open database {name}"), e))?;
        Ok(Self { connection: Rc::new(Connection(Some(rexie))), name: name.into() })
    }

    /// Deletes the database called `name` with everything in it. Open connections in this page are closed first
    /// (each one closes itself when asked); it waits for connections held by other tabs.
    pub async fn delete(name: &str) -> Result<(), StorageError> {
        Rexie::delete(name).await.map_err(|e| idb_error(format!("delete database {name}"), e))
    }

    /// The database's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub(crate) fn transaction(
        &self,
        stores: &[&str],
        mode: TransactionMode,
        operation: &str,
    ) -> Result<Transaction, StorageError> {
        let rexie = self.connection.0.as_ref().ok_or_else(|| StorageError::new(operation, "the database is closed"))?;
        rexie.transaction(stores, mode).map_err(|e| idb_error(operation, e))
    }
}

/// An IndexedDB failure, with the browser's own description (rexie's `Display` alone says only "idb error").
pub(crate) fn idb_error(operation: impl Into<String>, error: rexie::Error) -> StorageError {
    match error {
        rexie::Error::IdbError(inner) => StorageError::new(operation, inner),
        other => StorageError::new(operation, other),
    }
}

/// Waits for a read-write transaction and checks that it committed.
pub(crate) async fn commit(transaction: Transaction, operation: &str) -> Result<(), StorageError> {
    let result = transaction.done().await.map_err(|e| idb_error(operation, e))?;
    if result.is_committed() { Ok(()) } else { Err(StorageError::new(operation, "the transaction was aborted")) }
}

/// Aborts a transaction that must not commit. An error is ignored: it means the transaction already ended, and
/// an ended transaction that was not committed by us was aborted by the browser.
pub(crate) async fn abort(transaction: Transaction) {
    let _ = transaction.abort().await;
}

/// A value as a plain JavaScript object, for storing. It goes through JSON text: the host already carries a JSON
/// parser, and a second (serde) bridge for JavaScript values would add its code to every user's download.
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, String> {
    let text = serde_json::to_string(value).map_err(|e| e.to_string())?;
    js_sys::JSON::parse(&text).map_err(|_| "JSON.parse refused the text".to_owned())
}

/// A stored JavaScript value as JSON; an error for values JSON cannot hold (`undefined`, functions, `BigInt`).
pub(crate) fn from_js(value: JsValue) -> Result<serde_json::Value, String> {
    let text = js_sys::JSON::stringify(&value).map_err(|_| "not JSON-like: cannot be written as JSON".to_owned())?;
    let text = text.as_string().ok_or_else(|| format!("not JSON-like: {}", describe(&value)))?;
    mcp_worker_protocol::json::from_str(&text).map_err(|e| format!("not JSON-like: {e}"))
}

/// A record's key as text, or a description of it when it is not a string.
pub(crate) fn key_text(key: &JsValue) -> Result<String, String> {
    key.as_string().ok_or_else(|| describe(key))
}

/// A short description of a JavaScript value for error messages (its type, never its contents).
pub(crate) fn describe(value: &JsValue) -> String {
    value.js_typeof().as_string().unwrap_or_else(|| "a value".into())
}
