//! The hub wired to a real manager, registry and tool system, against in-memory SDK servers on a manual clock.

use super::*;
use crate::config::ServerConfig;
use crate::manager::{Backoff, FailurePolicy, ManagerOptions, StaticCredentials};
use crate::observation::{EventFilter, EventKind, RedactingCredentials, ServerRequests, StatusEvent};
use crate::registry::ExecutionContext;
use crate::test_support::{Behaviour, ManualTime, TestLauncher, TestPlatform};
use crate::tool_system::{ExecuteOptions, ParsedToolCall, ToolSystem};
use futures_executor::LocalPool;
use futures_util::task::LocalSpawnExt;
use mcp_worker_client::limits::{NotificationLimits, ServerRequestLimits};
use mcp_worker_client::server_requests::ServerRequestHandlers;
use mcp_worker_client::session::CallOptions;
use mcp_worker_protocol::{LoggingLevel, Tool};
use mcp_worker_sdk::{Ctx, Elicitation, NoArgs, Server, ToolDef};
use serde_json::json;
use std::collections::BTreeMap;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Approval {
    /// Whether to go ahead.
    approve: bool,
}

fn kit() -> Server {
    Server::new("kit", "1")
        .tool(
            ToolDef::new(
                "env",
                |ctx: Ctx, _: NoArgs| async move { ctx.env().get("TOKEN").unwrap_or("none").to_owned() },
            )
            .read_only(),
        )
        .tool(
            ToolDef::new("chatty", |ctx: Ctx, _: NoArgs| async move {
                ctx.log(LoggingLevel::Warning, "kit", json!({"note": "careful"}));
                ctx.progress(1.0, Some(2.0), Some("half"));
                ctx.progress(2.0, Some(2.0), None);
                "done"
            })
            .read_only(),
        )
        .tool(
            ToolDef::new("ask", |ctx: Ctx, _: NoArgs| async move {
                match ctx.elicit_form::<Approval>("Go ahead?").await {
                    Ok(Elicitation::Accepted(a)) => format!("approved: {}", a.approve),
                    Ok(_) => "declined".to_owned(),
                    Err(e) => format!("no elicitation: {e}"),
                }
            })
            .read_only(),
        )
}

/// A server whose one tool sends 100,000 log messages and 5,000 progress notifications before it answers.
fn flooder() -> Server {
    Server::new("flooder", "1").tool(
        ToolDef::new("flood", |ctx: Ctx, _: NoArgs| async move {
            for i in 0..100_000 {
                ctx.log(LoggingLevel::Info, "flooder", json!({ "line": i }));
            }
            for step in 1..=5_000 {
                ctx.progress(f64::from(step), Some(5_000.0), None);
            }
            "flooded"
        })
        .read_only(),
    )
}

struct World {
    pool: LocalPool,
    time: ManualTime,
    launcher: Rc<TestLauncher>,
    manager: McpTransportManager,
    hub: ObservationManager,
    credentials: Rc<StaticCredentials>,
    requests: Rc<ServerRequests>,
    system: ToolSystem,
    _watches: Watches,
}

fn world() -> World {
    world_with(NotificationLimits::default())
}

fn world_with(notification_limits: NotificationLimits) -> World {
    let pool = LocalPool::new();
    let time = ManualTime::default();
    let launcher = Rc::new(TestLauncher::new(pool.spawner(), time.clone()));
    let runtime = Rc::new(TestPlatform { time: time.clone(), spawner: pool.spawner() });
    let hub = ObservationManager::new(time.clock(), "rt", 512);
    let requests = ServerRequests::new(hub.clone());
    let spawner = pool.spawner();
    let handlers = ServerRequestHandlers::new(Rc::new(move |task| {
        let _ = spawner.spawn_local(task);
    }))
    .on_elicitation(requests.handler());
    let options = ManagerOptions {
        failure_policy: FailurePolicy { max_consecutive_failures: Some(3), backoff: Backoff::new(100, 2.0, 1_000) },
        server_requests: Some(handlers),
        report_progress: true,
        ..ManagerOptions::default()
    };
    let mut options = options;
    options.client.server_request_limits = ServerRequestLimits::new(8, 30_000);
    options.client.notification_limits = notification_limits;
    let registry = Rc::new(ToolRegistry::new());
    let manager = McpTransportManager::new(runtime, launcher.clone(), registry.clone(), options);
    let credentials = Rc::new(StaticCredentials::new());
    manager
        .set_credential_source(Some(Rc::new(RedactingCredentials::new(credentials.clone(), hub.redactor().clone()))));
    let system = ToolSystem::new(registry.clone(), Rc::new(manager.clone()), time.clock());
    let mut watches = hub.watch_manager(&manager);
    watches.extend(hub.watch_registry(&registry));
    watches.extend(hub.watch_tool_system(&system));
    launcher.set("kit", Behaviour::Serve(Rc::new(kit)));
    launcher.set("flooder", Behaviour::Serve(Rc::new(flooder)));
    World { pool, time, launcher, manager, hub, credentials, requests, system, _watches: watches }
}

