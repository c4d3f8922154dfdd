//! Every frame the host sends in MCP 2026-07-28 validates against the official 2026-07-28 schema: the probe, lists,
//! a tool call answered `input_required` and retried with the application's answer, a listen stream opened and
//! replaced, reads, prompts, completion, the health check and a cancellation. The server is a real SDK session
//! over an in-memory pipe.

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use futures_executor::LocalPool;
use futures_util::task::LocalSpawnExt;
use futures_util::{FutureExt, StreamExt};
use mcp_worker_client::connection::{Connection, RequestOptions};
use mcp_worker_client::server_requests::ServerRequestHandlers;
use mcp_worker_client::{ClientOptions, McpClient};
use mcp_worker_protocol::LoggingLevel;
use mcp_worker_protocol::completion::CompletionArgument;
use mcp_worker_protocol::{CompletionReference, ElicitParams};
use mcp_worker_sdk::{Ctx, NoArgs, PromptDef, ResourceDef, Server, ToolDef};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::rc::Rc;

fn server() -> Server {
    Server::new("modern", "1")
        .tool(ToolDef::new("hello", |_: NoArgs| async { "hello" }))
        .tool(ToolDef::new("ask", |ctx: Ctx, _: NoArgs| async move {
            let schema = json!({"type": "object", "properties": {"name": {"type": "string"}}});
            let form = ElicitParams::form("Name?", schema.as_object().cloned().unwrap_or_default());
            ctx.elicit(form).await.map(|answer| json!(answer.content).to_string())
        }))
        .tool(ToolDef::new("hang", |_: NoArgs| futures_util::future::pending::<String>()))
        .resource(ResourceDef::new("test://r", "r", |_| async { "content" }))
        .prompt(PromptDef::new("p", |args: PromptArgs| async move { args.x }).complete_values("x", ["a"]))
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct PromptArgs {
    x: String,
}

fn validator() -> jsonschema::Validator {
    let mut schema: Value =
        serde_json::from_str(include_str!("../../../protocol/tests/schema/2026-07-28.json")).expect("schema");
    schema["$ref"] = json!("#/$defs/JSONRPCMessage");
    jsonschema::draft202012::options().should_validate_formats(true).build(&schema).expect("compiles")
}

/// Checks one frame the client sent against the definition of its kind.
fn check(frame: &str, whole: &jsonschema::Validator, defs: &Value) {
    let value: Value = serde_json::from_str(frame).unwrap();
    let errors: Vec<String> = whole.iter_errors(&value).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "not a JSON-RPC message of 2026-07-28: {errors:?}\n{frame}");
    let def = match (value.get("method"), value.get("id")) {
        (Some(_), Some(_)) => "ClientRequest",
        (Some(_), None) => "ClientNotification",
        _ => panic!("a client of 2026-07-28 sends no responses: {frame}"),
    };
    let mut schema = defs.clone();
    schema["$ref"] = json!(format!("#/$defs/{def}"));
    let specific = jsonschema::draft202012::options().build(&schema).expect("compiles");
    let errors: Vec<String> = specific.iter_errors(&value).map(|e| format!("{}: {e}", e.instance_path())).collect();
    assert!(errors.is_empty(), "not a valid {def}: {errors:?}\n{frame}");
}

