//! The McpTransportManager with real servers in real workers: several at once, crashes, hangs, servers that ignore
//! cancellation, bundles that 404, list changes, per-call timeouts, restarts with backoff, and 10,000 calls.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use futures_util::StreamExt;
use gloo_timers::future::TimeoutFuture;
use mcp_worker_client::Error as ClientError;
use mcp_worker_client::session::CallOptions;
use mcp_worker_runtime::config::ServerConfig;
use mcp_worker_runtime::manager::{
    Backoff, ManagerEvent, ManagerOptions, McpTransportManager, ServerStatus, browser::WorkerLauncher,
};
use mcp_worker_runtime::registry::ToolRegistry;
use mcp_worker_runtime::{Error, Result};
use mcp_worker_tests::{ECHO_URL, now_ms};
use serde_json::{Value, json};
use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::rc::Rc;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const MISBEHAVING_URL: &str = "/fixtures/misbehaving-server.js";

fn manager_with(backoff_ms: u32, grace_ms: u32) -> (McpTransportManager, Rc<WorkerLauncher>) {
    let mut options = ManagerOptions::default();
    options.failure_policy.max_consecutive_failures = Some(3);
    options.failure_policy.backoff = Backoff::new(backoff_ms, 2.0, 5_000);
    options.cancel_grace_ms = grace_ms;
    McpTransportManager::for_browser(Rc::new(ToolRegistry::new()), options)
}

fn misbehaving(name: &str, fault: &str) -> ServerConfig {
    mcp_worker_tests::wasm_config(name, MISBEHAVING_URL).env("FAULT", fault)
}

async fn call(
    manager: &McpTransportManager,
    server: &str,
    tool: &str,
    args: Value,
    options: CallOptions,
) -> Result<Value> {
    let raw = serde_json::value::to_raw_value(&args).unwrap();
    let result = manager.call_tool(server, tool, Some(&raw), options).await?;
    Ok(serde_json::from_str(result.get()).unwrap())
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap()
}

fn timeout(ms: u32) -> CallOptions {
    let mut options = CallOptions::default();
    options.timeout_ms = Some(ms);
    options
}

/// Waits until `condition` holds, checking every 20 ms, for at most `limit_ms`.
async fn wait_until(limit_ms: f64, condition: impl Fn() -> bool) -> bool {
    let started = now_ms();
    while now_ms() - started < limit_ms {
        if condition() {
            return true;
        }
        TimeoutFuture::new(20).await;
    }
    condition()
}

fn status(manager: &McpTransportManager, name: &str) -> ServerStatus {
    manager.health(name).unwrap().status
}

#[wasm_bindgen_test]
async fn several_servers_start_at_once_and_workers_of_one_bundle_share_one_compiled_module() {
    let (manager, launcher) = manager_with(1_000, 5_000);
    for i in 0..4 {
        manager.add(mcp_worker_tests::wasm_config(format!("echo{i}"), ECHO_URL)).unwrap();
    }
    manager.add(misbehaving("js", "")).unwrap();
    let started = now_ms();
    let outcomes = manager.start_all().await;
    assert_eq!(outcomes.len(), 5);
    assert!(outcomes.iter().all(|(_, outcome)| outcome.is_ok()), "{outcomes:?}");
    assert_eq!(launcher.compile_count(), 1, "one compile for the four echo workers; none for the JS server");
    for i in 0..4 {
        let name = format!("echo{i}");
        assert_eq!(status(&manager, &name), ServerStatus::Connected);
        assert!(manager.registry().get(&format!("mcp__{name}__echo")).is_some());
        let result = call(&manager, &name, "echo", json!({"text": name}), CallOptions::default()).await.unwrap();
        assert_eq!(text(&result), name);
    }
    assert_eq!(manager.health("js").unwrap().tool_count, 7);
    assert_eq!(manager.registry().len(), 4 * 3 + 7);
    console_log!("5 servers started in {:.0} ms", now_ms() - started);
}

