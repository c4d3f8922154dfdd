//! Server configurations: what to start, how, and with which limits.
//!
//! A [`ServerConfig`] is built in Rust ([`ServerConfig::wasm`] and its setters), read from this host's own JSON
//! form ([`ServerConfig::from_json`]), or imported from the `mcpServers` JSON that Claude Desktop and Cursor users
//! already have ([`import_mcp_servers`]). Every entry is checked field by field; an error names the entry and the
//! field, and one bad entry never hides the good ones.

mod literals;
mod mcp_servers;
mod parse;

pub use literals::ImportedCredential;
pub use mcp_servers::{McpServersImport, import_mcp_servers};

use crate::credentials::{CredentialDecl, ServerIdentity};
use litemap::LiteMap;
use mcp_worker_client::Protocol;
pub use mcp_worker_client::sandbox::{InvalidOrigin, Isolation, NetworkPolicy};
use mcp_worker_protocol::quoted::quoted;
use serde_json::{Map, Value, json};
use std::fmt;

/// How the host reaches a server.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TransportConfig {
    /// A server compiled to WebAssembly, run in a module Web Worker (`type: "wasm"`).
    Wasm {
        /// URL of the bundle's worker script (its `bootstrap.js`).
        worker_url: String,
        /// URL of the bundle's `.wasm`, compiled once by the host and shared by every worker of the bundle.
        /// When absent and `worker_url` ends in `bootstrap.js`, the sibling `server_bg.wasm` is tried.
        wasm_url: Option<String>,
    },
    /// A remote server over Streamable HTTP (`type: "http"`), or the older HTTP+SSE transport (`"sse"`).
    Http {
        /// The endpoint.
        url: String,
        /// Headers sent with each request (may hold secrets: never shown by `Debug`).
        headers: LiteMap<String, String>,
        /// Whether the entry asked for the legacy HTTP+SSE transport.
        legacy_sse: bool,
        /// A proxy the requests go through: a URL with `{url}` where the server's URL goes, percent-encoded
        /// (`http://127.0.0.1:8080/proxy?url={url}`). The proxy receives the headers too: only one the user runs.
        proxy: Option<String>,
    },
    /// A local process (`command` and `args`), as desktop clients run servers. Kept in configuration so that an
    /// imported file loses nothing, but a browser cannot start processes: reported as unsupported.
    Stdio {
        /// The program.
        command: String,
        /// Its arguments.
        args: Vec<String>,
    },
}

impl TransportConfig {
    /// The `type` as this host writes it: `wasm`, `http` or `stdio`.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Wasm { .. } => "wasm",
            Self::Http { .. } => "http",
            Self::Stdio { .. } => "stdio",
        }
    }

    /// The code this transport runs, which the server's credentials are bound to: a bundle's URLs, a remote
    /// server's endpoint, a process's command line. Headers and environment are not part of it.
    pub fn identity(&self) -> ServerIdentity {
        match self {
            Self::Wasm { worker_url, wasm_url } => ServerIdentity::bundle(worker_url.clone(), wasm_url.clone()),
            Self::Http { url, .. } => ServerIdentity::remote(url.clone()),
            Self::Stdio { command, args } => ServerIdentity::command(command.clone(), args.clone()),
        }
    }

    /// Why this host cannot run a server over this transport, if it cannot.
    pub fn unavailable_reason(&self) -> Option<&'static str> {
        match self {
            Self::Wasm { .. } => None,
            Self::Http { .. } => None,
            Self::Stdio { .. } => Some("stdio servers are local processes, which a browser cannot start"),
        }
    }
}

impl fmt::Debug for TransportConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Wasm { worker_url, wasm_url } => {
                f.debug_struct("Wasm").field("worker_url", worker_url).field("wasm_url", wasm_url).finish()
            }
            Self::Http { url, headers, legacy_sse, proxy } => f
                .debug_struct("Http")
                .field("url", url)
                .field("headers", &headers.keys().collect::<Vec<_>>())
                .field("legacy_sse", legacy_sse)
                .field("proxy", proxy)
                .finish(),
            Self::Stdio { command, args } => {
                f.debug_struct("Stdio").field("command", command).field("args", args).finish()
            }
        }
    }
}