impl World {
    fn settle(&mut self) {
        self.pool.run_until_stalled();
    }

    fn advance(&mut self, ms: f64) {
        self.settle();
        self.time.advance(ms);
        self.launcher.sweep();
        self.settle();
    }

    fn events(&self) -> Vec<StatusEvent> {
        self.hub.history(&EventFilter::all(), None)
    }

    fn execute(&mut self, tool: &str, thread: &str) -> crate::tool_system::ToolResult {
        let calls = vec![ParsedToolCall::new("call_1", tool, json!({}))];
        let options = ExecuteOptions::default().trace("trace_1");
        let run = self.system.execute_tools(calls, thread, &options);
        let mut results = self.pool.run_until(run);
        results.remove(0)
    }
}

/// What a status panel shows, event by event: kind, and the status for status events.
fn story(events: &[StatusEvent]) -> Vec<String> {
    events
        .iter()
        .map(|event| match &event.body {
            EventBody::ServerStatus(e) => {
                format!("status {}", serde_json::to_value(e.status).unwrap().as_str().unwrap())
            }
            _ => serde_json::to_value(event.kind()).unwrap().as_str().unwrap().to_owned(),
        })
        .collect()
}

#[test]
fn a_server_that_needs_credentials_connects_crashes_and_restarts_tells_its_story_in_order() {
    let mut w = world();
    w.manager.add(ServerConfig::wasm("kit", "/kit.js").credential("TOKEN")).unwrap();
    w.manager.registry().set_thread_tools("t1", ["mcp__kit__*"]);
    let start = w.manager.clone();
    w.pool.spawner().spawn_local(async move { drop(start.connect("kit").await) }).unwrap();
    w.settle();
    w.credentials.set("kit", "TOKEN", "tok-secret-1234");
    w.manager.credentials_changed("kit");
    w.settle();
    w.launcher.worker("kit").crash("the worker panicked");
    w.advance(100.0);
    assert_eq!(
        story(&w.events()),
        [
            "status disconnected",
            "status connecting",
            "status needs_credentials",
            "credentialsRequired",
            "status connecting",
            "toolsChanged",
            "status connected",
            "status connecting",
            "serverRestarting",
            "status connecting",
            "toolsChanged",
            "status connected",
        ]
    );
    let events = w.events();
    let needs = serde_json::to_value(&events[3]).unwrap();
    assert_eq!(needs["credentials"], json!([{"name": "TOKEN", "description": "", "required": true}]));
    let restart = serde_json::to_value(&events[8]).unwrap();
    assert_eq!((restart["attempt"].clone(), restart["backoffMs"].clone()), (json!(1), json!(100)));
    assert!(restart["reason"].as_str().unwrap().contains("panicked"));
    let connected = serde_json::to_value(&events[6]).unwrap();
    assert_eq!(connected["toolCount"], 3);
    let seqs: Vec<u64> = events.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, (1..=12).collect::<Vec<u64>>(), "numbered without gaps");

    // The server echoes its secret: the agent gets it (it asked), the events never do (they keep a summary of the
    // output: its kinds and sizes).
    let result = w.execute("mcp__kit__env", "t1");
    assert_eq!(result.output.unwrap()["content"][0]["text"], "tok-secret-1234");
    let text = serde_json::to_string(&w.events()).unwrap();
    assert!(!text.contains("tok-secret-1234"));
    assert!(text.contains(r#""output":{"content":[{"kind":"text","bytes":15}]"#), "{text}");
}

#[test]
fn tool_executions_start_and_finish_with_thread_trace_duration_and_status() {
    let mut w = world();
    w.manager.add(ServerConfig::wasm("kit", "/kit.js").auto_start(true)).unwrap();
    w.settle();
    w.manager.registry().set_thread_tools("t1", ["mcp__kit__chatty"]);
    let before = w.hub.last_seq();
    let mut thread_two = w.hub.stream(EventFilter::all().thread("t2").kinds([EventKind::ToolExecutionFinished]), 8);
    let result = w.execute("mcp__kit__chatty", "t1");
    assert!(result.is_success());
    let events: Vec<StatusEvent> = w.events().into_iter().filter(|e| e.seq > before).collect();
    let kinds: Vec<EventKind> = events.iter().map(StatusEvent::kind).collect();
    assert_eq!(
        kinds,
        [
            EventKind::ToolExecutionStarted,
            EventKind::ServerLog,
            EventKind::Progress,
            EventKind::Progress,
            EventKind::ToolExecutionFinished
        ]
    );
    let started = serde_json::to_value(&events[0]).unwrap();
    assert_eq!(started["callId"], "call_1");
    assert_eq!(started["server"], "kit");
    assert_eq!(started["tool"], "chatty");
    assert_eq!(started["threadId"], "t1");
    assert_eq!(started["traceId"], "trace_1");
    let finished = serde_json::to_value(events.last().unwrap()).unwrap();
    assert_eq!(finished["status"], "success");
    assert_eq!(finished["server"], "kit");
    assert!(finished["durationMs"].is_number());
    assert_eq!(finished["callId"], "call_1");
    assert_eq!(finished["output"], json!({"content": [{"kind": "text", "bytes": 4}], "structuredBytes": null}));
    let log = events.iter().find(|e| e.kind() == EventKind::ServerLog).unwrap();
    assert_eq!(serde_json::to_value(log).unwrap()["data"], json!({"note": "careful"}));
    let progress: Vec<serde_json::Value> =
        events.iter().filter(|e| e.kind() == EventKind::Progress).map(|e| serde_json::to_value(e).unwrap()).collect();
    assert_eq!(progress.len(), 2);
    assert_eq!((progress[0]["progress"].clone(), progress[0]["message"].clone()), (json!(1.0), json!("half")));
    assert_eq!(thread_two.queued(), 0, "a thread-two subscriber saw nothing of thread one's call");
    let refused = w.execute("mcp__kit__env", "t1");
    assert!(!refused.is_success(), "not enabled for t1");
    let last = w.events().pop().unwrap();
    assert_eq!(serde_json::to_value(&last).unwrap()["status"], "error");
    assert!(futures_util::FutureExt::now_or_never(futures_util::StreamExt::next(&mut thread_two)).is_none());
}

#[test]
fn native_tools_and_removals_are_reported_by_server() {
    let mut w = world();
    let definition: Tool = serde_json::from_value(json!({"name": "clock", "inputSchema": {"type": "object"}})).unwrap();
    let native = |_: serde_json::Value, _: ExecutionContext| async { Ok(json!({"now": 1})) };
    w.manager.registry().register_native(definition, Rc::new(native), true).unwrap();
    w.manager.add(ServerConfig::wasm("kit", "/kit.js").auto_start(true)).unwrap();
    w.settle();
    w.manager.remove("kit").unwrap();
    let changes: Vec<serde_json::Value> = w
        .events()
        .iter()
        .filter(|e| matches!(e.kind(), EventKind::ToolsChanged | EventKind::ServerRemoved))
        .map(|e| serde_json::to_value(e).unwrap())
        .collect();
    assert_eq!(
        changes[0],
        json!({"id": "rt-1", "seq": 1, "timestamp": 0.0, "type": "toolsChanged", "server": null, "added": ["clock"], "removed": []})
    );
    assert_eq!(changes[1]["server"], "kit");
    assert_eq!(changes[1]["added"].as_array().unwrap().len(), 3);
    assert_eq!(changes[2]["removed"].as_array().unwrap().len(), 3, "removal names the server's tools");
    assert_eq!(changes[2]["server"], "kit");
    assert_eq!(changes[3]["type"], "serverRemoved");
}

#[test]
fn an_elicitation_waits_as_an_event_until_the_application_answers_it() {
    let mut w = world();
    w.manager.add(ServerConfig::wasm("kit", "/kit.js")).unwrap();
    let manager = w.manager.clone();
    let outcome = Rc::new(RefCell::new(None));
    let out = outcome.clone();
    w.pool
        .spawner()
        .spawn_local(async move {
            let raw = manager.call_tool("kit", "ask", None, CallOptions::default()).await;
            *out.borrow_mut() = Some(raw.map(|r| r.get().to_owned()));
        })
        .unwrap();
    w.settle();
    let asked = w.hub.history(&EventFilter::all().kinds([EventKind::ElicitationRequested]), None);
    assert_eq!(asked.len(), 1);
    let event = serde_json::to_value(&asked[0]).unwrap();
    assert_eq!(event["server"], "kit");
    assert_eq!(event["params"]["message"], "Go ahead?");
    assert!(outcome.borrow().is_none(), "the call waits for the answer");
    let id = event["requestId"].as_u64().unwrap();
    assert!(w.requests.answer(id, json!({"action": "accept", "content": {"approve": true}})));
    w.settle();
    let text = outcome.borrow_mut().take().unwrap().unwrap();
    assert!(text.contains("approved: true"), "{text}");
    assert_eq!(w.events().iter().filter(|e| e.kind() == EventKind::ServerRequestSettled).count(), 1);
}

#[test]
fn a_flood_of_logs_and_progress_is_bounded_reported_once_and_keeps_the_last_progress() {
    // Dropping and coalescing only: the bound that disconnects a flooding server has its own test below.
    let mut w = world_with(NotificationLimits::new(1_000, 2_000).max_dropped_per_second(0));
    // The handshake era, so that the burst is all logs (in MCP 2026-07-28 the listen stream's acknowledgement
    // takes one of its tokens).
    let config = ServerConfig::wasm("flooder", "/flooder.js").protocol(mcp_worker_client::Protocol::Handshake);
    w.manager.add(config).unwrap();
    w.manager.registry().set_thread_tools("t1", ["mcp__flooder__*"]);
    let start = w.manager.clone();
    w.pool.spawner().spawn_local(async move { drop(start.connect("flooder").await) }).unwrap();
    w.settle();
    let counts: Rc<RefCell<BTreeMap<EventKind, usize>>> = Rc::default();
    let last_progress = Rc::new(RefCell::new(None));
    let (seen, last) = (counts.clone(), last_progress.clone());
    w.hub.subscribe(
        EventFilter::all(),
        Rc::new(move |event: &StatusEvent| {
            *seen.borrow_mut().entry(event.kind()).or_default() += 1;
            if let EventBody::Progress(p) = &event.body {
                *last.borrow_mut() = Some(p.progress);
            }
        }),
    );
    let result = w.execute("mcp__flooder__flood", "t1");
    assert_eq!(result.status, crate::tool_system::ToolStatus::Success, "{result:?}");
    w.advance(100.0);
    w.advance(500.0);
    let counts = counts.borrow().clone();
    assert_eq!(counts.get(&EventKind::ServerLog), Some(&2_000), "the burst, no more");
    assert_eq!(*last_progress.borrow(), Some(5_000.0), "the caller still sees the last progress");
    assert_eq!(counts.get(&EventKind::ServerThrottled), Some(&1), "one report within the second");
    let throttled = w.events().into_iter().find(|e| e.kind() == EventKind::ServerThrottled).unwrap();
    let json = serde_json::to_value(&throttled).unwrap();
    assert_eq!(json["server"], "flooder");
    assert_eq!(json["logDropped"], 98_000);
    assert!(json["progressCoalesced"].as_u64().unwrap() > 4_000, "{json}");
}

#[test]
fn a_server_flooding_past_the_bound_is_disconnected_reported_and_restarted() {
    let mut w = world();
    w.manager.add(ServerConfig::wasm("flooder", "/flooder.js")).unwrap();
    w.manager.registry().set_thread_tools("t1", ["mcp__flooder__*"]);
    let start = w.manager.clone();
    w.pool.spawner().spawn_local(async move { drop(start.connect("flooder").await) }).unwrap();
    w.settle();
    let result = w.execute("mcp__flooder__flood", "t1");
    assert_eq!(result.status, crate::tool_system::ToolStatus::Error, "{result:?}");
    let error = result.error.unwrap_or_default();
    assert!(error.contains("flooder") && error.contains("notifications over its limit"), "{error}");
    let throttled = w.events().into_iter().find(|e| e.kind() == EventKind::ServerThrottled).unwrap();
    assert_eq!(serde_json::to_value(&throttled).unwrap()["logDropped"], 501, "the last report");
    let health = w.manager.health("flooder").unwrap();
    assert!(health.last_error.as_deref().is_some_and(|e| e.contains("notifications over its limit")), "{health:?}");
    assert_eq!(health.consecutive_failures, 1);
    let launched = w.launcher.launch_count("flooder");
    w.advance(150.0);
    assert_eq!(w.launcher.launch_count("flooder"), launched + 1, "restarted after the backoff");
}

#[test]
fn an_elicitation_nobody_answers_times_out_is_settled_and_the_server_hears_why() {
    let mut w = world();
    w.manager.add(ServerConfig::wasm("kit", "/kit.js")).unwrap();
    let (manager, answer) = (w.manager.clone(), Rc::new(RefCell::new(None)));
    let out = answer.clone();
    let call = async move {
        let result = manager.call_tool("kit", "ask", None, CallOptions::default()).await;
        *out.borrow_mut() = Some(result.map(|raw| raw.get().to_owned()));
    };
    w.pool.spawner().spawn_local(call).unwrap();
    w.settle();
    assert_eq!(w.requests.pending().len(), 1);
    w.advance(29_000.0);
    assert_eq!(w.requests.pending().len(), 1);
    w.advance(1_000.0);
    assert!(w.requests.pending().is_empty());
    let settled = w.events().into_iter().find(|e| e.kind() == EventKind::ServerRequestSettled).unwrap();
    assert_eq!(serde_json::to_value(&settled).unwrap()["outcome"], "timedOut");
    // The tool heard why (the handshake era), or the call failed saying why (MCP 2026-07-28, where the question
    // came back as input_required and the host's own wait timed out).
    let text = answer.borrow_mut().take().unwrap().unwrap_or_else(|error| error.to_string());
    assert!(text.contains("timed out after 30000 ms"), "{text}");
}
