//! Workers that fail: every failure is a clear error naming the server and the cause, never a hang.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use gloo_timers::future::TimeoutFuture;
use mcp_worker_client::{Error, McpClient};
use mcp_worker_tests::{now_ms, record_worker_urls, recorded_worker_urls, spawn_echo, spawn_js_server};
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn a_worker_url_that_404s_is_a_load_error() {
    let started = now_ms();
    let err =
        McpClient::spawn(mcp_worker_tests::page_spec("missing", "/fixtures/does-not-exist.js")).await.unwrap_err();
    assert!(matches!(err, Error::WorkerLoad { ref server, .. } if server == "missing"), "{err}");
    assert!(now_ms() - started < 5_000.0, "reported at once, not after the boot timeout");
}

#[wasm_bindgen_test]
async fn a_worker_that_throws_on_start_is_a_load_error_with_its_message() {
    let err =
        McpClient::spawn(mcp_worker_tests::page_spec("thrower", "/fixtures/throws-on-start.js")).await.unwrap_err();
    assert!(matches!(err, Error::WorkerLoad { .. }), "{err}");
    assert!(err.to_string().contains("failed at start"), "{err}");
}

#[wasm_bindgen_test]
async fn a_handshake_that_never_comes_times_out() {
    let spec = mcp_worker_tests::page_spec("silent", "/fixtures/never-boots.js").handshake_timeout_ms(500);
    let err = McpClient::spawn(spec).await.unwrap_err();
    assert_eq!(err, Error::HandshakeTimeout { server: "silent".into(), ms: 500, stage: "boot" });
}

#[wasm_bindgen_test]
async fn closing_the_worker_mid_call_fails_the_call_at_once() {
    let client = spawn_js_server("hang", 60_000).await.unwrap();
    let call = client.call_tool("work", None);
    let close_soon = async {
        TimeoutFuture::new(50).await;
        client.close();
    };
    let started = now_ms();
    let (result, ()) = futures_util::join!(call, close_soon);
    let err = result.unwrap_err();
    assert!(matches!(err, Error::Closed { .. }), "{err}");
    assert!(now_ms() - started < 1_000.0);
    // The client stays usable as an object: later calls fail fast with the same cause.
    assert!(matches!(client.ping().await, Err(Error::Closed { .. })));
}

#[wasm_bindgen_test]
async fn a_worker_that_dies_mid_call_fails_the_call() {
    for fault in ["throw-on-call", "fatal-on-call"] {
        let client = spawn_js_server(fault, 60_000).await.unwrap();
        let started = now_ms();
        let err = client.call_tool("work", None).await.unwrap_err();
        assert!(matches!(err, Error::WorkerCrashed { ref server, .. } if server == "js-fixture"), "{fault}: {err}");
        assert!(err.to_string().contains("fixture:"), "{fault}: the cause is the worker's own message: {err}");
        assert!(now_ms() - started < 5_000.0, "{fault}");
        client.close();
    }
}

#[wasm_bindgen_test]
async fn a_worker_that_closes_itself_mid_call_fails_the_call() {
    let client = spawn_js_server("close-on-call", 30_000).await.unwrap();
    let started = now_ms();
    let err = client.call_tool("work", None).await.unwrap_err();
    // The worker's prelude reports `self.close()` before the worker goes: the call fails at once.
    assert!(matches!(err, Error::WorkerCrashed { ref server, .. } if server == "js-fixture"), "{err}");
    assert!(err.to_string().contains("closed itself"), "{err}");
    assert!(now_ms() - started < 1_000.0, "noticed in {} ms", now_ms() - started);
    client.close();
}

#[wasm_bindgen_test]
async fn a_bundle_without_the_guard_starts_again_through_the_prelude_and_later_starts_go_there_at_once() {
    // A hand-written server on the page's origin: its `boot` does not say `guard: true`. (Its own URL, so that no
    // other test's start of it was seen before.)
    let url = format!("{}?guardless", mcp_worker_tests::JS_SERVER_URL);
    let spawn = || McpClient::spawn(mcp_worker_tests::page_spec("guardless", &url).env("FAULT", "close-on-call"));
    record_worker_urls();
    let first = spawn().await.unwrap();
    let urls = recorded_worker_urls();
    assert_eq!(urls.len(), 2, "its own script, then the prelude: {urls:?}");
    assert!(urls[0].ends_with(&url) && urls[1].starts_with("blob:"), "{urls:?}");
    record_worker_urls();
    let second = spawn().await.unwrap();
    let urls = recorded_worker_urls();
    assert!(urls.len() == 1 && urls[0].starts_with("blob:"), "the prelude at once: {urls:?}");
    // The prelude's guard runs in it: the worker's `self.close()` is reported at once.
    let started = now_ms();
    let err = second.call_tool("work", None).await.unwrap_err();
    assert!(err.to_string().contains("closed itself"), "{err}");
    assert!(now_ms() - started < 1_000.0, "noticed in {} ms", now_ms() - started);
    assert!(first.list_tools().await.is_ok(), "the first start serves too");
    first.close();
}

