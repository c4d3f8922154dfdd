//! MCP 2026-07-28: requests that carry their own version and capabilities, discovery, result types and caching
//! hints, multi round-trip requests, subscriptions, and what the revision removed. Every frame is checked against
//! the 2026-07-28 schema.

use crate::harness::{Harness, text};
use mcp_worker_sdk::protocol::elicitation::ElicitParams;
use mcp_worker_sdk::protocol::methods;
use mcp_worker_sdk::{
    CreateMessageParams, Ctx, LoggingLevel, NoArgs, PromptDef, ResourceDef, SamplingMessage, Server, ToolDef,
};
use serde_json::{Value, json};

fn name_form() -> ElicitParams {
    let schema = json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]});
    ElicitParams::form("What is your name?", schema.as_object().cloned().unwrap_or_default())
}

fn server() -> Server {
    Server::new("modern", "2.0.0")
        .instructions("Use it well")
        .list_ttl_ms(5_000)
        .tool(ToolDef::new("hello", |_: NoArgs| async { "hello" }).description("Says hello"))
        .tool(ToolDef::new("greet", |ctx: Ctx, _: NoArgs| async move {
            let answer: mcp_worker_sdk::ElicitResult =
                ctx.request_as(Some("user_name"), methods::ELICITATION_CREATE, Some(&name_form()), None).await?;
            let name = answer.content.and_then(|c| c.get("name").cloned()).unwrap_or_default();
            Ok::<_, mcp_worker_sdk::Error>(format!("Hello, {}!", name.as_str().unwrap_or("unknown")))
        }))
        .tool(ToolDef::new("two_rounds", |ctx: Ctx, _: NoArgs| async move {
            let first = ctx.elicit(name_form()).await?;
            let second = ctx.elicit(name_form()).await?;
            Ok::<_, mcp_worker_sdk::Error>(format!("{} then {}", json!(first.content), json!(second.content)))
        }))
        .tool(ToolDef::new("all_at_once", |ctx: Ctx, _: NoArgs| async move {
            let sample = CreateMessageParams::new(vec![SamplingMessage::user("Greet")], 50);
            let (name, greeting, roots) =
                futures_util::join!(ctx.elicit(name_form()), ctx.sample(sample), ctx.list_roots());
            Ok::<_, mcp_worker_sdk::Error>(format!(
                "{} / {} / {}",
                json!(name?.content),
                greeting?.content.text().unwrap_or_default(),
                roots?.roots.len()
            ))
        }))
        .tool(ToolDef::new("needs_sampling", |ctx: Ctx, _: NoArgs| async move {
            ctx.sample(CreateMessageParams::new(vec![SamplingMessage::user("Hi")], 10)).await.map(|_| "sampled")
        }))
        .tool(ToolDef::new("chatty", |ctx: Ctx, _: NoArgs| async move {
            ctx.log(LoggingLevel::Debug, "chatty", "debug detail");
            ctx.log(LoggingLevel::Warning, "chatty", "a warning");
            "logged"
        }))
        .tool(ToolDef::new("counting", |ctx: Ctx, _: NoArgs| async move {
            ctx.progress(1.0, Some(2.0), Some("half"));
            "counted"
        }))
        .tool(ToolDef::new("add_tool", |ctx: Ctx, _: NoArgs| async move {
            ctx.server().add_tool(ToolDef::new("added", |_: NoArgs| async { "new" })).map(|()| "added")
        }))
        .resource(ResourceDef::new("test://watched", "watched", |_| async { "content" }))
        .prompt(PromptDef::new("simple", |_: NoArgs| async { "a prompt" }))
}

fn meta(capabilities: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "tests", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    })
}

fn all_capabilities() -> Value {
    json!({"elicitation": {}, "sampling": {}, "roots": {}})
}

/// A modern request: `params` with the protocol fields in `_meta` (its own `_meta` keys win).
fn modern(h: &mut Harness, id: i64, method: &str, mut params: Value, capabilities: Value) -> Value {
    let mut merged = meta(capabilities);
    if let Some(own) = params.get("_meta").and_then(Value::as_object) {
        merged.as_object_mut().unwrap().extend(own.clone());
    }
    params["_meta"] = merged;
    h.request(id, method, params)
}

