//! Resources through the manager: subscriptions that outlive a session, updates as events, and the opt-in
//! `read_resource` tool.

use super::super::tests::world;
use crate::config::ServerConfig;
use crate::manager::{ManagerEvent, ServerStatus};
use crate::test_support::Behaviour;
use mcp_worker_sdk::{Ctx, NoArgs, ResourceDef, Server, ToolDef};
use serde_json::json;
use std::rc::Rc;

/// A server with one resource and a tool that says it changed.
fn library() -> Server {
    Server::new("library", "1")
        .resource(ResourceDef::new("mem://note", "Note", |_| async { "the note" }).mime_type("text/plain"))
        .tool(
            ToolDef::new("touch", |ctx: Ctx, _: NoArgs| async move {
                ctx.server().resource_updated("mem://note");
                "touched"
            })
            .read_only(),
        )
}

fn updates(events: &[ManagerEvent]) -> Vec<(String, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            ManagerEvent::ResourceUpdated { server, uri } => Some((server.clone(), uri.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn a_subscription_is_asked_again_of_the_next_session_and_ends_when_asked() {
    let mut w = world();
    w.launcher.set("lib", Behaviour::Serve(Rc::new(library)));
    w.manager.add(ServerConfig::wasm("lib", "/lib.js")).unwrap();
    w.pool.run_until(w.manager.subscribe_resource("lib", "mem://note")).unwrap();
    assert_eq!(w.text("lib", "touch", json!({})), "touched");
    w.advance(0.0);
    let note = ("lib".to_owned(), "mem://note".to_owned());
    assert_eq!(updates(&w.events.borrow()), std::slice::from_ref(&note));

    w.launcher.worker("lib").crash("test");
    w.advance(1_000.0);
    assert_eq!(w.status("lib"), ServerStatus::Connected, "restarted after the backoff");
    assert_eq!(w.text("lib", "touch", json!({})), "touched");
    w.advance(0.0);
    assert_eq!(updates(&w.events.borrow()), [note.clone(), note.clone()], "subscribed again");

    w.pool.run_until(w.manager.unsubscribe_resource("lib", "mem://note")).unwrap();
    assert_eq!(w.text("lib", "touch", json!({})), "touched");
    w.advance(0.0);
    assert_eq!(updates(&w.events.borrow()).len(), 2, "no update after unsubscribing");
    assert!(w.manager.resource_subscriptions("lib").is_empty());
}

#[test]
fn a_server_that_opts_in_gets_a_read_resource_tool_whose_refusals_the_model_reads() {
    let mut w = world();
    w.launcher.set("lib", Behaviour::Serve(Rc::new(library)));
    w.launcher.set("plain", Behaviour::Serve(Rc::new(library)));
    w.manager.add(ServerConfig::wasm("lib", "/lib.js").resource_tool(true)).unwrap();
    w.manager.add(ServerConfig::wasm("plain", "/lib.js")).unwrap();

    let read = w.call("lib", "read_resource", json!({"uri": "mem://note"})).unwrap();
    assert_eq!(read["content"][0]["type"], "resource");
    assert_eq!(read["content"][0]["resource"]["text"], "the note");
    assert_eq!(read.get("isError"), None);
    let missing = w.call("lib", "read_resource", json!({"uri": "mem://other"})).unwrap();
    assert_eq!(missing["isError"], true);
    assert!(missing["content"][0]["text"].as_str().unwrap().contains("mem://other"), "{missing}");
    let wrong = w.call("lib", "read_resource", json!({"path": "x"})).unwrap();
    assert_eq!(wrong["isError"], true);
    assert_eq!(w.manager.health("lib").unwrap().tool_count, 2, "touch and read_resource");

    w.pool.run_until(w.manager.connect("plain")).unwrap();
    assert_eq!(w.manager.health("plain").unwrap().tool_count, 1, "no tool without the option");
    let refused = w.call("plain", "read_resource", json!({"uri": "mem://note"})).unwrap_err();
    assert_eq!(refused.code(), "RPC_ERROR", "the server's own answer: it has no such tool");
}
