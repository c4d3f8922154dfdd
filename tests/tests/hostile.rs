//! Hostile servers against the bounds, in headless Chromium with real workers (tests/fixtures/hostile-server.js):
//! a huge reply, 50,000 tools, schemas built to cost exponential time and a backtracking pattern. Each test asserts
//! what a user would notice: the page's longest `setTimeout(0)` gap stays under 100 ms while it happens, another
//! server keeps answering, and the error names the server.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use mcp_worker_client::Error as ClientError;
use mcp_worker_client::limits::WorkerLimits;
use mcp_worker_runtime::manager::{ManagerOptions, McpTransportManager};
use mcp_worker_runtime::registry::{ExportFormat, ToolFilter, ToolRegistry};
use mcp_worker_runtime::tool_system::{ExecuteOptions, ParsedToolCall, ToolStatus, ToolSystem};
use mcp_worker_tests::{ECHO_URL, now_ms};
use serde_json::json;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const HOSTILE_URL: &str = "/fixtures/hostile-server.js";

#[wasm_bindgen(inline_js = "
let monitor = null;
export function startGaps() {
  const m = { max: 0, last: performance.now(), on: true };
  monitor = m;
  const tick = () => {
    if (!m.on) return;
    const t = performance.now();
    m.max = Math.max(m.max, t - m.last);
    m.last = t;
    setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
}
export function stopGaps() {
  monitor.on = false;
  return Math.max(monitor.max, performance.now() - monitor.last);
}")]
extern "C" {
    /// Starts measuring the page's longest gap between `setTimeout(0)` callbacks: how long the page was stalled.
    #[wasm_bindgen(js_name = startGaps)]
    fn start_gaps();
    /// Stops measuring and returns the longest gap, in milliseconds.
    #[wasm_bindgen(js_name = stopGaps)]
    fn stop_gaps() -> f64;
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console)]
    fn log(text: &str);
}

/// The size of the test's wasm memory, in MiB (it grows, never shrinks).
fn wasm_memory_mib() -> f64 {
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    let buffer: js_sys::ArrayBuffer = memory.buffer().unchecked_into();
    f64::from(buffer.byte_length()) / 1_048_576.0
}

/// A manager with the hostile server in `mode` and the echo server, both started.
///
/// The heartbeat may go unanswered for 10 s instead of 0.7: building a 64 MiB reply, or 50,000 tools, blocks the
/// hostile worker's event loop, on a busy machine for longer than 0.7 s (it was then reported crashed, not refused).
/// These tests are about what the page does with what such a worker sends; a worker that stops answering is the
/// subject of the liveness tests.
async fn servers(mode: &str, env: &[(&str, &str)]) -> McpTransportManager {
    let mut options = ManagerOptions::default();
    options.worker_limits = WorkerLimits::default().unresponsive_after_ms(10_000);
    let (manager, _) = McpTransportManager::for_browser(Rc::new(ToolRegistry::new()), options);
    let hostile = env
        .iter()
        .fold(mcp_worker_tests::wasm_config("hostile", HOSTILE_URL).env("HOSTILE", mode), |c, (k, v)| c.env(*k, *v));
    manager.add(hostile).unwrap();
    manager.add(mcp_worker_tests::wasm_config("echo", ECHO_URL)).unwrap();
    manager.connect("echo").await.unwrap();
    manager
}

async fn echo_still_answers(manager: &McpTransportManager) {
    let echo = manager.client("echo").unwrap();
    let result = echo.call_tool("echo", mcp_worker_tests::text_args("still here")).await;
    assert_eq!(result.unwrap().joined_text(), "still here");
}

#[wasm_bindgen_test]
async fn a_huge_reply_is_refused_before_it_reaches_wasm_and_the_page_does_not_stall() {
    let manager = servers("huge-reply", &[]).await;
    // The browser's copy of the message to the page is most of the stall (45-55 ms here; the same message to a page
    // that ignores it: 47-55 ms), and a collection of earlier garbage, or a busy machine, can land in the window
    // (148 ms twice in a row was seen once on CI): the attack is made three times, and a page that stalls each time
    // fails.
    let mut gaps = Vec::new();
    for _ in 0..3 {
        manager.connect("hostile").await.unwrap();
        let memory_before = wasm_memory_mib();
        start_gaps();
        let started = now_ms();
        let err = manager.client("hostile").unwrap().call_tool("work", None).await.unwrap_err();
        let elapsed = now_ms() - started;
        let gap = stop_gaps();
        let grown = wasm_memory_mib() - memory_before;
        log(&format!(
            "64 MiB reply: refused after {elapsed:.0} ms, longest page gap {gap:.1} ms, wasm memory +{grown} MiB"
        ));
        assert!(grown < 1.0, "the frame never entered wasm memory, which grew {grown} MiB");
        assert!(matches!(err, ClientError::Protocol { ref server, .. } if server == "hostile"), "{err}");
        assert!(err.to_string().contains("the limit is 16777216"), "{err}");
        gaps.push(gap);
        echo_still_answers(&manager).await;
    }
    let least = gaps.iter().copied().fold(f64::INFINITY, f64::min);
    assert!(least < 100.0, "the page stalled {gaps:?} ms");
}

