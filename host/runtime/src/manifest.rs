//! A bundle's `manifest.json` (format in docs/wire-protocol.md): what the host needs to know about a server before
//! it starts it, above all which credentials to ask the user for and hand over in `connect.env`.
//!
//! The manifest sits beside the worker script ([`manifest_url`]). The manager fetches it before each start of a
//! wasm server (`manager::browser` does the fetch); a bundle without one (a 404: a JavaScript server, say) declares
//! nothing. A manifest that is there but cannot be read is an error that names the server, never silently ignored:
//! a server whose secrets the host did not know about would start without them.

#[cfg(target_arch = "wasm32")]
pub(crate) mod fetch;

use crate::config::NetworkPolicy;
use crate::credentials::CredentialDecl;
use mcp_worker_protocol::quoted::quoted;
use serde_json::{Map, Value};
use std::collections::HashSet;

/// The longest credential name a manifest may declare.
const MAX_CREDENTIAL_NAME: usize = 128;

/// What a bundle says about its server.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct BundleManifest {
    /// The server's name (`serverInfo.name`).
    pub name: String,
    /// Its version (`serverInfo.version`).
    pub version: String,
    /// Its display name, if it has one.
    pub title: Option<String>,
    /// The secrets it declares, in declaration order.
    pub credentials: Vec<CredentialDecl>,
    /// The network origins it needs (`network`: `["https://api.example.com"]`); a sandboxed server reaches these
    /// and those of its config, nothing else.
    pub network: NetworkPolicy,
    /// The tools it lists when it starts, as its build recorded them: registered before a lazy server starts, so
    /// that agents can call them (which starts it). Bounded by the registry's limits like any list. A tool that
    /// cannot be read is left out: it is a preview, and the server's own `tools/list` is what counts once it starts.
    pub tools: Vec<mcp_worker_protocol::Tool>,
}

impl BundleManifest {
    /// Reads and checks a manifest. The error says what is wrong (never quoting more than names and types).
    pub fn parse(text: &str) -> Result<Self, String> {
        if text.trim_start().starts_with('<') {
            return Err("this is an HTML page, not a manifest: is `workerUrl` right? (a dev server answers a path it \
                        does not have with its index.html)"
                .into());
        }
        let value: Value = mcp_worker_protocol::json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        let Value::Object(object) = value else { return Err("not a JSON object".into()) };
        let name = non_empty(&object, "name")?;
        let version = non_empty(&object, "version")?;
        let title = match object.get("title") {
            None | Some(Value::Null) => None,
            Some(Value::String(title)) => Some(title.clone()),
            Some(_) => return Err("`title` is not a string".into()),
        };
        // Documented as always present; a hand-written manifest without it declares nothing, which is unambiguous.
        let credentials = match object.get("credentials") {
            None => Vec::new(),
            Some(Value::Array(entries)) => credentials(entries)?,
            Some(_) => return Err("`credentials` is not an array".into()),
        };
        let network = match object.get("network") {
            None => NetworkPolicy::none(),
            Some(Value::Array(entries)) => {
                let mut origins = Vec::with_capacity(entries.len());
                for (i, entry) in entries.iter().enumerate() {
                    let Value::String(origin) = entry else { return Err(format!("network[{i}] is not a string")) };
                    origins.push(origin.as_str());
                }
                NetworkPolicy::allow(origins).map_err(|e| format!("network: {e}"))?
            }
            Some(_) => return Err("`network` is not an array".into()),
        };
        let tools = match object.get("tools") {
            None => Vec::new(),
            // Read again from the text, tool by tool, as tools/list results are: one way of reading a tool.
            Some(Value::Array(_)) => {
                let listed =
                    mcp_worker_protocol::json::from_str::<Tools<'_>>(text).map_err(|e| format!("`tools`: {e}"))?.tools;
                listed.iter().filter_map(|tool| mcp_worker_protocol::json::from_str(tool.get()).ok()).collect()
            }
            Some(_) => return Err("`tools` is not an array".into()),
        };
        Ok(Self { name, version, title, credentials, network, tools })
    }
}

