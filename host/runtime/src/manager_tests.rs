//! The manager against in-memory SDK servers, on a manual clock.

use super::*;
use crate::config::TransportConfig;
use crate::test_support::{Behaviour, ManualTime, TestLauncher, TestPlatform};
use crate::tool_system::{ExecuteOptions, ParsedToolCall, ToolStatus, ToolSystem};
use futures_executor::LocalPool;
use futures_util::FutureExt;
use futures_util::task::LocalSpawnExt;
use mcp_worker_client::server_requests::ServerRequestHandlers;
use mcp_worker_client::session::CallOptions;
use mcp_worker_protocol::CallToolResult;
use mcp_worker_sdk::{Ctx, Elicitation, NoArgs, Server, ToolDef};
use serde_json::{Value, json};
use std::cell::Cell;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Text {
    text: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Approval {
    /// Whether to go ahead.
    approve: bool,
}

/// A test server. `spawner` runs work a tool detaches from its request (to ignore cancellation).
fn kit(spawner: futures_executor::LocalSpawner) -> Server {
    Server::new("kit", "1")
        .tool(ToolDef::new("echo", |a: Text| async move { a.text }).read_only())
        .tool(ToolDef::new("hang", |_: NoArgs| futures_util::future::pending::<String>()).read_only())
        // Reports progress every 100 ms for ever, and honours cancellation.
        .tool(
            ToolDef::new("ticks", |ctx: Ctx, _: NoArgs| async move {
                for i in 1.. {
                    ctx.sleep(100).await;
                    ctx.progress(f64::from(i), None, None);
                }
                "never"
            })
            .read_only(),
        )
        // Keeps reporting progress after it is cancelled: its work runs detached from the request.
        .tool(
            ToolDef::new("stubborn", move |ctx: Ctx, _: NoArgs| {
                let worker = ctx.clone();
                let _ = spawner.spawn_local(async move {
                    for i in 1..1_000 {
                        worker.sleep(100).await;
                        worker.progress(f64::from(i), None, None);
                    }
                });
                futures_util::future::pending::<String>()
            })
            .read_only(),
        )
        .tool(
            ToolDef::new("unlock", |ctx: Ctx, _: NoArgs| async move {
                let secret = ToolDef::new("secret", |_: NoArgs| async { "42" }).read_only();
                match ctx.server().add_tool(secret) {
                    Ok(()) => "unlocked".to_owned(),
                    Err(e) => e.to_string(),
                }
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
        .tool(
            ToolDef::new("caps", |ctx: Ctx, _: NoArgs| async move {
                serde_json::to_string(&ctx.client_capabilities()).unwrap_or_default()
            })
            .read_only(),
        )
        .tool(
            ToolDef::new(
                "env",
                |ctx: Ctx, _: NoArgs| async move { ctx.env().get("TOKEN").unwrap_or("none").to_owned() },
            )
            .read_only(),
        )
        .tool(ToolDef::new("fails", |_: NoArgs| async { CallToolResult::error("nope") }).read_only())
        // Without a read-only hint, so hidden from agents unless the config allows destructive tools.
        .tool(ToolDef::new("reset", |_: NoArgs| async { "reset" }))
}

pub(super) struct World {
    pub(super) pool: LocalPool,
    time: ManualTime,
    pub(super) launcher: Rc<TestLauncher>,
    pub(super) manager: McpTransportManager,
    pub(super) events: Rc<RefCell<Vec<ManagerEvent>>>,
}

fn world_with(options: ManagerOptions) -> World {
    let pool = LocalPool::new();
    let time = ManualTime::default();
    let launcher = Rc::new(TestLauncher::new(pool.spawner(), time.clone()));
    let runtime = Rc::new(TestPlatform { time: time.clone(), spawner: pool.spawner() });
    let manager = McpTransportManager::new(runtime, launcher.clone(), Rc::new(ToolRegistry::new()), options);
    let events = Rc::new(RefCell::new(Vec::new()));
    let log = events.clone();
    manager.subscribe(Rc::new(move |e: &ManagerEvent| log.borrow_mut().push(e.clone())));
    World { pool, time, launcher, manager, events }
}

pub(super) fn world() -> World {
    let options = ManagerOptions {
        failure_policy: FailurePolicy { max_consecutive_failures: Some(3), backoff: Backoff::new(1_000, 2.0, 30_000) },
        cancel_grace_ms: 500,
        ..ManagerOptions::default()
    };
    world_with(options)
}

impl World {
    fn serve_kit(&self, name: &str) {
        let spawner = self.pool.spawner();
        self.launcher.set(name, Behaviour::Serve(Rc::new(move || kit(spawner.clone()))));
    }

    fn add_kit(&self, name: &str) {
        self.serve_kit(name);
        self.manager.add(ServerConfig::wasm(name, format!("/{name}.js"))).unwrap();
    }

    fn settle(&mut self) {
        self.pool.run_until_stalled();
    }

    /// Moves the clock, fires timers, sweeps deadlines, runs what became ready.
    pub(super) fn advance(&mut self, ms: f64) {
        self.settle();
        self.time.advance(ms);
        self.launcher.sweep();
        self.settle();
    }

    pub(super) fn status(&self, name: &str) -> ServerStatus {
        self.manager.health(name).unwrap().status
    }

    pub(super) fn call(&mut self, server: &str, tool: &str, args: Value) -> Result<Value> {
        let call = self.start_call(server, tool, args, CallOptions::default());
        self.pool.run_until(call)
    }

    fn start_call(
        &self,
        server: &str,
        tool: &str,
        args: Value,
        options: CallOptions,
    ) -> LocalBoxFuture<'static, Result<Value>> {
        let manager = self.manager.clone();
        let (server, tool) = (server.to_owned(), tool.to_owned());
        Box::pin(async move {
            let raw = serde_json::value::to_raw_value(&args).unwrap();
            let result = manager.call_tool(&server, &tool, Some(&raw), options).await?;
            Ok(serde_json::from_str::<Value>(result.get()).unwrap())
        })
    }

    pub(super) fn text(&mut self, server: &str, tool: &str, args: Value) -> String {
        let result = self.call(server, tool, args).unwrap();
        result["content"][0]["text"].as_str().unwrap().to_owned()
    }
}

/// A call running on the pool whose outcome the test reads later.
fn spawn_call(world: &World, call: LocalBoxFuture<'static, Result<Value>>) -> Rc<RefCell<Option<Result<Value>>>> {
    let slot = Rc::new(RefCell::new(None));
    let out = slot.clone();
    world.pool.spawner().spawn_local(async move { *out.borrow_mut() = Some(call.await) }).unwrap();
    slot
}

#[test]
fn a_lazy_server_starts_at_first_use_and_registers_its_tools() {
    let mut w = world();
    w.add_kit("a");
    w.settle();
    assert_eq!(w.status("a"), ServerStatus::Disconnected);
    assert!(w.manager.registry().is_empty());
    assert_eq!(w.launcher.launch_count("a"), 0, "lazy: nothing started yet");

    assert_eq!(w.text("a", "echo", json!({"text": "hi"})), "hi");
    let health = w.manager.health("a").unwrap();
    assert_eq!(health.status, ServerStatus::Connected);
    assert_eq!(health.tool_count, 10);
    assert!(w.manager.registry().get("mcp__a__echo").is_some());
    let statuses: Vec<ServerStatus> = w
        .events
        .borrow()
        .iter()
        .filter_map(|e| match e {
            ManagerEvent::Status { health } => Some(health.status),
            _ => None,
        })
        .collect();
    assert_eq!(statuses, [ServerStatus::Disconnected, ServerStatus::Connecting, ServerStatus::Connected]);
    assert!(
        w.events
            .borrow()
            .iter()
            .any(|e| matches!(e, ManagerEvent::ToolsChanged { server, tools } if server == "a" && tools.len() == 10))
    );
}

#[test]
fn a_lazy_servers_tools_are_listed_from_its_manifest_and_calling_one_starts_it() {
    let mut w = world();
    w.serve_kit("a");
    let manifest = r#"{"name": "kit", "version": "1", "credentials": [], "tools": [
        {"name": "echo", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}},
        {"name": "reset", "inputSchema": {"type": "object"}}]}"#;
    w.launcher.set_manifest("a", Ok(Some(crate::manifest::BundleManifest::parse(manifest).unwrap())));
    w.manager.add(ServerConfig::wasm("a", "/a.js")).unwrap();
    w.settle();
    assert_eq!(w.launcher.launch_count("a"), 0, "not started");
    assert_eq!(w.status("a"), ServerStatus::Disconnected);
    assert_eq!(w.manager.health("a").unwrap().tool_count, 2);
    let shown = |w: &World| w.manager.registry().list(&crate::registry::ToolFilter::default().server("a")).len();
    assert_eq!(shown(&w), 1, "reset may be destructive: hidden, as it will be once started");
    assert!(
        w.events.borrow().iter().any(|e| matches!(e, ManagerEvent::ToolsChanged { tools, .. } if tools.len() == 2))
    );

    assert_eq!(w.text("a", "echo", json!({"text": "hi"})), "hi", "calling a listed tool starts the server");
    assert_eq!(w.launcher.launch_count("a"), 1);
    assert_eq!(w.manager.health("a").unwrap().tool_count, 10, "its own list replaced the manifest's");

    // Disconnected, it lists its manifest's tools again, and a call starts it again.
    w.manager.disconnect("a").unwrap();
    w.settle();
    assert_eq!(w.status("a"), ServerStatus::Disconnected);
    assert_eq!(w.manager.health("a").unwrap().tool_count, 2);
    assert_eq!(shown(&w), 1);
    assert_eq!(w.text("a", "echo", json!({"text": "again"})), "again");
    assert_eq!(w.launcher.launch_count("a"), 2);
}