#[wasm_bindgen_test]
async fn fifty_thousand_tools_register_the_first_thousand_and_say_so() {
    let manager = servers("many-tools", &[]).await;
    // As for the huge reply: listed three times, and a page that stalls each time fails. The first listing is the
    // slowest (the parser's first run over megabytes is in the browser's baseline wasm code): here 38-74 ms against
    // 22-45 for the next; on a CI machine, 135 and 106 ms for the first two once.
    let mut gaps = Vec::new();
    let mut grown = 0.0;
    for attempt in 0..3 {
        if attempt > 0 {
            manager.disconnect("hostile").unwrap();
        }
        let memory_before = wasm_memory_mib();
        start_gaps();
        let started = now_ms();
        manager.connect("hostile").await.unwrap();
        let elapsed = now_ms() - started;
        let gap = stop_gaps();
        let now_grown = wasm_memory_mib() - memory_before;
        log(&format!(
            "50,000 tools: listed and registered in {elapsed:.0} ms, longest page gap {gap:.1} ms, wasm memory \
             +{now_grown} MiB"
        ));
        gaps.push(gap);
        grown += now_grown;
    }
    let health = manager.health("hostile").unwrap();
    assert_eq!(health.tool_count, 1_000, "the registry's default bound");
    let last_error = health.last_error.unwrap();
    assert!(last_error.contains("hostile") && last_error.contains("50001"), "{last_error}");
    let description =
        manager.registry().get("mcp__hostile__tool_0").unwrap().definition.description.clone().unwrap_or_default();
    assert!(!description.contains('\u{7}'), "no control characters reach a model: {description:?}");
    let before_export = wasm_memory_mib();
    let export = manager.registry().export(ExportFormat::OpenAi, &ToolFilter::everything());
    let exported = export.tools.len();
    drop(export);
    let export_grown = wasm_memory_mib() - before_export;
    log(&format!("50,000 tools: {exported} exported, wasm memory +{export_grown} MiB"));
    assert_eq!(exported, 1_000 + manager.health("echo").unwrap().tool_count, "the registered tools and echo's");
    // The frame (7 MB) is copied into wasm once per listing, and the memory is reused by the next.
    assert!(grown < 24.0, "three listings grew wasm memory {grown} MiB");
    assert!(export_grown < 8.0, "exporting grew wasm memory {export_grown} MiB");
    echo_still_answers(&manager).await;
    // The 7 MB frame is copied into wasm in the task that received it, its envelope read in the next, its first 1,000
    // tools decoded (the rest skipped by the parser) in a third: the longest gap was 22-45 ms here after the first
    // listing, from 41-56 ms when the three shared one task (and 2 s before the rest were skipped). Timed one by one
    // (first listing / next): the copy 22 / 14 ms, the envelope 50 / 19, the tools 28 / 11.
    let least = gaps.iter().copied().fold(f64::INFINITY, f64::min);
    assert!(least < 100.0, "the page stalled {gaps:?} ms");
}

#[wasm_bindgen_test]
async fn a_schema_built_to_cost_exponential_time_fails_closed_and_a_redos_pattern_is_linear() {
    let manager = servers("costly", &[]).await;
    manager.connect("hostile").await.unwrap();
    let registry = manager.registry().clone();
    registry.set_thread_tools("t", ["mcp__hostile__*"]);
    let system = ToolSystem::new(registry, Rc::new(manager.clone()), Rc::new(js_sys::Date::now));
    let mut nested = json!({});
    for _ in 0..40 {
        nested = json!({"a": nested});
    }
    let calls = vec![
        ParsedToolCall::new("loop", "mcp__hostile__loop", nested.clone()),
        ParsedToolCall::new("deep", "mcp__hostile__deep", nested),
        ParsedToolCall::new("redos", "mcp__hostile__redos", json!({"s": format!("{}!", "a".repeat(27))})),
    ];
    // As for the huge reply: the calls are made twice, and a page that stalls each time fails (a collection of
    // earlier garbage, or a busy machine, can land in one window). Each round checks the arguments in full.
    let mut gaps = Vec::new();
    for _ in 0..2 {
        start_gaps();
        let started = now_ms();
        let results = system.execute_tools(calls.clone(), "t", &ExecuteOptions::default()).await;
        let elapsed = now_ms() - started;
        let gap = stop_gaps();
        log(&format!("costly schemas: checked in {elapsed:.0} ms, longest page gap {gap:.1} ms"));
        // `loop` refers to itself at the same place of the argument: a cycle, which ends there (it constrains nothing).
        assert_eq!(results[0].status, ToolStatus::Success, "{:?}", results[0].error);
        assert_eq!(results[1].status, ToolStatus::Error);
        let deep = results[1].error.as_deref().unwrap();
        assert!(deep.contains("too costly to check") && deep.contains("hostile"), "{deep}");
        assert_eq!(results[2].status, ToolStatus::Error, "the argument does not match ^(a+)+$");
        let redos = results[2].error.as_deref().unwrap();
        assert!(redos.contains("/s") && redos.contains("pattern"), "{redos}");
        gaps.push(gap);
    }
    let least = gaps.iter().copied().fold(f64::INFINITY, f64::min);
    assert!(least < 100.0, "the page stalled {gaps:?} ms");
    echo_still_answers(&manager).await;
}

