//! The encrypted credentials repository in headless Chromium, on real IndexedDB and real WebCrypto. The database is
//! also read and damaged with plain IndexedDB calls (tests/fixtures/raw-idb.js), never through the host's code.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use futures_util::future::join_all;
use gloo_timers::future::TimeoutFuture;
use mcp_worker_client::McpClient;
use mcp_worker_runtime::manager::{ManagerOptions, McpTransportManager, ServerStatus};
use mcp_worker_runtime::registry::ToolRegistry;
use mcp_worker_vault::credentials::{
    AppKey, CredentialDecl, CredentialError, CredentialsRepository, KeyMode, KeySource, Secret, ServerIdentity,
};
use mcp_worker_vault::state::Database;
use serde_json::{Value, json};
use std::future::Future;
use std::rc::Rc;
use std::task::Poll;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(module = "/fixtures/raw-idb.js")]
extern "C" {
    #[wasm_bindgen(js_name = rawDump, catch)]
    async fn raw_dump(name: &str) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = rawGet, catch)]
    async fn raw_get(name: &str, store: &str, key: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = rawPut, catch)]
    async fn raw_put(name: &str, store: &str, key: &JsValue, value: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = findSecret)]
    fn find_secret(value: &JsValue, needles: Vec<String>) -> Option<String>;
    #[wasm_bindgen(js_name = abortAfterPuts)]
    fn abort_after_puts(store: &str, n: u32) -> js_sys::Function;
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console)]
    fn log(text: &str);
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

const CREDENTIALS: &str = "credentials";

/// A database of its own for each test.
async fn fresh(test: &str) -> (Database, CredentialsRepository) {
    let name = format!("creds-{test}-{}", js_sys::Math::random());
    let db = Database::open(&name).await.unwrap();
    let repo = CredentialsRepository::new(&db);
    (db, repo)
}

async fn reopen(db: &Database) -> (Database, CredentialsRepository) {
    let db = Database::open(db.name()).await.unwrap();
    let repo = CredentialsRepository::new(&db);
    (db, repo)
}

fn pass(text: &str) -> KeySource {
    KeySource::Passphrase(Secret::new(text))
}

fn app_key(byte: u8) -> KeySource {
    KeySource::AppKey(AppKey::from_bytes(&[byte; 32]).unwrap())
}

fn key_of(server: &str, name: &str) -> JsValue {
    js_sys::Array::of2(&server.into(), &name.into()).into()
}

async fn value(repo: &CredentialsRepository, server: &str, name: &str) -> Option<String> {
    repo.get(server, name).await.unwrap().map(|s| s.expose().to_owned())
}

/// Sets a JSON-like property on a raw record.
fn set_field(record: &JsValue, field: &str, value: &str) {
    js_sys::Reflect::set(record, &field.into(), &value.into()).unwrap();
}

fn field(record: &JsValue, field: &str) -> String {
    js_sys::Reflect::get(record, &field.into()).unwrap().as_string().unwrap()
}

#[wasm_bindgen_test]
async fn every_key_mode_round_trips_and_locks() {
    for source in [pass("correct horse battery staple"), app_key(7), KeySource::Device] {
        let mode = source.mode();
        let (db, repo) = fresh("modes").await;
        assert_eq!(repo.key_mode().await.unwrap(), None);
        assert_eq!(repo.unlock(app_key(1)).await.unwrap_err(), CredentialError::NotSetUp);
        let before = repo.set("github", "TOKEN", &Secret::new("x")).await.unwrap_err();
        assert_eq!(before, CredentialError::NotSetUp, "before setup, setting up is what helps");
        assert_eq!(repo.get("github", "TOKEN").await.unwrap_err(), CredentialError::NotSetUp);
        repo.setup(source).await.unwrap();
        assert_eq!(repo.key_mode().await.unwrap(), Some(mode));
        assert!(repo.is_unlocked());

        repo.set("github", "TOKEN", &Secret::new("ghp_round_trip")).await.unwrap();
        repo.set("github", "TOKEN", &Secret::new("ghp_replaced")).await.unwrap();
        repo.set("weather", "API_KEY", &Secret::new("w-123 ünïcödé 🔑")).await.unwrap();
        assert_eq!(value(&repo, "github", "TOKEN").await.as_deref(), Some("ghp_replaced"), "{mode}");
        assert_eq!(value(&repo, "weather", "API_KEY").await.as_deref(), Some("w-123 ünïcödé 🔑"));
        assert_eq!(value(&repo, "github", "NOPE").await, None);

        repo.lock();
        assert!(!repo.is_unlocked());
        assert_eq!(repo.get("github", "TOKEN").await.unwrap_err(), CredentialError::Locked);
        assert_eq!(repo.set("github", "X", &Secret::new("x")).await.unwrap_err(), CredentialError::Locked);
        assert_eq!(repo.rotate(app_key(2)).await.unwrap_err(), CredentialError::Locked);
        assert_eq!(
            repo.credentials_for_server("github", &[CredentialDecl::required("TOKEN", "")]).await.unwrap_err(),
            CredentialError::Locked
        );
        assert_eq!(CredentialError::Locked.to_string(), "the credentials are locked: unlock them first");
        // Names are not secret: listing, checking and deleting work while locked.
        assert_eq!(repo.names("github").await.unwrap(), ["TOKEN"]);
        repo.delete("weather", "API_KEY").await.unwrap();
        assert_eq!(repo.servers().await.unwrap(), ["github"]);

        let source = match mode {
            KeyMode::Passphrase => pass("correct horse battery staple"),
            KeyMode::AppKey => app_key(7),
            _ => KeySource::Device,
        };
        assert!(matches!(repo.setup(app_key(3)).await, Err(CredentialError::AlreadySetUp { .. })));
        repo.unlock(source).await.unwrap();
        assert_eq!(value(&repo, "github", "TOKEN").await.as_deref(), Some("ghp_replaced"));
        Database::delete(db.name()).await.unwrap();
    }
}