#[test]
fn a_manifest_without_tools_or_an_eager_server_lists_nothing_before_the_start() {
    let mut w = world();
    w.serve_kit("plain");
    w.manager.add(ServerConfig::wasm("plain", "/p.js")).unwrap();
    w.settle();
    assert!(w.manager.registry().is_empty());
    assert_eq!(w.launcher.launch_count("plain"), 0);
}

#[test]
fn an_auto_start_server_starts_when_added() {
    let mut w = world();
    w.serve_kit("eager");
    w.manager.add(ServerConfig::wasm("eager", "/e.js").auto_start(true)).unwrap();
    w.settle();
    assert_eq!(w.status("eager"), ServerStatus::Connected);
    assert_eq!(w.launcher.launch_count("eager"), 1);
}

#[test]
fn concurrent_first_uses_share_one_start() {
    let mut w = world();
    w.add_kit("a");
    let calls: Vec<_> = (0..50)
        .map(|i| spawn_call(&w, w.start_call("a", "echo", json!({"text": format!("m{i}")}), CallOptions::default())))
        .collect();
    w.settle();
    assert_eq!(w.launcher.launch_count("a"), 1);
    for (i, call) in calls.iter().enumerate() {
        let result = call.borrow_mut().take().unwrap().unwrap();
        assert_eq!(result["content"][0]["text"], format!("m{i}"));
    }
}

