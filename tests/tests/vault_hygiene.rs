//! What the vault does when its database was tampered with, in headless Chromium on real IndexedDB and WebCrypto:
//! a deleted, replaced or edited key record, and credentials released only to the code they were stored for (a
//! real worker, through the manager). The database is damaged with plain IndexedDB calls
//! (tests/fixtures/raw-idb.js), never through the host's code.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use gloo_timers::future::TimeoutFuture;
use mcp_worker_runtime::manager::{ManagerOptions, McpTransportManager, ServerStatus};
use mcp_worker_runtime::observation::{EventFilter, ObservationManager, RedactingCredentials};
use mcp_worker_runtime::registry::ToolRegistry;
use mcp_worker_vault::credentials::{
    AppKey, CredentialError, CredentialsRepository, KeySource, MAX_PBKDF2_ITERATIONS, Secret, ServerIdentity,
};
use mcp_worker_vault::state::Database;
use serde_json::{Value, json};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(module = "/fixtures/raw-idb.js")]
extern "C" {
    #[wasm_bindgen(js_name = rawGet, catch)]
    async fn raw_get(name: &str, store: &str, key: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = rawPut, catch)]
    async fn raw_put(name: &str, store: &str, key: &JsValue, value: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = rawDelete, catch)]
    async fn raw_delete(name: &str, store: &str, key: &JsValue) -> Result<JsValue, JsValue>;
}

#[wasm_bindgen(inline_js = "
export function randomToken() {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return 'sk-' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
export function occurrences(memory, needle) {
  const hay = new Uint8Array(memory.buffer);
  const want = new TextEncoder().encode(needle);
  let count = 0;
  for (let i = hay.indexOf(want[0]); i !== -1 && i <= hay.length - want.length; i = hay.indexOf(want[0], i + 1)) {
    let j = 1;
    while (j < want.length && hay[i + j] === want[j]) j++;
    if (j === want.length) count++;
  }
  return count;
}")]
extern "C" {
    /// A random credential value, made in JavaScript so that the test's own wasm holds no copy but the `Secret`.
    #[wasm_bindgen(js_name = randomToken)]
    fn random_token() -> JsValue;
    /// How many times `needle`'s UTF-8 bytes occur in `memory`, searched in JavaScript (a copy into wasm would add one).
    fn occurrences(memory: &JsValue, needle: &JsValue) -> u32;
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console)]
    fn log(text: &str);
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

const KEYS: &str = "credential_keys";
const CREDENTIALS: &str = "credentials";

async fn fresh(test: &str) -> (Database, CredentialsRepository) {
    let db = Database::open(&format!("hygiene-{test}-{}", js_sys::Math::random())).await.unwrap();
    let repo = CredentialsRepository::new(&db);
    (db, repo)
}

fn app_key(byte: u8) -> KeySource {
    KeySource::AppKey(AppKey::from_bytes(&[byte; 32]).unwrap())
}

fn pass(text: &str) -> KeySource {
    KeySource::Passphrase(Secret::new(text))
}

fn key_of(server: &str, name: &str) -> JsValue {
    js_sys::Array::of2(&server.into(), &name.into()).into()
}

fn current() -> JsValue {
    "current".into()
}