fn harness() -> Harness {
    Harness::new(server()).modern()
}

#[test]
fn discover_tells_versions_capabilities_and_identity_with_caching_hints() {
    let mut h = harness();
    let answer = modern(&mut h, 1, "server/discover", json!({}), json!({}));
    let result = &answer["result"];
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["supportedVersions"][0], "2026-07-28");
    assert!(result["supportedVersions"].as_array().unwrap().iter().any(|v| v == "2025-11-25"), "{result}");
    assert_eq!(result["capabilities"]["tools"]["listChanged"], true);
    assert_eq!(result["instructions"], "Use it well");
    assert_eq!(result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "modern");
    assert_eq!((result["ttlMs"].clone(), result["cacheScope"].clone()), (json!(5_000), json!("public")));
}

#[test]
fn every_result_says_its_type_and_who_answered_and_lists_carry_caching_hints() {
    let mut h = harness();
    for (id, method) in [(1, "tools/list"), (2, "resources/list"), (3, "resources/templates/list"), (4, "prompts/list")]
    {
        let result = modern(&mut h, id, method, json!({}), json!({}))["result"].clone();
        assert_eq!((result["resultType"].clone(), result["cacheScope"].clone()), (json!("complete"), json!("public")));
        assert_eq!(result["ttlMs"], 5_000, "{method}");
        assert_eq!(result["_meta"]["io.modelcontextprotocol/serverInfo"]["version"], "2.0.0");
    }
    let read = modern(&mut h, 5, "resources/read", json!({"uri": "test://watched"}), json!({}));
    assert_eq!((read["result"]["ttlMs"].clone(), read["result"]["cacheScope"].clone()), (json!(0), json!("private")));
    let call = modern(&mut h, 6, "tools/call", json!({"name": "hello"}), json!({}));
    assert_eq!((text(&call), call["result"]["resultType"].as_str()), ("hello", Some("complete")));
    let prompt = modern(&mut h, 7, "prompts/get", json!({"name": "simple"}), json!({}));
    assert_eq!(prompt["result"]["resultType"], "complete");
}

#[test]
fn a_request_without_its_protocol_fields_or_of_an_unknown_version_is_refused() {
    let mut h = harness();
    let no_capabilities =
        h.request(1, "tools/list", json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}));
    assert_eq!(no_capabilities["error"]["code"], -32602);
    assert!(no_capabilities["error"]["message"].as_str().unwrap().contains("clientCapabilities"));
    let unknown = h.request(
        2,
        "tools/list",
        json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "v999.0.0", "io.modelcontextprotocol/clientCapabilities": {}}}),
    );
    assert_eq!(unknown["error"]["code"], -32022);
    assert_eq!(unknown["error"]["data"]["requested"], "v999.0.0");
    assert_eq!(unknown["error"]["data"]["supported"][0], "2026-07-28");
    let bad_level = modern(
        &mut h,
        3,
        "tools/call",
        json!({"name": "hello", "_meta": {"io.modelcontextprotocol/logLevel": "loud"}}),
        json!({}),
    );
    assert_eq!(bad_level["error"]["code"], -32602);
}

#[test]
fn what_the_revision_removed_is_not_found() {
    let mut h = harness();
    for (id, method) in [
        (1, "initialize"),
        (2, "ping"),
        (3, "logging/setLevel"),
        (4, "resources/subscribe"),
        (5, "resources/unsubscribe"),
    ] {
        let answer = modern(&mut h, id, method, json!({"uri": "test://watched", "level": "info"}), json!({}));
        assert_eq!(answer["error"]["code"], -32601, "{method}: {answer}");
    }
}

