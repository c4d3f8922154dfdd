//! Declared credentials through the manager in headless Chromium, with real workers, real IndexedDB and real
//! WebCrypto: a bundle's `manifest.json` (fetched beside its worker script) decides what the user is asked for and
//! what the worker gets; `${NAME}` references in an imported `mcpServers` config resolve from the vault.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use gloo_timers::future::TimeoutFuture;
use mcp_worker_runtime::config::import_mcp_servers;
use mcp_worker_runtime::manager::{ManagerOptions, McpTransportManager, ServerStatus};
use mcp_worker_runtime::observation::{EventFilter, ObservationManager, RedactingCredentials, Watches};
use mcp_worker_runtime::registry::ToolRegistry;
use mcp_worker_vault::credentials::{AppKey, CredentialDecl, CredentialsRepository, KeySource, Secret};
use mcp_worker_vault::state::Database;
use serde_json::{Value, json};
use std::rc::Rc;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// A hand-written JS server whose `manifest.json` declares WEATHER_API_KEY (required) and REGION (optional).
const WITH_MANIFEST: &str = "/fixtures/env-reporter/server.js";
/// The same server without a manifest (`/fixtures/manifest.json` does not exist).
const WITHOUT_MANIFEST: &str = "/fixtures/env-reporter.js";

fn app_key() -> KeySource {
    KeySource::AppKey(AppKey::from_bytes(&[21; 32]).unwrap())
}

/// A manager whose credentials come from a fresh repository (set up, then locked), with the status socket.
struct Rig {
    db: Database,
    repo: CredentialsRepository,
    manager: McpTransportManager,
    hub: ObservationManager,
    _watches: Watches,
}

async fn rig(test: &str) -> Rig {
    let db = Database::open(&format!("declared-{test}-{}", js_sys::Math::random())).await.unwrap();
    let repo = CredentialsRepository::new(&db);
    repo.setup(app_key()).await.unwrap();
    repo.lock();
    let (manager, _launcher) =
        McpTransportManager::for_browser(Rc::new(ToolRegistry::new()), ManagerOptions::default());
    let hub = ObservationManager::new(Rc::new(js_sys::Date::now), "test", 256);
    let source = RedactingCredentials::new(Rc::new(repo.clone()), hub.redactor().clone());
    manager.set_credential_source(Some(Rc::new(source)));
    let watches = hub.watch_manager(&manager);
    Rig { db, repo, manager, hub, _watches: watches }
}

impl Rig {
    fn status(&self, name: &str) -> ServerStatus {
        self.manager.health(name).unwrap().status
    }

    /// The `credentialsRequired` events so far, as JSON.
    fn credentials_required(&self) -> Vec<Value> {
        let events = serde_json::to_value(self.hub.history(&EventFilter::all(), None)).unwrap();
        events.as_array().unwrap().iter().filter(|e| e["type"] == "credentialsRequired").cloned().collect()
    }

    async fn wait_connected(&self, name: &str) {
        let until = js_sys::Date::now() + 10_000.0;
        while self.status(name) != ServerStatus::Connected && js_sys::Date::now() < until {
            TimeoutFuture::new(20).await;
        }
        assert_eq!(self.status(name), ServerStatus::Connected, "{:?}", self.manager.health(name));
    }

    /// The `env` the server's worker received in `connect` (the env-reporter fixture answers it).
    async fn received_env(&self, name: &str) -> Value {
        let client = self.manager.client(name).unwrap();
        serde_json::from_str(&client.call_tool("env", None).await.unwrap().joined_text()).unwrap()
    }

    /// Stores a credential as the JavaScript API does: bound to the server's code when it is configured.
    async fn store(&self, server: &str, name: &str, value: &str) {
        let value = Secret::new(value);
        match self.manager.config(server) {
            Some(config) => self.repo.set_for(server, &config.transport.identity(), name, &value).await.unwrap(),
            None => self.repo.set(server, name, &value).await.unwrap(),
        }
    }

    async fn end(self) {
        for health in self.manager.health_all() {
            self.manager.remove(&health.name).unwrap();
        }
        let name = self.db.name().to_owned();
        drop(self);
        Database::delete(&name).await.unwrap();
    }
}

