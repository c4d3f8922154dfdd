//! What the runtime keeps across page loads, as pure decisions: what a restore brings back into the manager and its
//! registry, and which write each change calls for. Where it is kept (IndexedDB) is the vault's part
//! (`mcp_worker_vault::state`).
//!
//! Values are stored as JSON in a versioned envelope ([`record`]); a record that cannot be read is reported in
//! [`Loaded::problems`] and skipped, never stopping the rest from loading.

mod error;
pub mod record;
mod thread;

pub use error::{StateError, StateResult, StorageError};
pub use record::{CorruptRecord, Loaded};
pub use thread::ThreadConfig;

use crate::config::ServerConfig;
use crate::manager::{ManagerEvent, McpTransportManager};
use crate::registry::{RegistryChange, ToolRegistry};
use litemap::LiteMap;
use mcp_worker_protocol::quoted::quoted;
use serde::Serialize;
use serde_json::Value;

/// What a restore brought back, and what it skipped.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct RestoreReport {
    /// Servers added to the manager, in name order.
    pub servers: Vec<String>,
    /// Threads whose enabled tools were restored, in id order.
    pub threads: Vec<String>,
    /// Records that could not be restored, and why. Everything else was restored without them.
    pub problems: Vec<CorruptRecord>,
}

/// Adds the stored servers to `manager` (a server that `autoStart`s starts; the others wait for first use, and
/// their credentials for an unlock) and sets the stored threads' enabled tools in its registry. Returns the report
/// and the configurations as stored, which the [`Saver`] starts from.
pub fn restore(
    manager: &McpTransportManager,
    servers: Loaded<Value>,
    threads: Loaded<ThreadConfig>,
    servers_store: &str,
) -> (RestoreReport, Vec<(String, Value)>) {
    let mut report = RestoreReport::default();
    report.problems.extend(servers.problems);
    report.problems.extend(threads.problems);
    let mut saved = Vec::new();
    for (key, value) in servers.items {
        let problem = |reason: String| CorruptRecord { store: servers_store.to_owned(), key: key.clone(), reason };
        let added = match ServerConfig::from_json(&value) {
            Err(errors) => Err(errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")),
            Ok(config) if config.name != key => Err(format!("holds the server {}", quoted(&config.name))),
            Ok(config) => {
                // Kept in the form the saver compares with, so that an older stored form is not rewritten for
                // nothing at the server's first status change.
                let canonical = config.to_json();
                manager.add(config).map(|()| canonical).map_err(|e| e.to_string())
            }
        };
        match added {
            Ok(canonical) => {
                report.servers.push(key.clone());
                saved.push((key, canonical));
            }
            Err(reason) => report.problems.push(problem(reason)),
        }
    }
    for (thread, config) in threads.items {
        manager.registry().set_thread_tools(&thread, config.enabled_tools);
        report.threads.push(thread);
    }
    (report, saved)
}

/// One write to the state database.
#[derive(Debug, Clone, PartialEq)]
pub enum Write {
    /// Store a server's configuration (this host's JSON form).
    Server {
        /// The server's name (the record's key).
        name: String,
        /// Its configuration as JSON.
        config: Value,
    },
    /// Forget a removed server.
    RemoveServer(String),
    /// Store a thread's enabled tools.
    Thread {
        /// The thread's id (the record's key).
        thread: String,
        /// The entries of its tool list.
        tools: Vec<String>,
    },
}

/// Decides which changes are written: a server's configuration when it differs from what was last written (added,
/// enabled, disabled), its removal, a thread's enabled tools. Status changes alone (connecting, connected, …)
/// write nothing.
#[derive(Debug, Default)]
pub struct Saver {
    saved: LiteMap<String, Value>,
}

impl Saver {
    /// A saver that knows what is stored already.
    pub fn new(saved: impl IntoIterator<Item = (String, Value)>) -> Self {
        // One at a time: a map collected from an iterator compiles a stable sort of its own.
        let mut map = LiteMap::new();
        for (key, value) in saved {
            map.insert(key, value);
        }
        Self { saved: map }
    }

    /// The write `event` calls for, if any.
    pub fn manager_event(&mut self, event: &ManagerEvent, manager: &McpTransportManager) -> Option<Write> {
        match event {
            ManagerEvent::Status { health } => {
                let config = manager.config(&health.name)?.to_json();
                if self.saved.get(&health.name) == Some(&config) {
                    return None;
                }
                self.saved.insert(health.name.clone(), config.clone());
                Some(Write::Server { name: health.name.clone(), config })
            }
            ManagerEvent::Removed { server } => {
                self.saved.remove(server);
                Some(Write::RemoveServer(server.clone()))
            }
            _ => None,
        }
    }

    /// The writes a registry change calls for: each changed thread's enabled tools.
    pub fn registry_change(&self, change: &RegistryChange, registry: &ToolRegistry) -> Vec<Write> {
        if change.threads.is_empty() {
            return Vec::new();
        }
        let enablement = registry.enablement();
        change
            .threads
            .iter()
            .filter_map(|thread| {
                let tools = enablement.enabled(thread)?.into_iter().map(str::to_owned).collect();
                Some(Write::Thread { thread: thread.clone(), tools })
            })
            .collect()
    }
}

#[cfg(test)]
#[path = "persist_tests.rs"]
mod tests;
