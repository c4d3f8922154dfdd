//! What a handler's context offers: credentials, logging, cancellation and time.

use crate::harness::{Harness, call, text};
use mcp_worker_sdk::{Credential, Ctx, Env, LoggingLevel, NoArgs, Server, ToolDef};
use serde_json::json;
use std::cell::Cell;
use std::rc::Rc;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Name {
    name: String,
}

#[test]
fn handlers_see_only_the_credentials_the_server_declared() {
    let server = Server::new("creds", "1")
        .credential(Credential::required("API_KEY", "The service key"))
        .credential(Credential::optional("EXTRA_TOKEN", "Unlocks more"))
        .tool(ToolDef::new("peek", |ctx: Ctx, args: Name| async move { format!("{:?}", ctx.credential(&args.name)) }));
    let env = Env::from_pairs([("API_KEY", "sk-1"), ("UNDECLARED", "secret"), ("OTHER", "x")]);
    let mut h = Harness::with_env(server, env);
    assert_eq!(text(&h.one(&call(1, "peek", json!({"name": "API_KEY"})))), r#"Some("sk-1")"#);
    assert_eq!(text(&h.one(&call(2, "peek", json!({"name": "EXTRA_TOKEN"})))), "None", "declared, not provided");
    assert_eq!(text(&h.one(&call(3, "peek", json!({"name": "UNDECLARED"})))), "None", "provided, not declared");
}

#[test]
fn the_manifest_lists_the_declared_credentials() {
    let server = Server::new("creds", "2.0.0")
        .title("Credentials")
        .credential(Credential::required("API_KEY", "The service key"))
        .credential(Credential::optional("EXTRA_TOKEN", "Unlocks more"));
    let manifest: serde_json::Value = serde_json::from_str(&server.manifest().to_json()).unwrap();
    assert_eq!(
        manifest,
        json!({"name": "creds", "version": "2.0.0", "title": "Credentials", "credentials": [
            {"name": "API_KEY", "description": "The service key", "required": true},
            {"name": "EXTRA_TOKEN", "description": "Unlocks more", "required": false}]})
    );
}

#[test]
fn the_manifest_lists_the_tools_as_tools_list_does() {
    let server = crate::basics::echo_server();
    let manifest: serde_json::Value = serde_json::from_str(&server.manifest().to_json()).unwrap();
    let mut h = crate::harness::Harness::new(crate::basics::echo_server());
    let listed = h.request(1, "tools/list", json!({}));
    assert_eq!(manifest["tools"], listed["result"]["tools"]);
    assert!(manifest["tools"].as_array().is_some_and(|tools| !tools.is_empty()));
}

fn logging_server() -> Server {
    Server::new("logs", "1").tool(ToolDef::new("log", |ctx: Ctx, _: NoArgs| async move {
        ctx.log(LoggingLevel::Debug, "db", "connecting");
        ctx.log(LoggingLevel::Info, "", json!({"event": "started"}));
        ctx.log(LoggingLevel::Error, "db", "lost the connection");
        ctx.server().log(LoggingLevel::Critical, "server", "outside a request too");
        "logged"
    }))
}

fn levels(frames: &[serde_json::Value]) -> Vec<String> {
    frames
        .iter()
        .filter(|f| f["method"] == "notifications/message")
        .map(|f| f["params"]["level"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn log_messages_follow_the_level_the_client_sets() {
    let mut h = Harness::new(logging_server());
    h.initialize(json!({}));
    let frames = h.exchange(&call(1, "log", json!({})));
    assert_eq!(levels(&frames), ["debug", "info", "error", "critical"], "everything before setLevel");
    assert_eq!(frames[0]["params"], json!({"level": "debug", "logger": "db", "data": "connecting"}));
    assert_eq!(frames[1]["params"], json!({"level": "info", "data": {"event": "started"}}));

    assert_eq!(h.request(2, "logging/setLevel", json!({"level": "error"}))["result"], json!({}));
    assert_eq!(levels(&h.exchange(&call(3, "log", json!({})))), ["error", "critical"]);
    assert_eq!(h.request(4, "logging/setLevel", json!({"level": "emergency"}))["result"], json!({}));
    assert_eq!(levels(&h.exchange(&call(5, "log", json!({})))), Vec::<String>::new());
}

#[test]
fn cancellation_is_visible_to_work_the_handler_left_behind() {
    let seen = Rc::new(Cell::new(false));
    let flag = seen.clone();
    let saved: Rc<std::cell::RefCell<Option<Ctx>>> = Rc::default();
    let keep = saved.clone();
    let server = Server::new("cancel", "1").tool(ToolDef::new("wait", move |ctx: Ctx, _: NoArgs| {
        let (flag, keep) = (flag.clone(), keep.clone());
        async move {
            *keep.borrow_mut() = Some(ctx.clone());
            ctx.cancelled().await;
            flag.set(true);
            "unreachable: the future is dropped"
        }
    }));
    let mut h = Harness::new(server);
    assert!(h.exchange(&call(1, "wait", json!({}))).is_empty());
    let ctx = saved.borrow().clone().unwrap();
    assert!(!ctx.is_cancelled());
    let cancelled = h.exchange(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#);
    assert!(cancelled.is_empty());
    assert!(ctx.is_cancelled(), "a context kept elsewhere sees the cancellation");
    assert!(!seen.get(), "the handler's own future was dropped, not resumed");
    futures_executor::block_on(ctx.cancelled());
}

#[test]
fn sleeping_waits_for_the_timer_without_blocking_others() {
    let server = Server::new("sleepy", "1").tool(ToolDef::new("nap", |ctx: Ctx, _: NoArgs| async move {
        ctx.sleep(1_000).await;
        "rested"
    }));
    let mut h = Harness::new(server);
    assert!(h.exchange(&call(1, "nap", json!({}))).is_empty());
    assert_eq!(h.request(2, "ping", json!({}))["result"], json!({}));
    assert!(h.advance(999).is_empty());
    assert_eq!(text(&h.advance(1)[0]), "rested");
}

#[test]
fn close_sse_stream_sends_its_hint_only_to_a_transport_that_asked_for_it() {
    let server = Server::new("polling", "1").tool(ToolDef::new("poll", |ctx: Ctx, _: NoArgs| async move {
        ctx.close_sse_stream();
        "done"
    }));
    let mut h = Harness::new(server);
    assert_eq!(text(&h.one(&call(1, "poll", json!({})))), "done", "a browser host gets no hint");
    h.session.enable_sse_stream_hints();
    let frames = h.exchange(&call(2, "poll", json!({})));
    assert_eq!(
        frames[0],
        json!({"jsonrpc": "2.0", "method": mcp_worker_sdk::CLOSE_SSE_STREAM, "params": {"requestId": 2}})
    );
    assert_eq!(text(&frames[1]), "done");
}
