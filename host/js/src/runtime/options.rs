//! `McpRuntime.create(options)`: the options object, read into the manager's options.

use super::convert::{JsFailure, from_js, property};
use js_sys::Function;
use mcp_worker_client::http::oauth::setup::{Authorize, OAuthSetup};
use mcp_worker_client::limits::{NotificationLimits, ServerRequestLimits};
use mcp_worker_runtime::manager::{Backoff, DEFAULT_CALL_TIMEOUT_MS, FailurePolicy, ManagerOptions};
use mcp_worker_runtime::observation::DEFAULT_HISTORY;
use mcp_worker_runtime::registry::ToolLimits;
use serde::Deserialize;
use serde_json::Value;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// The database that holds the credentials unless the options name another.
pub(crate) const DEFAULT_DATABASE: &str = "mcp-worker";

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct OptionsJson {
    database: Option<String>,
    database_name: Option<String>,
    history_size: Option<usize>,
    default_timeout_ms: Option<u32>,
    handshake_timeout_ms: Option<u32>,
    /// Absent (`None`): the default (3); `null` (`Some(Value::Null)`): never give up; a number: that many.
    #[serde(default, deserialize_with = "present")]
    max_consecutive_failures: Option<Value>,
    backoff: Option<BackoffJson>,
    cancel_grace_ms: Option<u32>,
    tool_limits: Option<ToolLimitsJson>,
    notification_limits: Option<NotificationLimitsJson>,
    server_request_limits: Option<ServerRequestLimitsJson>,
    max_pbkdf2_iterations: Option<u32>,
    roots: Option<Vec<Value>>,
    #[serde(default)]
    elicitation: Value,
    #[serde(default)]
    sampling: Value,
    /// Read from the object itself (it holds a function).
    #[serde(default)]
    #[expect(dead_code, reason = "read with `oauth` below")]
    oauth: Value,
}

