use super::*;
use mcp_worker_protocol::{JsonObject, ToolAnnotations};
use serde_json::{Value, json};

fn schema(value: Value) -> JsonObject {
    value.as_object().cloned().unwrap()
}

fn read_only(name: &str) -> Tool {
    let mut tool = Tool::new(name, schema(json!({"type": "object", "properties": {"q": {"type": "string"}}})));
    tool.annotations = Some(ToolAnnotations { read_only_hint: Some(true), ..Default::default() });
    tool
}

fn native_echo() -> Rc<dyn NativeTool> {
    Rc::new(|args: Value, _ctx: ExecutionContext| async move { Ok(args) })
}

#[test]
fn duplicates_are_errors_never_overwrites() {
    let registry = ToolRegistry::new();
    registry.register_native(read_only("search"), native_echo(), false).unwrap();
    let err = registry.register_native(read_only("search"), native_echo(), false).unwrap_err();
    assert_eq!(err, RegistryError::Duplicate { name: "search".into(), existing: "a native tool".into() });
    assert_eq!(registry.len(), 1);

    let outcome = registry.replace_server_tools("srv", vec![read_only("a"), read_only("a")], false);
    assert_eq!(outcome.registered, vec!["mcp__srv__a".to_owned()]);
    assert!(matches!(&outcome.rejected[..], [RegistryError::Duplicate { name, existing }]
        if name == "mcp__srv__a" && existing.contains("server \"srv\"")));
}

#[test]
fn native_names_must_be_valid_and_not_look_like_mcp_names() {
    let registry = ToolRegistry::new();
    assert!(matches!(
        registry.register_native(read_only("bad name"), native_echo(), false),
        Err(RegistryError::InvalidName { .. })
    ));
    assert!(matches!(
        registry.register_native(read_only("mcp__x__y"), native_echo(), false),
        Err(RegistryError::InvalidName { .. })
    ));
}

#[test]
fn server_tools_are_replaced_as_a_whole_and_keep_their_original_names() {
    let registry = ToolRegistry::new();
    let changes = Rc::new(RefCell::new(Vec::new()));
    let log = changes.clone();
    registry.subscribe(Rc::new(move |c: &RegistryChange| log.borrow_mut().push(c.clone())));

    registry.replace_server_tools("My Server", vec![read_only("get.user"), read_only("list")], false);
    let names: Vec<String> = registry.list(&ToolFilter::everything()).into_iter().map(|e| e.name).collect();
    assert_eq!(names.len(), 2);
    // The space and the dot are replaced, so the name carries the hash of the pair ("My Server", "get.user").
    assert!(names.contains(&"mcp__My_Server_get_user_e79118479b26d646".to_owned()), "{names:?}");
    let entry = registry.get("mcp__My_Server_get_user_e79118479b26d646").unwrap();
    assert_eq!((entry.server(), entry.original_name()), (Some("My Server"), "get.user"));

    registry.replace_server_tools("My Server", vec![read_only("list")], false);
    assert_eq!(registry.len(), 1);
    assert_eq!(registry.unregister_server("My Server"), 1);
    assert!(registry.is_empty());
    let changes = changes.borrow();
    assert_eq!(changes.len(), 3);
    assert_eq!(changes[1].removed.len(), 2);
    assert_eq!(changes[1].added.len(), 1);
}

#[test]
fn destructive_tools_are_hidden_unless_the_server_allows_them() {
    let registry = ToolRegistry::new();
    let unannotated = Tool::new("search", schema(json!({"type": "object"})));
    registry.replace_server_tools(
        "strict",
        vec![unannotated.clone(), read_only("delete_file"), read_only("list")],
        false,
    );
    registry.replace_server_tools("trusted", vec![unannotated, read_only("list")], true);
    registry.set_thread_tools("t", ["mcp__strict__*", "mcp__trusted__*"]);

    let visible: Vec<String> = registry.list(&ToolFilter::for_thread("t")).into_iter().map(|e| e.name).collect();
    assert_eq!(visible, ["mcp__strict__list", "mcp__trusted__list", "mcp__trusted__search"]);
    assert!(!registry.is_callable("t", "mcp__strict__search"), "no annotations: destructive by the spec's defaults");
    assert!(!registry.is_callable("t", "mcp__strict__delete_file"), "a destructive name beats a read-only hint");
    assert!(registry.is_callable("t", "mcp__trusted__search"));
    assert_eq!(registry.list(&ToolFilter::everything()).len(), 5, "hidden tools are still listed for settings");
    assert!(registry.get("mcp__strict__search").unwrap().destructive);
}