#[wasm_bindgen_test]
async fn credentials_persist_for_a_new_host_instance_on_the_same_database() {
    for mode in ["passphrase", "app_key", "device"] {
        let source = || match mode {
            "passphrase" => pass("persist me"),
            "app_key" => app_key(42),
            _ => KeySource::Device,
        };
        let (db, repo) = fresh("persist").await;
        repo.setup(source()).await.unwrap();
        for i in 0..5 {
            repo.set("srv", &format!("K{i}"), &Secret::new(format!("persisted-{mode}-{i}"))).await.unwrap();
        }
        drop(repo);

        // A new connection and a new repository, as after a page reload: locked, names visible, values behind the key.
        let (db2, again) = reopen(&db).await;
        assert!(!again.is_unlocked());
        assert_eq!(again.names("srv").await.unwrap(), ["K0", "K1", "K2", "K3", "K4"]);
        assert_eq!(again.get("srv", "K0").await.unwrap_err(), CredentialError::Locked);
        again.unlock(source()).await.unwrap();
        for i in 0..5 {
            assert_eq!(value(&again, "srv", &format!("K{i}")).await, Some(format!("persisted-{mode}-{i}")), "{mode}");
        }
        Database::delete(db2.name()).await.unwrap();
    }
}

#[wasm_bindgen_test]
async fn a_wrong_key_is_reported_as_such_and_leaves_the_repository_locked() {
    let (db, repo) = fresh("wrong").await;
    repo.setup(pass("the right one")).await.unwrap();
    repo.set("s", "K", &Secret::new("v")).await.unwrap();
    let (_db2, other) = reopen(&db).await;

    let err = other.unlock(pass("the wrong one")).await.unwrap_err();
    assert_eq!(err, CredentialError::WrongKey { mode: KeyMode::Passphrase });
    assert_eq!(err.to_string(), "wrong passphrase, or an altered key record: it does not open these credentials");
    assert!(!other.is_unlocked());
    assert!(!format!("{err:?}").contains("the wrong one"));
    assert_eq!(
        other.unlock(app_key(1)).await.unwrap_err(),
        CredentialError::ModeMismatch { stored: KeyMode::Passphrase, given: KeyMode::AppKey }
    );
    other.unlock(pass("the right one")).await.unwrap();
    assert_eq!(value(&other, "s", "K").await.as_deref(), Some("v"));

    let (db, repo) = fresh("wrong-app").await;
    repo.setup(app_key(1)).await.unwrap();
    let (_db2, other) = reopen(&db).await;
    assert_eq!(other.unlock(app_key(2)).await.unwrap_err(), CredentialError::WrongKey { mode: KeyMode::AppKey });
    Database::delete(db.name()).await.unwrap();
}

#[wasm_bindgen_test]
async fn a_flipped_bit_in_a_ciphertext_is_tampering_not_a_wrong_key() {
    let (db, repo) = fresh("bitflip").await;
    repo.setup(app_key(5)).await.unwrap();
    repo.set("bank", "PIN", &Secret::new("1234-5678")).await.unwrap();
    repo.set("bank", "OTHER", &Secret::new("untouched")).await.unwrap();

    let record = raw_get(db.name(), CREDENTIALS, &key_of("bank", "PIN")).await.unwrap();
    let ct = field(&record, "ct");
    let flipped = u8::from_str_radix(&ct[..2], 16).unwrap() ^ 0x01;
    set_field(&record, "ct", &format!("{flipped:02x}{}", &ct[2..]));
    raw_put(db.name(), CREDENTIALS, &key_of("bank", "PIN"), &record).await.unwrap();

    let err = repo.get("bank", "PIN").await.unwrap_err();
    assert_eq!(err, CredentialError::Tampered { server: "bank".into(), name: "PIN".into() });
    assert_eq!(err.to_string(), "credential \"PIN\" of server \"bank\" cannot be decrypted: it was altered or moved");
    assert_eq!(value(&repo, "bank", "OTHER").await.as_deref(), Some("untouched"));
    // The key itself is fine: a new instance unlocks, and sees the same damage.
    let (_db2, other) = reopen(&db).await;
    other.unlock(app_key(5)).await.unwrap();
    assert!(matches!(other.get("bank", "PIN").await, Err(CredentialError::Tampered { .. })));
    Database::delete(db.name()).await.unwrap();
}