#[test]
fn stdio_servers_are_kept_and_reported_never_started() {
    let mut w = world();
    let stdio = ServerConfig::new("files", TransportConfig::Stdio { command: "npx".into(), args: vec!["x".into()] });
    w.manager.add(stdio.clone().auto_start(true)).unwrap();
    w.settle();
    let files = w.manager.health("files").unwrap();
    assert_eq!((files.status, files.transport), (ServerStatus::Error, "stdio"));
    assert!(files.last_error.unwrap().contains("a browser cannot start"));
    let err = w.call("files", "x", json!({})).unwrap_err();
    assert!(matches!(err, Error::Unavailable { status: ServerStatus::Error, .. }), "{err}");
    assert!(w.pool.run_until(w.manager.start_all()).is_empty(), "nothing to start");
    assert!(w.pool.run_until(w.manager.connect("files")).is_err());
    assert!(w.launcher.launches.borrow().is_empty());
    assert_eq!(w.manager.config("files").unwrap().transport, stdio.transport, "kept as configured");
}

#[test]
fn add_remove_enable_disable_at_run_time() {
    let mut w = world();
    w.add_kit("a");
    w.add_kit("b");
    assert_eq!(w.text("a", "echo", json!({"text": "1"})), "1");
    assert_eq!(w.text("b", "echo", json!({"text": "2"})), "2");
    assert!(
        matches!(w.manager.add(ServerConfig::wasm("a", "/x.js")), Err(Error::Client(ClientError::InvalidInput(_)))),
        "names are unique"
    );

    w.manager.enable("a").unwrap();
    assert_eq!(w.status("a"), ServerStatus::Connected, "enabling an enabled server changes nothing");
    w.manager.disable("a").unwrap();
    assert_eq!(w.status("a"), ServerStatus::Disabled);
    assert!(w.launcher.worker("a").terminated.get(), "its worker was terminated");
    assert!(w.manager.registry().list(&crate::registry::ToolFilter::everything().server("a")).is_empty());
    assert!(matches!(w.call("a", "echo", json!({"text": "x"})), Err(Error::Unavailable { .. })));
    assert_eq!(w.text("b", "echo", json!({"text": "still"})), "still", "b is undisturbed");

    w.manager.enable("a").unwrap();
    assert_eq!(w.status("a"), ServerStatus::Disconnected);
    assert_eq!(w.text("a", "echo", json!({"text": "back"})), "back");

    w.manager.remove("a").unwrap();
    assert!(w.manager.health("a").is_none());
    assert!(matches!(w.call("a", "echo", json!({})), Err(Error::UnknownServer { .. })));
    assert!(w.manager.registry().get("mcp__a__echo").is_none());
    assert!(w.events.borrow().iter().any(|e| matches!(e, ManagerEvent::Removed { server } if server == "a")));
    assert_eq!(w.launcher.launch_count("b"), 1);
}

#[test]
fn allowing_destructive_tools_takes_effect_at_once_without_a_restart() {
    let mut w = world();
    w.add_kit("a");
    assert_eq!(w.text("a", "echo", json!({"text": "1"})), "1");
    let shown = |w: &World| w.manager.registry().list(&crate::registry::ToolFilter::default().server("a")).len();
    assert_eq!(shown(&w), 9, "reset has no read-only hint: hidden");

    w.manager.set_allow_destructive_tools("a", true).unwrap();
    assert_eq!(shown(&w), 10);
    assert!(w.manager.config("a").unwrap().allow_destructive_tools, "kept in the config for later starts");
    assert_eq!(w.launcher.launch_count("a"), 1, "not restarted");

    w.manager.set_allow_destructive_tools("a", false).unwrap();
    assert_eq!(shown(&w), 9);
    assert!(matches!(w.manager.set_allow_destructive_tools("nobody", true), Err(Error::UnknownServer { .. })));
}