#[wasm_bindgen_test]
async fn a_worker_that_goes_silent_mid_call_is_noticed_within_a_second() {
    // A worker blocked for good answers nothing, as one that was terminated or ran out of memory: only the
    // heartbeat can tell.
    let client = spawn_js_server("spin-on-call", 30_000).await.unwrap();
    let started = now_ms();
    let calls = (0..64).map(|_| client.call_tool("work", None));
    let errors = futures_util::future::join_all(calls).await;
    let elapsed = now_ms() - started;
    for err in errors {
        let err = err.unwrap_err();
        assert!(matches!(err, Error::WorkerCrashed { ref server, .. } if server == "js-fixture"), "{err}");
        assert!(err.to_string().contains("stopped answering"), "{err}");
    }
    assert!(elapsed < 1_000.0, "all 64 calls failed after {elapsed} ms");
    client.close();
}

#[wasm_bindgen(inline_js = "
let started = [];
const Original = globalThis.Worker;
export function watchWorkers() {
  started = [];
  globalThis.Worker = class extends Original {
    constructor(...args) { super(...args); started.push(this); }
  };
}
export function terminateWatched() {
  globalThis.Worker = Original;
  for (const worker of started) worker.terminate();
  return started.length;
}")]
extern "C" {
    /// Keeps every worker the page starts from now on, as a script of the page could.
    #[wasm_bindgen(js_name = watchWorkers)]
    fn watch_workers();
    /// Terminates the workers started since `watch_workers` (no event of any kind reaches the host); how many.
    #[wasm_bindgen(js_name = terminateWatched)]
    fn terminate_watched() -> u32;
}

#[wasm_bindgen_test]
async fn a_worker_terminated_from_outside_mid_call_is_noticed_within_a_second() {
    watch_workers();
    let client = spawn_js_server("hang", 30_000).await.unwrap();
    let calls = futures_util::future::join_all((0..512).map(|_| client.call_tool("work", None)));
    let terminate_soon = async {
        TimeoutFuture::new(50).await;
        let started = now_ms();
        assert_eq!(terminate_watched(), 1);
        started
    };
    let (errors, started) = futures_util::join!(calls, terminate_soon);
    let elapsed = now_ms() - started;
    for err in errors {
        let err = err.unwrap_err();
        assert!(matches!(err, Error::WorkerCrashed { ref server, .. } if server == "js-fixture"), "{err}");
        assert!(err.to_string().contains("terminated"), "{err}");
    }
    assert!(elapsed < 1_000.0, "512 calls failed {elapsed} ms after the worker was terminated");
    client.close();
}

#[wasm_bindgen_test]
async fn a_hanging_call_times_out_and_the_server_is_told_to_cancel() {
    let client = spawn_js_server("hang", 300).await.unwrap();
    let err = client.call_tool("work", None).await.unwrap_err();
    assert!(matches!(err, Error::Timeout { ms: 300, .. }), "{err}");
    let stats = client.call_tool("stats", None).await;
    // `stats` answers even in hang mode; it reports the cancellation the host sent for the timed-out call.
    let stats: Value = serde_json::from_str(&stats.unwrap().joined_text()).unwrap();
    assert_eq!(stats["cancelled"].as_array().map(Vec::len), Some(1), "{stats}");
    client.close();
}

#[wasm_bindgen_test]
async fn one_failing_server_does_not_disturb_another() {
    let healthy = spawn_echo().await.unwrap();
    let doomed = spawn_js_server("throw-on-call", 60_000).await.unwrap();
    assert!(doomed.call_tool("work", None).await.is_err());
    assert_eq!(
        healthy.call_tool("echo", mcp_worker_tests::text_args("still here")).await.unwrap().joined_text(),
        "still here"
    );
    healthy.close();
    doomed.close();
}
