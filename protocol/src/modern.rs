//! MCP 2026-07-28, the "modern" era: no `initialize` handshake. Every request carries its protocol version and the
//! client's capabilities in `_meta`; `server/discover` tells what a server offers; every result says its
//! `resultType`; a server that needs input from the client answers `input_required` and the client retries with the
//! answers (multi round-trip requests); change notifications flow on `subscriptions/listen` streams; list and read
//! results carry caching hints.
//!
//! The types here are the wire shapes both sides share. Which era a request belongs to is [`RequestMeta::version`].

use crate::lifecycle::{ClientCapabilities, Implementation, ServerCapabilities};
use crate::logging::LoggingLevel;
use crate::notifications::ProgressToken;
use crate::{ErrorObject, JsonObject, NameMap, RequestId};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

/// The modern protocol revision.
pub const MODERN_PROTOCOL_VERSION: &str = "2026-07-28";

/// The modern revisions this crate speaks, newest first.
pub const MODERN_PROTOCOL_VERSIONS: &[&str] = &[MODERN_PROTOCOL_VERSION];

/// Whether `version` is a revision of the modern era that this crate speaks.
pub fn is_modern(version: &str) -> bool {
    MODERN_PROTOCOL_VERSIONS.contains(&version)
}

/// Every revision a dual-era peer speaks, newest first: the modern ones, then those of the handshake.
pub fn all_versions() -> Vec<&'static str> {
    MODERN_PROTOCOL_VERSIONS.iter().chain(crate::version::SUPPORTED_PROTOCOL_VERSIONS).copied().collect()
}

/// The reserved `_meta` keys of the modern era.
pub mod meta {
    /// A request's protocol version (required).
    pub const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
    /// A request's client capabilities (required).
    pub const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
    /// Who sends a request (recommended).
    pub const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
    /// The lowest log level the client wants for a request; without it the server sends no logs for it.
    pub const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
    /// Who answers (recommended on every result).
    pub const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
    /// The `subscriptions/listen` request a notification belongs to.
    pub const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
}

/// The `resultType` values of the core protocol.
pub mod result_type {
    /// The request is done; the result is final.
    pub const COMPLETE: &str = "complete";
    /// The server needs input from the client: an [`super::InputRequiredResult`].
    pub const INPUT_REQUIRED: &str = "input_required";
}

/// The error codes the modern era defines.
pub mod codes {
    /// An HTTP header does not match the body it mirrors.
    pub const HEADER_MISMATCH: i64 = -32020;
    /// Serving the request needs a capability the client did not declare.
    pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i64 = -32021;
    /// The server does not speak the requested protocol version.
    pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
}

/// The methods and notifications the modern era adds.
pub mod methods {
    /// Asks what a server offers and which versions it speaks.
    pub const SERVER_DISCOVER: &str = "server/discover";
    /// Opens a stream of change notifications.
    pub const SUBSCRIPTIONS_LISTEN: &str = "subscriptions/listen";
    /// The first message of a `subscriptions/listen` stream.
    pub const SUBSCRIPTIONS_ACKNOWLEDGED: &str = "notifications/subscriptions/acknowledged";
}

/// The methods whose result may be `input_required`.
pub const INPUT_REQUIRED_METHODS: &[&str] =
    &[crate::methods::TOOLS_CALL, crate::methods::PROMPTS_GET, crate::methods::RESOURCES_READ];

/// -32022: the server does not speak `requested`; `supported` lists what it does.
pub fn unsupported_version(requested: &str, supported: &[&str]) -> ErrorObject {
    ErrorObject::new(codes::UNSUPPORTED_PROTOCOL_VERSION, format!("Unsupported protocol version: {requested}"))
        .with_data(crate::members::object([("supported", supported.into()), ("requested", requested.into())]))
}

/// -32021: serving the request needs `required`, which the client did not declare.
pub fn missing_capability(message: impl Into<String>, required: Value) -> ErrorObject {
    ErrorObject::new(codes::MISSING_REQUIRED_CLIENT_CAPABILITY, message)
        .with_data(crate::members::object([("requiredCapabilities", required)]))
}