#[test]
fn a_server_without_resources_or_prompts_does_not_answer_their_methods_and_one_that_enables_them_does() {
    let tools_only = || Server::new("tools-only", "1.0.0").tool(ToolDef::new("hello", |_: NoArgs| async { "hello" }));
    let mut h = Harness::new(tools_only()).modern();
    for (id, method) in [(1, "resources/list"), (2, "resources/read"), (3, "prompts/list"), (4, "completion/complete")]
    {
        let answer = modern(&mut h, id, method, json!({"uri": "test://x"}), json!({}));
        assert_eq!(answer["error"]["code"], -32601, "{method}: {answer}");
    }
    // Declared ahead of resources and prompts added while it runs: their lists answer, empty, in both eras.
    let mut h = Harness::new(tools_only().enable_resources().enable_prompts()).modern();
    for (id, method, key) in [(1, "resources/list", "resources"), (2, "prompts/list", "prompts")] {
        let answer = modern(&mut h, id, method, json!({}), json!({}));
        assert_eq!(answer["result"][key], json!([]), "{method}: {answer}");
    }
    let mut h = Harness::new(tools_only().enable_resources());
    assert_eq!(h.request(1, "resources/templates/list", json!({}))["result"]["resourceTemplates"], json!([]));
    // A stream asking for resource updates of a server without resources is agreed to carry none.
    let mut h = Harness::new(tools_only()).modern();
    let mut params = json!({"notifications": {"resourceSubscriptions": ["test://x"]}});
    params["_meta"] = meta(json!({}));
    let frames = h.exchange(&crate::harness::request(5, "subscriptions/listen", params));
    assert_eq!(frames[0]["method"], "notifications/subscriptions/acknowledged", "{frames:?}");
    assert_eq!(frames[0]["params"]["notifications"], json!({}), "{frames:?}");
}

#[test]
fn a_resource_that_does_not_exist_is_invalid_params() {
    let mut h = harness();
    let answer = modern(&mut h, 1, "resources/read", json!({"uri": "test://nothing"}), json!({}));
    assert_eq!(
        (answer["error"]["code"].clone(), answer["error"]["data"]["uri"].clone()),
        (json!(-32602), json!("test://nothing"))
    );
}

#[test]
fn logs_are_sent_only_at_the_level_the_request_names() {
    let mut h = harness();
    let frames =
        h.exchange(&crate::harness::request(1, "tools/call", json!({"name": "chatty", "_meta": meta(json!({}))})));
    assert_eq!(frames.len(), 1, "no level, no logs: {frames:?}");
    let mut with_level = meta(json!({}));
    with_level["io.modelcontextprotocol/logLevel"] = json!("info");
    let frames = h.exchange(&crate::harness::request(2, "tools/call", json!({"name": "chatty", "_meta": with_level})));
    let logs: Vec<&Value> = frames.iter().filter(|f| f["method"] == "notifications/message").collect();
    assert_eq!(logs.len(), 1, "{frames:?}");
    assert_eq!(logs[0]["params"]["data"], "a warning");
}

#[test]
fn progress_goes_to_the_token_the_request_names_in_its_meta() {
    let mut h = harness();
    let mut with_token = meta(json!({}));
    with_token["progressToken"] = json!("tok-7");
    let frames =
        h.exchange(&crate::harness::request(1, "tools/call", json!({"name": "counting", "_meta": with_token})));
    let progress: Vec<&Value> = frames.iter().filter(|f| f["method"] == "notifications/progress").collect();
    assert_eq!(progress.len(), 1, "{frames:?}");
    assert_eq!(progress[0]["params"]["progressToken"], "tok-7");
    assert_eq!(
        (progress[0]["params"]["progress"].clone(), progress[0]["params"]["total"].clone()),
        (json!(1.0), json!(2.0))
    );
    let frames =
        h.exchange(&crate::harness::request(2, "tools/call", json!({"name": "counting", "_meta": meta(json!({}))})));
    assert_eq!(frames.len(), 1, "no token, no progress: {frames:?}");
}