#[test]
fn native_tools_follow_the_same_rule_allowed_by_their_registration() {
    let registry = ToolRegistry::new();
    let unannotated = Tool::new("notes", schema(json!({"type": "object"})));
    registry.register_native(unannotated.clone(), native_echo(), false).unwrap();
    registry.register_native(read_only("delete_draft"), native_echo(), false).unwrap();
    registry.register_native(read_only("search"), native_echo(), false).unwrap();
    let mut allowed = unannotated;
    allowed.name = "write_file".into();
    registry.register_native(allowed, native_echo(), true).unwrap();
    registry.replace_server_tools("kit", vec![Tool::new("run", schema(json!({"type": "object"})))], false);
    registry.set_thread_tools("t", ["*"]);

    let visible: Vec<String> = registry.list(&ToolFilter::for_thread("t")).into_iter().map(|e| e.name).collect();
    assert_eq!(visible, ["search", "write_file"]);
    let hidden: Vec<(String, String, String)> =
        registry.hidden().into_iter().map(|h| (h.name, h.server, h.reason)).collect();
    assert_eq!(
        hidden,
        [
            ("delete_draft".into(), String::new(), "its name has the destructive verb \"delete\"".into()),
            (
                "mcp__kit__run".into(),
                "kit".into(),
                "it has no annotations (a tool is shown only when it says readOnlyHint: true or destructiveHint: \
                 false)"
                    .into()
            ),
            (
                "notes".into(),
                String::new(),
                "it has no annotations (a tool is shown only when it says readOnlyHint: true or destructiveHint: \
                 false)"
                    .into()
            ),
        ]
    );
    assert_eq!(registry.hidden_of("kit").len(), 1);
}

#[test]
fn the_server_prefix_marks_server_tools_in_every_format_and_never_native_ones() {
    let registry = ToolRegistry::new();
    let mut search = read_only("search");
    search.description = Some("Searches".into());
    registry.replace_server_tools("docs", vec![search.clone()], false);
    registry.register_native(read_only("clock"), native_echo(), false).unwrap();
    let prefixed = ExportOptions::default().server_prefix(true);
    let texts = |format: ExportFormat, options: ExportOptions| -> Vec<Value> {
        let export = registry.export_with(format, &ToolFilter::default(), options);
        export.tools.iter().map(|tool| serde_json::from_str(tool.get()).unwrap()).collect()
    };
    let mcp = texts(ExportFormat::Mcp, prefixed);
    assert_eq!((mcp[0]["name"].as_str(), mcp[0].get("description")), (Some("clock"), None), "native: untouched");
    assert_eq!(mcp[1]["description"], "[docs] Searches");
    let openai = texts(ExportFormat::OpenAi, prefixed);
    assert_eq!(openai[1]["function"]["description"], "[docs] Searches");
    let anthropic = texts(ExportFormat::Anthropic, prefixed);
    assert!(!anthropic[0]["description"].as_str().unwrap().starts_with('['));
    assert_eq!(anthropic[1]["description"], "[docs] Searches");
    assert_eq!(texts(ExportFormat::Mcp, ExportOptions::default())[1]["description"], "Searches", "off by default");
}

#[test]
fn allowing_destructive_tools_shows_them_and_says_so() {
    let registry = ToolRegistry::new();
    let changes = Rc::new(RefCell::new(Vec::new()));
    let log = changes.clone();
    registry.subscribe(Rc::new(move |c: &RegistryChange| log.borrow_mut().push(c.clone())));
    registry.replace_server_tools("notes", vec![read_only("delete_note"), read_only("list")], false);
    registry.set_thread_tools("t", ["mcp__notes__*"]);
    assert!(!registry.is_callable("t", "mcp__notes__delete_note"));

    assert_eq!(registry.allow_destructive("notes", true), ["mcp__notes__delete_note"]);
    assert!(registry.is_callable("t", "mcp__notes__delete_note"));
    assert_eq!(changes.borrow().last().unwrap().added, ["mcp__notes__delete_note"]);
    assert!(registry.allow_destructive("notes", true).is_empty(), "allowing twice changes nothing");

    assert_eq!(registry.allow_destructive("notes", false), ["mcp__notes__delete_note"]);
    assert!(!registry.is_callable("t", "mcp__notes__delete_note"));
    assert_eq!(changes.borrow().last().unwrap().removed, ["mcp__notes__delete_note"]);
    assert!(registry.allow_destructive("other", true).is_empty(), "an unknown server changes nothing");
}

#[test]
fn threads_see_only_what_is_enabled_for_them() {
    let registry = ToolRegistry::new();
    registry.register_native(read_only("search"), native_echo(), false).unwrap();
    registry.register_native(read_only("fetch"), native_echo(), false).unwrap();
    assert!(registry.list(&ToolFilter::for_thread("new-thread")).is_empty(), "fails closed");
    registry.enable_for_thread("t", ["search"]);
    let names: Vec<String> = registry.list(&ToolFilter::for_thread("t")).into_iter().map(|e| e.name).collect();
    assert_eq!(names, ["search"]);
    registry.disable_for_thread("t", ["search"]);
    assert!(!registry.is_callable("t", "search"));
}

