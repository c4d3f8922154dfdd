//! An `mcpServers` document applied to the manager: each valid entry added or changed in place, and with
//! `remove_missing` the servers it does not name removed, so that a config file read again is a reload.

use super::{ConfigChange, McpTransportManager};
use crate::config::{ConfigError, McpServersImport};

/// What [`McpTransportManager::apply_import`] did, server by server.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ImportReport {
    /// Servers that were not there before.
    pub added: Vec<String>,
    /// Servers whose config the document changed.
    pub changed: Vec<String>,
    /// Servers whose config was already the document's.
    pub unchanged: Vec<String>,
    /// Servers the document does not name, removed (only with `remove_missing`).
    pub removed: Vec<String>,
    /// The entries left out, one problem each (the document's own, then those the manager refused).
    pub errors: Vec<ConfigError>,
    /// Fields of the entries that this host does not use (the entries themselves were applied).
    pub ignored: Vec<ConfigError>,
}

impl McpTransportManager {
    /// Applies an import: each valid server is [`update`](Self::update)d (added, changed in place, or left as it
    /// is), and with `remove_missing` every server the document does not name is removed. A server the document
    /// names in an entry with problems is not removed: its entry is reported in `errors`, and the server keeps the
    /// config it had.
    pub fn apply_import(&self, import: McpServersImport, remove_missing: bool) -> ImportReport {
        let mut report = ImportReport { errors: import.errors, ignored: import.ignored, ..ImportReport::default() };
        let mut named: Vec<String> = report.errors.iter().map(|error| error.entry.clone()).collect();
        for config in import.servers {
            let name = config.name.clone();
            named.push(name.clone());
            match self.update(config) {
                Ok(ConfigChange::Added) => report.added.push(name),
                Ok(ConfigChange::Changed) => report.changed.push(name),
                Ok(ConfigChange::Unchanged) => report.unchanged.push(name),
                Err(error) => report.errors.push(ConfigError::new(name, "", error.to_string())),
            }
        }
        if remove_missing {
            for health in self.health_all() {
                if !named.contains(&health.name) && self.remove(&health.name).is_ok() {
                    report.removed.push(health.name);
                }
            }
        }
        report
    }
}
