use super::*;
use crate::registry::ToolError;
use crate::test_support::Clients;
use futures_executor::LocalPool;
use mcp_worker_protocol::{CallToolResult, ContentBlock, JsonObject, ResourceContents, Tool, ToolAnnotations};
use mcp_worker_sdk::{Json, NoArgs, Server, ToolDef};
use serde::Deserialize;
use std::cell::RefCell;

#[derive(Deserialize, schemars::JsonSchema)]
struct Text {
    text: String,
}

/// A server with the shapes of result a tool system must handle.
fn server() -> Server {
    let gate: Rc<RefCell<Option<futures_channel::oneshot::Sender<()>>>> = Rc::new(RefCell::new(None));
    let (opener, waiter) = (gate.clone(), gate);
    Server::new("kit", "1")
        .tool(ToolDef::new("echo", |a: Text| async move { a.text }).read_only())
        .tool(ToolDef::new("fail", |_: NoArgs| async { CallToolResult::error("disk is full") }).read_only())
        .tool(
            ToolDef::new("media", |_: NoArgs| async {
                vec![
                    ContentBlock::text("a picture"),
                    ContentBlock::image("iVBORw0KGgo=", "image/png"),
                    ContentBlock::audio("UklGRg==", "audio/wav"),
                    ContentBlock::embedded(ResourceContents::text("file:///a.txt", Some("text/plain"), "hello")),
                ]
            })
            .read_only(),
        )
        .tool(ToolDef::new("sum", |_: NoArgs| async { Json(Sum { sum: 3.0 }) }).read_only())
        .tool(
            ToolDef::new("numbers", |_: NoArgs| async {
                let text = format!("the numbers {NUMBERS}");
                let mut result = CallToolResult::text(text);
                result.structured_content = serde_json::from_str(NUMBERS).ok();
                result
            })
            .read_only(),
        )
        // `wait` finishes only after `open` ran: a batch with both completes only if calls run concurrently.
        .tool(
            ToolDef::new("wait", move |_: NoArgs| {
                let (tx, rx) = futures_channel::oneshot::channel();
                *waiter.borrow_mut() = Some(tx);
                async move {
                    let _ = rx.await;
                    "waited"
                }
            })
            .read_only(),
        )
        .tool(
            ToolDef::new("open", move |_: NoArgs| {
                let tx = opener.borrow_mut().take();
                async move {
                    if let Some(tx) = tx {
                        let _ = tx.send(());
                    }
                    "opened"
                }
            })
            .read_only(),
        )
}

/// Numbers that a float parser without exact rounding changes (0.9144 became 0.9144000000000001; `long` and
/// `pixel` read one bit off without serde_json's `float_roundtrip`), and one past what a double holds exactly.
const NUMBERS: &str = r#"{"yard":0.9144,"tiny":1e-7,"huge":1e300,"big":9007199254740993,"negative":-0.30000000000000004,"long":117.63331139400017,"pixel":0.9215686321258545}"#;

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Sum {
    sum: f64,
}

struct Rig {
    pool: LocalPool,
    clients: Rc<Clients>,
    registry: Rc<ToolRegistry>,
    system: ToolSystem,
    observed: Rc<RefCell<Vec<ExecutionEvent>>>,
}

fn rig() -> Rig {
    let mut pool = LocalPool::new();
    let clients = Rc::new(Clients::default());
    let client = clients.start(&mut pool, "kit", server());
    let tools = pool.run_until(client.list_tools()).unwrap();
    let registry = Rc::new(ToolRegistry::new());
    let outcome = registry.replace_server_tools("kit", tools, false);
    assert!(outcome.rejected.is_empty());
    registry.set_thread_tools("t", ["mcp__kit__*"]);
    let system = ToolSystem::new(registry.clone(), clients.clone(), Rc::new(|| 0.0));
    let observed = Rc::new(RefCell::new(Vec::new()));
    let log = observed.clone();
    system.subscribe(Rc::new(move |event: &ExecutionEvent| log.borrow_mut().push(event.clone())));
    Rig { pool, clients, registry, system, observed }
}

impl Rig {
    fn run(&mut self, calls: Vec<ParsedToolCall>) -> Vec<ToolResult> {
        self.pool.run_until(self.system.execute_tools(calls, "t", &ExecuteOptions::default().trace("trace-1")))
    }

