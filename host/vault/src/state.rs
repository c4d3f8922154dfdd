//! What the runtime remembers across page loads, in one IndexedDB database: server configurations, per-server
//! settings and thread configurations (`enabledTools`) here, and the encrypted credentials in
//! [`crate::credentials`]. A reloaded page opens the same database and gets the same servers, the same enablement,
//! and the same credentials, still locked.
//!
//! Values are stored as JSON in a versioned envelope. Server configurations and settings are generic
//! (`T: Serialize + DeserializeOwned`), so this module does not depend on any one configuration type. A record that
//! cannot be read is reported in [`Loaded::problems`] and skipped; it never stops the rest from loading.
//!
//! ```ignore
//! let db = Database::open("mcp-worker").await?;
//! let state = StateManager::new(&db);
//! state.servers().put("echo", &config).await?;
//! state.threads().enable_tools("thread-1", &["mcp__echo__echo"]).await?;
//! // after a reload:
//! let servers: Loaded<MyConfig> = state.servers().load_all().await?;
//! ```
//!
//! A manager is kept in the database by [`Persistence::attach`]: it restores the stored servers (with their
//! enablement) and every thread's enabled tools, reports what it skipped ([`RestoreReport`]), and from then on
//! writes each server added, removed, enabled or disabled and each change of a thread's enabled tools.

pub(crate) mod database;
mod manager;
mod persistence;

pub use database::{Database, SCHEMA_VERSION};
pub use manager::{Collection, StateManager, Threads};
pub use mcp_worker_runtime::persist::{
    CorruptRecord, Loaded, RestoreReport, StateError, StateResult, StorageError, ThreadConfig,
};
pub use persistence::Persistence;