#[wasm_bindgen_test]
async fn a_record_moved_to_another_servers_key_does_not_decrypt() {
    let (db, repo) = fresh("moved").await;
    repo.setup(KeySource::Device).await.unwrap();
    repo.set("trusted", "API_KEY", &Secret::new("trusted-secret")).await.unwrap();
    repo.set("evil", "API_KEY", &Secret::new("evil-own-key")).await.unwrap();

    // The evil server's record is replaced by a copy of the trusted server's record.
    let record = raw_get(db.name(), CREDENTIALS, &key_of("trusted", "API_KEY")).await.unwrap();
    raw_put(db.name(), CREDENTIALS, &key_of("evil", "API_KEY"), &record).await.unwrap();
    raw_put(db.name(), CREDENTIALS, &key_of("trusted", "RENAMED"), &record).await.unwrap();

    assert_eq!(
        repo.get("evil", "API_KEY").await.unwrap_err(),
        CredentialError::Tampered { server: "evil".into(), name: "API_KEY".into() }
    );
    assert!(matches!(repo.get("trusted", "RENAMED").await, Err(CredentialError::Tampered { .. })));
    let declared = [CredentialDecl::required("API_KEY", "")];
    assert!(matches!(repo.credentials_for_server("evil", &declared).await, Err(CredentialError::Tampered { .. })));
    assert_eq!(value(&repo, "trusted", "API_KEY").await.as_deref(), Some("trusted-secret"));
    Database::delete(db.name()).await.unwrap();
}

#[wasm_bindgen_test]
async fn rotation_and_passphrase_change_re_encrypt_everything() {
    let (db, repo) = fresh("rotate").await;
    repo.setup(pass("first passphrase")).await.unwrap();
    for i in 0..10 {
        repo.set(&format!("s{}", i % 3), &format!("K{i}"), &Secret::new(format!("value-{i}"))).await.unwrap();
    }
    let before = raw_get(db.name(), CREDENTIALS, &key_of("s0", "K0")).await.unwrap();

    repo.rotate(pass("second passphrase")).await.unwrap();
    let after = raw_get(db.name(), CREDENTIALS, &key_of("s0", "K0")).await.unwrap();
    assert_ne!(field(&before, "key_id"), field(&after, "key_id"));
    assert_ne!(field(&before, "ct"), field(&after, "ct"));
    for i in 0..10 {
        assert_eq!(value(&repo, &format!("s{}", i % 3), &format!("K{i}")).await, Some(format!("value-{i}")));
    }
    let (_db2, other) = reopen(&db).await;
    assert_eq!(
        other.unlock(pass("first passphrase")).await.unwrap_err(),
        CredentialError::WrongKey { mode: KeyMode::Passphrase }
    );
    other.unlock(pass("second passphrase")).await.unwrap();
    assert_eq!(value(&other, "s2", "K5").await.as_deref(), Some("value-5"));

    // Changing mode is a rotation too: passphrase → device key → application key.
    repo.rotate(KeySource::Device).await.unwrap();
    repo.rotate(app_key(9)).await.unwrap();
    let (_db3, last) = reopen(&db).await;
    assert_eq!(last.key_mode().await.unwrap(), Some(KeyMode::AppKey));
    last.unlock(app_key(9)).await.unwrap();
    assert_eq!(value(&last, "s1", "K7").await.as_deref(), Some("value-7"));

    // The instance that still holds the replaced key is told so, and cannot write a record nobody could read.
    assert_eq!(other.get("s0", "K0").await.unwrap_err(), CredentialError::KeyChanged);
    assert_eq!(other.set("s0", "K0", &Secret::new("stale")).await.unwrap_err(), CredentialError::KeyChanged);
    assert_eq!(value(&last, "s0", "K0").await.as_deref(), Some("value-0"));
    Database::delete(db.name()).await.unwrap();
}

/// Makes a key source (called once per use: a source is consumed).
type Source = fn() -> KeySource;