    fn one(&mut self, tool: &str, arguments: Value) -> ToolResult {
        self.run(vec![ParsedToolCall::new("c1", tool, arguments)]).remove(0)
    }
}

#[test]
fn results_keep_the_llms_call_ids_and_the_call_order() {
    let mut rig = rig();
    let calls =
        (0..20).map(|i| ParsedToolCall::new(format!("call_{i}"), "mcp__kit__echo", json!({"text": format!("m{i}")})));
    let results = rig.run(calls.collect());
    assert_eq!(results.len(), 20, "one result per call");
    for (i, result) in results.iter().enumerate() {
        assert_eq!(result.call_id, format!("call_{i}"));
        assert_eq!(result.tool_name, "mcp__kit__echo");
        assert_eq!(result.status, ToolStatus::Success);
        assert_eq!(result.output.as_ref().unwrap()["content"][0]["text"], format!("m{i}"));
        assert_eq!(result.metadata["server"], "kit");
        assert_eq!(result.metadata["tool"], "echo");
    }
}

#[test]
fn independent_calls_run_concurrently() {
    let mut rig = rig();
    let batch = vec![
        ParsedToolCall::new("a", "mcp__kit__wait", json!({})),
        ParsedToolCall::new("b", "mcp__kit__open", json!({})),
    ];
    let results = rig.run(batch);
    assert_eq!(results.len(), 2, "one result per call");
    assert_eq!(results[0].output.as_ref().unwrap()["content"][0]["text"], "waited");
    assert_eq!(results[1].output.as_ref().unwrap()["content"][0]["text"], "opened");
}

#[test]
fn calls_that_fail_a_check_get_an_error_the_model_can_act_on_and_reach_no_server() {
    let mut rig = rig();
    let unknown = rig.one("mcp__kit__nope", json!({}));
    assert_eq!(unknown.error.as_deref(), Some("Unknown tool mcp__kit__nope. Use one of the tools you were given."));
    assert_eq!(unknown.metadata["errorCode"], "UNKNOWN_TOOL");
    let finished = rig.observed.borrow().iter().find_map(|event| match event {
        ExecutionEvent::Finished(finished) => finished.error_code.clone(),
        _ => None,
    });
    assert_eq!(finished.as_deref(), Some("UNKNOWN_TOOL"), "the toolExecutionFinished event carries the code");

    let invalid = rig.one("mcp__kit__echo", json!({"text": 5, "extra": true}));
    assert_eq!(invalid.status, ToolStatus::Error);
    let message = invalid.error.unwrap();
    assert!(
        message.starts_with("Invalid arguments for tool mcp__kit__echo: /text: expected string, got number 5"),
        "{message}"
    );
    assert!(message.ends_with("Fix the arguments and call the tool again."), "{message}");
    assert_eq!(invalid.metadata["errorCode"], "INVALID_ARGUMENTS");

    let not_json = rig.one("mcp__kit__echo", json!("{oops"));
    assert_eq!(not_json.metadata["errorCode"], "INVALID_ARGUMENTS");
    assert!(not_json.error.unwrap().contains("not valid JSON"));

    let other_thread = rig.pool.run_until(rig.system.execute_tools(
        vec![ParsedToolCall::new("x", "mcp__kit__echo", json!({"text": "hi"}))],
        "unconfigured-thread",
        &ExecuteOptions::default(),
    ));
    assert_eq!(other_thread[0].error.as_deref(), Some("Tool mcp__kit__echo is not enabled for this conversation."));
    assert_eq!(other_thread[0].metadata["errorCode"], "TOOL_NOT_ENABLED");
    assert_eq!(rig.clients.calls.get(), 0, "no server was called");
}

#[test]
fn hidden_destructive_tools_cannot_be_called_even_when_enabled() {
    let mut rig = rig();
    let mut tool = Tool::new("wipe", JsonObject::new());
    tool.annotations = Some(ToolAnnotations { read_only_hint: Some(true), ..Default::default() });
    rig.registry.replace_server_tools("other", vec![tool], false);
    rig.registry.enable_for_thread("t", ["mcp__other__wipe"]);
    let result = rig.one("mcp__other__wipe", json!({}));
    assert!(result.error.unwrap().contains("may be destructive"));
    assert_eq!(result.metadata["errorCode"], "TOOL_HIDDEN");
    assert_eq!(rig.clients.calls.get(), 0);
}

