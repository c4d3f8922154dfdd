//! The `mcpServers` JSON of Claude Desktop, Cursor and others, with this host's `wasm` entries added.
//!
//! ```json
//! { "mcpServers": {
//!     "echo":   { "type": "wasm", "workerUrl": "/bundles/echo/bootstrap.js" },
//!     "remote": { "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer …" } },
//!     "files":  { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] } } }
//! ```
//!
//! The map of servers may also be the whole document (`{"echo": {…}, "remote": {…}}`, as some hosts keep their
//! servers), or under `servers` (`{"servers": {…}}`, as VS Code writes it).
//!
//! Entries without `type` get it from their fields (`workerUrl` → wasm, `url` → http, `command` → stdio).
//! `metadata.allowDestructiveTools` is read as `allowDestructiveTools`. Fields this host does not know
//! (`autoApprove`, `cwd`, …) do not stop an entry, so a file written for another client imports; each is reported
//! in [`McpServersImport::ignored`].
//!
//! `${NAME}` references in an entry's `env` (`"env": {"API_KEY": "${API_KEY}"}`) and `headers` name credentials of
//! that server: the import declares them in the entry's `credentials` (required unless the reference has a
//! `:-fallback`), so a missing one puts the server in `needs_credentials`, and the manager resolves them from the
//! vault at each start. Literal values can be moved into the vault before the servers are added
//! ([`McpServersImport::take_literals`]).

use super::TransportConfig;
use super::{ConfigError, ServerConfig, parse};
use crate::credentials::{
    CredentialDecl, CredentialError, env_declarations, header_declarations, normalize as normalize_declarations,
};
use serde_json::Value;
use zeroize::Zeroize;

/// What an import found: the entries that are valid, and one error per problem in the others.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct McpServersImport {
    /// Valid entries, in name order.
    pub servers: Vec<ServerConfig>,
    /// Problems; each names its entry and field. An entry with any problem is not in `servers`.
    pub errors: Vec<ConfigError>,
    /// Fields of the entries that this host does not use, each named with its entry (the entry itself imports).
    pub ignored: Vec<ConfigError>,
}

/// Reads an `mcpServers` document (or a bare map of servers). Fails as a whole only when the text is not a JSON
/// object, or its `mcpServers` is not an object; otherwise each entry is accepted or rejected on its own.
pub fn import_mcp_servers(text: &str) -> Result<McpServersImport, ConfigError> {
    let mut document: Value = mcp_worker_protocol::json::from_str(text)
        .map_err(|e| ConfigError::new("", "", format!("not valid JSON: {e}")))?;
    let import = read_document(&document);
    // The document may hold secrets in the clear (an API key in an `env`): its copy is wiped, leaving the
    // configs' (which `McpServersImport::take_literals` can move into a vault).
    wipe(&mut document);
    import
}

fn read_document(document: &Value) -> Result<McpServersImport, ConfigError> {
    let Some(root) = document.as_object() else {
        return Err(ConfigError::new("", "", format!("expected an object, found {}", parse::kind(document))));
    };
    let servers = match (root.get("mcpServers"), root.get("servers")) {
        (Some(Value::Object(servers)), _) => servers,
        (Some(other), _) => {
            return Err(ConfigError::new(
                "",
                "mcpServers",
                format!("expected an object, found {}", parse::kind(other)),
            ));
        }
        // VS Code's `{"servers": {…}}`; a server named "servers" in a bare map has other servers beside it.
        (None, Some(Value::Object(servers))) if root.len() == 1 && servers.values().all(Value::is_object) => servers,
        (None, _) => root,
    };
    if servers.is_empty() {
        return Err(ConfigError::new("", "mcpServers", "lists no servers"));
    }
    let mut import = McpServersImport::default();
    for (name, entry) in servers {
        let Some(object) = entry.as_object() else {
            let message = format!("expected an object (a server's config), found {}", parse::kind(entry));
            import.errors.push(ConfigError::new(name.as_str(), "", message));
            continue;
        };
        import.ignored.extend(parse::unknown_fields(name, object));
        match parse::entry(name, object).and_then(declare_references) {
            Ok(config) => import.servers.push(config),
            Err(errors) => import.errors.extend(errors),
        }
    }
    Ok(import)
}

/// Overwrites every string of `value` (keys are left: names, not secrets).
fn wipe(value: &mut Value) {
    match value {
        Value::String(text) => text.zeroize(),
        Value::Array(items) => items.iter_mut().for_each(wipe),
        Value::Object(fields) => fields.values_mut().for_each(wipe),
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// Adds the credentials that the entry's `env` and `headers` refer to to its declared `credentials`.
fn declare_references(mut config: ServerConfig) -> Result<ServerConfig, Vec<ConfigError>> {
    let pairs =
        |map: &litemap::LiteMap<String, String>| map.iter().map(|(k, v)| (k.clone(), v.clone())).collect::<Vec<_>>();
    let mut env = pairs(&config.env);
    let name = config.name.clone();
    let problem = move |e: CredentialError| vec![ConfigError::new(name.as_str(), "env", e.to_string())];
    let mut references = env_declarations(&env);
    if let TransportConfig::Http { headers, .. } = &config.transport {
        let mut headers = pairs(headers);
        let found = header_declarations(&headers);
        headers.iter_mut().for_each(|(_, value)| value.zeroize());
        references = references.and_then(|mut references| {
            references.extend(found?);
            Ok(references)
        });
    }
    // Copies of values that may be secrets: wiped.
    env.iter_mut().for_each(|(_, value)| value.zeroize());
    let references = references.map_err(&problem)?;
    if !references.is_empty() {
        let all: Vec<CredentialDecl> = config.credentials.iter().cloned().chain(references).collect();
        config.credentials = normalize_declarations(&all).map_err(&problem)?;
    }
    Ok(config)
}