/// After an interrupted rotation, the database opens with exactly one of the two keys and holds every value.
async fn assert_all_readable(
    db: &Database,
    old: fn() -> KeySource,
    new: fn() -> KeySource,
    count: usize,
) -> &'static str {
    let (_db, repo) = reopen(db).await;
    let which = match repo.unlock(old()).await {
        Ok(()) => "old",
        Err(CredentialError::WrongKey { .. }) => {
            repo.unlock(new()).await.unwrap();
            "new"
        }
        Err(other) => panic!("{other}"),
    };
    for i in 0..count {
        assert_eq!(value(&repo, "srv", &format!("K{i:03}")).await, Some(format!("v{i}")), "{which} key");
    }
    assert_eq!(repo.names("srv").await.unwrap().len(), count);
    which
}

#[wasm_bindgen_test]
async fn a_rotation_aborted_after_some_writes_leaves_everything_under_the_old_key() {
    let (db, repo) = fresh("abort").await;
    repo.setup(app_key(1)).await.unwrap();
    for i in 0..30 {
        repo.set("srv", &format!("K{i:03}"), &Secret::new(format!("v{i}"))).await.unwrap();
    }
    // The browser aborts the rotation's transaction once its 10th record write has succeeded.
    let restore = abort_after_puts(CREDENTIALS, 10);
    let result = repo.rotate(app_key(2)).await;
    let puts = restore.call0(&JsValue::NULL).unwrap().as_f64().unwrap();
    assert!(puts >= 10.0, "the rotation wrote {puts} records before the abort");
    assert!(matches!(result, Err(CredentialError::Storage(_))), "{result:?}");

    assert_eq!(assert_all_readable(&db, || app_key(1), || app_key(2), 30).await, "old");
    // The instance that tried keeps working with the old key.
    assert_eq!(value(&repo, "srv", "K029").await.as_deref(), Some("v29"));
    repo.rotate(app_key(2)).await.unwrap();
    assert_eq!(assert_all_readable(&db, || app_key(1), || app_key(2), 30).await, "new");
    Database::delete(db.name()).await.unwrap();
}

/// Polls `future` at most `polls` times, then drops it unfinished (what a caller that stops waiting does). Also
/// gives the number of polls made.
async fn abandon_after_polls<F: Future>(future: F, polls: usize) -> (Option<F::Output>, usize) {
    let mut future = Box::pin(future);
    let mut count = 0;
    let output = std::future::poll_fn(|cx| {
        count += 1;
        match future.as_mut().poll(cx) {
            Poll::Ready(output) => Poll::Ready(Some(output)),
            Poll::Pending if count >= polls => Poll::Ready(None),
            Poll::Pending => Poll::Pending,
        }
    })
    .await;
    (output, count)
}

#[wasm_bindgen_test]
async fn a_rotation_abandoned_at_any_await_leaves_all_old_or_all_new() {
    let (db, repo) = fresh("abandon").await;
    repo.setup(app_key(1)).await.unwrap();
    for i in 0..50 {
        repo.set("srv", &format!("K{i:03}"), &Secret::new(format!("v{i}"))).await.unwrap();
    }
    let (mut current, mut next): (Source, Source) = (|| app_key(1), || app_key(2));
    // How many polls a whole rotation takes here (the number of wake-ups of its awaits).
    let (finished, total) = abandon_after_polls(repo.rotate(next()), usize::MAX).await;
    finished.unwrap().unwrap();
    std::mem::swap(&mut current, &mut next);
    // Dropped after 1, 2, 3, … polls: before the transaction, during its reads, after its writes were issued, while
    // it commits, and finally not at all.
    let mut outcomes = Vec::new();
    for polls in 1..=total {
        let finished = abandon_after_polls(repo.rotate(next()), polls).await.0.map(|result| result.unwrap()).is_some();
        TimeoutFuture::new(50).await; // a transaction whose writes were issued completes on its own
        let which = assert_all_readable(&db, current, next, 50).await;
        outcomes.push((polls, which, finished));
        if which == "new" {
            std::mem::swap(&mut current, &mut next);
        }
        repo.unlock(current()).await.unwrap();
    }
    log(&format!("abandoned rotations (50 records), (polls, key in use after, finished): {outcomes:?}"));
    assert!(outcomes.iter().any(|(_, which, _)| *which == "old"), "some were abandoned before writing");
    assert!(
        outcomes.iter().any(|(_, which, finished)| *which == "new" && !finished),
        "some were abandoned after issuing their writes, and committed whole"
    );
    Database::delete(db.name()).await.unwrap();
}