/// The protocol fields of a request's `_meta`, in either era (a request of the handshake era has no version).
///
/// The capabilities, client and log level are kept as the client wrote them and read by [`RequestMeta::era`]:
/// no value tree is built for them on every request, and each type has one deserializer (from text) in a build.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct RequestMeta<'a> {
    /// The request's protocol version: present on every modern request, absent on the handshake's.
    #[serde(rename = "io.modelcontextprotocol/protocolVersion", default, borrow)]
    pub version: Option<&'a RawValue>,
    /// What the client offers for this request.
    #[serde(rename = "io.modelcontextprotocol/clientCapabilities", default, borrow)]
    pub capabilities: Option<&'a RawValue>,
    /// Who sends the request.
    #[serde(rename = "io.modelcontextprotocol/clientInfo", default, borrow)]
    pub client_info: Option<&'a RawValue>,
    /// The lowest log level the client wants for this request.
    #[serde(rename = "io.modelcontextprotocol/logLevel", default, borrow)]
    pub log_level: Option<&'a RawValue>,
    /// The request's progress token.
    #[serde(rename = "progressToken", default)]
    pub progress_token: Option<ProgressToken>,
}

/// The `_meta` of request params, read leniently: params that are not an object, or have no `_meta`, give the
/// default (a request of the handshake era). Its members are read where they stand in the params' text.
pub fn request_meta(params: Option<&serde_json::value::RawValue>) -> RequestMeta<'_> {
    #[derive(Deserialize)]
    struct MetaOnly<'a> {
        #[serde(rename = "_meta", default, borrow)]
        meta: Option<RequestMeta<'a>>,
    }
    params
        .filter(|p| may_name_meta(p.get()))
        .and_then(|p| crate::json::from_str::<MetaOnly<'_>>(p.get()).ok())
        .and_then(|m| m.meta)
        .unwrap_or_default()
}

/// Whether JSON `text` may hold a member named `_meta`: only as the literal `"_meta"`, or spelled with `\u`
/// escapes. Most requests of the handshake era have none, and are then not read a second time for it.
fn may_name_meta(text: &str) -> bool {
    crate::substring::contains(text, "\"_meta\"") || crate::substring::contains(text, "\\u")
}

/// A modern request's metadata, checked: the version is one this side speaks and the capabilities are there.
#[derive(Debug, Clone, PartialEq)]
pub struct ModernMeta {
    /// The request's protocol version.
    pub version: String,
    /// What the client offers for this request.
    pub capabilities: ClientCapabilities,
    /// The lowest log level the client wants (`None`: no logs for this request).
    pub log_level: Option<LoggingLevel>,
    /// The request's progress token.
    pub progress_token: Option<ProgressToken>,
}

/// What a request's `_meta` says about its era.
#[derive(Debug, Clone, PartialEq)]
pub enum Era {
    /// No protocol version in `_meta` (or one of the handshake era): served by the session's `initialize`. The
    /// request's progress token, read with the rest of `_meta`, so that nothing reads it a second time.
    Handshake {
        /// The request's progress token.
        progress_token: Option<ProgressToken>,
    },
    /// A modern request, checked.
    Modern(ModernMeta),
}

