//! Servers from JavaScript: add (one config, or an `mcpServers` document), remove, enable, disable, connect,
//! disconnect, restart, and their health.

use super::convert::{JsFailure, config_errors_json, from_js, options_from_js, to_js, to_json_text};
use super::{Inner, JsRuntime};
use crate::promise::promise;
use js_sys::Promise;
use mcp_worker_runtime::config::{ServerConfig, import_mcp_servers};
use serde_json::{Value, json};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use zeroize::Zeroizing;

#[wasm_bindgen(js_class = McpRuntime)]
impl JsRuntime {
    /// Adds a server. Throws `INVALID_CONFIG` (with `errors`, one per field) for a config that is not usable or has
    /// a field this host does not know, and `INVALID_INPUT` when the name is taken. A server with `autoStart` starts
    /// now; the others at first use.
    #[wasm_bindgen(js_name = addServer)]
    pub fn add_server(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ServerConfigInput")] config: JsValue,
    ) -> Result<(), JsValue> {
        self.inner.open()?;
        let value: Value = from_js(&config, "server config")?;
        add(&self.inner, value)?;
        Ok(())
    }

    /// Adds a server, or changes the one of that name in place; resolves to what it did: `"added"`, `"changed"` or
    /// `"unchanged"`. Changing only `enabled` or `allowDestructiveTools` takes effect at once without a restart; any
    /// other change stops the server (its pending calls fail), and its next use (or `autoStart`) runs the new
    /// config. Its credentials stay. Throws `INVALID_CONFIG` for a config that is not usable or has a field this
    /// host does not know.
    #[wasm_bindgen(js_name = updateServer, unchecked_return_type = "ConfigChange")]
    pub fn update_server(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ServerConfigInput")] config: JsValue,
    ) -> Result<JsValue, JsValue> {
        self.inner.open()?;
        let value: Value = from_js(&config, "server config")?;
        let config = ServerConfig::from_input(&value).map_err(JsFailure::from)?;
        let change = self.inner.runtime.manager().update(config).map_err(JsFailure::from)?;
        Ok(to_js(&change)?)
    }