#[test]
fn update_adds_changes_in_place_or_leaves_alone_and_says_which() {
    let mut w = world();
    w.serve_kit("a");
    let config = ServerConfig::wasm("a", "/a.js");
    assert_eq!(w.manager.update(config.clone()).unwrap(), ConfigChange::Added);
    assert_eq!(w.text("a", "echo", json!({"text": "1"})), "1");
    assert_eq!(w.manager.update(config.clone()).unwrap(), ConfigChange::Unchanged);
    assert_eq!(w.status("a"), ServerStatus::Connected);

    // Allowing destructive tools is applied in place: no restart.
    let allowing = config.clone().allow_destructive_tools(true);
    assert_eq!(w.manager.update(allowing.clone()).unwrap(), ConfigChange::Changed);
    assert_eq!(w.status("a"), ServerStatus::Connected);
    assert_eq!(w.launcher.launch_count("a"), 1, "not restarted");
    assert_eq!(w.manager.registry().list(&crate::registry::ToolFilter::default().server("a")).len(), 10);

    // Another change stops the server; its next use runs the new config.
    let changed = allowing.env("MODE", "fast");
    assert_eq!(w.manager.update(changed.clone()).unwrap(), ConfigChange::Changed);
    assert_eq!(w.status("a"), ServerStatus::Disconnected);
    assert_eq!(w.manager.config("a").unwrap(), changed);
    assert_eq!(w.text("a", "echo", json!({"text": "2"})), "2");
    assert_eq!(w.launcher.launch_count("a"), 2);

    // Disabling through an update is a disable.
    assert_eq!(w.manager.update(changed.enabled(false)).unwrap(), ConfigChange::Changed);
    assert_eq!(w.status("a"), ServerStatus::Disabled);
    let invalid = ServerConfig::wasm("a", "  ");
    assert!(w.manager.update(invalid).is_err(), "an invalid config changes nothing");
    assert_eq!(w.status("a"), ServerStatus::Disabled);
}

#[test]
fn a_config_file_imported_again_reloads_in_place_and_removes_what_it_no_longer_names() {
    let mut w = world();
    for name in ["a", "b", "c", "d"] {
        w.serve_kit(name);
    }
    let read = |text: &str| crate::config::import_mcp_servers(text).unwrap();
    let first = w.manager.apply_import(
        read(r#"{"a": {"workerUrl": "/a.js"}, "b": {"workerUrl": "/b.js"}, "c": {"workerUrl": "/c.js"}}"#),
        false,
    );
    assert_eq!((first.added.as_slice(), first.errors.len()), (&["a", "b", "c"].map(String::from)[..], 0));
    assert_eq!(w.text("a", "echo", json!({"text": "1"})), "1");

    // The file again: `a` as it was, `b` changed, `c` with a problem (it keeps its config), `d` new, and a field
    // no host of this kind uses, reported.
    let again = read(
        r#"{"mcpServers": {"a": {"workerUrl": "/a.js"}, "b": {"workerUrl": "/b.js", "env": {"MODE": "fast"}},
            "c": {"workerUrl": 7}, "d": {"workerUrl": "/d.js", "autoApprove": []}}}"#,
    );
    let report = w.manager.apply_import(again, true);
    assert_eq!(report.added, ["d"]);
    assert_eq!(report.changed, ["b"]);
    assert_eq!(report.unchanged, ["a"]);
    assert!(report.removed.is_empty(), "every server is named: {:?}", report.removed);
    assert_eq!(
        report.errors.iter().map(|e| (e.entry.as_str(), e.field.as_str())).collect::<Vec<_>>(),
        [("c", "workerUrl")]
    );
    assert_eq!(report.ignored.iter().map(|e| e.field.as_str()).collect::<Vec<_>>(), ["autoApprove"]);
    assert_eq!(w.status("a"), ServerStatus::Connected, "unchanged: not restarted");
    assert_eq!(w.manager.config("b").unwrap().env.get("MODE").map(String::as_str), Some("fast"));
    assert_eq!(w.manager.config("c").unwrap(), ServerConfig::wasm("c", "/c.js"));

    // A file that no longer names `b` and `c`: without `remove_missing` they stay, with it they go.
    let smaller = r#"{"a": {"workerUrl": "/a.js"}, "d": {"workerUrl": "/d.js"}}"#;
    assert!(w.manager.apply_import(read(smaller), false).removed.is_empty());
    assert_eq!(w.manager.health_all().len(), 4);
    let reloaded = w.manager.apply_import(read(smaller), true);
    assert_eq!(reloaded.removed, ["b", "c"]);
    assert_eq!(reloaded.unchanged, ["a", "d"]);
    let left: Vec<String> = w.manager.health_all().into_iter().map(|h| h.name).collect();
    assert_eq!(left, ["a", "d"]);
}