impl RequestMeta<'_> {
    /// Checks the protocol fields: a modern request needs a version this side speaks (-32022 otherwise, naming
    /// `supported`) and its client capabilities (-32602 otherwise). A version of the handshake era means the
    /// request belongs to the handshake.
    pub fn era(self, supported: &[&str]) -> Result<Era, ErrorObject> {
        let Some(version) = self.version else { return Ok(Era::Handshake { progress_token: self.progress_token }) };
        let Ok(version) = crate::json::from_str::<String>(version.get()) else {
            return Err(ErrorObject::invalid_params(format!("_meta[\"{}\"] must be a string", meta::PROTOCOL_VERSION)));
        };
        if !is_modern(&version) {
            if crate::version::SUPPORTED_PROTOCOL_VERSIONS.contains(&version.as_str()) {
                return Ok(Era::Handshake { progress_token: self.progress_token });
            }
            return Err(unsupported_version(&version, supported));
        }
        let capabilities = match self.capabilities {
            Some(raw) if raw.get().starts_with('{') => crate::json::from_str(raw.get()).map_err(|e| {
                ErrorObject::invalid_params(format!("_meta[\"{}\"] is not valid: {e}", meta::CLIENT_CAPABILITIES))
            })?,
            Some(_) => {
                return Err(ErrorObject::invalid_params(format!(
                    "_meta[\"{}\"] must be an object",
                    meta::CLIENT_CAPABILITIES
                )));
            }
            None => {
                return Err(ErrorObject::invalid_params(format!(
                    "missing _meta[\"{}\"]: every request of protocol {version} declares the client's capabilities",
                    meta::CLIENT_CAPABILITIES
                )));
            }
        };
        let log_level = match self.log_level {
            None => None,
            Some(raw) => Some(crate::json::from_str(raw.get()).map_err(|e| {
                ErrorObject::invalid_params(format!("_meta[\"{}\"] is not a log level: {e}", meta::LOG_LEVEL))
            })?),
        };
        Ok(Era::Modern(ModernMeta { version, capabilities, log_level, progress_token: self.progress_token }))
    }
}

/// Who may cache a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheScope {
    /// Any client or intermediary, across users.
    Public,
    /// Only within the same authorization context.
    Private,
}

/// The caching hints of a list, read or discover result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CacheHint {
    /// How long the result stays fresh, in milliseconds (0: stale at once).
    pub ttl_ms: u64,
    /// Who may cache it.
    pub cache_scope: CacheScope,
}

/// `server/discover` result (its `resultType`, caching hints and `_meta` are added by [`complete_result`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiscoverResult {
    /// The protocol versions the server speaks.
    pub supported_versions: Vec<String>,
    /// What the server offers.
    pub capabilities: ServerCapabilities,
    /// How to use the server, for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
}

/// One request of an [`InputRequiredResult`]: `elicitation/create`, `sampling/createMessage` or `roots/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InputRequest {
    /// The method the client is to serve.
    pub method: String,
    /// Its params.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<Value>,
}

/// The server needs input before it can complete a request: the client serves `input_requests` and retries the
/// request with their answers as `inputResponses` and `request_state` echoed exactly.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InputRequiredResult {
    /// What the client is to answer, by key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_requests: Option<NameMap<InputRequest>>,
    /// Opaque: echoed by the client on the retry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_state: Option<String>,
}

/// What a client opts in to on a `subscriptions/listen` stream (and what the server agrees to send).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionFilter {
    /// `notifications/tools/list_changed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools_list_changed: Option<bool>,
    /// `notifications/prompts/list_changed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompts_list_changed: Option<bool>,
    /// `notifications/resources/list_changed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources_list_changed: Option<bool>,
    /// `notifications/resources/updated` for these URIs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_subscriptions: Option<Vec<String>>,
}

impl SubscriptionFilter {
    /// Whether the filter opts in to nothing.
    pub fn is_empty(&self) -> bool {
        self.tools_list_changed != Some(true)
            && self.prompts_list_changed != Some(true)
            && self.resources_list_changed != Some(true)
            && self.resource_subscriptions.as_ref().is_none_or(Vec::is_empty)
    }
}

/// `subscriptions/listen` params (besides `_meta`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ListenParams {
    /// What the client opts in to.
    #[serde(default)]
    pub notifications: SubscriptionFilter,
}

/// The server's `serverInfo` as every modern result's `_meta` carries it (`io.modelcontextprotocol/serverInfo`),
/// written once for a server rather than again for each result.
#[derive(Debug, Clone)]
pub struct ServerInfoMeta {
    /// The `_meta` member: `"_meta":{"io.modelcontextprotocol/serverInfo":{…}}`.
    member: String,
    /// The server's `Implementation`, as JSON text.
    info: String,
}