#[test]
fn arguments_as_json_text_and_null_are_accepted() {
    let mut rig = rig();
    let result = rig.one("mcp__kit__echo", json!("{\"text\": \"from a string\"}"));
    assert_eq!(result.output.unwrap()["content"][0]["text"], "from a string");
    assert!(rig.one("mcp__kit__fail", Value::Null).output.is_some(), "null means no arguments");
}

#[test]
fn an_is_error_result_is_an_error_with_the_tools_text() {
    let mut rig = rig();
    let result = rig.one("mcp__kit__fail", json!({}));
    assert_eq!(result.status, ToolStatus::Error);
    assert_eq!(result.error.as_deref(), Some("disk is full"));
    assert_eq!(result.metadata["errorCode"], "TOOL_FAILED", "a server's failure carries the code a native one does");
    assert_eq!(result.output.unwrap()["content"][0]["text"], "disk is full", "the content is kept");
}

#[test]
fn images_audio_and_resources_are_kept_in_the_output() {
    let mut rig = rig();
    let output = rig.one("mcp__kit__media", json!({})).output.unwrap();
    let kinds: Vec<&str> = output["content"].as_array().unwrap().iter().map(|b| b["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["text", "image", "audio", "resource"]);
    assert_eq!(output["content"][1]["data"], "iVBORw0KGgo=");
    assert_eq!(output["content"][3]["resource"]["text"], "hello");
}

#[test]
fn the_host_and_the_sdk_word_the_same_mistake_alike() {
    let mut rig = rig();
    let mut sdk = mcp_worker_sdk::testing::TestClient::new(server());
    for wrong in [json!({"text": 5}), json!({}), json!({"text": true})] {
        let by_host = rig.one("mcp__kit__echo", wrong.clone()).error.unwrap();
        let by_sdk = sdk.error("echo", wrong.clone());
        let problems = |message: &str, tool: &str| {
            message.strip_prefix(&format!("Invalid arguments for tool {tool}: ")).map(str::to_owned)
        };
        assert_eq!(problems(&by_host, "mcp__kit__echo"), problems(&by_sdk, "echo"), "{wrong}: {by_host} / {by_sdk}");
        assert!(!by_sdk.contains("line 1"), "{by_sdk}");
    }
}

#[test]
fn numbers_pass_through_exactly_as_the_server_wrote_them() {
    let mut rig = rig();
    let output = rig.one("mcp__kit__numbers", json!({})).output.unwrap();
    let numbers = &output["structuredContent"];
    for (key, written) in [
        ("yard", "0.9144"),
        ("tiny", "1e-7"),
        ("huge", "1e300"),
        ("negative", "-0.30000000000000004"),
        ("long", "117.63331139400017"),
        ("pixel", "0.9215686321258545"),
    ] {
        assert_eq!(numbers[key].as_f64(), written.parse::<f64>().ok(), "{key}");
    }
    assert_eq!(numbers["big"].as_u64(), Some(9_007_199_254_740_993));
}

#[test]
fn structured_content_is_checked_against_the_output_schema() {
    let mut rig = rig();
    let ok = rig.one("mcp__kit__sum", json!({}));
    assert_eq!(ok.status, ToolStatus::Success);
    assert_eq!(ok.output.unwrap()["structuredContent"], json!({"sum": 3.0}));

    // The same tool, registered with an output schema its results do not match.
    let mut liar = (*rig.registry.get("mcp__kit__sum").unwrap().definition).clone();
    liar.output_schema = Some(json!({"type": "object", "required": ["total"]}).as_object().cloned().unwrap().into());
    rig.registry.unregister("mcp__kit__sum");
    rig.registry.replace_server_tools("kit", vec![liar], false);
    let bad = rig.one("mcp__kit__sum", json!({}));
    assert_eq!(bad.status, ToolStatus::Error);
    assert_eq!(bad.metadata["errorCode"], "INVALID_OUTPUT");
    assert!(bad.error.unwrap().contains("missing required property \"total\""));
}

/// Thirty definitions, each checking the next one twice with `allOf`: 2^30 checks of any value.
fn exponential_schema() -> JsonObject {
    let mut defs = JsonObject::new();
    for i in 0..30 {
        let next = format!("#/$defs/d{}", i + 1);
        defs.insert(format!("d{i}"), json!({"allOf": [{"$ref": next}, {"$ref": next}]}));
    }
    defs.insert("d30".into(), json!({"type": "object"}));
    json!({"$defs": defs, "$ref": "#/$defs/d0"}).as_object().cloned().unwrap()
}

#[test]
fn a_schema_too_costly_to_check_refuses_the_call_and_says_why() {
    let mut rig = rig();
    let mut tool = Tool::new("deep", exponential_schema());
    tool.annotations = Some(ToolAnnotations { read_only_hint: Some(true), ..Default::default() });
    rig.registry.replace_server_tools("other", vec![tool], false);
    rig.registry.enable_for_thread("t", ["mcp__other__deep"]);
    let result = rig.one("mcp__other__deep", json!({}));
    assert_eq!(result.status, ToolStatus::Error);
    assert_eq!(
        result.error.as_deref(),
        Some(
            "Tool mcp__other__deep cannot be called: its input schema (from server other) is too costly to check \
             (over 1000000 steps); the call was not sent. Use another tool if one fits."
        )
    );
    assert_eq!(rig.clients.calls.get(), 0, "no server was called");

    // The budget is the application's: a tiny one refuses even an ordinary schema.
    let options = ExecuteOptions::default().schema_limits(SchemaLimits::default().steps(5));
    let call = ParsedToolCall::new("c2", "mcp__kit__echo", json!({"text": "hi"}));
    let refused = rig.pool.run_until(rig.system.execute_tools(vec![call], "t", &options));
    assert!(refused[0].error.as_deref().unwrap().contains("(over 5 steps); the call was not sent"));
}

#[test]
fn a_result_whose_output_schema_is_too_costly_to_check_is_an_error() {
    let mut rig = rig();
    let mut costly = (*rig.registry.get("mcp__kit__sum").unwrap().definition).clone();
    costly.output_schema = Some(exponential_schema().into());
    rig.registry.unregister("mcp__kit__sum");
    rig.registry.replace_server_tools("kit", vec![costly], false);
    let result = rig.one("mcp__kit__sum", json!({}));
    assert_eq!(result.status, ToolStatus::Error);
    assert_eq!(
        result.error.as_deref(),
        Some(
            "tool mcp__kit__sum returned structured content that cannot be checked: its output schema is too costly \
             to check (over 1000000 steps)"
        )
    );
}

#[test]
fn host_errors_name_the_server_and_carry_a_code() {
    let mut rig = rig();
    rig.clients.clients.borrow().get("kit").unwrap().close();
    let result = rig.one("mcp__kit__echo", json!({"text": "x"}));
    assert_eq!(result.status, ToolStatus::Error);
    assert_eq!(result.metadata["errorCode"], "CLOSED");
    assert!(result.error.unwrap().starts_with("server kit:"));
}

#[test]
fn native_tools_run_in_the_page_with_the_same_checks() {
    let mut rig = rig();
    let mut weather = Tool::new(
        "weather",
        json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]})
            .as_object()
            .cloned()
            .unwrap(),
    );
    weather.output_schema = json!({"type": "object", "required": ["celsius"]}).as_object().cloned().map(Into::into);
    let executor: Rc<dyn crate::registry::NativeTool> = Rc::new(|args: Value, ctx: ExecutionContext| async move {
        match args["city"].as_str() {
            Some("Nowhere") => Err(ToolError::new("no such city")),
            Some("Bad") => Ok(json!({"fahrenheit": 1})),
            _ => Ok(json!({"celsius": 21, "thread": ctx.thread_id, "call": ctx.call_id})),
        }
    });
    rig.registry.register_native(weather, executor, true).unwrap();
    rig.registry.enable_for_thread("t", ["weather"]);
    let ok = rig.one("weather", json!({"city": "Paris"}));
    assert_eq!(ok.output.unwrap(), json!({"celsius": 21, "thread": "t", "call": "c1"}));
    assert_eq!(ok.metadata["source"], "native");
    let failed = rig.one("weather", json!({"city": "Nowhere"}));
    assert_eq!((failed.error.as_deref(), &failed.metadata["errorCode"]), (Some("no such city"), &json!("TOOL_FAILED")));
    let bad = rig.one("weather", json!({"city": "Bad"}));
    assert!(bad.error.unwrap().contains("output schema"));
    assert_eq!(bad.metadata["errorCode"], "INVALID_OUTPUT");
    assert!(rig.one("weather", json!({})).error.unwrap().contains("missing required property \"city\""));
}