#[test]
fn every_frame_the_host_sends_in_2026_07_28_validates_against_its_schema() {
    let mut pool = LocalPool::new();
    let sent: Rc<RefCell<Vec<String>>> = Rc::default();
    let (to_server, mut server_inbox) = futures_channel::mpsc::unbounded::<String>();
    let (to_host, mut host_inbox) = futures_channel::mpsc::unbounded::<String>();
    let spawner = pool.spawner();
    let task_spawner = spawner.clone();
    let session = server()
        .into_session(
            mcp_worker_sdk::Env::default(),
            Rc::new(move |frame| drop(to_host.unbounded_send(frame))),
            Rc::new(move |fut| drop(task_spawner.spawn_local(fut))),
        )
        .unwrap();
    let record = sent.clone();
    let connection = Connection::new(
        "modern",
        Box::new(move |frame| {
            record.borrow_mut().push(frame.to_owned());
            drop(to_server.unbounded_send(frame.to_owned()));
            Ok(())
        }),
        Rc::new(|| 0.0),
    );
    let handler_spawner = spawner.clone();
    let handlers = ServerRequestHandlers::new(Rc::new(move |f| drop(handler_spawner.spawn_local(f))))
        .on_elicitation(Rc::new(|_| Box::pin(async { Ok(json!({"action": "accept", "content": {"name": "Ada"}})) })));
    let mut options = ClientOptions::default();
    options.capabilities = handlers.declare(options.capabilities);
    connection.set_server_request_handlers(Some(handlers));
    spawner
        .spawn_local(async move {
            while let Some(f) = server_inbox.next().await {
                session.handle(&f)
            }
        })
        .unwrap();
    let receiver = connection.clone();
    spawner
        .spawn_local(async move {
            while let Some(f) = host_inbox.next().await {
                receiver.receive(&f)
            }
        })
        .unwrap();

    let client = pool.run_until(McpClient::connect(connection.clone(), &options, None)).unwrap();
    assert!(client.is_modern());
    pool.run_until(async {
        client.list_tools().await.unwrap();
        let asked = client.call_tool("ask", None).await.unwrap();
        assert_eq!(serde_json::to_value(&asked).unwrap()["content"][0]["text"], r#"{"name":"Ada"}"#);
        client.subscribe_resource("test://r").await.unwrap();
        client.set_logging_level(LoggingLevel::Warning).await.unwrap();
        client.read_resource("test://r").await.unwrap();
        client.get_prompt("p", Some([("x".to_owned(), "a".to_owned())].into())).await.unwrap();
        let reference = CompletionReference::Prompt { name: "p".into(), title: None };
        client.complete(reference, CompletionArgument { name: "x".into(), value: String::new() }, None).await.unwrap();
        client.list_resource_templates().await.unwrap();
        client.list_prompts().await.unwrap();
        client.ping().await.unwrap();
    });
    // A call dropped before its answer is cancelled.
    let hanging = connection.request("tools/call", Some(&json!({"name": "hang"})), RequestOptions::default());
    let mut hanging = Box::pin(hanging);
    pool.run_until_stalled();
    assert!((&mut hanging).now_or_never().is_none());
    drop(hanging);
    pool.run_until_stalled();

    let frames = sent.borrow().clone();
    let methods: Vec<String> = frames
        .iter()
        .filter_map(|f| serde_json::from_str::<Value>(f).ok()?.get("method")?.as_str().map(str::to_owned))
        .collect();
    for expected in
        ["server/discover", "tools/call", "subscriptions/listen", "notifications/cancelled", "completion/complete"]
    {
        assert!(methods.iter().any(|m| m == expected), "no {expected} in {methods:?}");
    }
    assert_eq!(
        methods.iter().filter(|m| *m == "tools/call").count(),
        3,
        "ask twice (a question, the retry), hang once"
    );
    assert!(
        !methods
            .iter()
            .any(|m| m == "initialize" || m == "ping" || m == "logging/setLevel" || m == "resources/subscribe")
    );
    let retry = frames.iter().find(|f| f.contains("inputResponses")).expect("the retry");
    assert!(
        retry.contains("requestState") && retry.contains(r#""io.modelcontextprotocol/logLevel":"debug""#),
        "{retry}"
    );
    let defs: Value = serde_json::from_str(include_str!("../../../protocol/tests/schema/2026-07-28.json")).unwrap();
    let whole = validator();
    for frame in &frames {
        check(frame, &whole, &defs);
    }
    let handshake = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#;
    let refused = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(handshake, &whole, &defs)));
    assert!(refused.is_err(), "the check refuses a request without the protocol fields");
}