/// The `tools` of a manifest, each as its text.
#[derive(serde::Deserialize)]
struct Tools<'a> {
    #[serde(borrow)]
    tools: Vec<&'a serde_json::value::RawValue>,
}

fn non_empty(object: &Map<String, Value>, key: &str) -> Result<String, String> {
    match object.get(key) {
        Some(Value::String(text)) if !text.trim().is_empty() => Ok(text.clone()),
        Some(Value::String(_)) => Err(format!("`{key}` is empty")),
        Some(_) => Err(format!("`{key}` is not a string")),
        None => Err(format!("`{key}` is missing")),
    }
}

fn credentials(entries: &[Value]) -> Result<Vec<CredentialDecl>, String> {
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        let Value::Object(fields) = entry else { return Err(format!("credentials[{i}] is not an object")) };
        let name = match fields.get("name") {
            Some(Value::String(name)) if is_credential_name(name) => name.clone(),
            Some(Value::String(name)) => {
                return Err(format!(
                    "credentials[{i}].name {name} is not a usable name (1-{MAX_CREDENTIAL_NAME} of A-Z a-z 0-9 _, \
                     not starting with a digit)",
                    name = quoted(name)
                ));
            }
            Some(_) => return Err(format!("credentials[{i}].name is not a string")),
            None => return Err(format!("credentials[{i}].name is missing")),
        };
        if !seen.insert(name.clone()) {
            return Err(format!("credentials[{i}].name {name} is declared twice", name = quoted(&name)));
        }
        let description = match fields.get("description") {
            None => String::new(),
            Some(Value::String(text)) => text.clone(),
            Some(_) => return Err(format!("credentials[{i}].description is not a string")),
        };
        let required = match fields.get("required") {
            None => true,
            Some(Value::Bool(required)) => *required,
            Some(_) => return Err(format!("credentials[{i}].required is not true or false")),
        };
        out.push(if required {
            CredentialDecl::required(name, description)
        } else {
            CredentialDecl::optional(name, description)
        });
    }
    Ok(out)
}