#[test]
fn every_execution_is_reported_as_it_starts_and_as_it_finishes() {
    let mut rig = rig();
    rig.run(vec![
        ParsedToolCall::new("a", "mcp__kit__echo", json!({"text": "x"})),
        ParsedToolCall::new("b", "mcp__kit__nope", json!({})),
    ]);
    let observed = rig.observed.borrow();
    assert_eq!(observed.len(), 4, "two starts, two ends: {observed:?}");
    let ExecutionEvent::Started(first) = &observed[0] else { panic!("{:?}", observed[0]) };
    assert_eq!(
        (first.call_id.as_str(), first.server.as_deref(), first.tool.as_deref()),
        ("a", Some("kit"), Some("echo"))
    );
    assert_eq!(
        (first.origin, first.thread_id.as_str(), first.trace_id.as_deref()),
        (Some(ToolOrigin::Mcp), "t", Some("trace-1"))
    );
    let ExecutionEvent::Started(second) = &observed[1] else { panic!("{:?}", observed[1]) };
    assert_eq!((second.call_id.as_str(), second.origin), ("b", None), "an unknown tool has no origin");
    // Finished as each call finishes: the refused call first.
    let ExecutionEvent::Finished(refused) = &observed[2] else { panic!("{:?}", observed[2]) };
    assert_eq!((refused.call.call_id.as_str(), refused.status), ("b", ToolStatus::Error));
    assert!(refused.error.as_deref().is_some_and(|e| e.starts_with("Unknown tool")));
    assert_eq!(refused.output, OutputSummary::default());
    let ExecutionEvent::Finished(done) = &observed[3] else { panic!("{:?}", observed[3]) };
    assert_eq!((done.call.call_id.as_str(), done.status), ("a", ToolStatus::Success));
    assert_eq!(done.output.content, [ContentSummary { kind: "text".into(), bytes: 1 }], "kinds and sizes, no text");
    let json = serde_json::to_value(done).unwrap();
    assert_eq!(json["callId"], "a");
    assert_eq!(json["source"], "mcp");
    assert_eq!(json["status"], "success");
    assert!(json["durationMs"].is_number());
    assert!(json.get("result").is_none() && json.get("output").is_some_and(|o| o.get("content").is_some()));
}