#[wasm_bindgen_test]
async fn a_bundle_that_404s_fails_only_its_own_server_and_ends_in_error_after_three_tries() {
    let (manager, _) = manager_with(100, 5_000);
    manager.add(mcp_worker_tests::wasm_config("missing", "/bundles/does-not-exist/bootstrap.js")).unwrap();
    manager.add(mcp_worker_tests::wasm_config("echo", ECHO_URL)).unwrap();
    let outcomes = manager.start_all().await;
    let missing = outcomes.iter().find(|(name, _)| name == "missing").unwrap();
    assert!(
        matches!(&missing.1, Err(Error::Client(ClientError::WorkerLoad { server, .. })) if server == "missing"),
        "{missing:?}"
    );
    assert_eq!(status(&manager, "echo"), ServerStatus::Connected);
    // Retried after 100 ms and 200 ms, then given up.
    assert!(wait_until(5_000.0, || status(&manager, "missing") == ServerStatus::Error).await);
    let health = manager.health("missing").unwrap();
    assert_eq!(health.consecutive_failures, 3);
    assert!(manager.registry().list(&Default::default()).iter().all(|e| e.server() != Some("missing")));
    let refused = call(&manager, "missing", "echo", json!({}), CallOptions::default()).await.unwrap_err();
    assert!(matches!(refused, Error::Unavailable { .. }), "{refused}");
    let result = call(&manager, "echo", "echo", json!({"text": "unaffected"}), CallOptions::default()).await.unwrap();
    assert_eq!(text(&result), "unaffected");
}

#[wasm_bindgen_test]
async fn a_server_that_crashes_mid_call_fails_its_calls_at_once_and_restarts_with_backoff() {
    let (manager, _) = manager_with(300, 5_000);
    manager.add(misbehaving("js", "")).unwrap();
    manager.add(mcp_worker_tests::wasm_config("echo", ECHO_URL)).unwrap();
    manager.start_all().await;
    let hanging = call(&manager, "js", "hang", json!({}), CallOptions::default());
    let crashing = async {
        TimeoutFuture::new(50).await;
        call(&manager, "js", "crash", json!({}), CallOptions::default()).await
    };
    let started = now_ms();
    let (hung, crashed) = futures_util::join!(hanging, crashing);
    let failed_after = now_ms() - started;
    for err in [hung.unwrap_err(), crashed.unwrap_err()] {
        assert!(matches!(err, Error::Client(ClientError::WorkerCrashed { ref server, .. }) if server == "js"), "{err}");
        assert!(err.to_string().contains("fixture: crashed during a call"), "{err}");
    }
    assert!(failed_after < 1_000.0, "failed at once, not at a timeout ({failed_after} ms)");

    let health = manager.health("js").unwrap();
    assert_eq!((health.status, health.consecutive_failures), (ServerStatus::Connecting, 1));
    let retry_in = health.next_retry_ms.unwrap() - now_ms();
    assert!((150.0..=300.0).contains(&retry_in), "restart scheduled after the 300 ms backoff ({retry_in} ms)");
    let echo = call(&manager, "echo", "echo", json!({"text": "meanwhile"}), CallOptions::default()).await.unwrap();
    assert_eq!(text(&echo), "meanwhile");

    assert!(wait_until(3_000.0, || status(&manager, "js") == ServerStatus::Connected).await);
    let reconnected = manager.health("js").unwrap().last_connected_ms.unwrap();
    assert!(reconnected - started >= 300.0, "not before the backoff");
    assert_eq!(manager.config("js").unwrap().env.get("FAULT").map(String::as_str), Some(""), "config kept");
    let result = call(&manager, "js", "work", json!({}), CallOptions::default()).await.unwrap();
    assert_eq!(text(&result), "worked");
    assert_eq!(manager.health("js").unwrap().consecutive_failures, 0);
}

