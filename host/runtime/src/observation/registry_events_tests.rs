//! What the status socket says about the registry's names and limits: clashes, tool lists past the limits, and the
//! tool count a server's status carries.

use super::*;
use crate::Runtime;
use crate::config::ServerConfig;
use crate::observation::{EventFilter, EventKind, StatusEvent};
use crate::registry::naming::tests::old_name;
use crate::registry::table::Naming;
use crate::registry::{ToolLimits, naming};
use crate::test_support::{Behaviour, ManualTime, TestLauncher, TestPlatform};
use futures_executor::LocalPool;
use mcp_worker_protocol::Tool;
use mcp_worker_sdk::{NoArgs, Server, ToolDef};
use serde_json::json;

fn tool(name: &str) -> Tool {
    serde_json::from_value(json!({"name": name, "inputSchema": {"type": "object"}})).unwrap()
}

fn of_kind(events: &[StatusEvent], kind: EventKind) -> Vec<serde_json::Value> {
    events.iter().filter(|e| e.kind() == kind).map(|e| serde_json::to_value(e).unwrap()).collect()
}

#[test]
fn a_clash_is_published_naming_both_servers_tools_and_the_names_given() {
    let hub = ObservationManager::new(ManualTime::default().clock(), "rt", 64);
    let registry = Rc::new(ToolRegistry::with_naming(Naming { base: |_, _| "mcp__same".into(), ..Naming::default() }));
    let _watch = hub.watch_registry(&registry);
    registry.replace_server_tools("victim", vec![tool("read")], false);
    registry.replace_server_tools("crafted", vec![tool("read\u{0}")], false);

    let events = hub.history(&EventFilter::all().servers(["victim"]), None);
    let clashes = of_kind(&events, EventKind::ToolNamesClashed);
    assert_eq!(clashes.len(), 1, "a subscriber to either server hears of it");
    let given = [naming::clash_name("crafted", "read\u{0}"), naming::clash_name("victim", "read")];
    assert_eq!(clashes[0]["name"], "mcp__same");
    assert_eq!(
        clashes[0]["tools"],
        json!([
            {"server": "crafted", "tool": "read\u{0}", "name": given[0]},
            {"server": "victim", "tool": "read", "name": given[1]},
        ])
    );
    let renamed = of_kind(&events, EventKind::ToolsChanged);
    assert_eq!(renamed.last().unwrap()["removed"], json!(["mcp__same"]), "the first comer lost the name too");
    assert_eq!(renamed.last().unwrap()["added"], json!([given[1]]));

    let observation = events.iter().find(|e| e.kind() == EventKind::ToolNamesClashed).unwrap().to_observation();
    assert_eq!(observation.kind, super::super::ObservationType::Error);
    assert_eq!(observation.metadata["servers"], json!(["crafted", "victim"]));
    assert_eq!(observation.title, "tool names clashed: mcp__same (crafted, victim)");
}

#[test]
fn the_same_servers_get_the_same_names_and_clashes_whichever_starts_first() {
    let weak = Naming { base: old_name, ..Naming::default() };
    let victim = crate::registry::naming::tests::VICTIM;
    let crafted = crate::registry::naming::tests::CRAFTED;
    let mut seen = Vec::new();
    for order in [[victim, crafted], [crafted, victim]] {
        let hub = ObservationManager::new(ManualTime::default().clock(), "rt", 64);
        let registry = Rc::new(ToolRegistry::with_naming(weak));
        let _watch = hub.watch_registry(&registry);
        for (server, name) in order {
            registry.replace_server_tools(server, vec![tool(name)], false);
        }
        let clashes = of_kind(&hub.history(&EventFilter::all(), None), EventKind::ToolNamesClashed);
        let names: Vec<String> =
            registry.list(&crate::registry::ToolFilter::everything()).into_iter().map(|e| e.name).collect();
        seen.push((names, clashes[0]["tools"].clone()));
    }
    assert_eq!(seen[0], seen[1]);
}

fn crowded() -> Server {
    let noop = |_: NoArgs| async { "ok" };
    Server::new("crowded", "1")
        .tool(ToolDef::new("a", noop).read_only().description(format!("Reads.\u{1b}[2J{}", "x".repeat(100))))
        .tool(ToolDef::new("b", noop).read_only().title("B\u{7}"))
        .tool(ToolDef::new("c", noop).read_only())
        .tool(ToolDef::new("d", noop).read_only())
}

#[test]
fn a_tool_list_past_the_limits_is_reported_and_the_count_is_what_was_registered() {
    let mut pool = LocalPool::new();
    let time = ManualTime::default();
    let launcher = Rc::new(TestLauncher::new(pool.spawner(), time.clone()));
    launcher.set("crowded", Behaviour::Serve(Rc::new(crowded)));
    let platform = Rc::new(TestPlatform { time: time.clone(), spawner: pool.spawner() });
    let limits = ToolLimits { max_tools_per_server: 3, max_description_chars: 40, ..ToolLimits::default() };
    let runtime = Runtime::builder(platform, launcher).id_prefix("rt").tool_limits(limits).build();
    runtime.manager().add(ServerConfig::wasm("crowded", "/crowded.js")).unwrap();
    pool.run_until(runtime.manager().connect("crowded")).unwrap();

    let health = runtime.manager().health("crowded").unwrap();
    assert_eq!(health.tool_count, 3, "what is registered, not what was listed");
    let last_error = health.last_error.unwrap();
    assert!(last_error.starts_with("server \"crowded\": "), "{last_error}");
    assert!(last_error.contains("4 tools listed, at most 3 are registered"), "{last_error}");

    let events = runtime.observations().history(&EventFilter::all().servers(["crowded"]), None);
    let status = of_kind(&events, EventKind::ServerStatus);
    assert_eq!(status.last().unwrap()["toolCount"], 3);
    let limited = of_kind(&events, EventKind::ToolListLimited);
    assert_eq!(limited.len(), 1);
    assert_eq!(limited[0]["server"], "crowded");
    assert_eq!(
        limited[0]["violations"],
        json!([
            {"kind": "tooManyTools", "listed": 4, "kept": 3},
            {"kind": "controlCharacters", "tool": "a", "field": "description"},
            {"kind": "truncated", "tool": "a", "field": "description", "chars": 109, "max": 40},
            {"kind": "controlCharacters", "tool": "b", "field": "title"},
        ])
    );
    assert!(limited[0]["message"].as_str().unwrap().starts_with("server \"crowded\": 4 tools listed"));
    let entry = runtime.registry().get("mcp__crowded__a").unwrap();
    let description = entry.definition.description.as_deref().unwrap();
    assert!(description.starts_with("Reads.[2Jxxx") && description.chars().count() == 40, "{description}");
    assert_eq!(runtime.registry().get("mcp__crowded__b").unwrap().definition.title.as_deref(), Some("B"));
}