#[wasm_bindgen_test]
async fn a_flooding_server_is_disconnected_before_it_stalls_the_page() {
    a_flood_is_disconnected_before_it_stalls_the_page("flood").await;
}

#[wasm_bindgen_test]
async fn a_flood_in_batches_is_disconnected_before_it_stalls_the_page() {
    a_flood_is_disconnected_before_it_stalls_the_page("flood-batched").await;
}

/// 100,000 log notifications from the hostile server in `mode` (one per message, or in batches).
///
/// The page reads about 1,100 frames of the flood before it hands the port off to be closed, in the tests' build
/// 28-98 ms here one per message and 7-26 ms in batches, and a busy machine can double that: as for the huge
/// reply, the flood comes twice, and a page that stalls each time fails.
async fn a_flood_is_disconnected_before_it_stalls_the_page(mode: &str) {
    use mcp_worker_runtime::manager::ManagerEvent;
    use std::cell::RefCell;
    let manager = servers(mode, &[]).await;
    let logs = Rc::new(RefCell::new(0_usize));
    let dropped = Rc::new(RefCell::new(0_usize));
    let (seen, count) = (logs.clone(), dropped.clone());
    manager.subscribe(Rc::new(move |event: &ManagerEvent| match event {
        ManagerEvent::Log { server, .. } if server == "hostile" => *seen.borrow_mut() += 1,
        ManagerEvent::Throttled { server, report } if server == "hostile" => {
            *count.borrow_mut() += report.log_dropped as usize;
        }
        _ => {}
    }));
    let mut gaps = Vec::new();
    for _ in 0..2 {
        manager.connect("hostile").await.unwrap();
        (*logs.borrow_mut(), *dropped.borrow_mut()) = (0, 0);
        start_gaps();
        let started = now_ms();
        let err = manager.client("hostile").unwrap().call_tool("work", None).await.unwrap_err();
        let elapsed = now_ms() - started;
        // The rest of the flood would arrive now if the channel were still open.
        gloo_timers::future::TimeoutFuture::new(500).await;
        let gap = stop_gaps();
        log(&format!(
            "{mode}: 100,000 log notifications: {} delivered, {} dropped and reported, then disconnected after \
             {elapsed:.0} ms; longest page gap {gap:.1} ms",
            logs.borrow(),
            dropped.borrow()
        ));
        assert!(matches!(err, ClientError::Protocol { ref server, .. } if server == "hostile"), "{err}");
        assert!(err.to_string().contains("notifications over its limit"), "{err}");
        // The burst, and what the rate added while the flood lasted.
        let refilled = (elapsed / 1_000.0 * 1_000.0).ceil() as usize;
        assert!((500..=500 + refilled).contains(&*logs.borrow()), "{} delivered", logs.borrow());
        assert_eq!(*dropped.borrow(), 501, "what was dropped is reported before the server is disconnected");
        let health = manager.health("hostile").unwrap();
        assert!(health.last_error.as_deref().is_some_and(|e| e.contains("notifications over its limit")), "{health:?}");
        gaps.push(gap);
        echo_still_answers(&manager).await;
    }
    let least = gaps.iter().copied().fold(f64::INFINITY, f64::min);
    assert!(least < 100.0, "the page stalled {gaps:?} ms");
}