#[test]
fn exports_have_each_apis_shape() {
    let registry = ToolRegistry::new();
    let mut tool = read_only("get.user");
    tool.description = Some("Gets a user".into());
    tool.input_schema = schema(json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object", "properties": {"id": {"type": "integer", "exclusiveMinimum": 0}}, "required": ["id"]
    }))
    .into();
    tool.output_schema = Some(schema(json!({"$schema": "x", "type": "object"})).into());
    registry.replace_server_tools("users", vec![tool, read_only("plain")], false);
    // The dot is replaced, so the name carries the hash of the pair ("users", "get.user").
    let name = "mcp__users__get_user_346e2e2c7dafc30b";
    let parameters =
        json!({"type": "object", "properties": {"id": {"type": "integer", "minimum": 1}}, "required": ["id"]});
    let all = ToolFilter::everything();

    let openai = tools(&registry.export(ExportFormat::OpenAi, &all));
    assert_eq!(
        openai[0],
        json!({"type": "function", "function": {"name": name, "description": "Gets a user", "parameters": parameters}})
    );
    let anthropic = tools(&registry.export(ExportFormat::Anthropic, &all));
    assert_eq!(anthropic[0], json!({"name": name, "description": "Gets a user", "input_schema": parameters}));
    let art = tools(&registry.export(ExportFormat::Art, &all));
    assert_eq!(
        art[0],
        json!({"name": name, "description": "Gets a user", "inputSchema": parameters, "outputSchema": {"type": "object"}})
    );
    assert_eq!(art[1]["description"], "Tool plain of MCP server users", "a description is always given");
    let mcp = tools(&registry.export(ExportFormat::Mcp, &all));
    assert_eq!(mcp[0]["name"], name);
    assert_eq!(mcp[0]["inputSchema"]["$schema"], "https://json-schema.org/draft/2020-12/schema", "raw");
    assert_eq!(mcp[0]["annotations"]["readOnlyHint"], true);
}

#[test]
fn a_tool_whose_schema_cannot_be_prepared_is_skipped_and_reported() {
    let registry = ToolRegistry::new();
    let mut bad = read_only("bad");
    bad.input_schema = schema(json!({"type": "string"})).into();
    registry.replace_server_tools("s", vec![bad, read_only("good")], false);
    let export = registry.export(ExportFormat::OpenAi, &ToolFilter::everything());
    assert_eq!(export.tools.len(), 1);
    assert_eq!(export.skipped[0].0, "mcp__s__bad");
    assert!(matches!(export.skipped[0].1, schema_prep::SchemaError::RootNotObject { .. }));
}

#[test]
fn too_many_tools_are_dropped_and_the_count_is_what_is_registered() {
    let registry = ToolRegistry::with_limits(ToolLimits { max_tools_per_server: 2, ..ToolLimits::default() });
    let changes = Rc::new(RefCell::new(Vec::new()));
    let log = changes.clone();
    registry.subscribe(Rc::new(move |c: &RegistryChange| log.borrow_mut().push(c.clone())));
    let outcome = registry.replace_server_tools("big", vec![read_only("a"), read_only("a"), read_only("b")], false);
    assert_eq!(outcome.registered, ["mcp__big__a"], "the first two listed are kept, and one is listed twice");
    assert_eq!(outcome.violations, [LimitViolation::TooManyTools { listed: 3, kept: 2 }]);
    let problems = outcome.problems("big").unwrap();
    assert!(problems.contains("listed twice") || problems.contains("already registered"), "{problems}");
    assert!(problems.contains("3 tools listed, at most 2 are registered"), "{problems}");
    assert_eq!(registry.len(), 1);
    let changes = changes.borrow();
    assert_eq!(changes[0].limited.len(), 1);
    assert_eq!(changes[0].limited[0].server, "big");
    assert!(changes[0].limited[0].message.starts_with("server \"big\": 3 tools listed"));
}

#[test]
fn the_export_never_carries_control_characters_or_unbounded_text() {
    let registry = ToolRegistry::new();
    let mut sneaky = read_only("look\u{1b}]0;owned\u{7}");
    sneaky.description = Some(format!("{}\u{0}", "x".repeat(5_000)));
    registry.replace_server_tools("s\u{8}rv", vec![sneaky, read_only("quiet\u{0}")], false);
    let export = tools(&registry.export(ExportFormat::Anthropic, &ToolFilter::everything()));
    assert_eq!(export.len(), 2);
    for tool in &export {
        let text = tool.to_string();
        assert!(!text.contains("\\u0000") && !text.contains("\\u001b") && !text.contains("\\u0007"), "{text}");
        assert!(naming::is_valid_tool_name(tool["name"].as_str().unwrap()));
        assert!(tool["description"].as_str().unwrap().chars().count() <= limits::DEFAULT_MAX_DESCRIPTION_CHARS);
    }
    let fallback: Vec<&str> = export.iter().filter_map(|t| t["description"].as_str()).collect();
    assert!(fallback.contains(&"Tool quiet of MCP server srv"), "{fallback:?}");
}

/// An export's tools, parsed.
fn tools(export: &Export) -> Vec<Value> {
    export.tools.iter().map(|tool| serde_json::from_str(tool.get()).unwrap_or_else(|e| panic!("{e}"))).collect()
}
