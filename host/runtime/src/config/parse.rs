//! Reading one server entry field by field, collecting every problem with the field's name.

use super::{ConfigError, Isolation, NetworkPolicy, ServerConfig, TransportConfig};
use crate::credentials::{CredentialDecl, EnvTemplate};
use litemap::LiteMap;
use mcp_worker_client::Protocol;
use mcp_worker_protocol::quoted::quoted;
use serde_json::{Map, Value};

/// Reads the entry `name` (its key under `mcpServers`, or its `name` field).
pub(crate) fn entry(name: &str, object: &Map<String, Value>) -> Result<ServerConfig, Vec<ConfigError>> {
    let mut fields = Fields { entry: name, object, errors: Vec::new() };
    fields.check_name();
    let transport = fields.transport();
    let enabled = fields.enabled();
    let credentials = fields.credentials();
    let env = fields.string_map("env");
    fields.check_references("env", &env);
    let timeout_ms = fields.timeout_ms();
    let allow_destructive_tools = fields.allow_destructive_tools();
    let auto_start = fields.bool("autoStart").unwrap_or(false);
    let resource_tool = fields.bool("resourceTool").unwrap_or(false);
    let protocol = fields.protocol();
    let isolation = fields.isolation();
    match transport {
        Some(transport) if fields.errors.is_empty() => Ok(ServerConfig {
            name: name.to_owned(),
            transport,
            enabled,
            credentials,
            env,
            timeout_ms,
            allow_destructive_tools,
            auto_start,
            resource_tool,
            protocol,
            isolation,
        }),
        _ => Err(fields.errors),
    }
}

/// The fields an entry may have, and where they are read.
const KNOWN_FIELDS: &[&str] = &[
    "name",
    "type",
    "workerUrl",
    "wasmUrl",
    "url",
    "serverUrl",
    "headers",
    "proxy",
    "command",
    "args",
    "env",
    "credentials",
    "network",
    "isolation",
    "enabled",
    "disabled",
    "timeoutMs",
    "allowDestructiveTools",
    "autoStart",
    "resourceTool",
    "protocol",
    "metadata",
];

/// The keys of an entry's `metadata` this host reads.
const KNOWN_METADATA: &[&str] = &["allowDestructiveTools"];

/// The keys of a credential declaration (`credentials[i]` as an object).
const KNOWN_DECLARATION: &[&str] = &["name", "description", "required"];

/// The fields of the entry `name` this host does not use (`metadata.<key>` for those under `metadata`,
/// `credentials[i].<key>` in a declaration), each as a problem that names it, with the field meant when it differs
/// only in case (`allowDestructivetools`). An import reports them and still imports the entry (other hosts'
/// configs carry fields of their own); [`crate::config::ServerConfig::from_input`] refuses them.
pub(crate) fn unknown_fields(name: &str, object: &Map<String, Value>) -> Vec<ConfigError> {
    let mut notes: Vec<ConfigError> =
        unknown_keys(object, KNOWN_FIELDS).map(|(key, message)| ConfigError::new(name, key, message)).collect();
    if let Some(Value::Object(metadata)) = object.get("metadata") {
        notes.extend(
            unknown_keys(metadata, KNOWN_METADATA)
                .map(|(key, message)| ConfigError::new(name, format!("metadata.{key}"), message)),
        );
    }
    if let Some(Value::Array(credentials)) = object.get("credentials") {
        for (i, declaration) in credentials.iter().enumerate() {
            let Value::Object(declaration) = declaration else { continue };
            notes.extend(
                unknown_keys(declaration, KNOWN_DECLARATION)
                    .map(|(key, message)| ConfigError::new(name, format!("credentials[{i}].{key}"), message)),
            );
        }
    }
    notes
}