#[test]
fn the_registry_status_says_where_the_servers_stand_as_a_whole() {
    let mut w = world();
    assert_eq!(w.manager.registry_status(), RegistryStatus::Idle, "no servers");
    w.add_kit("a");
    assert_eq!(w.manager.registry_status(), RegistryStatus::Idle, "lazy: nothing started");
    assert_eq!(w.text("a", "echo", json!({"text": "1"})), "1");
    assert_eq!(w.manager.registry_status(), RegistryStatus::Ready);
    w.launcher.set("slow", Behaviour::Hang);
    w.manager.add(ServerConfig::wasm("slow", "/slow.js").auto_start(true)).unwrap();
    w.settle();
    assert_eq!(w.manager.registry_status(), RegistryStatus::Discovering, "a server is starting");
    w.manager.remove("slow").unwrap();
    assert_eq!(w.manager.registry_status(), RegistryStatus::Ready);
    let stdio = ServerConfig::new("files", TransportConfig::Stdio { command: "npx".into(), args: vec![] });
    w.manager.add(stdio).unwrap();
    assert_eq!(w.manager.registry_status(), RegistryStatus::Partial, "a server that cannot run");
    w.manager.disable("files").unwrap();
    assert_eq!(w.manager.registry_status(), RegistryStatus::Ready, "disabled servers do not count");
}

#[test]
fn a_server_counts_its_failed_calls_and_its_last_success() {
    let mut w = world();
    w.add_kit("a");
    assert_eq!(w.text("a", "echo", json!({"text": "1"})), "1");
    let first = w.manager.health("a").unwrap().last_success_ms;
    assert!(first.is_some());
    let timed_out = spawn_call(&w, w.start_call("a", "hang", json!({}), CallOptions::default().timeout(Some(5))));
    w.advance(10.0);
    assert!(timed_out.borrow_mut().take().unwrap().is_err());
    assert_eq!(w.manager.health("a").unwrap().consecutive_call_failures, 1);
    assert_eq!(w.manager.health("a").unwrap().consecutive_failures, 0, "the server itself did not fail");
    w.advance(100.0);
    assert_eq!(w.text("a", "echo", json!({"text": "2"})), "2");
    let health = w.manager.health("a").unwrap();
    assert_eq!(health.consecutive_call_failures, 0);
    assert!(health.last_success_ms > first);
}

#[test]
fn a_crash_fails_pending_calls_at_once_and_restarts_after_the_backoff_with_its_config() {
    let mut w = world();
    w.serve_kit("a");
    w.manager.add(ServerConfig::wasm("a", "/a.js").timeout_ms(5_000).env("MODE", "x")).unwrap();
    let pending = spawn_call(&w, w.start_call("a", "hang", json!({}), CallOptions::default()));
    w.settle();
    w.launcher.worker("a").crash("panicked at 'boom'");
    w.settle();
    let err = pending.borrow_mut().take().expect("failed at once").unwrap_err();
    assert_eq!(err.to_string(), "server a: worker crashed: panicked at 'boom'");

    let health = w.manager.health("a").unwrap();
    assert_eq!((health.status, health.consecutive_failures), (ServerStatus::Connecting, 1));
    assert_eq!(health.next_retry_ms, Some(1_000.0));
    assert!(w.manager.registry().get("mcp__a__echo").is_some(), "tools stay registered while it restarts");
    let during = w.call("a", "echo", json!({"text": "x"})).unwrap_err();
    assert!(matches!(during, Error::Unavailable { status: ServerStatus::Connecting, .. }), "fails fast: {during}");

    w.advance(999.0);
    assert_eq!(w.launcher.launch_count("a"), 1);
    w.advance(1.0);
    assert_eq!(w.launcher.launch_count("a"), 2);
    assert_eq!(w.status("a"), ServerStatus::Connected);
    assert_eq!(w.manager.config("a").unwrap().timeout_ms, Some(5_000), "config kept");
    assert!(w.launcher.envs.borrow()[1].1.contains(&("MODE".into(), "x".into())));
    assert_eq!(w.text("a", "echo", json!({"text": "again"})), "again");
    assert_eq!(w.manager.health("a").unwrap().consecutive_failures, 0, "a successful call resets the count");
}

#[test]
fn three_consecutive_failures_mark_error_until_a_manual_connect_and_never_block_others() {
    let mut w = world();
    w.add_kit("good");
    w.launcher.set("bad", Behaviour::FailLoad);
    w.manager.add(ServerConfig::wasm("bad", "/missing.js")).unwrap();

    let err = w.call("bad", "echo", json!({})).unwrap_err();
    assert_eq!(err.code(), "WORKER_LOAD");
    assert_eq!(w.text("good", "echo", json!({"text": "fine"})), "fine");
    w.advance(1_000.0);
    assert_eq!(w.launcher.launch_count("bad"), 2);
    assert_eq!(w.text("good", "echo", json!({"text": "fine"})), "fine");
    w.advance(2_000.0);
    assert_eq!(w.launcher.launch_count("bad"), 3);
    let health = w.manager.health("bad").unwrap();
    assert_eq!((health.status, health.consecutive_failures), (ServerStatus::Error, 3));
    assert!(health.last_error.unwrap().contains("HTTP 404"));

    w.advance(600_000.0);
    assert_eq!(w.launcher.launch_count("bad"), 3, "stays down");
    let refused = w.call("bad", "echo", json!({})).unwrap_err();
    assert!(refused.to_string().contains("failed 3 times in a row"), "{refused}");
    assert_eq!(w.launcher.launch_count("bad"), 3, "a call does not restart it");

    w.serve_kit("bad");
    w.pool.run_until(w.manager.connect("bad")).unwrap();
    assert_eq!(w.status("bad"), ServerStatus::Connected);
    assert_eq!(w.manager.health("bad").unwrap().consecutive_failures, 0);
}