#[wasm_bindgen_test]
async fn a_manifests_required_credential_is_asked_for_by_name_and_description_and_then_given_alone() {
    let rig = rig("manifest").await;
    rig.repo.unlock(app_key()).await.unwrap();
    rig.repo.set("other", "WEATHER_API_KEY", &Secret::new("another-servers-key")).await.unwrap();
    rig.repo.lock();
    rig.manager.add(mcp_worker_tests::wasm_config("weather", WITH_MANIFEST).env("UNITS", "metric")).unwrap();

    // Locked: the server waits, and the event says what it needs and that unlocking is what helps.
    let error = rig.manager.connect("weather").await.unwrap_err();
    assert_eq!(error.code(), "NEEDS_CREDENTIALS");
    assert_eq!(rig.status("weather"), ServerStatus::NeedsCredentials);
    let asked = rig.credentials_required();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0]["server"], "weather");
    assert_eq!(asked[0]["locked"], true);
    let key = json!({
        "name": "WEATHER_API_KEY",
        "description": "Your API key from weather.example (Settings → API keys)",
        "required": true
    });
    assert_eq!(asked[0]["credentials"], json!([key]), "the optional REGION is not asked for");

    // Unlocked but not stored: asked again, now as missing.
    rig.repo.unlock(app_key()).await.unwrap();
    rig.manager.credentials_changed("weather");
    let until = js_sys::Date::now() + 5_000.0;
    while rig.credentials_required().len() < 2 && js_sys::Date::now() < until {
        TimeoutFuture::new(20).await;
    }
    let asked = rig.credentials_required();
    assert_eq!(
        (asked.len(), asked[1]["locked"].clone(), asked[1]["credentials"].clone()),
        (2, json!(false), json!([key]))
    );

    // Stored: the server starts, and its worker receives exactly its declared credential and its own env.
    rig.store("weather", "WEATHER_API_KEY", "wk-0123456789").await;
    rig.store("weather", "UNDECLARED", "never-sent-1234").await;
    rig.manager.credentials_changed("weather");
    rig.wait_connected("weather").await;
    assert_eq!(rig.received_env("weather").await, json!({"WEATHER_API_KEY": "wk-0123456789", "UNITS": "metric"}));
    let declared = rig.manager.declared_credentials("weather").await.unwrap();
    assert_eq!(declared[1], CredentialDecl::optional("REGION", "Region override, e.g. eu-west"));

    let events = serde_json::to_string(&rig.hub.history(&EventFilter::all(), None)).unwrap();
    assert!(!events.contains("wk-0123456789") && !events.contains("never-sent"), "no value in any event");
    rig.end().await;
}

#[wasm_bindgen_test]
async fn a_server_without_a_manifest_declares_nothing_and_a_malformed_one_is_refused() {
    let rig = rig("no-manifest").await;
    rig.manager.add(mcp_worker_tests::wasm_config("plain", WITHOUT_MANIFEST).env("MODE", "fast")).unwrap();
    rig.manager.connect("plain").await.unwrap();
    assert_eq!(rig.received_env("plain").await, json!({"MODE": "fast"}), "locked vault, nothing declared: it starts");

    rig.manager.add(mcp_worker_tests::wasm_config("bad", "/fixtures/bad-manifest/server.js")).unwrap();
    let error = rig.manager.connect("bad").await.unwrap_err();
    assert_eq!(error.code(), "INVALID_MANIFEST");
    let shown = error.to_string();
    assert!(shown.starts_with("server bad: invalid manifest http://"), "the absolute URL, as fetched: {shown}");
    assert!(shown.contains("/fixtures/bad-manifest/manifest.json: "), "{shown}");
    assert!(shown.contains("1NOT A NAME"), "{shown}");
    assert!(rig.manager.client("bad").is_none(), "never started");
    rig.end().await;
}

#[wasm_bindgen_test]
async fn the_everything_bundles_optional_credential_reaches_it_when_stored() {
    let rig = rig("everything").await;
    // Locked, and the bundle's only credential is optional: it starts without it.
    rig.manager.add(mcp_worker_tests::wasm_config("everything", "/bundles/everything/bootstrap.js")).unwrap();
    rig.manager.connect("everything").await.unwrap();
    let status = |rig: &Rig| {
        let client = rig.manager.client("everything").unwrap();
        async move { client.call_tool("credential_status", None).await.unwrap().joined_text() }
    };
    assert_eq!(status(&rig).await, "EVERYTHING_API_KEY is not set");

    rig.repo.unlock(app_key()).await.unwrap();
    rig.store("everything", "EVERYTHING_API_KEY", "ev-secret-42").await;
    rig.manager.restart("everything").await.unwrap();
    assert_eq!(status(&rig).await, "EVERYTHING_API_KEY is set (12 characters)");
    rig.end().await;
}

#[wasm_bindgen_test]
async fn env_references_of_an_imported_mcp_servers_config_resolve_from_the_vault() {
    let rig = rig("import").await;
    let document = json!({"mcpServers": {"search": {
        "workerUrl": WITHOUT_MANIFEST, "isolation": "page",
        "env": {"API_KEY": "${API_KEY}", "AUTH": "Key ${API_KEY}", "REGION": "${REGION:-eu}", "MODE": "fast"}
    }}});
    let import = import_mcp_servers(&document.to_string()).unwrap();
    assert!(import.errors.is_empty(), "{:?}", import.errors);
    rig.manager.add(import.servers[0].clone()).unwrap();
    rig.repo.unlock(app_key()).await.unwrap();
    rig.repo.set("other", "API_KEY", &Secret::new("another-servers-key")).await.unwrap();

    let error = rig.manager.connect("search").await.unwrap_err();
    assert_eq!(error.code(), "NEEDS_CREDENTIALS");
    let asked = rig.credentials_required();
    assert_eq!(
        asked[0]["credentials"],
        json!([{"name": "API_KEY", "description": "referenced by env API_KEY", "required": true}])
    );

    rig.store("search", "API_KEY", "sk-search-0123").await;
    rig.manager.credentials_changed("search");
    rig.wait_connected("search").await;
    assert_eq!(
        rig.received_env("search").await,
        json!({"API_KEY": "sk-search-0123", "AUTH": "Key sk-search-0123", "REGION": "eu", "MODE": "fast"})
    );
    let health = serde_json::to_string(&rig.manager.health_all()).unwrap();
    let events = serde_json::to_string(&rig.hub.history(&EventFilter::all(), None)).unwrap();
    assert!(!health.contains("sk-search") && !events.contains("sk-search"), "never a resolved secret");
    rig.end().await;
}
