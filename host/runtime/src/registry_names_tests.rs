//! Registry names across servers: nobody takes another's name, clashes rename every side, and the order servers
//! came in changes nothing.

use super::*;
use crate::registry::naming::tests::{CRAFTED, VICTIM, old_name};
use mcp_worker_protocol::ToolAnnotations;
use std::collections::BTreeMap;

fn tool(name: &str) -> Tool {
    let schema = serde_json::json!({"type": "object"}).as_object().cloned().unwrap();
    let mut tool = Tool::new(name, schema);
    tool.annotations = Some(ToolAnnotations { read_only_hint: Some(true), ..Default::default() });
    tool
}

/// Registry names, with the server and tool each was given to.
type Names = BTreeMap<String, (String, String)>;

/// Every registered name, with the server and tool it was given to.
fn names(registry: &ToolRegistry) -> Names {
    registry
        .list(&ToolFilter::everything())
        .into_iter()
        .map(|e| (e.name.clone(), (e.server().unwrap_or_default().to_owned(), e.original_name().to_owned())))
        .collect()
}

fn recorded(registry: &ToolRegistry) -> Rc<RefCell<Vec<RegistryChange>>> {
    let changes = Rc::new(RefCell::new(Vec::new()));
    let log = changes.clone();
    registry.subscribe(Rc::new(move |c: &RegistryChange| log.borrow_mut().push(c.clone())));
    changes
}

/// The naming of earlier versions (32-bit FNV), with this version's clash handling.
fn old_naming() -> Naming {
    Naming { base: old_name, clash: naming::clash_name }
}

#[test]
fn a_server_crafted_against_the_old_names_gets_a_name_of_its_own() {
    for crafted_first in [false, true] {
        let registry = ToolRegistry::new();
        let changes = recorded(&registry);
        let mut servers = [VICTIM, CRAFTED];
        if crafted_first {
            servers.reverse();
        }
        for (server, name) in servers {
            registry.replace_server_tools(server, vec![tool(name)], false);
        }
        let victim = registry.get(&naming::mcp_tool_name(VICTIM.0, VICTIM.1)).unwrap();
        assert_eq!((victim.server(), victim.original_name()), (Some(VICTIM.0), VICTIM.1), "calls reach the victim");
        assert_eq!(registry.len(), 2);
        assert!(changes.borrow().iter().all(|c| c.clashes.is_empty()), "nothing even clashed");
    }
}

#[test]
fn under_the_old_names_a_crafted_collision_renames_both_sides_whatever_the_order() {
    let contested = old_name(VICTIM.0, VICTIM.1);
    let mut outcomes = Vec::new();
    for crafted_first in [false, true] {
        let registry = ToolRegistry::with_naming(old_naming());
        let changes = recorded(&registry);
        let mut servers = [VICTIM, CRAFTED];
        if crafted_first {
            servers.reverse();
        }
        for (server, name) in servers {
            registry.replace_server_tools(server, vec![tool(name)], false);
        }
        let given = names(&registry);
        assert!(!given.contains_key(&contested), "neither keeps {contested}");
        let victim = naming::clash_name(VICTIM.0, VICTIM.1);
        let crafted = naming::clash_name(CRAFTED.0, CRAFTED.1);
        assert_eq!(given[&victim], (VICTIM.0.to_owned(), VICTIM.1.to_owned()));
        assert_eq!(given[&crafted], (CRAFTED.0.to_owned(), CRAFTED.1.to_owned()));
        let clashes: Vec<NameClash> = changes.borrow().iter().flat_map(|c| c.clashes.clone()).collect();
        assert_eq!(clashes.len(), 1, "reported once: {clashes:?}");
        assert_eq!(clashes[0].name, contested);
        let parties: Vec<(&str, &str, Option<&str>)> =
            clashes[0].tools.iter().map(|t| (t.server.as_str(), t.tool.as_str(), t.name.as_deref())).collect();
        assert_eq!(parties, [(VICTIM.0, VICTIM.1, Some(&*victim)), (CRAFTED.0, CRAFTED.1, Some(&*crafted))]);
        let last = changes.borrow().last().cloned().unwrap();
        assert!(last.removed.contains(&contested) && last.added.contains(&victim), "the first comer was renamed");

        // Once the crafted server is gone, the victim has its own name again.
        assert_eq!(registry.unregister_server(CRAFTED.0), 1);
        assert_eq!(names(&registry).keys().collect::<Vec<_>>(), [&contested]);
        let back = changes.borrow().last().cloned().unwrap();
        assert_eq!((back.added, back.removed.contains(&victim)), (vec![contested.clone()], true));
        outcomes.push(given);
    }
    assert_eq!(outcomes[0], outcomes[1], "the same names whichever server came first");
}