#[test]
fn a_server_waiting_for_a_sign_in_is_not_restarted_on_a_timer_and_its_next_use_tries_again() {
    let mut w = world();
    w.launcher.set("remote", Behaviour::Unauthorized);
    let transport = TransportConfig::Http {
        url: "https://mcp.example.com/mcp".into(),
        headers: Default::default(),
        legacy_sse: false,
        proxy: None,
    };
    w.manager.add(ServerConfig::new("remote", transport)).unwrap();

    let err = w.call("remote", "echo", json!({})).unwrap_err();
    assert_eq!(err.code(), "UNAUTHORIZED");
    let health = w.manager.health("remote").unwrap();
    assert_eq!(health.status, ServerStatus::NeedsAuthorization);
    assert!(health.last_error.unwrap().contains("sign-in window was closed"));
    assert_eq!(health.next_retry_ms, None);
    let asked: Vec<_> = w
        .events
        .borrow()
        .iter()
        .filter_map(|e| match e {
            ManagerEvent::AuthorizationRequired { server, required } => Some((server.clone(), required.can_authorize)),
            _ => None,
        })
        .collect();
    assert_eq!(asked, [("remote".to_owned(), false)], "told, and told that no oauth option is configured");
    assert!(!w.events.borrow().iter().any(|e| matches!(e, ManagerEvent::Restarting { .. })));

    w.advance(600_000.0);
    assert_eq!(w.launcher.launch_count("remote"), 1, "no sign-in window opens on a timer");
    assert_eq!(w.call("remote", "echo", json!({})).unwrap_err().code(), "UNAUTHORIZED");
    assert_eq!(w.launcher.launch_count("remote"), 2, "a use tries again");
}

#[test]
fn failures_without_a_limit_keep_restarting() {
    let options = ManagerOptions {
        failure_policy: FailurePolicy { max_consecutive_failures: None, backoff: Backoff::new(10, 2.0, 40) },
        ..ManagerOptions::default()
    };
    let mut w = world_with(options);
    w.launcher.set("bad", Behaviour::FailLoad);
    w.manager.add(ServerConfig::wasm("bad", "/missing.js").auto_start(true)).unwrap();
    for _ in 0..20 {
        w.advance(40.0);
    }
    assert_eq!(w.launcher.launch_count("bad"), 21);
    assert_eq!(w.status("bad"), ServerStatus::Connecting);
}

#[test]
fn a_start_that_hangs_does_not_block_other_servers() {
    let mut w = world();
    w.add_kit("good");
    w.launcher.set("stuck", Behaviour::Hang);
    w.manager.add(ServerConfig::wasm("stuck", "/stuck.js").auto_start(true)).unwrap();
    w.settle();
    assert_eq!(w.status("stuck"), ServerStatus::Connecting);
    assert_eq!(w.text("good", "echo", json!({"text": "ok"})), "ok");
}

#[test]
fn timeouts_come_from_the_call_then_the_config_then_the_default() {
    let mut w = world();
    w.serve_kit("conf");
    w.manager.add(ServerConfig::wasm("conf", "/c.js").timeout_ms(500)).unwrap();
    w.add_kit("dflt");
    w.pool.run_until(w.manager.start_all());

    let by_config = spawn_call(&w, w.start_call("conf", "hang", json!({}), CallOptions::default()));
    let by_call = spawn_call(&w, w.start_call("conf", "hang", json!({}), CallOptions::default().timeout(Some(200))));
    let by_default = spawn_call(&w, w.start_call("dflt", "hang", json!({}), CallOptions::default()));
    w.advance(200.0);
    assert!(matches!(by_call.borrow_mut().take(), Some(Err(Error::Client(ClientError::Timeout { ms: 200, .. })))));
    assert!(by_config.borrow().is_none());
    w.advance(300.0);
    assert!(matches!(by_config.borrow_mut().take(), Some(Err(Error::Client(ClientError::Timeout { ms: 500, .. })))));
    w.advance(59_499.0);
    assert!(by_default.borrow().is_none());
    w.advance(1.0);
    assert!(matches!(
        by_default.borrow_mut().take(),
        Some(Err(Error::Client(ClientError::Timeout { ms: 60_000, .. })))
    ));
}