#[wasm_bindgen_test]
async fn a_rotation_stops_at_a_damaged_record_and_changes_nothing() {
    let (db, repo) = fresh("rotate-damaged").await;
    repo.setup(app_key(1)).await.unwrap();
    for i in 0..10 {
        repo.set("srv", &format!("K{i:03}"), &Secret::new(format!("v{i}"))).await.unwrap();
    }
    let victim = raw_get(db.name(), CREDENTIALS, &key_of("srv", "K004")).await.unwrap();
    raw_put(db.name(), CREDENTIALS, &key_of("srv", "K005"), &victim).await.unwrap();

    let err = repo.rotate(app_key(2)).await.unwrap_err();
    assert_eq!(err, CredentialError::Tampered { server: "srv".into(), name: "K005".into() });
    let (_db2, other) = reopen(&db).await;
    other.unlock(app_key(1)).await.unwrap();
    assert_eq!(value(&other, "srv", "K009").await.as_deref(), Some("v9"));
    // Deleting the damaged record lets the rotation through.
    repo.delete("srv", "K005").await.unwrap();
    repo.rotate(app_key(2)).await.unwrap();
    assert_eq!(value(&repo, "srv", "K004").await.as_deref(), Some("v4"));
    Database::delete(db.name()).await.unwrap();
}

#[wasm_bindgen_test]
async fn two_hundred_credentials_across_twenty_servers() {
    let (db, repo) = fresh("bulk").await;
    repo.setup(KeySource::Device).await.unwrap();
    let started = performance_now();
    for s in 0..20 {
        for k in 0..10 {
            repo.set(&format!("server-{s:02}"), &format!("KEY_{k}"), &Secret::new(format!("secret-{s}-{k}")))
                .await
                .unwrap();
        }
    }
    let written = performance_now();
    let servers = repo.servers().await.unwrap();
    assert_eq!(servers.len(), 20);
    for s in 0..20 {
        let server = format!("server-{s:02}");
        let names = repo.names(&server).await.unwrap();
        assert_eq!(names, (0..10).map(|k| format!("KEY_{k}")).collect::<Vec<_>>(), "{server}");
        let declared: Vec<CredentialDecl> = names.iter().map(|n| CredentialDecl::required(n.clone(), "")).collect();
        let env = repo.credentials_for_server(&server, &declared).await.unwrap();
        let values: Vec<&str> = env.iter().map(|(_, v)| v.expose()).collect();
        assert_eq!(values, (0..10).map(|k| format!("secret-{s}-{k}")).collect::<Vec<_>>());
    }
    let read = performance_now();
    repo.rotate(app_key(3)).await.unwrap();
    let rotated = performance_now();
    assert_eq!(value(&repo, "server-19", "KEY_9").await.as_deref(), Some("secret-19-9"));
    log(&format!(
        "200 credentials / 20 servers: write {:.0} ms, read all per server {:.0} ms, rotate all {:.0} ms",
        written - started,
        read - written,
        rotated - read
    ));
    Database::delete(db.name()).await.unwrap();
}

#[wasm_bindgen_test]
async fn concurrent_writes_all_land() {
    let (db, repo) = fresh("concurrent").await;
    repo.setup(app_key(4)).await.unwrap();
    // 100 writers at once: 80 distinct names, and 20 racing on one name.
    let writes = (0..100).map(|i| {
        let repo = repo.clone();
        async move {
            let name = if i < 80 { format!("K{i:02}") } else { "CONTESTED".to_owned() };
            repo.set(&format!("s{}", i % 4), &name, &Secret::new(format!("value-{i}"))).await
        }
    });
    for result in join_all(writes).await {
        result.unwrap();
    }
    for i in 0..80 {
        assert_eq!(value(&repo, &format!("s{}", i % 4), &format!("K{i:02}")).await, Some(format!("value-{i}")));
    }
    for s in 0..4 {
        let contested = value(&repo, &format!("s{s}"), "CONTESTED").await.unwrap();
        let writer: usize = contested.strip_prefix("value-").unwrap().parse().unwrap();
        assert!(writer >= 80 && writer % 4 == s, "one of the racing writers won: {contested}");
    }
    Database::delete(db.name()).await.unwrap();
}