#[wasm_bindgen_test]
async fn a_deleted_key_record_is_reported_and_wipe_is_the_way_out() {
    let (db, repo) = fresh("deleted").await;
    repo.setup(pass("the first passphrase")).await.unwrap();
    repo.set("github", "TOKEN", &Secret::new("ghp_orphan")).await.unwrap();
    repo.set("mail", "KEY", &Secret::new("mail-orphan")).await.unwrap();
    raw_delete(db.name(), KEYS, &current()).await.unwrap();

    // A new instance, as after a reload: no key, and credentials nobody can read.
    let again = CredentialsRepository::new(&db);
    assert_eq!(again.key_mode().await.unwrap(), None);
    assert_eq!(again.names("github").await.unwrap(), Vec::<String>::new(), "not listed as if readable");
    assert!(again.servers().await.unwrap().is_empty());
    let orphaned = CredentialError::Orphaned { count: 2, key_record_missing: true };
    assert_eq!(again.setup(pass("a new passphrase")).await.unwrap_err(), orphaned, "not passed over in silence");
    assert_eq!(again.unlock(pass("the first passphrase")).await.unwrap_err(), orphaned);
    let shown = orphaned.to_string();
    assert!(shown.contains("deleted") && shown.contains("wipe"), "{shown}");
    assert_eq!(again.key_mode().await.unwrap(), None, "setup wrote nothing");

    // The way out, once the user agreed: wipe, then set up anew.
    again.wipe().await.unwrap();
    again.setup(pass("a new passphrase")).await.unwrap();
    again.set("github", "TOKEN", &Secret::new("ghp_new")).await.unwrap();
    assert_eq!(again.get("github", "TOKEN").await.unwrap().unwrap().expose(), "ghp_new");
    Database::delete(db.name()).await.unwrap();
}

#[wasm_bindgen_test]
async fn a_replaced_key_record_is_reported_before_any_key_is_derived() {
    let (db, repo) = fresh("replaced").await;
    repo.setup(app_key(1)).await.unwrap();
    for i in 0..3 {
        repo.set("srv", &format!("K{i}"), &Secret::new(format!("value-{i}"))).await.unwrap();
    }
    // Another database's key record, copied over this one's.
    let (other_db, other) = fresh("replacement").await;
    other.setup(app_key(2)).await.unwrap();
    let replacement = raw_get(other_db.name(), KEYS, &current()).await.unwrap();
    raw_put(db.name(), KEYS, &current(), &replacement).await.unwrap();

    let again = CredentialsRepository::new(&db);
    let orphaned = CredentialError::Orphaned { count: 3, key_record_missing: false };
    assert_eq!(again.unlock(app_key(2)).await.unwrap_err(), orphaned, "the new key opens, but reads none of them");
    assert_eq!(again.unlock(app_key(1)).await.unwrap_err(), orphaned, "found before any key is tried");
    assert!(!again.is_unlocked());
    assert!(again.names("srv").await.unwrap().is_empty());
    assert!(orphaned.to_string().contains("replaced"), "{orphaned}");
    // The instance that was unlocked before the replacement still holds the key of its records and reads them, but
    // cannot write under a key that is no longer the stored one.
    assert_eq!(repo.get("srv", "K0").await.unwrap().unwrap().expose(), "value-0");
    assert_eq!(repo.set("srv", "K9", &Secret::new("x")).await.unwrap_err(), CredentialError::KeyChanged);
    Database::delete(db.name()).await.unwrap();
    Database::delete(other_db.name()).await.unwrap();
}

