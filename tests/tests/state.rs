//! The state manager in headless Chromium on real IndexedDB: what a reloaded page gets back, and how damaged records
//! are reported and skipped. Damage is done with plain IndexedDB calls (tests/fixtures/raw-idb.js).
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use futures_util::future::join_all;
use mcp_worker_vault::credentials::{AppKey, CredentialError, CredentialsRepository, KeySource, Secret};
use mcp_worker_vault::state::{Database, Loaded, SCHEMA_VERSION, StateError, StateManager, ThreadConfig};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(module = "/fixtures/raw-idb.js")]
extern "C" {
    #[wasm_bindgen(js_name = rawPut, catch)]
    async fn raw_put(name: &str, store: &str, key: &JsValue, value: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = rawGet, catch)]
    async fn raw_get(name: &str, store: &str, key: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = rawStoreNames, catch)]
    async fn raw_store_names(name: &str) -> Result<JsValue, JsValue>;
}

async fn fresh(test: &str) -> (Database, StateManager) {
    let db = Database::open(&format!("state-{test}-{}", js_sys::Math::random())).await.unwrap();
    let state = StateManager::new(&db);
    (db, state)
}

fn app_key() -> KeySource {
    KeySource::AppKey(AppKey::from_bytes(&[11; 32]).unwrap())
}

fn js(value: Value) -> JsValue {
    js_sys::JSON::parse(&value.to_string()).unwrap()
}

#[wasm_bindgen_test]
async fn a_reloaded_page_gets_the_same_servers_enablement_and_locked_credentials() {
    let (db, state) = fresh("reload").await;
    let echo = json!({"type": "wasm", "workerUrl": "/bundles/echo/bootstrap.js", "env": {"API_KEY": "${API_KEY}"}});
    let search = json!({"type": "http", "url": "https://example.invalid/mcp"});
    state.servers().put("echo", &echo).await.unwrap();
    state.servers().put("search", &search).await.unwrap();
    state.servers().put("removed", &json!({"type": "wasm"})).await.unwrap();
    state.servers().delete("removed").await.unwrap();
    state.server_settings().put("echo", &json!({"enabled": true, "autoStart": false})).await.unwrap();
    state.threads().enable_tools("thread-1", &["mcp__echo__echo", "mcp__echo__add"]).await.unwrap();
    state.threads().enable_tools("thread-2", &["mcp__search__*"]).await.unwrap();
    state.threads().disable_tools("thread-1", &["mcp__echo__add"]).await.unwrap();
    let credentials = CredentialsRepository::new(&db);
    credentials.setup(app_key()).await.unwrap();
    credentials.set("echo", "API_KEY", &Secret::new("echo-key")).await.unwrap();
    drop((state, credentials));

    // The reload: a new connection, a new state manager, a new repository.
    let db = Database::open(db.name()).await.unwrap();
    let state = StateManager::new(&db);
    let servers: Loaded<Value> = state.servers().load_all().await.unwrap();
    assert!(servers.problems.is_empty());
    assert_eq!(servers.items, [("echo".to_owned(), echo), ("search".to_owned(), search)]);
    let settings: Option<Value> = state.server_settings().get("echo").await.unwrap();
    assert_eq!(settings, Some(json!({"enabled": true, "autoStart": false})));
    assert_eq!(state.threads().enabled_tools("thread-1").await.unwrap(), ["mcp__echo__echo"]);
    assert_eq!(state.threads().enabled_tools("thread-2").await.unwrap(), ["mcp__search__*"]);
    assert!(state.threads().enabled_tools("never-configured").await.unwrap().is_empty());
    assert_eq!(state.threads().load_all().await.unwrap().items.len(), 2);

    let credentials = CredentialsRepository::new(&db);
    assert!(!credentials.is_unlocked());
    assert_eq!(credentials.names("echo").await.unwrap(), ["API_KEY"]);
    assert_eq!(credentials.get("echo", "API_KEY").await.unwrap_err(), CredentialError::Locked);
    credentials.unlock(app_key()).await.unwrap();
    assert_eq!(credentials.get("echo", "API_KEY").await.unwrap().unwrap().expose(), "echo-key");
    Database::delete(db.name()).await.unwrap();
}

#[wasm_bindgen_test]
async fn the_database_has_every_store_of_the_current_layout() {
    let (db, _state) = fresh("layout").await;
    let names: Vec<String> =
        js_sys::Array::from(&raw_store_names(db.name()).await.unwrap()).iter().filter_map(|v| v.as_string()).collect();
    assert_eq!(names, ["credential_keys", "credentials", "server_settings", "servers", "threads"]);
    assert_eq!(SCHEMA_VERSION, 1);
    Database::delete(db.name()).await.unwrap();
}