#[wasm_bindgen_test]
async fn hanging_calls_time_out_per_call_and_per_server_and_the_server_is_told() {
    let (manager, _) = manager_with(1_000, 5_000);
    manager.add(misbehaving("js", "").timeout_ms(400)).unwrap();
    let started = now_ms();
    let err = call(&manager, "js", "hang", json!({}), timeout(200)).await.unwrap_err();
    assert!(matches!(err, Error::Client(ClientError::Timeout { ms: 200, .. })), "{err}");
    let err = call(&manager, "js", "hang", json!({}), CallOptions::default()).await.unwrap_err();
    assert!(
        matches!(err, Error::Client(ClientError::Timeout { ms: 400, .. })),
        "the server's configured timeout: {err}"
    );
    assert!(now_ms() - started < 2_000.0);
    let stats = call(&manager, "js", "stats", json!({}), CallOptions::default()).await.unwrap();
    let stats: Value = serde_json::from_str(text(&stats)).unwrap();
    assert_eq!(stats["cancelled"].as_array().unwrap().len(), 2, "each timeout sent notifications/cancelled");
    assert_eq!(status(&manager, "js"), ServerStatus::Connected, "a server that honours cancellation stays up");
    let slow = call(&manager, "js", "slow", json!({"ms": 50}), CallOptions::default()).await.unwrap();
    assert_eq!(text(&slow), "slow done");
}

#[wasm_bindgen_test]
async fn progress_keeps_a_call_alive_up_to_its_hard_maximum() {
    let (manager, _) = manager_with(1_000, 5_000);
    manager.add(misbehaving("js", "")).unwrap();
    let resetting = |max_ms: u32| {
        let mut options = timeout(300);
        options.reset_timeout_on_progress = true;
        options.max_total_timeout_ms = Some(max_ms);
        options
    };
    // 1 s of work with progress every 100 ms: a 300 ms timeout that progress resets lets it finish.
    let done = call(&manager, "js", "steady", json!({"ms": 1_000}), resetting(5_000)).await.unwrap();
    assert_eq!(text(&done), "steady done");
    // Without the reset, the same call times out.
    let err = call(&manager, "js", "steady", json!({"ms": 1_000}), timeout(300)).await.unwrap_err();
    assert!(matches!(err, Error::Client(ClientError::Timeout { ms: 300, .. })), "{err}");
    // The hard maximum binds whatever progress comes.
    let started = now_ms();
    let err = call(&manager, "js", "steady", json!({"ms": 5_000}), resetting(700)).await.unwrap_err();
    assert!(matches!(err, Error::Client(ClientError::Timeout { ms: 700, .. })), "{err}");
    assert!(now_ms() - started < 1_500.0);
}

#[wasm_bindgen_test]
async fn a_server_that_keeps_working_after_a_cancellation_is_terminated_and_restarted() {
    let (manager, _) = manager_with(200, 400);
    manager.add(misbehaving("stubborn", "ignore-cancel")).unwrap();
    let mut options = timeout(200);
    options.on_progress = Some(Rc::new(|_| {}));
    let err = call(&manager, "stubborn", "work", json!({}), options).await.unwrap_err();
    assert!(matches!(err, Error::Client(ClientError::Timeout { .. })), "{err}");
    assert!(
        wait_until(3_000.0, || manager.health("stubborn").unwrap().consecutive_failures == 1).await,
        "terminated after the grace period"
    );
    let last_error = manager.health("stubborn").unwrap().last_error.unwrap();
    assert!(last_error.contains("terminated by the host") && last_error.contains("kept working"), "{last_error}");
    assert!(wait_until(3_000.0, || status(&manager, "stubborn") == ServerStatus::Connected).await, "restarted");
    let stats = call(&manager, "stubborn", "stats", json!({}), CallOptions::default()).await.unwrap();
    assert_eq!(serde_json::from_str::<Value>(text(&stats)).unwrap()["calls"], 1, "a fresh worker");
}

#[wasm_bindgen_test]
async fn a_worker_that_spins_after_a_cancellation_is_terminated_and_restarted() {
    let (manager, _) = manager_with(200, 400);
    manager.add(misbehaving("spinner", "busy-on-cancel")).unwrap();
    manager.add(mcp_worker_tests::wasm_config("echo", ECHO_URL)).unwrap();
    let started = now_ms();
    let err = call(&manager, "spinner", "work", json!({}), timeout(200)).await.unwrap_err();
    assert!(matches!(err, Error::Client(ClientError::Timeout { .. })), "{err}");
    // The worker now spins for a minute: it cannot answer the heartbeat (nor the ping sent after the grace period).
    let echo = call(&manager, "echo", "echo", json!({"text": "not blocked"}), CallOptions::default()).await.unwrap();
    assert_eq!(text(&echo), "not blocked", "other servers run in their own workers");
    assert!(wait_until(5_000.0, || manager.health("spinner").unwrap().consecutive_failures == 1).await);
    let last_error = manager.health("spinner").unwrap().last_error.unwrap();
    assert!(last_error.contains("stopped answering"), "{last_error}");
    assert!(wait_until(3_000.0, || status(&manager, "spinner") == ServerStatus::Connected).await, "restarted");
    assert!(now_ms() - started < 10_000.0, "well before the minute of spinning ended");
}