#[wasm_bindgen_test]
async fn the_raw_database_never_contains_a_secret() {
    let secrets: Vec<String> = vec![
        "sk-live-RAWCHECK-0001".into(),
        "ghp_RAWCHECK_token_0002".into(),
        "pässwörd-RAWCHECK-3".into(),
        "RAWCHECK passphrase four".into(),
    ];
    for (i, source) in [pass(&secrets[3]), app_key(0x5a), KeySource::Device].into_iter().enumerate() {
        let (db, repo) = fresh("raw").await;
        repo.setup(source).await.unwrap();
        for (j, secret) in secrets[..3].iter().enumerate() {
            repo.set(&format!("server{j}"), "SECRET", &Secret::new(secret.clone())).await.unwrap();
        }
        repo.rotate(if i == 0 { KeySource::Device } else { pass(&secrets[3]) }).await.unwrap();
        repo.set("server9", "LATE", &Secret::new(secrets[0].clone())).await.unwrap();

        let dump: js_sys::Array = raw_dump(db.name()).await.unwrap().into();
        assert!(dump.length() >= 5, "credentials and the key record are there");
        let mut needles = secrets.clone();
        needles.push(String::from_utf8(vec![0x5a; 32]).unwrap()); // the application key's bytes
        for entry in dump.iter() {
            assert_eq!(find_secret(&entry, needles.clone()), None, "record {:?}", js_sys::JSON::stringify(&entry));
        }
        // The device key is stored, non-extractable; no key bytes are stored anywhere else.
        let key_record = dump.iter().find(|e| field(e, "store") == "credential_keys").unwrap();
        let value = js_sys::Reflect::get(&key_record, &"value".into()).unwrap();
        let device_key = js_sys::Reflect::get(&value, &"deviceKey".into()).unwrap();
        if i == 0 {
            assert!(!js_sys::Reflect::get(&device_key, &"extractable".into()).unwrap().as_bool().unwrap());
        }
        Database::delete(db.name()).await.unwrap();
    }
}

#[wasm_bindgen_test]
async fn wipe_forgets_every_credential_and_the_key() {
    let (db, repo) = fresh("wipe").await;
    repo.setup(pass("wipe me")).await.unwrap();
    repo.set("a", "K", &Secret::new("v")).await.unwrap();
    repo.lock();
    repo.wipe().await.unwrap();
    assert_eq!(repo.key_mode().await.unwrap(), None);
    assert!(repo.servers().await.unwrap().is_empty());
    let dump: js_sys::Array = raw_dump(db.name()).await.unwrap().into();
    assert_eq!(dump.length(), 0);
    repo.setup(app_key(1)).await.unwrap();
    assert_eq!(value(&repo, "a", "K").await, None);
    Database::delete(db.name()).await.unwrap();
}

#[wasm_bindgen_test]
async fn a_server_gets_only_what_it_declared_and_is_told_what_is_missing() {
    let (db, repo) = fresh("scope").await;
    repo.setup(app_key(8)).await.unwrap();
    repo.set("weather", "API_KEY", &Secret::new("weather-key")).await.unwrap();
    repo.set("weather", "UNDECLARED", &Secret::new("not-for-the-server")).await.unwrap();
    repo.set("mail", "API_KEY", &Secret::new("mail-key")).await.unwrap();
    repo.set("mail", "REGION", &Secret::new("mail-region")).await.unwrap();

    let declared = [
        CredentialDecl::required("API_KEY", "Weather service key"),
        CredentialDecl::optional("REGION", "Region override"),
    ];
    let env = repo.credentials_for_server("weather", &declared).await.unwrap();
    let env: Vec<(&str, &str)> = env.iter().map(|(n, v)| (n.as_str(), v.expose())).collect();
    assert_eq!(env, [("API_KEY", "weather-key")]);

    let needs = [
        CredentialDecl::required("API_KEY", "Weather service key"),
        CredentialDecl::required("SECRET", "Signing secret"),
    ];
    let err = repo.credentials_for_server("weather", &needs).await.unwrap_err();
    let CredentialError::Missing(missing) = &err else { panic!("{err:?}") };
    assert_eq!(missing.server, "weather");
    assert_eq!(missing.missing, [CredentialDecl::required("SECRET", "Signing secret")]);
    // What is missing is known before anything is unlocked.
    repo.lock();
    let missing = repo.missing("weather", &needs).await.unwrap().unwrap();
    assert_eq!(missing.missing[0].name, "SECRET");
    assert_eq!(repo.missing("mail", &declared).await.unwrap(), None);
    Database::delete(db.name()).await.unwrap();
}

#[wasm_bindgen_test]
async fn env_references_of_an_imported_config_resolve_from_the_repository() {
    let (db, repo) = fresh("env").await;
    repo.setup(app_key(8)).await.unwrap();
    repo.set("search", "API_KEY", &Secret::new("search-key")).await.unwrap();
    repo.set("other", "TOKEN", &Secret::new("other-token")).await.unwrap();
    let env =
        |pairs: &[(&str, &str)]| pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect::<Vec<_>>();

    let resolved = repo
        .resolve_env(
            "search",
            &env(&[
                ("API_KEY", "${API_KEY}"),
                ("AUTH", "Key ${API_KEY}"),
                ("MODE", "fast"),
                ("REGION", "${REGION:-eu}"),
            ]),
        )
        .await
        .unwrap();
    let resolved: Vec<(&str, &str)> = resolved.iter().map(|(k, v)| (k.as_str(), v.expose())).collect();
    assert_eq!(resolved, [("API_KEY", "search-key"), ("AUTH", "Key search-key"), ("MODE", "fast"), ("REGION", "eu")]);

    // Another server's TOKEN is not this server's.
    let err = repo.resolve_env("search", &env(&[("TOKEN", "${TOKEN}")])).await.unwrap_err();
    let CredentialError::Missing(missing) = &err else { panic!("{err:?}") };
    assert_eq!(missing.missing[0].name, "TOKEN");
    assert_eq!(missing.missing[0].description, "referenced by env TOKEN");

    repo.lock();
    let plain = repo.resolve_env("search", &env(&[("MODE", "fast")])).await.unwrap();
    assert_eq!(plain[0].1.expose(), "fast", "no reference, no unlock needed");
    assert_eq!(repo.resolve_env("search", &env(&[("K", "${API_KEY}")])).await.unwrap_err(), CredentialError::Locked);
    Database::delete(db.name()).await.unwrap();
}