#[wasm_bindgen_test]
async fn corrupt_records_are_reported_and_skipped_never_failing_the_rest() {
    let (db, state) = fresh("corrupt").await;
    state.servers().put("a-good", &json!({"workerUrl": "/a.js"})).await.unwrap();
    state.servers().put("z-good", &json!({"workerUrl": "/z.js"})).await.unwrap();
    let name = db.name().to_owned();
    raw_put(&name, "servers", &"b-garbage".into(), &"just a string".into()).await.unwrap();
    raw_put(&name, "servers", &"c-future".into(), &js(json!({"v": 2, "value": {"workerUrl": "/c.js"}}))).await.unwrap();
    raw_put(&name, "servers", &"d-blob".into(), &js_sys::ArrayBuffer::new(8).into()).await.unwrap();
    raw_put(&name, "servers", &JsValue::from_f64(42.0), &js(json!({"v": 1, "value": {}}))).await.unwrap();
    raw_put(&name, "servers", &"e-shape".into(), &js(json!({"v": 1, "value": {"workerUrl": 5}}))).await.unwrap();

    // A typed configuration: `{"workerUrl": 5}` does not fit it.
    type Config = BTreeMap<String, String>;
    let loaded: Loaded<Config> = state.servers().load_all().await.unwrap();
    let good: Vec<&str> = loaded.items.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(good, ["a-good", "z-good"]);
    let mut bad: Vec<&str> = loaded.problems.iter().map(|p| p.key.as_str()).collect();
    bad.sort_unstable();
    assert_eq!(bad, ["b-garbage", "c-future", "d-blob", "e-shape", "number"], "{:?}", loaded.problems);
    let future = loaded.problems.iter().find(|p| p.key == "c-future").unwrap();
    assert!(future.reason.contains("format version 2"), "{future}");
    assert_eq!(future.store, "servers");

    // A single read of a damaged record is an error naming it; the thread list fails closed.
    let err = state.servers().get::<Config>("e-shape").await.unwrap_err();
    assert!(matches!(&err, StateError::Corrupt(p) if p.key == "e-shape"), "{err}");
    raw_put(&name, "threads", &"t-bad".into(), &js(json!({"v": 1, "value": {"enabledTools": "all"}}))).await.unwrap();
    assert!(matches!(state.threads().enabled_tools("t-bad").await, Err(StateError::Corrupt(_))));
    // Enabling tools on a damaged thread record does not overwrite it.
    assert!(state.threads().enable_tools("t-bad", &["x"]).await.is_err());
    let untouched = raw_get(&name, "threads", &"t-bad".into()).await.unwrap();
    assert_eq!(js_sys::JSON::stringify(&untouched).unwrap(), r#"{"v":1,"value":{"enabledTools":"all"}}"#);
    Database::delete(db.name()).await.unwrap();
}

#[wasm_bindgen_test]
async fn concurrent_enablement_changes_to_one_thread_are_all_kept() {
    let (db, state) = fresh("threads").await;
    let art = ThreadConfig::with_tools(&["calculator"]);
    state.threads().put("t", &art).await.unwrap();
    let threads = state.threads();
    let changes = (0..40).map(|i| {
        let threads = threads.clone();
        async move { threads.enable_tools("t", &[format!("mcp__s__tool{i:02}")]).await }
    });
    for result in join_all(changes).await {
        result.unwrap();
    }
    let enabled = state.threads().enabled_tools("t").await.unwrap();
    assert_eq!(enabled.len(), 41, "{enabled:?}");
    assert_eq!(enabled[0], "calculator");
    Database::delete(db.name()).await.unwrap();
}

#[wasm_bindgen_test]
async fn art_thread_configs_keep_their_other_fields() {
    let (db, state) = fresh("art").await;
    let stored: ThreadConfig = serde_json::from_value(
        json!({"enabledTools": ["calculator"], "historyLimit": 20, "providerConfig": {"modelId": "m"}}),
    )
    .unwrap();
    state.threads().put("t", &stored).await.unwrap();
    let after = state.threads().enable_tools("t", &["mcp__echo__echo"]).await.unwrap();
    let back = serde_json::to_value(state.threads().get("t").await.unwrap().unwrap()).unwrap();
    assert_eq!(
        back,
        json!({"enabledTools": ["calculator", "mcp__echo__echo"], "historyLimit": 20, "providerConfig": {"modelId": "m"}})
    );
    assert_eq!(serde_json::to_value(after).unwrap(), back);
    assert!(matches!(state.servers().put("", &json!({})).await, Err(StateError::InvalidInput(_))));
    Database::delete(db.name()).await.unwrap();
}
