//! A manager kept in its IndexedDB database (`state::Persistence`) in headless Chromium: a new manager on the same
//! database, as after a page reload, comes back with the same servers, enablement and thread configurations, its
//! credentials still locked; damaged records are reported and skipped. Damage is done with plain IndexedDB calls.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use gloo_timers::future::TimeoutFuture;
use mcp_worker_runtime::config::import_mcp_servers;
use mcp_worker_runtime::manager::{ManagerOptions, McpTransportManager, ServerStatus};
use mcp_worker_runtime::registry::ToolRegistry;
use mcp_worker_vault::credentials::{AppKey, CredentialDecl, CredentialsRepository, KeySource, Secret, ServerIdentity};
use mcp_worker_vault::state::{Database, Persistence, StateManager};
use serde_json::{Value, json};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(module = "/fixtures/raw-idb.js")]
extern "C" {
    #[wasm_bindgen(js_name = rawPut, catch)]
    async fn raw_put(name: &str, store: &str, key: &JsValue, value: &JsValue) -> Result<JsValue, JsValue>;
}

fn app_key() -> KeySource {
    KeySource::AppKey(AppKey::from_bytes(&[33; 32]).unwrap())
}

fn js(value: Value) -> JsValue {
    js_sys::JSON::parse(&value.to_string()).unwrap()
}

/// What a page does at load: open the database, a locked repository as credential source, and the manager kept in
/// the database.
async fn load_page(name: &str) -> (Database, CredentialsRepository, McpTransportManager, Persistence) {
    let db = Database::open(name).await.unwrap();
    let repo = CredentialsRepository::new(&db);
    let (manager, _launcher) =
        McpTransportManager::for_browser(Rc::new(ToolRegistry::new()), ManagerOptions::default());
    manager.set_credential_source(Some(Rc::new(repo.clone())));
    let persistence = Persistence::attach(&StateManager::new(&db), &manager).await.unwrap();
    (db, repo, manager, persistence)
}

fn statuses(manager: &McpTransportManager) -> Vec<(String, ServerStatus)> {
    manager.health_all().into_iter().map(|h| (h.name, h.status)).collect()
}

async fn wait_for(manager: &McpTransportManager, name: &str, status: ServerStatus) {
    let until = js_sys::Date::now() + 10_000.0;
    while manager.health(name).unwrap().status != status && js_sys::Date::now() < until {
        TimeoutFuture::new(20).await;
    }
    assert_eq!(manager.health(name).unwrap().status, status, "{:?}", manager.health(name));
}