#[wasm_bindgen_test]
async fn an_edited_iteration_count_or_salt_is_refused_as_an_altered_record() {
    let (db, repo) = fresh("edited").await;
    repo.setup(pass("correct horse battery staple")).await.unwrap();
    repo.set("s", "K", &Secret::new("v-1")).await.unwrap();
    let original = raw_get(db.name(), KEYS, &current()).await.unwrap();
    let edit = |field: &str, value: JsValue| {
        let copy = js_sys::JSON::parse(&js_sys::JSON::stringify(&original).unwrap().as_string().unwrap()).unwrap();
        let record = js_sys::Reflect::get(&copy, &"record".into()).unwrap();
        js_sys::Reflect::set(&record, &field.into(), &value).unwrap();
        copy
    };

    // 2^32-1 iterations would keep the page busy for hours: refused before any runs.
    raw_put(db.name(), KEYS, &current(), &edit("iterations", JsValue::from(u32::MAX))).await.unwrap();
    let again = CredentialsRepository::new(&db);
    let started = performance_now();
    let err = again.unlock(pass("correct horse battery staple")).await.unwrap_err();
    let refused_ms = performance_now() - started;
    assert_eq!(err.code(), "CORRUPT", "{err}");
    assert!(err.to_string().contains(&format!("more than the limit of {MAX_PBKDF2_ITERATIONS}")), "{err}");
    assert!(refused_ms < 1_000.0, "{refused_ms} ms");

    // One iteration more, or another salt: the right passphrase does not open it, and says the record may be altered.
    for (field, value) in [("iterations", JsValue::from(600_001)), ("salt", JsValue::from("00".repeat(16)))] {
        raw_put(db.name(), KEYS, &current(), &edit(field, value)).await.unwrap();
        let err = CredentialsRepository::new(&db).unlock(pass("correct horse battery staple")).await.unwrap_err();
        assert_eq!(err.code(), "WRONG_KEY", "{field}");
        assert_eq!(err.to_string(), "wrong passphrase, or an altered key record: it does not open these credentials");
    }
    raw_put(db.name(), KEYS, &current(), &original).await.unwrap();
    let restored = CredentialsRepository::new(&db);
    restored.unlock(pass("correct horse battery staple")).await.unwrap();
    assert_eq!(restored.get("s", "K").await.unwrap().unwrap().expose(), "v-1");
    log(&format!("vault: a key record asking for 2^32-1 PBKDF2 iterations refused in {refused_ms:.1} ms"));
    Database::delete(db.name()).await.unwrap();
}

async fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let until = js_sys::Date::now() + 10_000.0;
    while !done() && js_sys::Date::now() < until {
        TimeoutFuture::new(20).await;
    }
    assert!(done(), "timed out waiting for {what}");
}

#[wasm_bindgen_test]
async fn credentials_are_held_back_from_other_code_until_the_application_confirms() {
    let (db, repo) = fresh("identity").await;
    repo.setup(app_key(8)).await.unwrap();
    let stored_for = ServerIdentity::bundle("/fixtures/env-reporter.js", None);
    repo.set_for("weather", &stored_for, "WEATHER_API_KEY", &Secret::new("wk-bound-0123")).await.unwrap();
    let (manager, _launcher) =
        McpTransportManager::for_browser(Rc::new(ToolRegistry::new()), ManagerOptions::default());
    let hub = ObservationManager::new(Rc::new(js_sys::Date::now), "test", 256);
    manager
        .set_credential_source(Some(Rc::new(RedactingCredentials::new(Rc::new(repo.clone()), hub.redactor().clone()))));
    let _watches = hub.watch_manager(&manager);
    let asked = || -> Vec<Value> {
        let events = serde_json::to_value(hub.history(&EventFilter::all(), None)).unwrap();
        events.as_array().unwrap().iter().filter(|e| e["type"] == "credentialsRequired").cloned().collect()
    };

    // The config of "weather" names another bundle than the one its key was stored for (the same test server, at
    // another URL, whose manifest requires WEATHER_API_KEY).
    let now = "/fixtures/env-reporter/server.js";
    manager.add(mcp_worker_tests::wasm_config("weather", now)).unwrap();
    assert_eq!(manager.connect("weather").await.unwrap_err().code(), "NEEDS_CREDENTIALS");
    let change = json!({"server": "weather", "credentials": ["WEATHER_API_KEY"],
                        "storedFor": "bundle /fixtures/env-reporter.js", "current": format!("bundle {now}")});
    assert_eq!(asked()[0]["identityChange"], change);
    assert_eq!(asked()[0]["locked"], false);
    let last_error = manager.health("weather").unwrap().last_error.unwrap();
    assert!(last_error.contains("bundle /fixtures/env-reporter.js") && last_error.contains(now), "{last_error}");

    // Locked, the change is still told (what a record is bound to is readable without the key), and it cannot be
    // confirmed.
    repo.lock();
    manager.credentials_changed("weather");
    wait_until("a second credentialsRequired", || asked().len() == 2).await;
    assert_eq!(asked()[1]["identityChange"], change);
    let refused = manager.confirm_credential_identity("weather").await.unwrap_err();
    assert!(refused.to_string().contains("locked"), "{refused}");
    repo.unlock(app_key(8)).await.unwrap();

    // A record whose identity was edited in the database to pass the check does not decrypt.
    let location = key_of("weather", "WEATHER_API_KEY");
    let record = raw_get(db.name(), CREDENTIALS, &location).await.unwrap();
    let forged = js_sys::JSON::parse(&js_sys::JSON::stringify(&record).unwrap().as_string().unwrap()).unwrap();
    let moved = ServerIdentity::bundle(now, None).canonical();
    js_sys::Reflect::set(&forged, &"bound_to".into(), &moved.as_str().into()).unwrap();
    raw_put(db.name(), CREDENTIALS, &location, &forged).await.unwrap();
    manager.credentials_changed("weather");
    wait_until("a third credentialsRequired", || asked().len() == 3).await;
    assert!(asked()[2]["reason"].as_str().unwrap().contains("altered or moved"), "{}", asked()[2]);
    assert_eq!(manager.client("weather").map(|_| ()), None, "never started");
    raw_put(db.name(), CREDENTIALS, &location, &record).await.unwrap();

    // Confirmed: bound to the new bundle, and the server gets its key.
    manager.confirm_credential_identity("weather").await.unwrap();
    wait_until("weather connected", || manager.health("weather").unwrap().status == ServerStatus::Connected).await;
    let client = manager.client("weather").unwrap();
    let env: Value = serde_json::from_str(&client.call_tool("env", None).await.unwrap().joined_text()).unwrap();
    assert_eq!(env, json!({"WEATHER_API_KEY": "wk-bound-0123"}));
    let rebound = raw_get(db.name(), CREDENTIALS, &location).await.unwrap();
    assert_eq!(js_sys::Reflect::get(&rebound, &"bound_to".into()).unwrap().as_string(), Some(moved));

    // Removed: its credentials go with it.
    manager.remove("weather").unwrap();
    let until = js_sys::Date::now() + 5_000.0;
    while !repo.names("weather").await.unwrap().is_empty() && js_sys::Date::now() < until {
        TimeoutFuture::new(20).await;
    }
    assert!(repo.names("weather").await.unwrap().is_empty());
    Database::delete(db.name()).await.unwrap();
}

