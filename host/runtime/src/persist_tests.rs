use super::*;
use crate::manager::{ManagerOptions, ServerStatus};
use crate::test_support::{Behaviour, ManualTime, TestLauncher, TestPlatform};
use futures_executor::LocalPool;
use mcp_worker_sdk::Server;
use serde_json::json;
use std::cell::RefCell;
use std::rc::Rc;

fn manager(pool: &LocalPool) -> (McpTransportManager, Rc<TestLauncher>) {
    let time = ManualTime::default();
    let launcher = Rc::new(TestLauncher::new(pool.spawner(), time.clone()));
    let runtime = Rc::new(TestPlatform { time, spawner: pool.spawner() });
    let manager =
        McpTransportManager::new(runtime, launcher.clone(), Rc::new(ToolRegistry::new()), ManagerOptions::default());
    (manager, launcher)
}

fn loaded<T>(items: Vec<(&str, T)>, problems: Vec<CorruptRecord>) -> Loaded<T> {
    Loaded { items: items.into_iter().map(|(k, v)| (k.to_owned(), v)).collect(), problems }
}

#[test]
fn a_restore_brings_back_servers_enablement_and_threads_and_reports_what_it_skips() {
    let pool = LocalPool::new();
    let (manager, _launcher) = manager(&pool);
    let damaged = CorruptRecord { store: "servers".into(), key: "blob".into(), reason: "not JSON-like: a Blob".into() };
    let servers = loaded(
        vec![
            ("echo", json!({"name": "echo", "type": "wasm", "workerUrl": "/bundles/echo/bootstrap.js"})),
            ("off", json!({"name": "off", "workerUrl": "/off.js", "enabled": false, "credentials": ["TOKEN"]})),
            ("broken", json!({"name": "broken", "type": "wasm"})),
            ("moved", json!({"name": "elsewhere", "workerUrl": "/x.js"})),
        ],
        vec![damaged.clone()],
    );
    let threads = loaded(vec![("t1", ThreadConfig::with_tools(&["mcp__echo__*", "calculator"]))], Vec::new());

    let (report, saved) = restore(&manager, servers, threads, "servers");
    assert_eq!(report.servers, ["echo", "off"]);
    assert_eq!(report.threads, ["t1"]);
    let problems: Vec<(&str, &str)> = report.problems.iter().map(|p| (p.key.as_str(), p.reason.as_str())).collect();
    assert_eq!(problems[0], ("blob", "not JSON-like: a Blob"));
    assert_eq!(problems[1].0, "broken");
    assert!(problems[1].1.contains("workerUrl"), "{problems:?}");
    assert_eq!(problems[2], ("moved", "holds the server \"elsewhere\""));
    assert_eq!(problems.len(), 3);

    assert_eq!(manager.health("echo").unwrap().status, ServerStatus::Disconnected);
    assert_eq!(manager.health("off").unwrap().status, ServerStatus::Disabled);
    assert_eq!(manager.config("off").unwrap().credentials[0].name, "TOKEN");
    assert!(manager.health("broken").is_none() && manager.health("elsewhere").is_none());
    assert!(manager.registry().enablement().is_enabled("t1", "mcp__echo__echo"));
    assert!(!manager.registry().enablement().is_enabled("t2", "mcp__echo__echo"), "still fails closed");
    assert_eq!(saved.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(), ["echo", "off"]);
}

#[test]
fn configuration_changes_are_written_and_status_changes_are_not() {
    let mut pool = LocalPool::new();
    let (manager, launcher) = manager(&pool);
    launcher.set("echo", Behaviour::Serve(Rc::new(|| Server::new("echo", "1"))));
    let stored = ServerConfig::wasm("echo", "/echo.js");
    let (_, saved) = restore(&manager, loaded(vec![("echo", stored.to_json())], Vec::new()), Loaded::default(), "s");
    let saver = Rc::new(RefCell::new(Saver::new(saved)));
    let writes = Rc::new(RefCell::new(Vec::new()));
    let (s, w, m) = (saver.clone(), writes.clone(), manager.downgrade());
    manager.subscribe(Rc::new(move |event: &ManagerEvent| {
        let manager = m.upgrade().unwrap();
        w.borrow_mut().extend(s.borrow_mut().manager_event(event, &manager));
    }));
    let (s, w) = (saver.clone(), writes.clone());
    let registry = Rc::downgrade(manager.registry());
    manager.registry().subscribe(Rc::new(move |change: &RegistryChange| {
        w.borrow_mut().extend(s.borrow().registry_change(change, &registry.upgrade().unwrap()));
    }));

    pool.run_until(manager.connect("echo")).unwrap();
    manager.disconnect("echo").unwrap();
    assert!(writes.borrow().is_empty(), "starting and stopping change no configuration: {:?}", writes.borrow());

    manager.disable("echo").unwrap();
    manager.add(ServerConfig::wasm("new", "/new.js").credential("KEY")).unwrap();
    manager.remove("new").unwrap();
    manager.registry().set_thread_tools("t1", ["mcp__echo__b", "mcp__echo__a"]);
    manager.registry().disable_for_thread("t1", ["mcp__echo__b"]);
    let expected = [
        Write::Server { name: "echo".into(), config: stored.clone().enabled(false).to_json() },
        Write::Server { name: "new".into(), config: ServerConfig::wasm("new", "/new.js").credential("KEY").to_json() },
        Write::RemoveServer("new".into()),
        Write::Thread { thread: "t1".into(), tools: vec!["mcp__echo__a".into(), "mcp__echo__b".into()] },
        Write::Thread { thread: "t1".into(), tools: vec!["mcp__echo__a".into()] },
    ];
    assert_eq!(*writes.borrow(), expected);
    manager.enable("echo").unwrap();
    assert_eq!(writes.borrow().last(), Some(&Write::Server { name: "echo".into(), config: stored.to_json() }));
}