#[test]
fn progress_extends_a_call_up_to_its_hard_maximum() {
    let mut w = world();
    w.add_kit("a");
    w.pool.run_until(w.manager.connect("a")).unwrap();
    let options = CallOptions::default().timeout(Some(300)).reset_timeout_on_progress(Some(1_000));
    let call = spawn_call(&w, w.start_call("a", "ticks", json!({}), options));
    for _ in 0..9 {
        w.advance(100.0);
    }
    assert!(call.borrow().is_none(), "still running at 900 ms: progress every 100 ms keeps it alive");
    w.advance(100.0);
    assert!(matches!(call.borrow_mut().take(), Some(Err(Error::Client(ClientError::Timeout { ms: 1_000, .. })))));
    w.advance(10_000.0);
    assert_eq!(w.status("a"), ServerStatus::Connected, "a server that honours cancellation is left alone");
}

#[test]
fn a_server_that_keeps_working_after_a_cancellation_is_terminated_and_restarted() {
    let mut w = world();
    w.add_kit("a");
    w.pool.run_until(w.manager.connect("a")).unwrap();
    // The call asks for progress, so the server's progress after the cancellation shows it kept working.
    let options = CallOptions::default().timeout(Some(200)).on_progress(Rc::new(|_| {}));
    let call = spawn_call(&w, w.start_call("a", "stubborn", json!({}), options));
    let other = spawn_call(&w, w.start_call("a", "hang", json!({}), CallOptions::default()));
    w.advance(200.0);
    assert!(matches!(call.borrow_mut().take(), Some(Err(Error::Client(ClientError::Timeout { .. })))));
    // Progress for the cancelled call keeps coming; past the 500 ms grace the worker is terminated.
    for _ in 0..6 {
        w.advance(100.0);
    }
    let err = other.borrow_mut().take().expect("pending calls fail at once").unwrap_err();
    assert!(matches!(err, Error::Client(ClientError::Terminated { .. })), "{err}");
    assert!(err.to_string().contains("kept working on a cancelled request"), "{err}");
    assert!(w.launcher.worker("a").terminated.get());
    assert_eq!(w.status("a"), ServerStatus::Connecting);
    w.advance(1_000.0);
    assert_eq!(w.status("a"), ServerStatus::Connected);
    assert_eq!(w.launcher.launch_count("a"), 2);
}

#[test]
fn a_wedged_server_that_does_not_answer_ping_after_a_cancellation_is_terminated() {
    let mut w = world();
    w.add_kit("a");
    w.pool.run_until(w.manager.connect("a")).unwrap();
    let call = spawn_call(&w, w.start_call("a", "hang", json!({}), CallOptions::default().timeout(Some(100))));
    w.launcher.worker("a").freeze();
    w.advance(100.0);
    assert!(matches!(call.borrow_mut().take(), Some(Err(Error::Client(ClientError::Timeout { .. })))));
    w.advance(500.0);
    assert_eq!(w.status("a"), ServerStatus::Connected, "the ping probe is under way");
    w.advance(500.0);
    let health = w.manager.health("a").unwrap();
    assert_eq!(health.status, ServerStatus::Connecting);
    assert!(health.last_error.unwrap().contains("did not answer ping"));
    w.advance(1_000.0);
    assert_eq!(w.status("a"), ServerStatus::Connected, "restarted");
}

#[test]
fn a_responsive_server_is_not_terminated_after_a_timeout() {
    let mut w = world();
    w.add_kit("a");
    w.pool.run_until(w.manager.connect("a")).unwrap();
    let call = spawn_call(&w, w.start_call("a", "hang", json!({}), CallOptions::default().timeout(Some(100))));
    w.advance(100.0);
    assert!(call.borrow_mut().take().is_some());
    w.advance(5_000.0);
    assert_eq!(w.status("a"), ServerStatus::Connected);
    assert_eq!(w.launcher.launch_count("a"), 1);
}

#[test]
fn list_changed_rediscovers_and_updates_the_registry() {
    let mut w = world();
    w.add_kit("a");
    assert_eq!(w.text("a", "unlock", json!({})), "unlocked");
    w.settle();
    assert!(w.manager.registry().get("mcp__a__secret").is_some());
    assert_eq!(w.manager.health("a").unwrap().tool_count, 11);
    let changes: Vec<usize> = w
        .events
        .borrow()
        .iter()
        .filter_map(|e| match e {
            ManagerEvent::ToolsChanged { tools, .. } => Some(tools.len()),
            _ => None,
        })
        .collect();
    assert_eq!(changes, [10, 11]);
    assert!(w.events.borrow().iter().any(|e| matches!(e, ManagerEvent::ListChanged { list: ListKind::Tools, .. })));
    assert_eq!(w.text("a", "secret", json!({})), "42");
}

