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

// The pure parts are used by the browser-only manager; natively they are compiled for their tests.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code, reason = "used by the wasm32-only manager"))]

#[cfg(target_arch = "wasm32")]
pub(crate) mod database;
mod error;
#[cfg(target_arch = "wasm32")]
mod manager;
#[cfg(target_arch = "wasm32")]
mod persistence;
mod record;
mod sync;
mod thread;

#[cfg(target_arch = "wasm32")]
pub use database::{Database, SCHEMA_VERSION};
pub use error::{StateError, StateResult, StorageError};
#[cfg(target_arch = "wasm32")]
pub use manager::{Collection, StateManager, Threads};
#[cfg(target_arch = "wasm32")]
pub use persistence::Persistence;
pub use record::{CorruptRecord, Loaded};
pub use sync::RestoreReport;
pub use thread::ThreadConfig;