impl ServerInfoMeta {
    /// The `_meta` member that names the server `info` describes.
    pub fn new(info: &Implementation) -> serde_json::Result<Self> {
        let info = serde_json::to_string(info)?;
        let member = format!("\"_meta\":{{\"{}\":{info}}}", meta::SERVER_INFO);
        Ok(Self { member, info })
    }
}

/// Writes a complete modern result as JSON text: `result` with `resultType: "complete"` as its first member (so
/// that a client can tell a complete result without reading the rest: [`result_kind`]), the server's identity in
/// `_meta` (merged into any `_meta` the result has) and, for list, read and discover results, the caching hints.
/// The text is made of what serde_json wrote, and is not read again.
pub fn complete_result<R: Serialize>(
    result: &R,
    server: &ServerInfoMeta,
    cache: Option<CacheHint>,
) -> serde_json::Result<String> {
    complete_text(serde_json::to_string(result)?, server, cache)
}

/// [`complete_result`] of a result already written as text: the part that is not generic, so that it is compiled once
/// rather than once for every type of result.
fn complete_text(body: String, server: &ServerInfoMeta, cache: Option<CacheHint>) -> serde_json::Result<String> {
    let mut members = JsonObject::new();
    if let Some(cache) = cache {
        members.insert("ttlMs".into(), cache.ttl_ms.into());
        members.insert("cacheScope".into(), serde_json::to_value(cache.cache_scope)?);
    }
    typed(result_type::COMPLETE, body, server, members)
}

/// Writes an [`InputRequiredResult`] as JSON text, with its `resultType` first and the server's identity.
pub fn input_required_result(result: &InputRequiredResult, server: &ServerInfoMeta) -> serde_json::Result<String> {
    typed(result_type::INPUT_REQUIRED, serde_json::to_string(result)?, server, JsonObject::new())
}

/// `{"resultType":…, <members>, "_meta":{serverInfo…}, <the result's own members>}`. The result's text is copied,
/// not rebuilt, unless it has a `_meta` of its own to merge into.
fn typed(kind: &str, mut body: String, server: &ServerInfoMeta, members: JsonObject) -> serde_json::Result<String> {
    let mut server_meta = None;
    if crate::substring::contains(&body, "\"_meta\"") {
        // Perhaps a `_meta` of its own (or the text "_meta" in a value): merged for certain through a value.
        let info: Value = crate::json::from_str(&server.info)?;
        let mut value: Value = crate::json::from_str(&body)?;
        if let Value::Object(object) = value {
            // `resultType` goes first, written below.
            let mut kept = crate::members::without(object, &["resultType"]);
            match kept.get_mut("_meta") {
                Some(Value::Object(existing)) => {
                    existing.insert(meta::SERVER_INFO.into(), info);
                }
                _ => {
                    kept.insert("_meta".into(), crate::members::object([(meta::SERVER_INFO, info)]));
                }
            }
            value = Value::Object(kept);
        }
        body = serde_json::to_string(&value)?;
    } else {
        // The usual case, written as text: the identity as the server wrote it once.
        server_meta = Some(server.member.as_str());
    }
    let inner = body.trim().strip_prefix('{').and_then(|t| t.strip_suffix('}')).map(str::trim).unwrap_or_default();
    let own = if members.is_empty() { String::new() } else { serde_json::to_string(&members)? };
    let own = own.strip_prefix('{').and_then(|t| t.strip_suffix('}')).unwrap_or_default();
    let kind = serde_json::to_string(kind)?;
    let mut text = String::with_capacity(body.len() + own.len() + server_meta.map_or(0, str::len) + 32);
    text.push_str("{\"resultType\":");
    text.push_str(&kind);
    for part in [own, server_meta.unwrap_or_default(), inner] {
        if !part.is_empty() {
            text.push(',');
            text.push_str(part);
        }
    }
    text.push('}');
    Ok(text)
}