#[test]
fn a_server_that_lists_one_of_its_own_hashed_names_gets_clash_names_for_both() {
    let registry = ToolRegistry::new();
    let changes = recorded(&registry);
    let hashed = naming::mcp_tool_name("files", "read/all");
    let lookalike = hashed.strip_prefix("mcp__files__").unwrap().to_owned();
    assert_eq!(naming::mcp_tool_name("files", &lookalike), hashed, "the same name, on purpose");
    let outcome = registry.replace_server_tools("files", vec![tool("read/all"), tool(&lookalike)], false);
    let expected = [naming::clash_name("files", "read/all"), naming::clash_name("files", &lookalike)];
    assert_eq!(outcome.registered, expected);
    assert!(outcome.rejected.is_empty());
    assert!(registry.get(&hashed).is_none());
    let clash = &changes.borrow()[0].clashes[0];
    assert_eq!(clash.name, hashed);
    assert!(clash.tools.iter().all(|t| t.server == "files" && t.name.is_some()));
}

#[test]
fn names_do_not_depend_on_the_order_servers_start_or_restart_in() {
    let hashed = naming::mcp_tool_name("files", "read/all");
    let lookalike = hashed.strip_prefix("mcp__files__").unwrap();
    let lists: [(&str, Vec<&str>); 5] = [
        (VICTIM.0, vec![VICTIM.1, "create_issue", "files/read"]),
        (CRAFTED.0, vec![CRAFTED.1, "x"]),
        ("git hub", vec!["create_issue", "files/read"]),
        ("git.hub", vec!["create_issue"]),
        ("files", vec!["read/all", lookalike]),
    ];
    for naming in [Naming::default(), old_naming()] {
        let mut seen: Option<(Names, Vec<NameClash>)> = None;
        for order in [[0, 1, 2, 3, 4], [4, 3, 2, 1, 0], [1, 0, 3, 4, 2], [2, 4, 0, 1, 3]] {
            let registry = ToolRegistry::with_naming(naming);
            let changes = recorded(&registry);
            for i in order {
                let (server, tools) = &lists[i];
                registry.replace_server_tools(server, tools.iter().map(|t| tool(t)).collect(), false);
            }
            // A restart re-lists the same tools: nothing is renamed.
            let (server, tools) = &lists[order[0]];
            registry.replace_server_tools(server, tools.iter().map(|t| tool(t)).collect(), false);
            let given = names(&registry);
            assert_eq!(given.len(), 10, "{given:?}");
            assert!(given.keys().all(|n| naming::is_valid_tool_name(n)), "{given:?}");
            let mut clashes: Vec<NameClash> = changes.borrow().iter().flat_map(|c| c.clashes.clone()).collect();
            clashes.sort_by(|a, b| a.name.cmp(&b.name));
            clashes.dedup();
            assert!(!clashes.is_empty(), "`files` clashes with itself under any naming");
            match &seen {
                Some((names, reported)) => {
                    assert_eq!(&given, names, "order {order:?}");
                    assert_eq!(&clashes, reported, "order {order:?}");
                }
                None => seen = Some((given, clashes)),
            }
        }
    }
}

#[test]
fn a_native_name_never_meets_an_mcp_name() {
    let registry = ToolRegistry::new();
    let native = |args: serde_json::Value, _: ExecutionContext| async move { Ok(args) };
    registry.register_native(tool("search"), Rc::new(native), false).unwrap();
    registry.replace_server_tools("search", vec![tool("search")], false);
    assert_eq!(names(&registry).keys().collect::<Vec<_>>(), ["mcp__search__search", "search"]);
    let taken = registry.register_native(tool("search"), Rc::new(native), false);
    assert!(matches!(taken, Err(RegistryError::Duplicate { .. })), "the application's own mistake is an error");
}

#[test]
fn when_even_clash_names_coincide_no_side_is_registered_until_the_clash_ends() {
    let naming = Naming { base: |_, _| "mcp__same".into(), clash: |_, _| "mcp__again".into() };
    let registry = ToolRegistry::with_naming(naming);
    let changes = recorded(&registry);
    assert_eq!(registry.replace_server_tools("a", vec![tool("x")], false).registered, ["mcp__same"]);
    let outcome = registry.replace_server_tools("b", vec![tool("y")], false);
    assert!(outcome.registered.is_empty());
    assert!(matches!(&outcome.rejected[..], [RegistryError::Unnamed { server, tool }] if server == "b" && tool == "y"));
    assert!(registry.is_empty(), "the first comer lost its name too");
    let last = changes.borrow().last().cloned().unwrap();
    assert_eq!(last.removed, ["mcp__same"]);
    let contested: Vec<&str> = last.clashes.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(contested, ["mcp__same", "mcp__again"]);
    assert!(last.clashes.iter().all(|c| c.tools.iter().all(|t| t.name.is_none())));
    registry.replace_server_tools("b", Vec::new(), false);
    assert_eq!(names(&registry).keys().collect::<Vec<_>>(), ["mcp__same"], "back once the clash ends");
}