#[test]
fn a_question_comes_back_as_input_required_and_the_retry_completes() {
    let mut h = harness();
    let first = modern(&mut h, 1, "tools/call", json!({"name": "greet", "arguments": {}}), all_capabilities());
    let result = &first["result"];
    assert_eq!(result["resultType"], "input_required");
    assert_eq!(result["inputRequests"]["user_name"]["method"], "elicitation/create");
    assert_eq!(result["inputRequests"]["user_name"]["params"]["message"], "What is your name?");
    let state = result["requestState"].as_str().expect("a sealed state").to_owned();

    let answer = json!({"user_name": {"action": "accept", "content": {"name": "Alice"}}});
    let retry = json!({"name": "greet", "arguments": {}, "inputResponses": answer, "requestState": state});
    let second = modern(&mut h, 2, "tools/call", retry, all_capabilities());
    assert_eq!((text(&second), second["result"]["resultType"].as_str()), ("Hello, Alice!", Some("complete")));

    // Extra answers are ignored; answers without a state are fine on a first call.
    let extra = json!({"user_name": {"action": "accept", "content": {"name": "Bo"}}, "other": {"action": "decline"}});
    let third = modern(&mut h, 3, "tools/call", json!({"name": "greet", "inputResponses": extra}), all_capabilities());
    assert_eq!(text(&third), "Hello, Bo!");
}