fn is_credential_name(name: &str) -> bool {
    let mut chars = name.chars();
    name.len() <= MAX_CREDENTIAL_NAME
        && matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

/// Where the manifest of the bundle whose worker script is `worker_url` is: `manifest.json` in the same directory
/// (`/bundles/echo/bootstrap.js` → `/bundles/echo/manifest.json`). `None` for scripts that have no directory
/// (`blob:` and `data:` URLs).
pub fn manifest_url(worker_url: &str) -> Option<String> {
    let lower = worker_url.trim_start().to_ascii_lowercase();
    if lower.starts_with("blob:") || lower.starts_with("data:") || worker_url.trim().is_empty() {
        return None;
    }
    let path = worker_url.split(['?', '#']).next().unwrap_or(worker_url);
    // Past the authority of an absolute URL, so that `https://host` does not cut into `https://`.
    let path_start = path.find("://").map_or(0, |i| path[i + 3..].find('/').map_or(path.len(), |j| i + 3 + j));
    let directory = match path[path_start..].rfind('/') {
        Some(i) => &path[..path_start + i + 1],
        None if path_start > 0 => return Some(format!("{path}/manifest.json")),
        None => "",
    };
    Some(format!("{directory}manifest.json"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_manifest_is_beside_the_worker_script() {
        let cases = [
            ("/bundles/echo/bootstrap.js", "/bundles/echo/manifest.json"),
            ("./bundles/echo/bootstrap.js", "./bundles/echo/manifest.json"),
            ("/fixtures/env-reporter/server.js?v=3#x", "/fixtures/env-reporter/manifest.json"),
            ("https://cdn.example/b/bootstrap.js", "https://cdn.example/b/manifest.json"),
            ("https://cdn.example", "https://cdn.example/manifest.json"),
            ("bootstrap.js", "manifest.json"),
        ];
        for (worker, manifest) in cases {
            assert_eq!(manifest_url(worker).as_deref(), Some(manifest), "{worker}");
        }
        assert_eq!(manifest_url("blob:https://app.example/1234"), None);
        assert_eq!(manifest_url("data:text/javascript,postMessage(1)"), None);
        assert_eq!(manifest_url(""), None);
    }

    #[test]
    fn a_built_manifest_reads_with_its_credentials_in_order() {
        // As `cargo xtask build` writes target/bundles/everything/manifest.json, plus a required credential.
        let manifest = BundleManifest::parse(
            r#"{"name": "weather", "version": "1.2.0", "title": "Weather",
                "credentials": [
                  {"name": "WEATHER_API_KEY", "description": "Your key from weather.example", "required": true},
                  {"name": "REGION", "description": "Region override", "required": false}]}"#,
        )
        .unwrap();
        assert_eq!((manifest.name.as_str(), manifest.version.as_str()), ("weather", "1.2.0"));
        assert_eq!(manifest.title.as_deref(), Some("Weather"));
        assert_eq!(
            manifest.credentials,
            [
                CredentialDecl::required("WEATHER_API_KEY", "Your key from weather.example"),
                CredentialDecl::optional("REGION", "Region override"),
            ]
        );
        let bare = BundleManifest::parse(r#"{"name": "js", "version": "1"}"#).unwrap();
        assert!(bare.credentials.is_empty(), "no credentials field declares nothing");
    }

    #[test]
    fn a_malformed_manifest_says_what_is_wrong() {
        let cases = [
            ("<!doctype html><title>Not found</title>", "an HTML page, not a manifest: is `workerUrl` right?"),
            ("\n  <html><body>app</body></html>", "an HTML page"),
            ("{nope", "not JSON"),
            ("[]", "not a JSON object"),
            (r#"{"version": "1"}"#, "`name` is missing"),
            (r#"{"name": " ", "version": "1"}"#, "`name` is empty"),
            (r#"{"name": "a", "version": 1}"#, "`version` is not a string"),
            (r#"{"name": "a", "version": "1", "credentials": {}}"#, "`credentials` is not an array"),
            (r#"{"name": "a", "version": "1", "credentials": ["KEY"]}"#, "credentials[0] is not an object"),
            (r#"{"name": "a", "version": "1", "credentials": [{"name": "1KEY"}]}"#, "not a usable name"),
            (r#"{"name": "a", "version": "1", "credentials": [{"name": "A B"}]}"#, "not a usable name"),
            (r#"{"name": "a", "version": "1", "credentials": [{"name": "K"}, {"name": "K"}]}"#, "declared twice"),
            (r#"{"name": "a", "version": "1", "credentials": [{"name": "K", "required": "yes"}]}"#, "required"),
            (r#"{"name": "a", "version": "1", "credentials": [{"description": "x"}]}"#, "name is missing"),
        ];
        for (text, expected) in cases {
            let error = BundleManifest::parse(text).unwrap_err();
            assert!(error.contains(expected), "{text}: {error}");
        }
    }

    #[test]
    fn a_tool_the_preview_cannot_read_is_left_out_not_the_server() {
        let text = r#"{"name": "a", "version": "1", "tools": [
            {"name": "ok", "inputSchema": {"type": "object"}},
            {"name": 3},
            "not a tool",
            {"name": "also_ok", "inputSchema": {"type": "object", "properties": {"x": {"type": "number"}}}}]}"#;
        let manifest = BundleManifest::parse(text).unwrap();
        let names: Vec<&str> = manifest.tools.iter().map(|tool| tool.name.as_str()).collect();
        assert_eq!(names, ["ok", "also_ok"], "the two entries that are not tools are left out");
        let error = BundleManifest::parse(r#"{"name": "a", "version": "1", "tools": {}}"#).unwrap_err();
        assert!(error.contains("`tools` is not an array"), "{error}");
    }
}