/// One server: its name, transport and the limits the host applies to it.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ServerConfig {
    /// Unique name; tools are registered as `mcp__{name}__{tool}` (sanitized).
    pub name: String,
    /// How to reach it.
    pub transport: TransportConfig,
    /// Whether the host may start it (default true).
    pub enabled: bool,
    /// The credentials it needs beyond what its bundle manifest declares; each is handed to the server in its
    /// environment under its name. (The manager adds the manifest's and those `env` refers to: see
    /// [`crate::credentials::server_declarations`].)
    pub credentials: Vec<CredentialDecl>,
    /// Values for its environment; a stdio entry's `env`. `${NAME}` and `${NAME:-fallback}` in a value refer to the
    /// server's credential `NAME`, resolved at each start. Never shown by `Debug`.
    pub env: LiteMap<String, String>,
    /// Default timeout of each tool call (the host's default, 60 s, when absent).
    pub timeout_ms: Option<u32>,
    /// Whether tools that may be destructive are shown to agents (default false).
    pub allow_destructive_tools: bool,
    /// Start when added (true) or at first use (false, the default).
    pub auto_start: bool,
    /// Gives agents a `read_resource` tool for the server's resources, when it offers any (default false).
    pub resource_tool: bool,
    /// Which protocol era to speak (JSON `protocol`): MCP 2026-07-28 when the server does, else the `initialize`
    /// handshake (`"auto"`, the default); only 2026-07-28 (`"2026-07-28"`); only the handshake (`"2025-11-25"`).
    pub protocol: Protocol,
    /// Where its worker runs: in its own origin with the network origins given here and in its bundle's
    /// manifest (the default, with none), or on the page's origin (JSON `"isolation": "page"`), which only a server
    /// the app trusts like its own code should get.
    pub isolation: Isolation,
}

impl fmt::Debug for ServerConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServerConfig")
            .field("name", &self.name)
            .field("transport", &self.transport)
            .field("enabled", &self.enabled)
            .field("credentials", &self.credentials.iter().map(|d| d.name.as_str()).collect::<Vec<_>>())
            .field("env", &self.env.keys().collect::<Vec<_>>())
            .field("timeout_ms", &self.timeout_ms)
            .field("allow_destructive_tools", &self.allow_destructive_tools)
            .field("auto_start", &self.auto_start)
            .field("resource_tool", &self.resource_tool)
            .field("protocol", &self.protocol)
            .field("isolation", &self.isolation)
            .finish()
    }
}

impl ServerConfig {
    /// A server with a transport and the defaults: enabled, lazy, no credentials, destructive tools hidden.
    pub fn new(name: impl Into<String>, transport: TransportConfig) -> Self {
        Self {
            name: name.into(),
            transport,
            enabled: true,
            credentials: Vec::new(),
            env: LiteMap::new(),
            timeout_ms: None,
            allow_destructive_tools: false,
            auto_start: false,
            resource_tool: false,
            protocol: Protocol::Auto,
            isolation: Isolation::default(),
        }
    }

    /// Sets the protocol era to speak (see [`ServerConfig::protocol`]).
    #[must_use]
    pub fn protocol(mut self, protocol: Protocol) -> Self {
        self.protocol = protocol;
        self
    }

    /// A wasm server whose worker script (the bundle's `bootstrap.js`) is at `worker_url`.
    pub fn wasm(name: impl Into<String>, worker_url: impl Into<String>) -> Self {
        Self::new(name, TransportConfig::Wasm { worker_url: worker_url.into(), wasm_url: None })
    }

    /// Sets the bundle's `.wasm` URL (wasm servers only; ignored otherwise).
    #[must_use]
    pub fn wasm_url(mut self, url: impl Into<String>) -> Self {
        if let TransportConfig::Wasm { wasm_url, .. } = &mut self.transport {
            *wasm_url = Some(url.into());
        }
        self
    }

    /// Enables or disables the server.
    #[must_use]
    pub fn enabled(mut self, enabled: bool) -> Self {
        self.enabled = enabled;
        self
    }