#[test]
fn later_rounds_keep_earlier_answers_in_a_fresh_state() {
    let mut h = harness();
    let first = modern(&mut h, 1, "tools/call", json!({"name": "two_rounds"}), all_capabilities());
    let state1 = first["result"]["requestState"].clone();
    assert!(first["result"]["inputRequests"]["elicitation-0"].is_object(), "{first}");
    let second = modern(
        &mut h,
        2,
        "tools/call",
        json!({"name": "two_rounds", "requestState": state1, "inputResponses": {"elicitation-0": {"action": "accept", "content": {"name": "A"}}}}),
        all_capabilities(),
    );
    assert_eq!(second["result"]["resultType"], "input_required");
    assert!(second["result"]["inputRequests"]["elicitation-1"].is_object(), "{second}");
    assert_ne!(second["result"]["requestState"], state1);
    let third = modern(
        &mut h,
        3,
        "tools/call",
        json!({"name": "two_rounds", "requestState": second["result"]["requestState"],
               "inputResponses": {"elicitation-1": {"action": "accept", "content": {"name": "B"}}}}),
        all_capabilities(),
    );
    assert_eq!(text(&third), r#"{"name":"A"} then {"name":"B"}"#);
}

#[test]
fn questions_asked_together_are_asked_in_one_result() {
    let mut h = harness();
    let first = modern(&mut h, 1, "tools/call", json!({"name": "all_at_once"}), all_capabilities());
    let questions = first["result"]["inputRequests"].as_object().unwrap();
    let mut methods: Vec<&str> = questions.values().map(|q| q["method"].as_str().unwrap()).collect();
    methods.sort_unstable();
    assert_eq!(methods, ["elicitation/create", "roots/list", "sampling/createMessage"]);
    let answers = json!({
        "elicitation-0": {"action": "accept", "content": {"name": "Alice"}},
        "sampling-1": {"role": "assistant", "content": {"type": "text", "text": "Hi!"}, "model": "m", "stopReason": "endTurn"},
        "roots-2": {"roots": [{"uri": "file:///r", "name": "r"}]},
    });
    let retry =
        json!({"name": "all_at_once", "inputResponses": answers, "requestState": first["result"]["requestState"]});
    let second = modern(&mut h, 2, "tools/call", retry, all_capabilities());
    assert_eq!(text(&second), r#"{"name":"Alice"} / Hi! / 1"#);
}

#[test]
fn an_altered_state_or_an_answer_of_the_wrong_shape_is_an_error() {
    let mut h = harness();
    let first = modern(&mut h, 1, "tools/call", json!({"name": "greet"}), all_capabilities());
    let tampered = format!("{}-TAMPERED", first["result"]["requestState"].as_str().unwrap());
    let answer = json!({"user_name": {"action": "accept", "content": {"name": "Alice"}}});
    let retry = modern(
        &mut h,
        2,
        "tools/call",
        json!({"name": "greet", "inputResponses": answer, "requestState": tampered}),
        all_capabilities(),
    );
    assert_eq!(retry["error"]["code"], -32602, "{retry}");
    let wrong_shape = modern(
        &mut h,
        3,
        "tools/call",
        json!({"name": "greet", "inputResponses": {"user_name": 12345}}),
        all_capabilities(),
    );
    assert_eq!(wrong_shape["error"]["code"], -32602, "{wrong_shape}");
}

#[test]
fn a_tool_that_asks_nothing_reads_no_state() {
    // The state and answers a request carries are read at its handler's first question: a handler that asks
    // nothing has no use for them, whatever they hold.
    let mut h = harness();
    let params = json!({"name": "hello", "requestState": "not-a-state", "inputResponses": {"x": 1}});
    let answer = modern(&mut h, 1, "tools/call", params, all_capabilities());
    assert_eq!(text(&answer), "hello", "{answer}");
    assert_eq!(answer["result"]["resultType"], "complete", "{answer}");
}

#[test]
fn a_question_the_client_cannot_answer_fails_the_request_with_32021() {
    let mut h = harness();
    let answer = modern(&mut h, 1, "tools/call", json!({"name": "needs_sampling"}), json!({"elicitation": {}}));
    assert_eq!(answer["error"]["code"], -32021, "{answer}");
    assert_eq!(answer["error"]["data"]["requiredCapabilities"], json!({"sampling": {}}));
}

#[test]
fn listen_acknowledges_what_it_carries_and_tags_each_notification() {
    let mut h = harness();
    let mut params = json!({"notifications": {"toolsListChanged": true, "resourceSubscriptions": ["test://watched", "test://unknown"]}});
    params["_meta"] = meta(json!({}));
    let frames = h.exchange(&crate::harness::request(40, "subscriptions/listen", params));
    assert_eq!(frames.len(), 1, "only the acknowledgement: {frames:?}");
    assert_eq!(frames[0]["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(frames[0]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 40);
    assert_eq!(
        frames[0]["params"]["notifications"],
        json!({"toolsListChanged": true, "resourceSubscriptions": ["test://watched"]}),
        "unknown resources are not agreed to"
    );

    // A prompts-only stream hears nothing of tools.
    let mut prompts_only = json!({"notifications": {"promptsListChanged": true}});
    prompts_only["_meta"] = meta(json!({}));
    assert_eq!(h.exchange(&crate::harness::request(41, "subscriptions/listen", prompts_only)).len(), 1);

    let frames =
        h.exchange(&crate::harness::request(1, "tools/call", json!({"name": "add_tool", "_meta": meta(json!({}))})));
    let changed: Vec<&Value> = frames.iter().filter(|f| f["method"] == "notifications/tools/list_changed").collect();
    assert_eq!(changed.len(), 1, "{frames:?}");
    assert_eq!(changed[0]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 40);
    assert!(h.session.server().resource_updated("test://watched"));
    let updated = h.drain();
    assert_eq!(updated.len(), 1);
    assert_eq!(
        (
            updated[0]["params"]["uri"].clone(),
            updated[0]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"].clone()
        ),
        (json!("test://watched"), json!(40))
    );

    // Cancelled, the stream is gone and nothing else answers it.
    assert!(h.exchange(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":40}}"#).is_empty());
    assert!(!h.session.server().resource_updated("test://watched"));
    assert!(h.drain().is_empty());
}

#[test]
fn a_session_of_the_modern_era_sends_no_log_that_is_not_a_request_s() {
    let mut h = harness();
    modern(&mut h, 1, "tools/list", json!({}), json!({}));
    h.session.server().log(LoggingLevel::Error, "server", "nobody asked");
    assert!(h.drain().is_empty());
}

#[test]
fn one_session_serves_both_eras() {
    let mut h = Harness::new(server());
    h.initialize(json!({}));
    let legacy = h.request(1, "tools/call", json!({"name": "hello"}));
    assert!(legacy["result"].get("resultType").is_none(), "{legacy}");
    assert_eq!(h.request(2, "ping", json!({}))["result"], json!({}));
}