#[wasm_bindgen_test]
async fn a_reloaded_page_comes_back_with_the_same_servers_enablement_and_threads_and_locked_credentials() {
    let name = format!("persist-reload-{}", js_sys::Math::random());
    {
        let (_db, repo, manager, persistence) = load_page(&name).await;
        assert_eq!(persistence.report().servers.len(), 0, "a new database restores nothing");
        repo.setup(app_key()).await.unwrap();
        let bundle = ServerIdentity::bundle("/fixtures/env-reporter/server.js", None);
        repo.set_for("weather", &bundle, "WEATHER_API_KEY", &Secret::new("wk-persisted-1")).await.unwrap();

        manager.add(mcp_worker_tests::wasm_config("echo", "/bundles/echo/bootstrap.js").timeout_ms(5_000)).unwrap();
        manager
            .add(mcp_worker_tests::wasm_config("weather", "/fixtures/env-reporter/server.js").env("UNITS", "metric"))
            .unwrap();
        manager.add(mcp_worker_tests::wasm_config("off", "/bundles/echo/bootstrap.js")).unwrap();
        manager.add(mcp_worker_tests::wasm_config("gone", "/bundles/echo/bootstrap.js")).unwrap();
        let import = import_mcp_servers(
            r#"{"mcpServers": {"search": {"workerUrl": "/fixtures/env-reporter.js", "isolation": "page",
            "env": {"API_KEY": "${API_KEY}"}}}}"#,
        )
        .unwrap();
        manager.add(import.servers[0].clone()).unwrap();
        manager.connect("echo").await.unwrap();
        manager.disable("off").unwrap();
        manager.remove("gone").unwrap();
        let registry = manager.registry();
        registry.set_thread_tools("thread-1", ["mcp__echo__echo", "mcp__weather__*"]);
        registry.enable_for_thread("thread-2", ["mcp__search__env"]);
        registry.disable_for_thread("thread-1", ["mcp__echo__echo"]);
        persistence.flush().await;
        assert!(persistence.write_errors().is_empty(), "{:?}", persistence.write_errors());
        for health in manager.health_all() {
            manager.disconnect(&health.name).unwrap();
        }
    }

    // The reload: a new connection, repository, manager and registry.
    let (db, repo, manager, persistence) = load_page(&name).await;
    let report = persistence.report();
    assert_eq!(report.servers, ["echo", "off", "search", "weather"]);
    assert_eq!(report.threads, ["thread-1", "thread-2"]);
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    assert_eq!(
        statuses(&manager),
        [
            ("echo".to_owned(), ServerStatus::Disconnected),
            ("off".to_owned(), ServerStatus::Disabled),
            ("search".to_owned(), ServerStatus::Disconnected),
            ("weather".to_owned(), ServerStatus::Disconnected),
        ]
    );
    assert_eq!(manager.config("echo").unwrap().timeout_ms, Some(5_000));
    assert_eq!(
        manager.config("search").unwrap().credentials,
        [CredentialDecl::required("API_KEY", "referenced by env API_KEY")]
    );
    let enablement = manager.registry().enablement();
    assert!(enablement.is_enabled("thread-1", "mcp__weather__env"));
    assert!(!enablement.is_enabled("thread-1", "mcp__echo__echo"), "the disabling was saved too");
    assert!(enablement.is_enabled("thread-2", "mcp__search__env"));
    assert!(!enablement.is_enabled("thread-3", "mcp__search__env"), "still fails closed");

    // Credentials came back locked: the server with a required one waits, then starts once unlocked.
    assert!(!repo.is_unlocked());
    assert_eq!(manager.connect("weather").await.unwrap_err().code(), "NEEDS_CREDENTIALS");
    assert!(manager.credentials_needed("weather").unwrap().locked);
    repo.unlock(app_key()).await.unwrap();
    manager.credentials_changed("weather");
    wait_for(&manager, "weather", ServerStatus::Connected).await;
    let client = manager.client("weather").unwrap();
    let env: Value = serde_json::from_str(&client.call_tool("env", None).await.unwrap().joined_text()).unwrap();
    assert_eq!(env, json!({"WEATHER_API_KEY": "wk-persisted-1", "UNITS": "metric"}));
    manager.connect("echo").await.unwrap();

    // Nothing secret was saved with the configurations: the reference is stored, never its value.
    let stored: Value = StateManager::new(&db).servers().get("search").await.unwrap().unwrap();
    assert_eq!(stored["env"]["API_KEY"], "${API_KEY}");
    for health in manager.health_all() {
        manager.remove(&health.name).unwrap();
    }
    persistence.flush().await;
    drop((repo, manager, persistence));
    let (_db2, _repo, manager, persistence) = load_page(&name).await;
    assert!(persistence.report().servers.is_empty() && manager.health_all().is_empty(), "removals were saved");
    drop((db, _db2, manager, persistence));
    Database::delete(&name).await.unwrap();
}

#[wasm_bindgen_test]
async fn damaged_records_are_reported_and_skipped_and_the_rest_is_restored() {
    let name = format!("persist-damaged-{}", js_sys::Math::random());
    {
        let (_db, _repo, manager, persistence) = load_page(&name).await;
        manager.add(mcp_worker_tests::wasm_config("echo", "/bundles/echo/bootstrap.js")).unwrap();
        manager.registry().set_thread_tools("t-good", ["mcp__echo__echo"]);
        persistence.flush().await;
    }
    let server = |value: Value| js(json!({"v": 1, "value": value}));
    raw_put(&name, "servers", &"garbage".into(), &"just a string".into()).await.unwrap();
    raw_put(&name, "servers", &"no-url".into(), &server(json!({"name": "no-url", "type": "wasm"}))).await.unwrap();
    raw_put(&name, "servers", &"moved".into(), &server(json!({"name": "other", "workerUrl": "/o.js"}))).await.unwrap();
    raw_put(&name, "threads", &"t-bad".into(), &server(json!({"enabledTools": "all"}))).await.unwrap();

    let (db, _repo, manager, persistence) = load_page(&name).await;
    let report = persistence.report();
    assert_eq!(report.servers, ["echo"]);
    assert_eq!(report.threads, ["t-good"]);
    let mut skipped: Vec<(&str, &str)> = report.problems.iter().map(|p| (p.store.as_str(), p.key.as_str())).collect();
    skipped.sort_unstable();
    assert_eq!(skipped, [("servers", "garbage"), ("servers", "moved"), ("servers", "no-url"), ("threads", "t-bad")]);
    let no_url = report.problems.iter().find(|p| p.key == "no-url").unwrap();
    assert!(no_url.reason.contains("workerUrl"), "{no_url:?}");
    manager.connect("echo").await.unwrap();
    assert!(manager.registry().enablement().is_enabled("t-good", "mcp__echo__echo"));
    assert!(manager.registry().enablement().enabled("t-bad").is_none(), "a damaged thread gets nothing");
    drop((db, manager, persistence));
    Database::delete(&name).await.unwrap();
}