/// The `_meta` that ties a notification to the `subscriptions/listen` request `id`.
pub fn subscription_meta(id: &RequestId) -> JsonObject {
    let mut object = JsonObject::new();
    object.insert(meta::SUBSCRIPTION_ID.into(), id.into());
    object
}

/// The members of a modern request's `_meta` (protocol version, client identity and capabilities, and the log
/// level when one is set), as the text of JSON object members without the braces, for [`with_meta`].
pub fn envelope(
    version: &str,
    client_info: &Implementation,
    capabilities: &ClientCapabilities,
    log_level: Option<LoggingLevel>,
) -> serde_json::Result<String> {
    let mut object = JsonObject::new();
    object.insert(meta::PROTOCOL_VERSION.into(), version.into());
    object.insert(meta::CLIENT_INFO.into(), serde_json::to_value(client_info)?);
    object.insert(meta::CLIENT_CAPABILITIES.into(), serde_json::to_value(capabilities)?);
    if let Some(level) = log_level {
        object.insert(meta::LOG_LEVEL.into(), serde_json::to_value(level)?);
    }
    let text = serde_json::to_string(&object)?;
    Ok(text[1..text.len() - 1].to_owned())
}

/// Request params with the members of [`envelope`] added to their `_meta` (created when absent; keys already
/// there stay). Only the top level of the params is read: arguments are copied as text.
pub fn with_meta(
    params: Option<&serde_json::value::RawValue>,
    members: &str,
) -> serde_json::Result<Box<serde_json::value::RawValue>> {
    use serde_json::value::RawValue;
    // The members of request params are a handful: a list keeps them in their order, for less code than a map.
    let mut fields: NameMap<Box<RawValue>> = match params {
        None => NameMap::new(),
        Some(raw) if raw.get().trim() == "null" => NameMap::new(),
        Some(raw) => crate::json::from_str(raw.get())?,
    };
    let meta = match fields.remove("_meta") {
        None => format!("{{{members}}}"),
        Some(existing) => {
            let inner = existing.get().trim();
            let inner = inner
                .strip_prefix('{')
                .and_then(|t| t.strip_suffix('}'))
                .map(str::trim)
                .ok_or_else(|| <serde_json::Error as serde::de::Error>::custom("params _meta is not an object"))?;
            if inner.is_empty() { format!("{{{members}}}") } else { format!("{{{inner},{members}}}") }
        }
    };
    fields.insert("_meta", RawValue::from_string(meta)?);
    serde_json::value::to_raw_value(&fields)
}

/// What a modern result says it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResultKind {
    /// `complete`, or no `resultType` (a server of an earlier revision).
    Complete,
    /// `input_required`.
    InputRequired,
}

/// Reads a result's `resultType` (only that member is decoded). An unknown type is an error, as the spec requires.
/// A result that says its type first (as [`complete_result`] writes it) is told without reading the rest.
pub fn result_kind(result: &str) -> Result<ResultKind, String> {
    let start = result.trim_start();
    if start.starts_with(r#"{"resultType":"complete""#) {
        return Ok(ResultKind::Complete);
    }
    if start.starts_with(r#"{"resultType":"input_required""#) {
        return Ok(ResultKind::InputRequired);
    }
    #[derive(Deserialize)]
    struct TypeOnly<'a> {
        #[serde(rename = "resultType", borrow, default)]
        result_type: Option<std::borrow::Cow<'a, str>>,
    }
    if !result.trim_start().starts_with('{') {
        return Err("the result is not an object".into());
    }
    let read: TypeOnly<'_> = crate::json::from_str(result).map_err(|e| format!("unreadable result: {e}"))?;
    match read.result_type.as_deref() {
        None | Some(result_type::COMPLETE) => Ok(ResultKind::Complete),
        Some(result_type::INPUT_REQUIRED) => Ok(ResultKind::InputRequired),
        Some(other) => Err(format!("unknown resultType {}", crate::quoted::quoted(other))),
    }
}

#[cfg(test)]
#[path = "modern_tests.rs"]
mod tests;