#[wasm_bindgen_test]
async fn a_batch_is_read_frame_by_frame_and_one_over_its_bounds_closes_the_server() {
    use mcp_worker_runtime::manager::ManagerEvent;
    use std::cell::RefCell;
    let manager = servers("batches", &[]).await;
    manager.connect("hostile").await.unwrap();
    let logs = Rc::new(RefCell::new(Vec::<String>::new()));
    let seen = logs.clone();
    manager.subscribe(Rc::new(move |event: &ManagerEvent| {
        if let ManagerEvent::Log { server, message } = event
            && server == "hostile"
        {
            seen.borrow_mut().push(message.data.to_string());
        }
    }));
    // A well-made batch: its notifications, in order, then the answer.
    let text = manager.client("hostile").unwrap().call_tool("fits", None).await.unwrap().joined_text();
    assert_eq!(text, "worked in a batch");
    assert_eq!(*logs.borrow(), ["\"first\"", "\"second\""], "the batch's log notifications, in order");
    for (tool, refusal) in [
        ("too-many", "a batch of 17 frames; the limit is 16"),
        ("not-text", "a batch with a frame that is not text"),
        ("too-long", "characters; the limit is 65536"),
    ] {
        manager.connect("hostile").await.unwrap();
        let err = manager.client("hostile").unwrap().call_tool(tool, None).await.unwrap_err();
        assert!(matches!(err, ClientError::Protocol { ref server, .. } if server == "hostile"), "{tool}: {err}");
        assert!(err.to_string().contains(refusal), "{tool}: {err}");
        echo_still_answers(&manager).await;
    }
}

#[wasm_bindgen_test]
async fn detached_strings_that_cannot_be_put_back_fail_their_call_at_once_and_too_many_characters_close_the_server() {
    let manager = servers("detached", &[]).await;
    manager.connect("hostile").await.unwrap();
    let client = manager.client("hostile").unwrap();
    let started = now_ms();
    let err = client.call_tool("work", None).await.unwrap_err();
    assert!(matches!(err, ClientError::Protocol { ref server, .. } if server == "hostile"), "{err}");
    assert!(err.to_string().contains("detached strings that cannot be put back"), "{err}");
    assert!(err.to_string().contains("marker is not in its frame"), "{err}");
    assert!(now_ms() - started < 5_000.0, "the call failed when its answer came, not at its timeout");
    // Bytes that are not UTF-8 fail their call too, and say so.
    let err = client.call_tool("not-utf8", None).await.unwrap_err();
    assert!(err.to_string().contains("detached string 0 is not UTF-8"), "{err}");
    // Well-made ones, from a server written by hand, arrive exactly (through the text path: a Rust caller), given as
    // a string or as UTF-8 bytes.
    for tool in ["fits", "fits-bytes"] {
        let text = client.call_tool(tool, None).await.unwrap().joined_text();
        assert!(
            text == "a \"quoted\" \\ line\u{1}, café ✓\n".repeat(2000),
            "{tool}: the text differs: {}",
            &text[..60]
        );
    }
    // The frame and its strings count against the frame limit together, and again once put back as JSON.
    for (tool, refusal) in [
        ("huge", "the limit is 16777216"),
        ("huge-bytes", "the limit is 16777216"),
        ("escapes", "as JSON; the limit is 16777216"),
    ] {
        manager.connect("hostile").await.unwrap();
        let client = manager.client("hostile").unwrap();
        let memory_before = wasm_memory_mib();
        let err = client.call_tool(tool, None).await.unwrap_err();
        assert!(err.to_string().contains(refusal), "{tool}: {err}");
        assert!(wasm_memory_mib() - memory_before < 1.0, "{tool}: the string never entered wasm memory");
        echo_still_answers(&manager).await;
    }
}

#[wasm_bindgen_test]
async fn a_large_frame_arrives_exactly_and_in_its_order_though_it_is_read_in_a_later_task() {
    let manager = servers("large-text", &[]).await;
    manager.connect("hostile").await.unwrap();
    let client = manager.client("hostile").unwrap();
    // `small` is asked first and answered last, in a small frame that comes right behind the large one. Each call is
    // a task of its own, run when its answer is read: the order they finish in is the order the answers were read.
    let answered: Rc<std::cell::RefCell<Vec<(&str, String)>>> = Rc::default();
    for name in ["small", "big"] {
        let (client, answered) = (client.clone(), answered.clone());
        wasm_bindgen_futures::spawn_local(async move {
            let text = client.call_tool(name, None).await.unwrap().joined_text();
            answered.borrow_mut().push((name, text));
        });
    }
    let started = now_ms();
    while answered.borrow().len() < 2 && now_ms() - started < 10_000.0 {
        gloo_timers::future::TimeoutFuture::new(10).await;
    }
    let answered = answered.take();
    let order: Vec<&str> = answered.iter().map(|(name, _)| *name).collect();
    assert_eq!(order, ["big", "small"], "the answers are read in the order the server sent them");
    assert_eq!(answered[1].1, "small");
    let big = &answered[0].1;
    let expected = format!("{}{}\u{FFFD} end", "a".repeat(2_200_000), "café ✓ 😀 ".repeat(50_000));
    assert_eq!(big.len(), expected.len(), "a lone surrogate becomes U+FFFD, every other character arrives");
    assert!(*big == expected, "the text differs from what the server sent");
    echo_still_answers(&manager).await;
}