#[test]
fn a_server_without_its_credentials_waits_for_them() {
    let mut w = world();
    w.serve_kit("a");
    w.manager.add(ServerConfig::wasm("a", "/a.js").credential("TOKEN")).unwrap();
    let err = w.call("a", "env", json!({})).unwrap_err();
    assert_eq!(err.code(), "NEEDS_CREDENTIALS");
    assert_eq!(w.status("a"), ServerStatus::NeedsCredentials);
    assert_eq!(w.launcher.launch_count("a"), 0);

    let vault = Rc::new(StaticCredentials::new());
    w.manager.set_credential_source(Some(vault.clone()));
    assert!(w.call("a", "env", json!({})).unwrap_err().to_string().contains("missing TOKEN"));
    vault.set("a", "TOKEN", "s3cret");
    w.manager.credentials_changed("a");
    w.settle();
    assert_eq!(w.status("a"), ServerStatus::Connected);
    assert_eq!(w.text("a", "env", json!({})), "s3cret");
}

#[test]
fn server_requests_reach_the_application_and_only_handled_capabilities_are_declared() {
    let asked = Rc::new(Cell::new(0));
    let count = asked.clone();
    let mut w = world();
    let spawner = w.pool.spawner();
    let handlers = ServerRequestHandlers::new(Rc::new(move |f| {
        let _ = spawner.spawn_local(f);
    }))
    .on_elicitation(Rc::new(move |request| {
        count.set(count.get() + 1);
        assert_eq!(request.server, "a");
        Box::pin(async { Ok(json!({"action": "accept", "content": {"approve": true}})) })
    }));
    let options = ManagerOptions { server_requests: Some(handlers), ..ManagerOptions::default() };
    let runtime = Rc::new(TestPlatform { time: w.time.clone(), spawner: w.pool.spawner() });
    w.manager = McpTransportManager::new(runtime, w.launcher.clone(), Rc::new(ToolRegistry::new()), options);
    w.add_kit("a");
    assert_eq!(w.text("a", "ask", json!({})), "approved: true");
    assert_eq!(asked.get(), 1);
    let caps: Value = serde_json::from_str(&w.text("a", "caps", json!({}))).unwrap();
    assert_eq!(caps, json!({"elicitation": {"form": {}}}), "no sampling or roots without handlers");

    // Without handlers nothing is declared. In MCP 2026-07-28 a call that needs the capability fails with -32021
    // naming it; in the handshake era the server's own check refuses to ask.
    let mut plain = world();
    plain.add_kit("a");
    assert_eq!(plain.text("a", "caps", json!({})), "{}");
    let refused = plain.call("a", "ask", json!({})).unwrap_err().to_string();
    assert!(refused.contains("-32021") || refused.contains("elicitation capability"), "{refused}");
    let mut handshake = world();
    handshake.serve_kit("a");
    handshake.manager.add(ServerConfig::wasm("a", "/a.js").protocol(mcp_worker_client::Protocol::Handshake)).unwrap();
    assert!(handshake.text("a", "ask", json!({})).starts_with("no elicitation"));
}

#[test]
fn the_tool_system_calls_through_the_manager() {
    let mut w = world();
    w.add_kit("a");
    w.launcher.set("bad", Behaviour::FailLoad);
    w.manager.add(ServerConfig::wasm("bad", "/bad.js")).unwrap();
    w.pool.run_until(w.manager.start_all());
    let registry = w.manager.registry().clone();
    registry.set_thread_tools("t", ["mcp__a__*"]);
    let system = ToolSystem::new(registry, Rc::new(w.manager.clone()), w.time.clock());
    let calls = vec![
        ParsedToolCall::new("1", "mcp__a__echo", json!({"text": "hello"})),
        ParsedToolCall::new("2", "mcp__a__fails", json!({})),
    ];
    let results = w.pool.run_until(system.execute_tools(calls, "t", &ExecuteOptions::default()));
    assert_eq!(results[0].status, ToolStatus::Success);
    assert_eq!((results[1].status, results[1].error.as_deref()), (ToolStatus::Error, Some("nope")));
    assert_eq!(w.status("bad"), ServerStatus::Connecting, "the failing server restarts on its own");
    assert!(w.manager.start_all().now_or_never().is_some(), "nothing waits on a server whose restart is pending");
}

#[test]
fn a_server_of_both_eras_is_spoken_to_in_2026_07_28_unless_its_config_says_otherwise() {
    let mut w = world();
    w.add_kit("modern");
    w.serve_kit("legacy");
    let legacy = ServerConfig::wasm("legacy", "/legacy.js").protocol(mcp_worker_client::Protocol::Handshake);
    w.manager.add(legacy).unwrap();
    w.pool.run_until(w.manager.start_all());
    let version = |name: &str| w.manager.health(name).unwrap().protocol_version;
    assert_eq!(version("modern").as_deref(), Some("2026-07-28"));
    assert_eq!(version("legacy").as_deref(), Some("2025-11-25"));
    assert_eq!(w.text("modern", "echo", json!({"text": "hi"})), w.text("legacy", "echo", json!({"text": "hi"})));
    let exported = w.manager.config("legacy").unwrap().to_json();
    assert_eq!(exported["protocol"], "2025-11-25");
    assert_eq!(ServerConfig::from_json(&exported).unwrap().protocol, mcp_worker_client::Protocol::Handshake);
    assert!(w.manager.config("modern").unwrap().to_json().get("protocol").is_none(), "auto is the default");
}
