//! The headers MCP 2026-07-28 mirrors from a request's body over Streamable HTTP (SEP-2243), so that gateways can
//! route without reading it: `MCP-Protocol-Version` (the request's `_meta` version), `Mcp-Method`, `Mcp-Name` (the
//! tool or prompt name, or the resource URI) and one `Mcp-Param-{name}` for each tool argument whose schema says
//! `x-mcp-header`. A value that is not plain visible ASCII goes as `=?base64?…?=`.
//!
//! A tool whose `x-mcp-header` annotations break the spec's rules is not offered (the client must exclude it from
//! `tools/list`): [`header_params`] says why.

use crate::http::oauth::encoding::base64;
use mcp_worker_protocol::quoted::quoted;
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

/// One tool argument mirrored in a header: the chain of `properties` keys that reaches it, and the header's name
/// after `Mcp-Param-`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderParam {
    /// The argument's path in the arguments object.
    pub path: Vec<String>,
    /// The header is `Mcp-Param-{header}`.
    pub header: String,
}

/// What a modern request frame says about itself, read without its arguments.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ModernPeek {
    /// The `_meta` protocol version (absent on frames of the handshake era).
    pub version: Option<String>,
    /// The method.
    pub method: Option<String>,
    /// `params.name` (tools/call, prompts/get) or `params.uri` (resources/read).
    pub name: Option<String>,
}

impl ModernPeek {
    /// Reads a frame's method, `_meta` version and name; an unreadable frame gives nothing.
    pub fn of(frame: &str) -> Self {
        #[derive(Deserialize)]
        struct Frame<'a> {
            #[serde(default)]
            method: Option<String>,
            #[serde(borrow, default)]
            params: Option<&'a RawValue>,
        }
        #[derive(Deserialize)]
        struct Params {
            #[serde(rename = "_meta", default)]
            meta: Option<Meta>,
            #[serde(default)]
            name: Option<Value>,
            #[serde(default)]
            uri: Option<Value>,
        }
        #[derive(Deserialize)]
        struct Meta {
            #[serde(rename = "io.modelcontextprotocol/protocolVersion", default)]
            version: Option<String>,
        }
        let Ok(frame) = mcp_worker_protocol::json::from_str::<Frame<'_>>(frame) else { return Self::default() };
        let params = frame.params.and_then(|p| mcp_worker_protocol::json::from_str::<Params>(p.get()).ok());
        let named = match frame.method.as_deref() {
            Some("tools/call" | "prompts/get") => params.as_ref().and_then(|p| p.name.clone()),
            Some("resources/read") => params.as_ref().and_then(|p| p.uri.clone()),
            _ => None,
        };
        Self {
            version: params.and_then(|p| p.meta).and_then(|m| m.version),
            method: frame.method,
            name: named.and_then(|v| v.as_str().map(str::to_owned)),
        }
    }

    /// The mirrored headers of this frame (none for a frame of the handshake era); `is_request` when it has an id.
    pub fn headers(&self, is_request: bool) -> Vec<(String, String)> {
        let Some(version) = &self.version else { return Vec::new() };
        let mut headers = vec![("MCP-Protocol-Version".to_owned(), version.clone())];
        if let (true, Some(method)) = (is_request, &self.method) {
            headers.push(("Mcp-Method".to_owned(), method.clone()));
        }
        if let Some(name) = &self.name {
            headers.push(("Mcp-Name".to_owned(), header_value(name)));
        }
        headers
    }
}

/// A value as a header carries it: as is when it is visible ASCII (spaces inside allowed, none at either end),
/// otherwise `=?base64?<standard base64 of its UTF-8>?=`.
pub fn header_value(value: &str) -> String {
    let visible = value.bytes().all(|b| b == b' ' || (0x21..=0x7e).contains(&b));
    let padded = value.starts_with(' ') || value.ends_with(' ');
    let looks_encoded = value.starts_with("=?base64?") && value.ends_with("?=");
    if visible && !padded && !looks_encoded {
        value.to_owned()
    } else {
        format!("=?base64?{}?=", base64(value.as_bytes()))
    }
}

/// The arguments a tool's input schema mirrors in headers, or why the tool is invalid: an `x-mcp-header` that is
/// empty, not an HTTP token, repeated (ignoring case), on an argument that is not an integer, string or boolean,
/// or anywhere but a property reached through `properties` alone.
pub fn header_params(schema: &Value) -> Result<Vec<HeaderParam>, String> {
    let mut found = Vec::new();
    walk(schema, Some(&[]), &mut found)?;
    let mut seen: Vec<String> = Vec::new();
    for param in &found {
        let lower = param.header.to_ascii_lowercase();
        if seen.contains(&lower) {
            return Err(format!("x-mcp-header {} appears twice", quoted(&param.header)));
        }
        seen.push(lower);
    }
    Ok(found)
}

/// Walks `node`; `path` is `Some` while the node is reached through `properties` alone (from the root).
fn walk(node: &Value, path: Option<&[String]>, found: &mut Vec<HeaderParam>) -> Result<(), String> {
    match node {
        Value::Array(items) => items.iter().try_for_each(|item| walk(item, None, found)),
        Value::Object(object) => {
            if let Some(header) = object.get("x-mcp-header") {
                let Some(path) = path.filter(|p| !p.is_empty()) else {
                    return Err("x-mcp-header outside a property reached through properties alone".into());
                };
                found.push(HeaderParam { path: path.to_vec(), header: checked_header(header, object)? });
            }
            for (key, child) in object {
                match (key.as_str(), path, child) {
                    ("x-mcp-header", ..) => {}
                    ("properties", Some(path), Value::Object(properties)) => {
                        for (name, property) in properties {
                            let inner = [path, std::slice::from_ref(name)].concat();
                            walk(property, Some(&inner), found)?;
                        }
                    }
                    _ => walk(child, None, found)?,
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

fn checked_header(header: &Value, property: &serde_json::Map<String, Value>) -> Result<String, String> {
    let Some(header) = header.as_str() else { return Err("x-mcp-header must be a string".into()) };
    let tchar = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
    if header.is_empty() || !header.chars().all(tchar) {
        return Err(format!("x-mcp-header {header} is not an HTTP header name token", header = quoted(header)));
    }
    match property.get("type").and_then(Value::as_str) {
        Some("string" | "integer" | "boolean") => Ok(header.to_owned()),
        other => Err(format!(
            "x-mcp-header {header} is on a property of type {}: only integer, string and boolean are mirrored",
            other.unwrap_or("(none)"),
            header = quoted(header),
        )),
    }
}

/// The `Mcp-Param-*` headers of a call with `arguments` (an argument that is absent or null sends none).
pub fn param_headers(params: &[HeaderParam], arguments: &Value) -> Vec<(String, String)> {
    params
        .iter()
        .filter_map(|param| {
            let value = param.path.iter().try_fold(arguments, |node, key| node.get(key))?;
            let text = match value {
                Value::String(text) => header_value(text),
                Value::Bool(b) => b.to_string(),
                Value::Number(n) if n.is_i64() || n.is_u64() => n.to_string(),
                _ => return None,
            };
            Some((format!("Mcp-Param-{}", param.header), text))
        })
        .collect()
}

#[cfg(test)]
#[path = "mirrored_tests.rs"]
mod tests;