    /// Declares a credential the server needs (required, without description).
    #[must_use]
    pub fn credential(mut self, name: impl Into<String>) -> Self {
        self.credentials.push(CredentialDecl::required(name, ""));
        self
    }

    /// Declares a credential with its description and whether the server needs it to start.
    #[must_use]
    pub fn declare(mut self, credential: CredentialDecl) -> Self {
        self.credentials.push(credential);
        self
    }

    /// Adds a plain environment value.
    #[must_use]
    pub fn env(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.env.insert(name.into(), value.into());
        self
    }

    /// Sets the default timeout of each tool call.
    #[must_use]
    pub fn timeout_ms(mut self, ms: u32) -> Self {
        self.timeout_ms = Some(ms);
        self
    }

    /// Shows (true) or hides (false) tools that may be destructive.
    #[must_use]
    pub fn allow_destructive_tools(mut self, allow: bool) -> Self {
        self.allow_destructive_tools = allow;
        self
    }

    /// Starts the server when it is added (true) or at first use (false).
    #[must_use]
    pub fn auto_start(mut self, auto_start: bool) -> Self {
        self.auto_start = auto_start;
        self
    }

    /// Gives agents (true) or not (false) a `read_resource` tool for the server's resources.
    #[must_use]
    pub fn resource_tool(mut self, enabled: bool) -> Self {
        self.resource_tool = enabled;
        self
    }

    /// Where the server runs, as health and status events say it: `sandbox` or `page` for a worker, `remote` for a
    /// server over HTTP (whatever its `isolation`, which only workers use).
    pub fn isolation_label(&self) -> &'static str {
        match self.transport {
            TransportConfig::Http { .. } => "remote",
            _ => self.isolation.label(),
        }
    }

    /// Where the server's worker runs (see [`ServerConfig::isolation`]).
    #[must_use]
    pub fn isolation(mut self, isolation: Isolation) -> Self {
        self.isolation = isolation;
        self
    }

    /// Reads one server from this host's JSON form (`{"name", "type", "workerUrl", …}`). Every problem is
    /// reported, each naming the field.
    pub fn from_json(value: &Value) -> Result<Self, Vec<ConfigError>> {
        let Some(object) = value.as_object() else {
            return Err(vec![ConfigError::new("", "", format!("expected an object, found {}", parse::kind(value)))]);
        };
        let name = match object.get("name") {
            Some(Value::String(name)) => name.clone(),
            Some(other) => {
                return Err(vec![ConfigError::new(
                    "",
                    "name",
                    format!("expected a string, found {}", parse::kind(other)),
                )]);
            }
            None => return Err(vec![ConfigError::new("", "name", "is required")]),
        };
        parse::entry(&name, object)
    }

    /// Reads one server as an application gives it (`addServer`, `updateServer`): [`ServerConfig::from_json`], and
    /// a field this host does not know is an error too, naming the field meant when it differs only in case. A
    /// typo such as `allowDestructivetools` would otherwise change nothing without a word. (An `mcpServers` import
    /// reports such fields and still imports the entry: other hosts' configs carry fields of their own.)
    pub fn from_input(value: &Value) -> Result<Self, Vec<ConfigError>> {
        let read = Self::from_json(value);
        let Some(object) = value.as_object() else { return read };
        let name = object.get("name").and_then(Value::as_str).unwrap_or_default();
        let unknown = parse::unknown_fields(name, object);
        match read {
            Ok(config) if unknown.is_empty() => Ok(config),
            Ok(_) => Err(unknown),
            Err(mut errors) => {
                errors.extend(unknown);
                Err(errors)
            }
        }
    }

    /// This host's JSON form of the server; [`ServerConfig::from_json`] reads it back.
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        out.insert("name".into(), json!(self.name));
        out.insert("type".into(), json!(self.transport.kind()));
        match &self.transport {
            TransportConfig::Wasm { worker_url, wasm_url } => {
                out.insert("workerUrl".into(), json!(worker_url));
                if let Some(url) = wasm_url {
                    out.insert("wasmUrl".into(), json!(url));
                }
            }
            TransportConfig::Http { url, headers, legacy_sse, proxy } => {
                if *legacy_sse {
                    out.insert("type".into(), json!("sse"));
                }
                out.insert("url".into(), json!(url));
                if !headers.is_empty() {
                    out.insert("headers".into(), string_object(headers));
                }
                if let Some(proxy) = proxy {
                    out.insert("proxy".into(), json!(proxy));
                }
            }
            TransportConfig::Stdio { command, args } => {
                out.insert("command".into(), json!(command));
                out.insert("args".into(), json!(args));
            }
        }
        out.insert("enabled".into(), json!(self.enabled));
        if !self.credentials.is_empty() {
            // A required credential without description is written as its name, as people write it by hand.
            let credentials: Vec<Value> = self
                .credentials
                .iter()
                .map(|d| if d.required && d.description.is_empty() { json!(d.name) } else { json!(d) })
                .collect();
            out.insert("credentials".into(), Value::Array(credentials));
        }
        if !self.env.is_empty() {
            out.insert("env".into(), string_object(&self.env));
        }
        if let Some(ms) = self.timeout_ms {
            out.insert("timeoutMs".into(), json!(ms));
        }
        out.insert("allowDestructiveTools".into(), json!(self.allow_destructive_tools));
        out.insert("autoStart".into(), json!(self.auto_start));
        if self.resource_tool {
            out.insert("resourceTool".into(), json!(true));
        }
        match self.protocol {
            Protocol::Modern => {
                out.insert("protocol".into(), json!(mcp_worker_client::protocol::modern::MODERN_PROTOCOL_VERSION));
            }
            Protocol::Handshake => {
                out.insert("protocol".into(), json!(mcp_worker_client::protocol::version::LATEST_PROTOCOL_VERSION));
            }
            _ => {}
        }
        out.insert("isolation".into(), json!(self.isolation.label()));
        if let Isolation::Sandboxed(network) = &self.isolation
            && !network.is_none()
        {
            out.insert("network".into(), json!(network.origins()));
        }
        Value::Object(out)
    }

    /// Checks what the setters cannot: a usable name and transport. [`crate::manager`] refuses configs that fail.
    pub fn validate(&self) -> Result<(), Vec<ConfigError>> {
        parse::entry(&self.name, self.to_json().as_object().unwrap_or(&Map::new())).map(|_| ())
    }
}

