//! Lifecycle, tools, errors, concurrency and cancellation.

use crate::harness::{Harness, call, request, text};
use futures_channel::oneshot;
use mcp_worker_sdk::protocol::version;
use mcp_worker_sdk::{Ctx, Env, Json, NoArgs, Server, ToolDef};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::rc::Rc;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Echo {
    text: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Add {
    a: f64,
    b: f64,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Sum {
    sum: f64,
}

pub(crate) fn echo_server() -> Server {
    Server::new("test", "1.0")
        .instructions("use echo")
        .tool(ToolDef::new("echo", |a: Echo| async move { a.text }).description("echoes"))
        .tool(ToolDef::new("add", |a: Add| async move { Json(Sum { sum: a.a + a.b }) }))
        .tool(ToolDef::new("fail", |_: NoArgs| async { Err::<String, _>("it broke") }))
        .tool(ToolDef::new("progress", |ctx: Ctx, _: NoArgs| async move {
            ctx.progress(1.0, Some(2.0), Some("half"));
            ctx.progress(1.0, Some(2.0), None);
            ctx.progress(2.0, Some(2.0), None);
            "done"
        }))
}

#[test]
fn initialize_negotiates_the_version_and_describes_the_server() {
    let mut h = Harness::new(echo_server());
    let r = h.one(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#);
    assert_eq!(r["id"], 1);
    assert_eq!(r["result"]["protocolVersion"], "2025-06-18");
    assert_eq!(r["result"]["serverInfo"]["name"], "test");
    assert_eq!(r["result"]["instructions"], "use echo");
    let caps = &r["result"]["capabilities"];
    assert_eq!(caps["tools"], json!({"listChanged": true}));
    assert_eq!(caps["logging"], json!({}));
    assert!(caps.get("resources").is_none() && caps.get("prompts").is_none(), "nothing to offer: {caps}");
    assert!(caps.get("completions").is_none(), "{caps}");

    let r = h.one(r#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2099-01-01","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#);
    assert_eq!(r["result"]["protocolVersion"], version::LATEST_PROTOCOL_VERSION);

    assert!(h.exchange(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).is_empty());
    assert!(h.session.is_initialized());
}

#[test]
fn initialize_needs_client_info_but_not_the_shape_of_it() {
    let mut h = Harness::new(echo_server());
    let r = h.one(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}"#,
    );
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert!(r["error"]["message"].as_str().is_some_and(|m| m.contains("clientInfo")), "{r}");
    // What the client says of itself no handler reads: a client with an unusual name is served.
    let r = h.one(r#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":7,"icons":"none"}}}"#);
    assert_eq!(r["result"]["protocolVersion"], "2025-11-25", "{r}");
}

#[test]
fn initialize_without_params_is_invalid_params() {
    let mut h = Harness::new(echo_server());
    let r = h.one(r#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#);
    assert_eq!(r["error"]["code"], -32602);
}

#[test]
fn ping_answers_an_empty_object() {
    let mut h = Harness::new(echo_server());
    assert_eq!(h.one(r#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#), json!({"jsonrpc":"2.0","id":"p","result":{}}));
}

/// Every page of a list method, following `nextCursor`; each item's `key`.
pub(crate) fn page_through(h: &mut Harness, method: &str, list: &str, key: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut cursor: Option<String> = None;
    for id in 1000.. {
        let params = cursor.as_ref().map_or(json!({}), |c| json!({"cursor": c}));
        let r = h.request(id, method, params);
        for item in r["result"][list].as_array().unwrap() {
            names.push(item[key].as_str().unwrap().to_owned());
        }
        match r["result"]["nextCursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    let bad = h.request(99, method, json!({"cursor": "bogus"}));
    assert_eq!(bad["error"]["code"], -32602, "a forged cursor");
    names
}

#[test]
fn tools_list_pages_through_every_tool() {
    let mut server = Server::new("many", "1").page_size(7);
    for i in 0..30 {
        server = server.tool(ToolDef::new(format!("t{i}"), |_: NoArgs| async { "" }));
    }
    let mut h = Harness::new(server);
    let names = page_through(&mut h, "tools/list", "tools", "name");
    assert_eq!(names, (0..30).map(|i| format!("t{i}")).collect::<Vec<_>>());
}

#[test]
fn tools_list_shows_schemas_from_the_argument_and_result_types() {
    let mut h = Harness::new(echo_server());
    let r = h.request(1, "tools/list", json!({}));
    let echo = &r["result"]["tools"][0];
    assert_eq!(echo["name"], "echo");
    assert_eq!(echo["description"], "echoes");
    assert_eq!(echo["inputSchema"]["type"], "object");
    assert_eq!(echo["inputSchema"]["required"], json!(["text"]));
    assert!(echo.get("outputSchema").is_none(), "text results have no output schema");
    let add = &r["result"]["tools"][1];
    assert_eq!(add["outputSchema"]["type"], "object");
    assert_eq!(add["outputSchema"]["properties"]["sum"], json!({"type": "number"}));
    assert_eq!(add["outputSchema"]["required"], json!(["sum"]));
}

#[test]
fn tools_call_returns_the_tool_result() {
    let mut h = Harness::new(echo_server());
    let r = h.one(&call(5, "echo", json!({"text": "hello"})));
    assert_eq!(r, json!({"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"hello"}]}}));
    let r = h.one(&call(6, "add", json!({"a": 2, "b": 3.5})));
    assert_eq!(r["result"]["structuredContent"], json!({"sum": 5.5}));
    assert_eq!(text(&r), r#"{"sum":5.5}"#, "structured content is also text, for older clients");
}

#[test]
fn an_unknown_tool_is_invalid_params() {
    let mut h = Harness::new(echo_server());
    let r = h.one(&call(1, "nope", json!({})));
    assert_eq!(r["error"]["code"], -32602);
    assert!(r["error"]["message"].as_str().unwrap().contains("nope"));
}

#[test]
fn arguments_that_do_not_fit_are_an_error_result_naming_the_field() {
    let mut h = Harness::new(echo_server());
    let r = h.one(&call(1, "add", json!({"a": 1, "b": "two"})));
    assert_eq!(r["result"]["isError"], true);
    // The host's wording: the tool, a JSON pointer, no position in JSON text the caller never wrote.
    assert_eq!(
        text(&r),
        "Invalid arguments for tool add: /b: expected number, got string \"two\". \
         Fix the arguments and call the tool again."
    );
    let r = h.one(&call(2, "echo", json!({})));
    assert!(text(&r).starts_with("Invalid arguments for tool echo: missing required property \"text\"."), "{r}");
}

#[test]
fn arguments_given_as_an_array_of_values_are_refused_not_read_in_field_order() {
    let mut h = Harness::new(echo_server());
    let r = h.one(&call(1, "add", json!([2, 3])));
    assert!(r["result"]["structuredContent"].is_null(), "the array was read as {{a, b}}: {r}");
    assert!(r["result"]["isError"] == true || r["error"]["code"] == -32602, "{r}");
}

#[test]
fn a_handler_error_is_an_error_result() {
    let mut h = Harness::new(echo_server());
    let r = h.one(&call(1, "fail", json!({})));
    assert_eq!(r["result"], json!({"content":[{"type":"text","text":"it broke"}],"isError":true}));
}

#[test]
fn progress_is_sent_against_the_callers_token_and_only_increases() {
    let mut h = Harness::new(echo_server());
    let frames = h.exchange(&request(1, "tools/call", json!({"name":"progress","_meta":{"progressToken":"tok"}})));
    assert_eq!(frames.len(), 3, "{frames:?}");
    assert_eq!(frames[0]["method"], "notifications/progress");
    assert_eq!(frames[0]["params"], json!({"progressToken":"tok","progress":1.0,"total":2.0,"message":"half"}));
    assert_eq!(frames[1]["params"]["progress"], 2.0);
    assert_eq!(frames[2]["id"], 1);
    // Without a token, no progress is sent.
    assert_eq!(h.exchange(&call(2, "progress", json!({}))).len(), 1);
}

#[test]
fn unknown_methods_are_method_not_found() {
    let mut h = Harness::new(echo_server());
    let r = h.one(r#"{"jsonrpc":"2.0","id":1,"method":"resources/teleport"}"#);
    assert_eq!(r["error"]["code"], -32601);
    // A server without resources or prompts does not answer their methods either.
    for (id, method) in [(2, "resources/list"), (3, "prompts/get"), (4, "completion/complete")] {
        assert_eq!(h.request(id, method, json!({}))["error"]["code"], -32601, "{method}");
    }
}

#[test]
fn notifications_and_stray_responses_never_get_a_response() {
    let mut h = Harness::new(echo_server());
    for frame in [
        r#"{"jsonrpc":"2.0","method":"notifications/unknown"}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":404}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":"garbage"}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#,
        r#"{"jsonrpc":"1.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":3,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":"x","error":{"code":-1,"message":"no"}}"#,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
    ] {
        assert!(h.exchange(frame).is_empty(), "{frame}");
    }
}

#[test]
fn malformed_frames_get_the_right_error_and_nothing_breaks() {
    let mut h = Harness::new(echo_server());
    assert_eq!(h.one("{not json")["error"]["code"], -32700);
    assert_eq!(h.one("[]")["error"]["code"], -32600);
    let r = h.one(r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"arguments":{}}}"#);
    assert_eq!((r["id"].clone(), r["error"]["code"].clone()), (json!(9), json!(-32602)));
    let r = h.one(r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#);
    assert_eq!(r["error"]["code"], -32600);
    assert!(r.get("id").is_none());
    assert_eq!(h.request(8, "logging/setLevel", json!({"level": "verbose"}))["error"]["code"], -32602);
    // The session still serves.
    assert_eq!(text(&h.one(&call(10, "echo", json!({"text":"ok"})))), "ok");
}

type Gates = Rc<RefCell<Vec<oneshot::Sender<()>>>>;

/// A tool that waits until the test releases it, to observe concurrency and cancellation.
pub(crate) fn gated_server() -> (Server, Gates) {
    let gates: Gates = Rc::default();
    let g = gates.clone();
    let server = echo_server().tool(ToolDef::new("wait", move |_: NoArgs| {
        let (tx, rx) = oneshot::channel();
        g.borrow_mut().push(tx);
        async move {
            let _ = rx.await;
            "released"
        }
    }));
    (server, gates)
}

#[test]
fn a_slow_tool_does_not_block_ping_or_other_calls() {
    let (server, gates) = gated_server();
    let mut h = Harness::new(server);
    assert!(h.exchange(&call(1, "wait", json!({}))).is_empty());
    assert_eq!(h.one(r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)["id"], 2);
    assert_eq!(h.one(&call(3, "echo", json!({"text":"x"})))["id"], 3);
    assert_eq!(h.session.in_flight(), 1);
    let _ = gates.borrow_mut().remove(0).send(());
    let frames = h.drain();
    assert_eq!((frames[0]["id"].clone(), text(&frames[0])), (json!(1), "released"));
    assert_eq!(h.session.in_flight(), 0);
}

#[test]
fn a_cancelled_call_stops_and_sends_no_response() {
    let (server, gates) = gated_server();
    let mut h = Harness::new(server);
    assert!(h.exchange(&call(1, "wait", json!({}))).is_empty());
    let cancel = r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"user"}}"#;
    assert!(h.exchange(cancel).is_empty());
    assert_eq!(h.session.in_flight(), 0);
    let gate = gates.borrow_mut().remove(0);
    assert!(gate.is_canceled(), "the handler's future was dropped");
    // The id may be used again once the call is gone.
    assert!(h.exchange(&call(1, "wait", json!({}))).is_empty());
}

#[test]
fn a_reused_in_flight_id_is_rejected() {
    let (server, _gates) = gated_server();
    let mut h = Harness::new(server);
    assert!(h.exchange(&call(1, "wait", json!({}))).is_empty());
    assert_eq!(h.one(&call(1, "echo", json!({"text":"x"})))["error"]["code"], -32600);
}

#[test]
fn a_server_with_problems_does_not_start_and_says_why() {
    let nothing = |_: NoArgs| async { "" };
    let start = |server: Server| server.into_session(Env::default(), Rc::new(|_| {}), Rc::new(|_| {})).unwrap_err();
    let err = start(Server::new("s", "1").tool(ToolDef::new("bad name", nothing))).to_string();
    assert!(err.contains("bad name") && err.contains("server \"s\""), "{err}");
    let err = start(Server::new("s", "1").tool(ToolDef::new("x", nothing)).tool(ToolDef::new("x", nothing)));
    assert!(err.to_string().contains("twice"), "{err}");
    let read = |_| async { "" };
    let err =
        start(Server::new("s", "1").resource_template(mcp_worker_sdk::ResourceTemplateDef::new("t://{a", "t", read)));
    assert!(err.to_string().contains("unclosed"), "{err}");
    let err = start(Server::new("s", "1").credential(mcp_worker_sdk::Credential::required("NO SPACES", "")));
    assert!(err.to_string().contains("credential"), "{err}");
}

#[test]
fn every_frame_was_checked_against_the_schema() {
    let mut h = Harness::new(echo_server());
    h.initialize(json!({}));
    h.one(&call(1, "add", json!({"a": 1, "b": 2})));
    h.one("{not json");
    let _: Vec<Value> = h.exchange(&request(2, "tools/call", json!({"name":"progress","_meta":{"progressToken":7}})));
    assert_eq!(h.checked, 6, "initialize, add, the parse error, two progress notifications and a result");
}

#[test]
fn the_schema_check_rejects_frames_the_spec_forbids() {
    use crate::schema::{Revision, assert_server_frame};
    let no_method = |_: &Value| None;
    for bad in [
        json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "verbose", "data": 1}}),
        json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": 1}}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "elicitation/create", "params": {"message": "m",
               "requestedSchema": {"type": "object", "properties": {"nested": {"type": "object"}}}}}),
        json!({"jsonrpc": "2.0", "id": 1, "error": {"message": "no code"}}),
    ] {
        let outcome = std::panic::catch_unwind(|| assert_server_frame(Revision::Handshake, &bad, no_method));
        assert!(outcome.is_err(), "accepted {bad}");
    }
    let tools_call = |_: &Value| Some("tools/call".to_owned());
    let no_content = json!({"jsonrpc": "2.0", "id": 1, "result": {"isError": true}});
    assert!(std::panic::catch_unwind(|| assert_server_frame(Revision::Handshake, &no_content, tools_call)).is_err());
}

#[test]
fn a_tool_that_does_not_wait_is_answered_within_the_message_handler() {
    let (server, gates) = gated_server();
    let mut h = Harness::new(server);
    // Answered before any task runs: no hop through the executor for a tool that finishes at once.
    let answer = h.handle_only(&call(1, "echo", json!({"text": "now"})));
    assert_eq!(answer.len(), 1, "{answer:?}");
    assert_eq!(answer[0]["result"]["content"][0]["text"], "now");
    // A tool that waits is left to the executor and still answered once it is released.
    assert!(h.handle_only(&call(2, "wait", json!({}))).is_empty());
    assert!(h.drain().is_empty());
    let _ = gates.borrow_mut().remove(0).send(());
    let released = h.drain();
    assert_eq!(released.len(), 1);
    assert_eq!(released[0]["id"], 2);
}