#[wasm_bindgen_test]
async fn a_servers_worker_receives_exactly_its_declared_credentials() {
    let (db, repo) = fresh("worker").await;
    repo.setup(KeySource::Device).await.unwrap();
    repo.set("weather", "API_KEY", &Secret::new("weather-key")).await.unwrap();
    repo.set("weather", "UNDECLARED", &Secret::new("weather-undeclared")).await.unwrap();
    repo.set("mail", "API_KEY", &Secret::new("mail-key")).await.unwrap();
    repo.set("mail", "SMTP_PASSWORD", &Secret::new("mail-password")).await.unwrap();

    let declared = [CredentialDecl::required("API_KEY", "Weather key"), CredentialDecl::optional("REGION", "")];
    let env = repo.credentials_for_server("weather", &declared).await.unwrap();
    let spec =
        env.iter().fold(mcp_worker_tests::page_spec("weather", "/fixtures/env-reporter.js"), |spec, (name, value)| {
            spec.env(name, value.expose())
        });
    let client = McpClient::spawn(spec).await.unwrap();
    let received: Value = serde_json::from_str(&client.call_tool("env", None).await.unwrap().joined_text()).unwrap();
    assert_eq!(received, json!({"API_KEY": "weather-key"}));
    client.close();
    Database::delete(db.name()).await.unwrap();
}

#[wasm_bindgen_test]
fn a_worker_spec_shows_the_names_of_its_environment_but_never_the_values() {
    // What the vault hands a worker: decrypted values, which must not reach a log through `{:?}`.
    let spec = mcp_worker_tests::page_spec("weather", "/fixtures/env-reporter.js")
        .env("API_KEY", "sk-live-weather-0123456789")
        .env("REGION", "eu-west-region");
    let shown = format!("{spec:?}");
    assert!(!shown.contains("sk-live-weather-0123456789"), "{shown}");
    assert!(!shown.contains("eu-west-region"), "plain values are not shown either: {shown}");
    assert!(shown.contains("API_KEY") && shown.contains("REGION"), "the names are: {shown}");
    assert!(shown.contains("weather") && shown.contains("/fixtures/env-reporter.js"), "{shown}");
    let pretty = format!("{spec:#?}");
    assert!(!pretty.contains("sk-live-weather-0123456789"), "{pretty}");
}

#[wasm_bindgen_test]
async fn measured_unlock_and_latency() {
    let (db, repo) = fresh("perf").await;
    let t0 = performance_now();
    repo.setup(pass("a passphrase to measure")).await.unwrap();
    let setup_ms = performance_now() - t0;
    let (_db2, other) = reopen(&db).await;
    let t1 = performance_now();
    other.unlock(pass("a passphrase to measure")).await.unwrap();
    let unlock_ms = performance_now() - t1;

    let n = 200;
    let t2 = performance_now();
    for i in 0..n {
        other.set("perf", &format!("K{i}"), &Secret::new(format!("value-{i}-{}", "x".repeat(40)))).await.unwrap();
    }
    let t3 = performance_now();
    for i in 0..n {
        assert!(other.get("perf", &format!("K{i}")).await.unwrap().is_some());
    }
    let t4 = performance_now();
    let mut others = Vec::new();
    for source in [KeySource::Device, app_key(1)] {
        let (db, repo) = fresh("perf-unlock").await;
        repo.setup(source).await.unwrap();
        let mode = repo.key_mode().await.unwrap().unwrap();
        let (_db2, again) = reopen(&db).await;
        let t = performance_now();
        again.unlock(if mode == KeyMode::Device { KeySource::Device } else { app_key(1) }).await.unwrap();
        others.push(format!("{mode} {:.1} ms", performance_now() - t));
        Database::delete(db.name()).await.unwrap();
    }
    log(&format!(
        "credentials: passphrase setup {setup_ms:.0} ms, unlock (PBKDF2-SHA-256, 600,000 iterations) {unlock_ms:.0} ms; \
         unlock {}; set {:.2} ms/op, get {:.2} ms/op (mean of {n}, sequential)",
        others.join(", "),
        (t3 - t2) / f64::from(n),
        (t4 - t3) / f64::from(n),
    ));
    Database::delete(db.name()).await.unwrap();
}