/// The keys of `object` that are not in `known`, each with what to say of it.
fn unknown_keys<'a>(
    object: &'a Map<String, Value>,
    known: &'static [&'static str],
) -> impl Iterator<Item = (&'a str, String)> + 'a {
    object.keys().filter(|key| !known.contains(&key.as_str())).map(move |key| {
        let meant = known.iter().find(|field| field.eq_ignore_ascii_case(key));
        let message = match meant {
            Some(meant) => format!("is not a field this host knows: did you mean `{meant}`?"),
            None => "is not a field this host knows".to_owned(),
        };
        (key.as_str(), message)
    })
}

/// What a JSON value is, for messages: "a string", "a number", ….
pub(crate) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn is_env_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

struct Fields<'a> {
    entry: &'a str,
    object: &'a Map<String, Value>,
    errors: Vec<ConfigError>,
}

impl Fields<'_> {
    fn error(&mut self, field: impl Into<String>, message: impl Into<String>) {
        self.errors.push(ConfigError::new(self.entry, field, message));
    }

    fn wrong_type(&mut self, field: &str, expected: &str, found: &Value) {
        self.error(field, format!("expected {expected}, found {}", kind(found)));
    }

    fn check_name(&mut self) {
        if self.entry.trim().is_empty() {
            self.error("name", "must not be empty");
        } else if self.entry.trim() != self.entry {
            self.error("name", "must not start or end with whitespace");
        } else if self.entry.chars().any(char::is_control) {
            self.error("name", "must not contain control characters");
        }
    }

    fn string(&mut self, key: &str) -> Option<String> {
        match self.object.get(key)? {
            Value::String(s) => Some(s.clone()),
            other => {
                self.wrong_type(key, "a string", other);
                None
            }
        }
    }

    fn required_string(&mut self, key: &str, why: &str) -> Option<String> {
        match self.string(key) {
            Some(s) if s.trim().is_empty() => {
                self.error(key, "must not be empty");
                None
            }
            Some(s) => Some(s),
            None if !self.object.contains_key(key) => {
                self.error(key, format!("is required {why}"));
                None
            }
            None => None,
        }
    }

    /// `protocol`: which era to speak, `"auto"` (the default), `"2026-07-28"` or `"2025-11-25"`.
    fn protocol(&mut self) -> Protocol {
        match self.object.get("protocol") {
            None => Protocol::Auto,
            Some(Value::String(value)) if value == "auto" => Protocol::Auto,
            Some(Value::String(value)) if value == mcp_worker_client::protocol::modern::MODERN_PROTOCOL_VERSION => {
                Protocol::Modern
            }
            Some(Value::String(value)) if value == mcp_worker_client::protocol::version::LATEST_PROTOCOL_VERSION => {
                Protocol::Handshake
            }
            Some(other) => {
                self.wrong_type("protocol", r#""auto", "2026-07-28" or "2025-11-25""#, other);
                Protocol::Auto
            }
        }
    }

    /// `allowDestructiveTools`, or `metadata.allowDestructiveTools` as some hosts write it (the top-level field wins).
    fn allow_destructive_tools(&mut self) -> bool {
        if let Some(allow) = self.bool("allowDestructiveTools") {
            return allow;
        }
        match self.object.get("metadata") {
            None => false,
            Some(Value::Object(metadata)) => match metadata.get("allowDestructiveTools") {
                None => false,
                Some(Value::Bool(allow)) => *allow,
                Some(other) => {
                    self.wrong_type("metadata.allowDestructiveTools", "true or false", other);
                    false
                }
            },
            Some(other) => {
                self.wrong_type("metadata", "an object", other);
                false
            }
        }
    }

    fn bool(&mut self, key: &str) -> Option<bool> {
        match self.object.get(key)? {
            Value::Bool(b) => Some(*b),
            other => {
                self.wrong_type(key, "true or false", other);
                None
            }
        }
    }

    fn string_list(&mut self, key: &str) -> Vec<String> {
        let Some(value) = self.object.get(key) else { return Vec::new() };
        let Value::Array(items) = value else {
            self.wrong_type(key, "an array of strings", value);
            return Vec::new();
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            match item {
                Value::String(s) => out.push(s.clone()),
                other => self.wrong_type(&format!("{key}[{i}]"), "a string", other),
            }
        }
        out
    }

    /// `isolation` (`"sandbox"`, the default, or `"page"`) and `network` (the origins a sandboxed server may
    /// reach). A network list on a page-origin server is an error: it would promise a limit that does not hold.
    fn isolation(&mut self) -> Isolation {
        let network = self.string_list("network");
        let policy = match NetworkPolicy::allow(&network) {
            Ok(policy) => policy,
            Err(error) => {
                let index = network.iter().position(|entry| *entry == error.entry).unwrap_or_default();
                self.error(format!("network[{index}]"), error.to_string());
                NetworkPolicy::none()
            }
        };
        match self.string("isolation").as_deref() {
            None | Some("sandbox") => Isolation::Sandboxed(policy),
            Some("page") if network.is_empty() => Isolation::PageOrigin,
            Some("page") => {
                self.error("network", "a server on the page's origin can reach any origin the page can: drop `network`, or use `\"isolation\": \"sandbox\"`");
                Isolation::PageOrigin
            }
            Some(other) => {
                self.error("isolation", format!("expected \"sandbox\" or \"page\", found \"{other}\""));
                Isolation::default()
            }
        }
    }

    /// `credentials`: names, or declarations `{name, description?, required?}` as a bundle manifest writes them
    /// (a declaration without `required` is required).
    fn credentials(&mut self) -> Vec<CredentialDecl> {
        let Some(value) = self.object.get("credentials") else { return Vec::new() };
        let Value::Array(items) = value else {
            self.wrong_type("credentials", "an array of names or declarations", value);
            return Vec::new();
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let decl = match item {
                Value::String(name) => self
                    .credential_name(&format!("credentials[{i}]"), name)
                    .map(|name| CredentialDecl::required(name, "")),
                Value::Object(fields) => self.declaration(i, fields),
                other => {
                    self.wrong_type(&format!("credentials[{i}]"), "a name or {name, description, required}", other);
                    None
                }
            };
            out.extend(decl);
        }
        out
    }

    fn declaration(&mut self, i: usize, fields: &Map<String, Value>) -> Option<CredentialDecl> {
        let field = |key: &str| format!("credentials[{i}].{key}");
        let name = match fields.get("name") {
            Some(Value::String(name)) => self.credential_name(&field("name"), name),
            Some(other) => {
                self.wrong_type(&field("name"), "a string", other);
                None
            }
            None => {
                self.error(field("name"), "is required");
                None
            }
        };
        let description = match fields.get("description") {
            None => String::new(),
            Some(Value::String(text)) => text.clone(),
            Some(other) => {
                self.wrong_type(&field("description"), "a string", other);
                String::new()
            }
        };
        let required = match fields.get("required") {
            None => true,
            Some(Value::Bool(required)) => *required,
            Some(other) => {
                self.wrong_type(&field("required"), "true or false", other);
                true
            }
        };
        let name = name?;
        Some(if required {
            CredentialDecl::required(name, description)
        } else {
            CredentialDecl::optional(name, description)
        })
    }

    fn credential_name(&mut self, field: &str, name: &str) -> Option<String> {
        if is_env_name(name) {
            Some(name.to_owned())
        } else {
            self.error(field, format!("{name} is not a usable name (letters, digits, _)", name = quoted(name)));
            None
        }
    }

    /// `${NAME}` references in `env` and `headers` values must be well formed: a half-resolved value must never
    /// reach a server.
    fn check_references(&mut self, field: &str, values: &LiteMap<String, String>) {
        for (key, value) in values {
            if let Err(error) = EnvTemplate::parse(value) {
                self.error(format!("{field}.{key}"), error.to_string());
            }
        }
    }

    fn string_map(&mut self, key: &str) -> LiteMap<String, String> {
        let Some(value) = self.object.get(key) else { return LiteMap::new() };
        let Value::Object(entries) = value else {
            self.wrong_type(key, "an object of strings", value);
            return LiteMap::new();
        };
        let mut out = LiteMap::new();
        for (name, item) in entries {
            match item {
                Value::String(s) => {
                    out.insert(name.clone(), s.clone());
                }
                other => self.wrong_type(&format!("{key}.{name}"), "a string", other),
            }
        }
        out
    }

    fn timeout_ms(&mut self) -> Option<u32> {
        let value = self.object.get("timeoutMs")?;
        match value.as_u64() {
            Some(0) => {
                self.error("timeoutMs", "must be more than 0");
                None
            }
            Some(ms) => match u32::try_from(ms) {
                Ok(ms) => Some(ms),
                Err(_) => {
                    self.error("timeoutMs", format!("{ms} is too large (at most {})", u32::MAX));
                    None
                }
            },
            None => {
                self.wrong_type("timeoutMs", "a whole number of milliseconds", value);
                None
            }
        }
    }

    /// `enabled: bool`, or `disabled: bool` as Cline and Cursor write it; both present must agree.
    fn enabled(&mut self) -> bool {
        let enabled = self.bool("enabled");
        let disabled = self.bool("disabled");
        match (enabled, disabled) {
            (Some(e), Some(d)) if e == d => {
                self.error("disabled", "contradicts `enabled`");
                e
            }
            (Some(e), _) => e,
            (None, Some(d)) => !d,
            (None, None) => true,
        }
    }

    fn transport(&mut self) -> Option<TransportConfig> {
        let kind = match self.object.get("type") {
            None => self.infer_type()?,
            Some(Value::String(t)) => t.clone(),
            Some(other) => {
                let other = other.clone();
                self.wrong_type("type", "a string", &other);
                return None;
            }
        };
        match kind.as_str() {
            "wasm" | "worker" => {
                let worker_url = self.required_string("workerUrl", "for a wasm server");
                let wasm_url = self.string("wasmUrl");
                if let Some(url) = &wasm_url
                    && url.trim().is_empty()
                {
                    self.error("wasmUrl", "must not be empty");
                }
                Some(TransportConfig::Wasm { worker_url: worker_url?, wasm_url })
            }
            "http" | "streamable-http" | "streamableHttp" | "sse" => {
                let url = self.string("url").or_else(|| self.string("serverUrl"));
                let url = match url {
                    Some(url) if url.starts_with("https://") || url.starts_with("http://") => Some(url),
                    Some(url) => {
                        self.error("url", format!("{url} is not an http(s) URL", url = quoted(&url)));
                        None
                    }
                    None => {
                        if !self.object.contains_key("url") && !self.object.contains_key("serverUrl") {
                            self.error("url", "is required for an http server");
                        }
                        None
                    }
                };
                let headers = self.string_map("headers");
                self.check_references("headers", &headers);
                let proxy = self.string("proxy");
                if let Some(proxy) = &proxy {
                    let http = proxy.starts_with("https://") || proxy.starts_with("http://");
                    if !http || !proxy.contains("{url}") {
                        self.error(
                            "proxy",
                            format!(
                                "{proxy} is not an http(s) URL with {{url}} where the server's URL goes",
                                proxy = quoted(proxy)
                            ),
                        );
                    }
                }
                Some(TransportConfig::Http { url: url?, headers, legacy_sse: kind == "sse", proxy })
            }
            "stdio" => {
                let command = self.required_string("command", "for a stdio server");
                let args = self.string_list("args");
                Some(TransportConfig::Stdio { command: command?, args })
            }
            other => {
                self.error(
                    "type",
                    format!("unknown transport {other} (expected wasm, http or stdio)", other = quoted(other)),
                );
                None
            }
        }
    }

    /// Entries from desktop clients often have no `type`: it follows from the fields present.
    fn infer_type(&mut self) -> Option<String> {
        let object = self.object;
        let has = |key: &str| object.contains_key(key);
        if has("workerUrl") {
            Some("wasm".into())
        } else if has("url") || has("serverUrl") {
            Some("http".into())
        } else if has("command") {
            Some("stdio".into())
        } else {
            self.error("type", "cannot tell the transport: give `workerUrl` (wasm), `url` (http) or `command` (stdio)");
            None
        }
    }
}