/// A problem with one field of one server entry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.describe())]
#[non_exhaustive]
pub struct ConfigError {
    /// The entry's name (the key under `mcpServers`), or empty when the problem is outside any entry.
    pub entry: String,
    /// The field, e.g. `args[1]` or `headers.Authorization`; empty when the entry itself is wrong.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl ConfigError {
    pub(crate) fn new(entry: impl Into<String>, field: impl Into<String>, message: impl Into<String>) -> Self {
        Self { entry: entry.into(), field: field.into(), message: message.into() }
    }

    fn describe(&self) -> String {
        match (self.entry.is_empty(), self.field.is_empty()) {
            (true, true) => self.message.clone(),
            (true, false) => format!("{}: {}", self.field, self.message),
            (false, true) => format!("server {}: {}", quoted(&self.entry), self.message),
            (false, false) => format!("server {}, field {}: {}", quoted(&self.entry), self.field, self.message),
        }
    }
}

/// Serializes as [`ServerConfig::to_json`], so a config can be stored and read back as it is written by hand.
impl serde::Serialize for ServerConfig {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(serializer)
    }
}

/// Reads [`ServerConfig::from_json`]'s form; every problem is in the error message.
impl<'de> serde::Deserialize<'de> for ServerConfig {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Self::from_json(&value).map_err(|errors| {
            let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
            serde::de::Error::custom(shown.join("; "))
        })
    }
}

#[cfg(test)]
#[path = "config_tests.rs"]
mod tests;

/// Names and their strings as a JSON object.
fn string_object(map: &LiteMap<String, String>) -> Value {
    // Inserted one by one: a JSON object collected from an iterator links a stable sort of its members.
    let mut object = serde_json::Map::new();
    for (name, value) in map.iter() {
        object.insert(name.clone(), Value::String(value.clone()));
    }
    Value::Object(object)
}