#[wasm_bindgen_test]
async fn list_changed_leads_to_rediscovery_and_an_updated_registry() {
    let (manager, _) = manager_with(1_000, 5_000);
    manager.add(misbehaving("js", "")).unwrap();
    let changes = Rc::new(RefCell::new(Vec::new()));
    let log = changes.clone();
    manager.subscribe(Rc::new(move |event: &ManagerEvent| {
        if let ManagerEvent::ToolsChanged { tools, .. } = event {
            log.borrow_mut().push(tools.clone());
        }
    }));
    manager.connect("js").await.unwrap();
    assert!(manager.registry().get("mcp__js__extra_1").is_none());
    let grown = call(&manager, "js", "grow", json!({}), CallOptions::default()).await.unwrap();
    assert_eq!(text(&grown), "now 8 tools");
    assert!(wait_until(2_000.0, || changes.borrow().len() == 2).await, "a second ToolsChanged after list_changed");
    assert!(changes.borrow()[1].contains(&"mcp__js__extra_1".to_owned()));
    assert!(manager.registry().get("mcp__js__extra_1").is_some());
    assert_eq!(manager.health("js").unwrap().tool_count, 8);
}

#[wasm_bindgen_test]
async fn ten_thousand_calls_across_four_servers_with_256_in_flight() {
    let (manager, launcher) = manager_with(1_000, 5_000);
    let servers: Vec<String> = (0..4).map(|i| format!("echo{i}")).collect();
    for name in &servers {
        manager.add(mcp_worker_tests::wasm_config(name.clone(), ECHO_URL)).unwrap();
    }
    assert!(manager.start_all().await.iter().all(|(_, outcome)| outcome.is_ok()));
    assert_eq!(launcher.compile_count(), 1);

    const CALLS: usize = 10_000;
    let in_flight = Rc::new(Cell::new(0usize));
    let most_in_flight = Rc::new(Cell::new(0usize));
    let started = now_ms();
    let answers: Vec<(usize, Result<Value>)> = futures_util::stream::iter(0..CALLS)
        .map(|i| {
            let (manager, server) = (manager.clone(), servers[i % 4].clone());
            let (in_flight, most) = (in_flight.clone(), most_in_flight.clone());
            async move {
                in_flight.set(in_flight.get() + 1);
                most.set(most.get().max(in_flight.get()));
                let outcome =
                    call(&manager, &server, "echo", json!({"text": format!("call-{i}")}), CallOptions::default()).await;
                in_flight.set(in_flight.get() - 1);
                (i, outcome)
            }
        })
        .buffer_unordered(256)
        .collect()
        .await;
    let elapsed = now_ms() - started;

    assert_eq!(answers.len(), CALLS, "no call lost and none answered twice");
    let mut seen = HashSet::new();
    for (i, outcome) in &answers {
        let result = outcome.as_ref().unwrap_or_else(|e| panic!("call {i} failed: {e}"));
        assert_eq!(text(result), format!("call-{i}"), "each call got its own answer");
        assert!(seen.insert(*i), "call {i} answered twice");
    }
    assert_eq!(seen.len(), CALLS);
    assert_eq!(most_in_flight.get(), 256);
    for name in &servers {
        let client = manager.client(name).unwrap();
        assert_eq!(client.connection().pending_count(), 0, "{name}: nothing left pending");
        assert_eq!(manager.health(name).unwrap().status, ServerStatus::Connected);
    }
    console_log!(
        "10,000 calls, 4 servers, 256 in flight: {elapsed:.0} ms ({:.0} calls/s)",
        CALLS as f64 / elapsed * 1000.0
    );
}