    /// Reads an `mcpServers` document (JSON text or the object; the map of servers may also be the whole document,
    /// or under `servers`), and adds each valid entry, or changes the server of its name in place as
    /// `updateServer` does. With `{ removeMissing: true }`, servers the document does not name are removed: the
    /// runtime then matches the document, as a reloaded config file. Entries with problems are skipped and
    /// reported, never hiding the good ones; fields this host does not use are reported in `ignored`. A document
    /// that is not JSON, or not a map of servers, rejects with `INVALID_CONFIG`.
    ///
    /// With a vault, the literal `env` values and `headers` of each entry (an API key written in the file) are
    /// moved into it before the server is added, bound to the server's bundle, and the config keeps `${NAME}` in
    /// their place, so no secret is ever saved in the clear. That needs the vault unlocked: while it is locked
    /// (or not set up), an entry with a literal value is reported in `errors` and not added.
    #[wasm_bindgen(js_name = importMcpServers, unchecked_return_type = "Promise<ImportResult>")]
    pub fn import_mcp_servers(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | McpServersDocument")] document: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ImportOptions")] options: Option<JsValue>,
    ) -> Promise {
        let options = options.unwrap_or(JsValue::UNDEFINED);
        // The document's text may hold secrets: it is wiped once read.
        let text = match document.as_string() {
            Some(text) => Ok(Zeroizing::new(text)),
            None => to_json_text(&document, "mcpServers document").map(Zeroizing::new),
        };
        let options: Result<ImportOptions, JsFailure> = options_from_js(&options, "import options");
        let inner = self.inner.clone();
        promise(async move {
            inner.open()?;
            let options = options?;
            #[cfg_attr(not(feature = "vault"), expect(unused_mut, reason = "only the vault takes literals out"))]
            let mut import = import_mcp_servers(&text?).map_err(|e| JsFailure::from(vec![e]))?;
            #[cfg(feature = "vault")]
            if let Ok(repository) = inner.vault.repository() {
                repository.store_imported(&mut import).await;
            }
            let report = inner.runtime.manager().apply_import(import, options.remove_missing);
            Ok(to_js(&json!({
                "added": report.added,
                "changed": report.changed,
                "unchanged": report.unchanged,
                "removed": report.removed,
                "errors": config_errors_json(&report.errors),
                "ignored": config_errors_json(&report.ignored),
            }))?)
        })
    }

    /// Removes a server: stops it (its calls fail at once) and unregisters its tools.
    #[wasm_bindgen(js_name = removeServer)]
    pub fn remove_server(&self, name: String) -> Result<(), JsValue> {
        self.inner.open()?;
        self.inner.runtime.manager().remove(&name).map_err(JsFailure::from)?;
        Ok(())
    }

    /// Enables a disabled server (and starts it if it auto-starts).
    #[wasm_bindgen(js_name = enableServer)]
    pub fn enable_server(&self, name: String) -> Result<(), JsValue> {
        self.inner.open()?;
        Ok(self.inner.runtime.manager().enable(&name).map_err(JsFailure::from)?)
    }

    /// Disables a server: stops it and unregisters its tools until it is enabled.
    #[wasm_bindgen(js_name = disableServer)]
    pub fn disable_server(&self, name: String) -> Result<(), JsValue> {
        self.inner.open()?;
        Ok(self.inner.runtime.manager().disable(&name).map_err(JsFailure::from)?)
    }

    /// Shows a server's destructive tools to agents, or hides them again (its config's `allowDestructiveTools`):
    /// at once, saved with its config, without a restart and without touching its credentials.
    #[wasm_bindgen(js_name = setAllowDestructiveTools)]
    pub fn set_allow_destructive_tools(&self, name: String, allow: bool) -> Result<(), JsValue> {
        self.inner.open()?;
        Ok(self.inner.runtime.manager().set_allow_destructive_tools(&name, allow).map_err(JsFailure::from)?)
    }

    /// Starts a server now and resolves once it is connected (also brings a server out of `error`).
    #[wasm_bindgen(js_name = connectServer, unchecked_return_type = "Promise<void>")]
    pub fn connect_server(&self, name: String) -> Promise {
        let inner = self.inner.clone();
        promise(async move {
            inner.open()?;
            inner.runtime.manager().connect(&name).await.map_err(JsFailure::from)?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// Stops a server (its calls fail at once); its next use starts it again.
    #[wasm_bindgen(js_name = disconnectServer)]
    pub fn disconnect_server(&self, name: String) -> Result<(), JsValue> {
        self.inner.open()?;
        Ok(self.inner.runtime.manager().disconnect(&name).map_err(JsFailure::from)?)
    }

    /// Disconnects, then connects.
    #[wasm_bindgen(js_name = restartServer, unchecked_return_type = "Promise<void>")]
    pub fn restart_server(&self, name: String) -> Promise {
        let inner = self.inner.clone();
        promise(async move {
            inner.open()?;
            inner.runtime.manager().restart(&name).await.map_err(JsFailure::from)?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// Where the servers stand as a whole (disabled ones aside): `"discovering"` while any is starting, else
    /// `"partial"` when any cannot be used now (`error`, or waiting for credentials or a sign-in), else `"ready"`
    /// when any is connected, else `"idle"` (none started yet).
    #[wasm_bindgen(js_name = registryStatus, unchecked_return_type = "RegistryStatus")]
    pub fn registry_status(&self) -> Result<JsValue, JsValue> {
        self.inner.open()?;
        Ok(to_js(&self.inner.runtime.manager().registry_status())?)
    }

    /// Starts every enabled server that is not running, concurrently; resolves with each one's outcome.
    #[wasm_bindgen(js_name = startAll, unchecked_return_type = "Promise<StartOutcome[]>")]
    pub fn start_all(&self) -> Promise {
        let inner = self.inner.clone();
        promise(async move {
            inner.open()?;
            let outcomes = inner.runtime.manager().start_all().await;
            let array = js_sys::Array::new();
            for (server, outcome) in outcomes {
                let entry = to_js(&json!({"server": server, "ok": outcome.is_ok()}))?;
                if let Err(error) = outcome {
                    let _ = js_sys::Reflect::set(&entry, &"error".into(), &JsFailure::from(error).into_js());
                }
                array.push(&entry);
            }
            Ok(array.into())
        })
    }

    /// Every server's health, by name (a credential value a server echoed in its last error is scrubbed).
    #[wasm_bindgen(unchecked_return_type = "ServerHealth[]")]
    pub fn servers(&self) -> Result<JsValue, JsValue> {
        Ok(to_js(&self.inner.runtime.health_all())?)
    }

    /// One server's health, or `undefined`.
    #[wasm_bindgen(unchecked_return_type = "ServerHealth | undefined")]
    pub fn server(&self, name: String) -> Result<JsValue, JsValue> {
        match self.inner.runtime.health(&name) {
            Some(health) => Ok(to_js(&health)?),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// A server's configuration, or `undefined`.
    #[wasm_bindgen(js_name = serverConfig, unchecked_return_type = "ServerConfig | undefined")]
    pub fn server_config(&self, name: String) -> Result<JsValue, JsValue> {
        match self.inner.runtime.manager().config(&name) {
            Some(config) => Ok(to_js(&config.to_json())?),
            None => Ok(JsValue::UNDEFINED),
        }
    }
}

/// Adds a server from its JSON form, whose `credentials` may be declarations (`{name, description, required}`).
fn add(inner: &Rc<Inner>, value: Value) -> Result<(), JsFailure> {
    let config = ServerConfig::from_input(&value).map_err(JsFailure::from)?;
    inner.runtime.manager().add(config).map_err(JsFailure::from)
}

/// `importMcpServers`' options.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ImportOptions {
    /// Remove the servers the document does not name.
    #[serde(default)]
    remove_missing: bool,
}