#[wasm_bindgen_test]
async fn the_manager_waits_for_credentials_then_starts_the_server_with_exactly_those() {
    let (db, repo) = fresh("manager").await;
    repo.setup(app_key(6)).await.unwrap();
    repo.set("mail", "API_KEY", &Secret::new("mail-key")).await.unwrap();
    repo.lock();
    let (manager, _launcher) =
        McpTransportManager::for_browser(Rc::new(ToolRegistry::new()), ManagerOptions::default());
    manager.set_credential_source(Some(Rc::new(repo.clone())));
    manager.add(mcp_worker_tests::wasm_config("weather", "/fixtures/env-reporter.js").credential("API_KEY")).unwrap();
    let health = |manager: &McpTransportManager| manager.health("weather").unwrap();

    // Locked: the server waits, and says why.
    assert!(manager.connect("weather").await.is_err());
    assert_eq!(health(&manager).status, ServerStatus::NeedsCredentials);
    assert_eq!(health(&manager).last_error.as_deref(), Some("the credentials are locked: unlock them first"));

    // Unlocked but not stored: it names what is missing.
    repo.unlock(app_key(6)).await.unwrap();
    assert!(manager.connect("weather").await.is_err());
    assert_eq!(health(&manager).status, ServerStatus::NeedsCredentials);
    assert_eq!(health(&manager).last_error.as_deref(), Some("server \"weather\" needs credentials: API_KEY"));

    // Provided: the manager is told, and the server starts with exactly its credential.
    let bundle = ServerIdentity::bundle("/fixtures/env-reporter.js", None);
    repo.set_for("weather", &bundle, "API_KEY", &Secret::new("weather-key")).await.unwrap();
    repo.set_for("weather", &bundle, "UNDECLARED", &Secret::new("weather-undeclared")).await.unwrap();
    manager.credentials_changed("weather");
    let started = performance_now();
    while health(&manager).status != ServerStatus::Connected && performance_now() - started < 5_000.0 {
        TimeoutFuture::new(20).await;
    }
    assert_eq!(health(&manager).status, ServerStatus::Connected);
    let client = manager.client("weather").unwrap();
    let received: Value = serde_json::from_str(&client.call_tool("env", None).await.unwrap().joined_text()).unwrap();
    assert_eq!(received, json!({"API_KEY": "weather-key"}));
    manager.remove("weather").unwrap();
    Database::delete(db.name()).await.unwrap();
}

#[wasm_bindgen_test]
async fn an_oauth_authorization_is_kept_encrypted_for_the_url_it_was_made_for() {
    use mcp_worker_runtime::manager::{AUTHORIZATION_RECORD, CredentialSource};
    let (db, repo) = fresh("oauth").await;
    let url = ServerIdentity::remote("https://mcp.example.com/mcp".to_owned());
    let other = ServerIdentity::remote("https://mcp.example.com/elsewhere".to_owned());
    let record = r#"{"accessToken":"at-oauth-e2e-0123456789"}"#;
    assert!(repo.save_authorization("remote", &url, Some(Secret::new(record))).await.is_err(), "no key set up yet");
    repo.setup(KeySource::Device).await.unwrap();
    repo.save_authorization("remote", &url, Some(Secret::new(record))).await.unwrap();

    let (_db, again) = reopen(&db).await;
    assert!(again.saved_authorization("remote", &url).await.is_none(), "locked: nothing to use");
    again.unlock(KeySource::Device).await.unwrap();
    assert_eq!(again.saved_authorization("remote", &url).await.unwrap().expose(), record);
    assert!(again.saved_authorization("remote", &other).await.is_none(), "another URL does not get it");
    assert!(again.saved_authorization("other-server", &url).await.is_none(), "another server does not get it");
    let dump = raw_dump(db.name()).await.unwrap();
    assert_eq!(find_secret(&dump, vec!["at-oauth-e2e-0123456789".into()]), None, "stored encrypted");
    assert_eq!(value(&again, "remote", AUTHORIZATION_RECORD).await.as_deref(), Some(record));

    again.save_authorization("remote", &url, None).await.unwrap();
    assert!(again.saved_authorization("remote", &url).await.is_none(), "forgotten");
    again.save_authorization("remote", &url, Some(Secret::new(record))).await.unwrap();
    CredentialSource::forget_server(&again, "remote").await.unwrap();
    assert!(again.saved_authorization("remote", &url).await.is_none(), "removing the server forgets its sign-in");
}