/// A field that is there, even as `null`: `Some(null)`, where a missing field is `None` (serde's `default`).
fn present<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct BackoffJson {
    initial_ms: Option<u32>,
    factor: Option<f64>,
    max_ms: Option<u32>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ToolLimitsJson {
    max_tools_per_server: Option<usize>,
    max_description_chars: Option<usize>,
    max_title_chars: Option<usize>,
}

impl ToolLimitsJson {
    fn read(self) -> ToolLimits {
        let mut limits = ToolLimits::default();
        limits.max_tools_per_server = self.max_tools_per_server.unwrap_or(limits.max_tools_per_server);
        limits.max_description_chars = self.max_description_chars.unwrap_or(limits.max_description_chars);
        limits.max_title_chars = self.max_title_chars.unwrap_or(limits.max_title_chars);
        limits
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct NotificationLimitsJson {
    per_second: Option<u32>,
    burst: Option<u32>,
    max_dropped_per_second: Option<u32>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ServerRequestLimitsJson {
    max_pending: Option<usize>,
    timeout_ms: Option<u32>,
}

/// How the application answers a kind of server request.
#[derive(Debug, Clone)]
pub(crate) enum Answering {
    /// Not declared to servers.
    No,
    /// Through events and `answerRequest`.
    ByEvents,
    /// By this function: for every request as it comes (`auto_approve`), or for each the application approves with
    /// `approveRequest` (and `answerRequest` until it answers).
    ByFunction {
        /// The application's handler.
        function: Function,
        /// Call it for every request without asking.
        auto_approve: bool,
    },
}

impl Answering {
    pub(crate) fn enabled(&self) -> bool {
        !matches!(self, Self::No)
    }
}

/// The options, read.
#[derive(Debug)]
pub(crate) struct RuntimeOptions {
    #[cfg_attr(not(feature = "vault"), expect(dead_code, reason = "only the vault opens a database"))]
    pub(crate) database_name: String,
    /// Restore servers and thread configurations from the database, and save their changes (`database` given).
    pub(crate) persist: bool,
    pub(crate) history_size: usize,
    /// The most PBKDF2 iterations a stored passphrase record may ask for (the vault's default when `None`).
    #[cfg_attr(not(feature = "vault"), expect(dead_code, reason = "only the vault derives keys"))]
    pub(crate) max_pbkdf2_iterations: Option<u32>,
    pub(crate) manager: ManagerOptions,
    pub(crate) tool_limits: ToolLimits,
    pub(crate) roots: Option<Vec<Value>>,
    pub(crate) elicitation: Answering,
    pub(crate) sampling: Answering,
}

pub(crate) fn read(options: &JsValue) -> Result<RuntimeOptions, JsFailure> {
    let given = !(options.is_undefined() || options.is_null());
    if given && !options.is_object() {
        return Err(JsFailure::invalid("the runtime options must be an object"));
    }
    let json: OptionsJson = if given {
        from_js(options, "runtime options")?
    } else {
        mcp_worker_protocol::json::from_str("{}").map_err(|e| JsFailure::invalid(e.to_string()))?
    };
    let mut manager = ManagerOptions::default();
    manager.report_progress = true;
    manager.default_timeout_ms = json.default_timeout_ms.unwrap_or(DEFAULT_CALL_TIMEOUT_MS);
    if let Some(ms) = json.handshake_timeout_ms {
        manager.client.initialize_timeout_ms = ms;
    }
    if let Some(ms) = json.cancel_grace_ms {
        manager.cancel_grace_ms = ms;
    }
    let mut policy = FailurePolicy::default();
    let not_a_count = || JsFailure::invalid("maxConsecutiveFailures must be a whole number above 0, or null");
    policy.max_consecutive_failures = match &json.max_consecutive_failures {
        None => policy.max_consecutive_failures,
        Some(Value::Null) => None,
        Some(Value::Number(n)) => {
            Some(n.as_u64().and_then(|n| u32::try_from(n).ok()).filter(|n| *n > 0).ok_or_else(not_a_count)?)
        }
        Some(_) => return Err(not_a_count()),
    };
    if let Some(backoff) = json.backoff {
        let default = Backoff::default();
        policy.backoff = Backoff::new(
            backoff.initial_ms.unwrap_or(default.initial_ms),
            backoff.factor.unwrap_or(default.factor),
            backoff.max_ms.unwrap_or(default.max_ms),
        );
    }
    manager.failure_policy = policy;
    manager.oauth = oauth(options)?;
    if let Some(limits) = json.notification_limits {
        let default = NotificationLimits::default();
        manager.client.notification_limits = NotificationLimits::new(
            limits.per_second.unwrap_or(default.per_second),
            limits.burst.unwrap_or(default.burst),
        )
        .max_dropped_per_second(limits.max_dropped_per_second.unwrap_or(default.max_dropped_per_second));
    }
    if let Some(limits) = json.server_request_limits {
        let default = ServerRequestLimits::default();
        manager.client.server_request_limits = ServerRequestLimits::new(
            limits.max_pending.unwrap_or(default.max_pending),
            limits.timeout_ms.unwrap_or(default.timeout_ms),
        );
    }
    let persist = json.database.is_some();
    let database_name = match (json.database, json.database_name) {
        (Some(_), Some(_)) => {
            return Err(JsFailure::invalid(
                "give `database` (credentials and saved state) or `databaseName` (credentials only), not both",
            ));
        }
        (Some(name), None) | (None, Some(name)) => name,
        (None, None) => DEFAULT_DATABASE.to_owned(),
    };
    if database_name.is_empty() {
        return Err(JsFailure::invalid("the database name must not be empty"));
    }
    if let Some(roots) = &json.roots {
        mcp_worker_runtime::check_roots(roots)?;
    }
    Ok(RuntimeOptions {
        database_name,
        persist,
        history_size: json.history_size.unwrap_or(DEFAULT_HISTORY),
        max_pbkdf2_iterations: json.max_pbkdf2_iterations,
        manager,
        tool_limits: json.tool_limits.map(ToolLimitsJson::read).unwrap_or_default(),
        roots: json.roots,
        elicitation: answering(options, "elicitation", &json.elicitation)?,
        sampling: answering(options, "sampling", &json.sampling)?,
    })
}

/// `true`, `false`, a handler, or `{ handler, autoApprove }`. A bare elicitation handler answers every request (it
/// asks the user itself); a sampling handler runs only for the requests the application approves, unless
/// `autoApprove` says otherwise, so that no server spends the user's model quota unasked.
/// `oauth: { redirectUri, authorize, clientId?, clientSecret?, clientMetadataUrl?, clientName? }`.
fn oauth(options: &JsValue) -> Result<Option<OAuthSetup>, JsFailure> {
    let Some(oauth) = property(options, "oauth").filter(|v| !v.is_undefined() && !v.is_null()) else {
        return Ok(None);
    };
    let text = |key: &str| property(&oauth, key).and_then(|v| v.as_string());
    let redirect_uri = text("redirectUri")
        .ok_or_else(|| JsFailure::invalid("oauth.redirectUri must be the URL of the redirect page"))?;
    let function = property(&oauth, "authorize").and_then(|v| v.dyn_into::<Function>().ok()).ok_or_else(|| {
        JsFailure::invalid("oauth.authorize must be a function: (url) => Promise<the redirect page's URL>")
    })?;
    let authorize: Authorize = Rc::new(move |url: String| {
        let called = function.call1(&JsValue::NULL, &JsValue::from_str(&url));
        Box::pin(async move {
            let value = called.map_err(|e| format!("oauth.authorize threw: {}", describe(&e)))?;
            let resolved = JsFuture::from(js_sys::Promise::resolve(&value))
                .await
                .map_err(|e| format!("the authorization did not complete: {}", describe(&e)))?;
            resolved.as_string().ok_or_else(|| "oauth.authorize must resolve to the redirect page's URL".to_owned())
        })
    });
    Ok(Some(OAuthSetup {
        redirect_uri,
        client_id: text("clientId"),
        client_secret: text("clientSecret"),
        client_metadata_url: text("clientMetadataUrl"),
        client_name: text("clientName").unwrap_or_else(|| "mcp-worker".to_owned()),
        authorize,
        store: None,
    }))
}

/// A thrown value, in words.
fn describe(value: &JsValue) -> String {
    value
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| value.as_string())
        .unwrap_or_else(|| "an unknown error".to_owned())
}

fn answering(options: &JsValue, key: &str, json: &Value) -> Result<Answering, JsFailure> {
    let given = property(options, key);
    let auto_by_default = key != "sampling";
    if let Some(function) = given.clone().and_then(|v| v.dyn_into::<Function>().ok()) {
        return Ok(Answering::ByFunction { function, auto_approve: auto_by_default });
    }
    if let Value::Object(fields) = json {
        let function =
            given.and_then(|object| property(&object, "handler")).and_then(|v| v.dyn_into::<Function>().ok());
        let function = function.ok_or_else(|| JsFailure::invalid(format!("{key}.handler must be a function")))?;
        let auto_approve = match fields.get("autoApprove") {
            None | Some(Value::Null) => auto_by_default,
            Some(Value::Bool(auto)) => *auto,
            Some(_) => return Err(JsFailure::invalid(format!("{key}.autoApprove must be a boolean"))),
        };
        return Ok(Answering::ByFunction { function, auto_approve });
    }
    match json {
        Value::Null | Value::Bool(false) => Ok(Answering::No),
        Value::Bool(true) => Ok(Answering::ByEvents),
        _ => Err(JsFailure::invalid(format!("{key} must be true, false, a function or {{ handler, autoApprove }}"))),
    }
}
