//! The `mcpServers` JSON of Claude Desktop, Cursor and others, with this host's `wasm` entries added.
//!
//! ```json
//! { "mcpServers": {
//!     "echo":   { "type": "wasm", "workerUrl": "/bundles/echo/bootstrap.js" },
//!     "remote": { "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer …" } },
//!     "files":  { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] } } }
//! ```
//!
//! Entries without `type` get it from their fields (`workerUrl` → wasm, `url` → http, `command` → stdio).
//! Fields this host does not know (`autoApprove`, …) are ignored, so a file written for another client imports.

use super::{ConfigError, ServerConfig, parse};
use serde_json::Value;

/// What an import found: the entries that are valid, and one error per problem in the others.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct McpServersImport {
    /// Valid entries, in name order.
    pub servers: Vec<ServerConfig>,
    /// Problems; each names its entry and field. An entry with any problem is not in `servers`.
    pub errors: Vec<ConfigError>,
}

/// Reads an `mcpServers` document. Fails as a whole only when the text is not JSON or has no `mcpServers` object;
/// otherwise each entry is accepted or rejected on its own.
pub fn import_mcp_servers(text: &str) -> Result<McpServersImport, ConfigError> {
    let document: Value =
        serde_json::from_str(text).map_err(|e| ConfigError::new("", "", format!("not valid JSON: {e}")))?;
    let Some(root) = document.as_object() else {
        return Err(ConfigError::new("", "", format!("expected an object, found {}", parse::kind(&document))));
    };
    let servers = match root.get("mcpServers") {
        Some(Value::Object(servers)) => servers,
        Some(other) => {
            return Err(ConfigError::new(
                "",
                "mcpServers",
                format!("expected an object, found {}", parse::kind(other)),
            ));
        }
        None => return Err(ConfigError::new("", "mcpServers", "is missing")),
    };
    let mut import = McpServersImport::default();
    for (name, entry) in servers {
        let Some(object) = entry.as_object() else {
            let message = format!("expected an object, found {}", parse::kind(entry));
            import.errors.push(ConfigError::new(name.as_str(), "", message));
            continue;
        };
        match parse::entry(name, object) {
            Ok(config) => import.servers.push(config),
            Err(errors) => import.errors.extend(errors),
        }
    }
    Ok(import)
}