#[test]
fn a_batch_can_carry_its_own_enablement_and_stores_none_of_it() {
    let mut rig = rig();
    let call = || vec![ParsedToolCall::new("x", "mcp__kit__echo", json!({"text": "hi"}))];
    let options = ExecuteOptions::default().enabled_tools(["mcp__kit__ech*"]);
    let allowed = rig.pool.run_until(rig.system.execute_tools(call(), "elsewhere", &options));
    assert_eq!(allowed[0].status, ToolStatus::Success, "{:?}", allowed[0].error);
    assert_eq!(rig.registry.enablement().enabled("elsewhere"), None, "nothing stored for the thread");
    let options = ExecuteOptions::default().enabled_tools(["mcp__kit__wait"]);
    let refused = rig.pool.run_until(rig.system.execute_tools(call(), "t", &options));
    assert_eq!(refused[0].error.as_deref(), Some("Tool mcp__kit__echo is not enabled for this conversation."));
}

#[test]
fn the_raw_result_is_included_when_asked() {
    let mut rig = rig();
    let options = ExecuteOptions { include_raw_result: true, ..ExecuteOptions::default() };
    let calls = vec![ParsedToolCall::new("a", "mcp__kit__fail", json!({}))];
    let results = rig.pool.run_until(rig.system.execute_tools(calls, "t", &options));
    assert_eq!(results[0].metadata["rawResult"]["isError"], true);
}

#[test]
fn results_serialize_in_arts_shape() {
    let mut rig = rig();
    let result = serde_json::to_value(rig.one("mcp__kit__fail", json!({}))).unwrap();
    assert_eq!(result["callId"], "c1");
    assert_eq!(result["toolName"], "mcp__kit__fail");
    assert_eq!(result["status"], "error");
    assert_eq!(result["error"], "disk is full");
    let call: ParsedToolCall = serde_json::from_value(json!({"callId": "x", "toolName": "y"})).unwrap();
    assert_eq!(call.arguments, Value::Null);
}