#[wasm_bindgen_test]
async fn no_plaintext_credential_stays_in_wasm_memory_after_lock() {
    let (db, repo) = fresh("memory").await;
    repo.setup(app_key(9)).await.unwrap();
    let token = random_token();
    let memory = wasm_bindgen::memory();
    let identity = ServerIdentity::bundle("/fixtures/env-reporter/server.js", None);
    {
        let secret = Secret::new(token.as_string().unwrap());
        assert!(occurrences(&memory, &token) >= 1, "the search finds a value that is in memory");
        repo.set_for("weather", &identity, "WEATHER_API_KEY", &secret).await.unwrap();
    }
    assert_eq!(occurrences(&memory, &token), 0, "stored: only its ciphertext remains");

    let (manager, _launcher) =
        McpTransportManager::for_browser(Rc::new(ToolRegistry::new()), ManagerOptions::default());
    let hub = ObservationManager::new(Rc::new(js_sys::Date::now), "test", 256);
    manager
        .set_credential_source(Some(Rc::new(RedactingCredentials::new(Rc::new(repo.clone()), hub.redactor().clone()))));
    let _watches = hub.watch_manager(&manager);
    manager.add(mcp_worker_tests::wasm_config("weather", "/fixtures/env-reporter/server.js")).unwrap();
    manager.connect("weather").await.unwrap();
    assert_eq!(manager.health("weather").unwrap().status, ServerStatus::Connected, "started with its key");
    repo.lock();
    TimeoutFuture::new(50).await;
    assert_eq!(occurrences(&memory, &token), 0, "after lock, no plaintext copy of the credential in wasm memory");
    manager.remove("weather").unwrap();
    Database::delete(db.name()).await.unwrap();
}
