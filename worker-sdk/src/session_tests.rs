use super::*;
use crate::{Json, NoArgs, Server, ToolDef};
use futures_executor::LocalPool;
use futures_util::task::LocalSpawnExt;
use serde_json::{Value, json};

/// A session wired to an in-memory outbound queue and a local executor.
struct Harness {
    pool: LocalPool,
    session: Session,
    sent: Rc<RefCell<Vec<String>>>,
}

impl Harness {
    fn new(server: Server) -> Self {
        let pool = LocalPool::new();
        let spawner = pool.spawner();
        let sent = Rc::new(RefCell::new(Vec::new()));
        let sink = sent.clone();
        let out: Outbound = Rc::new(move |frame| sink.borrow_mut().push(frame));
        let spawn: Spawner = Rc::new(move |fut| spawner.spawn_local(fut).expect("spawn"));
        let session = server.into_session(Env::default(), out, spawn).expect("valid server");
        Self { pool, session, sent }
    }

    /// Sends a frame, runs every ready task, and returns the frames sent since.
    fn exchange(&mut self, frame: &str) -> Vec<Value> {
        self.session.handle(frame);
        self.pool.run_until_stalled();
        self.sent.borrow_mut().drain(..).map(|f| serde_json::from_str(&f).expect("frames are JSON")).collect()
    }

    fn one(&mut self, frame: &str) -> Value {
        let mut frames = self.exchange(frame);
        assert_eq!(frames.len(), 1, "expected one frame, got {frames:?}");
        frames.remove(0)
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Echo {
    text: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Add {
    a: f64,
    b: f64,
}

fn echo_server() -> Server {
    Server::new("test", "1.0")
        .instructions("use echo")
        .tool(ToolDef::new("echo", |a: Echo| async move { a.text }).description("echoes"))
        .tool(ToolDef::new("add", |a: Add| async move { Json(json!({"sum": a.a + a.b})) }))
        .tool(ToolDef::new("fail", |_: NoArgs| async { Err::<String, _>("it broke") }))
        .tool(ToolDef::new("progress", |ctx: Ctx, _: NoArgs| async move {
            ctx.progress(1.0, Some(2.0), Some("half"));
            ctx.progress(1.0, Some(2.0), None);
            ctx.progress(2.0, Some(2.0), None);
            "done"
        }))
}

fn call(id: i64, name: &str, args: Value) -> String {
    json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":name,"arguments":args}}).to_string()
}

#[test]
fn initialize_negotiates_the_version_and_describes_the_server() {
    let mut h = Harness::new(echo_server());
    let r = h.one(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#);
    assert_eq!(r["id"], 1);
    assert_eq!(r["result"]["protocolVersion"], "2025-06-18");
    assert_eq!(r["result"]["serverInfo"]["name"], "test");
    assert_eq!(r["result"]["instructions"], "use echo");
    assert!(r["result"]["capabilities"]["tools"].is_object());

    let r = h.one(r#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2099-01-01","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#);
    assert_eq!(r["result"]["protocolVersion"], version::LATEST_PROTOCOL_VERSION);

    assert!(h.exchange(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).is_empty());
    assert!(h.session.is_initialized());
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

#[test]
fn tools_list_pages_through_every_tool() {
    let mut server = Server::new("many", "1").page_size(7);
    for i in 0..30 {
        server = server.tool(ToolDef::new(format!("t{i}"), |_: NoArgs| async { "" }));
    }
    let mut h = Harness::new(server);
    let mut names = Vec::new();
    let mut cursor: Option<String> = None;
    for id in 0.. {
        let params = cursor.as_ref().map_or(json!({}), |c| json!({"cursor": c}));
        let r = h.one(&json!({"jsonrpc":"2.0","id":id,"method":"tools/list","params":params}).to_string());
        for t in r["result"]["tools"].as_array().unwrap() {
            names.push(t["name"].as_str().unwrap().to_owned());
        }
        match r["result"]["nextCursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    assert_eq!(names, (0..30).map(|i| format!("t{i}")).collect::<Vec<_>>());
    let bad = h.one(r#"{"jsonrpc":"2.0","id":99,"method":"tools/list","params":{"cursor":"bogus"}}"#);
    assert_eq!(bad["error"]["code"], -32602);
}

#[test]
fn tools_list_shows_schemas_from_the_argument_types() {
    let mut h = Harness::new(echo_server());
    let r = h.one(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
    let echo = &r["result"]["tools"][0];
    assert_eq!(echo["name"], "echo");
    assert_eq!(echo["description"], "echoes");
    assert_eq!(echo["inputSchema"]["type"], "object");
    assert_eq!(echo["inputSchema"]["required"], json!(["text"]));
}

#[test]
fn tools_call_returns_the_tool_result() {
    let mut h = Harness::new(echo_server());
    let r = h.one(&call(5, "echo", json!({"text": "hello"})));
    assert_eq!(r, json!({"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"hello"}]}}));
    let r = h.one(&call(6, "add", json!({"a": 2, "b": 3.5})));
    assert_eq!(r["result"]["structuredContent"], json!({"sum": 5.5}));
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
    let text = r["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("`b`") && text.contains("add"), "{text}");
    let r = h.one(&call(2, "echo", json!({})));
    assert!(r["result"]["content"][0]["text"].as_str().unwrap().contains("missing field `text`"));
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
    let frame = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"progress","_meta":{"progressToken":"tok"}}}"#;
    let frames = h.exchange(frame);
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
}

#[test]
fn notifications_never_get_a_response() {
    let mut h = Harness::new(echo_server());
    for frame in [
        r#"{"jsonrpc":"2.0","method":"notifications/unknown"}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":404}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":"garbage"}"#,
        r#"{"jsonrpc":"1.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":3,"result":{}}"#,
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
    // The session still serves.
    assert_eq!(h.one(&call(10, "echo", json!({"text":"ok"})))["result"]["content"][0]["text"], "ok");
}

/// A tool that waits until the test releases it, to observe concurrency and cancellation.
fn gated_server() -> (Server, Rc<RefCell<Vec<futures_channel::oneshot::Sender<()>>>>) {
    let gates: Rc<RefCell<Vec<futures_channel::oneshot::Sender<()>>>> = Rc::default();
    let g = gates.clone();
    let server = echo_server().tool(ToolDef::new("wait", move |_: NoArgs| {
        let (tx, rx) = futures_channel::oneshot::channel();
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
    h.pool.run_until_stalled();
    let r: Value = serde_json::from_str(&h.sent.borrow()[0]).unwrap();
    assert_eq!((r["id"].clone(), r["result"]["content"][0]["text"].clone()), (json!(1), json!("released")));
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
fn invalid_tool_names_and_duplicates_stop_the_server_with_a_clear_error() {
    let nothing = |_: NoArgs| async { "" };
    let noop: Spawner = Rc::new(|_| {});
    let bad = Server::new("s", "1").tool(ToolDef::new("bad name", nothing));
    let err = bad.into_session(Env::default(), Rc::new(|_| {}), noop.clone()).unwrap_err();
    assert!(err.contains("bad name"), "{err}");
    let dup = Server::new("s", "1").tool(ToolDef::new("x", nothing)).tool(ToolDef::new("x", nothing));
    let err = dup.into_session(Env::default(), Rc::new(|_| {}), noop).unwrap_err();
    assert!(err.contains("twice"), "{err}");
}
