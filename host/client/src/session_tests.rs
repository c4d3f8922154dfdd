//! The client against a real SDK server (the echo sample) over an in-memory pipe.

use super::*;
use crate::connection::SendError;
use futures_channel::mpsc;
use futures_executor::LocalPool;
use futures_util::StreamExt;
use futures_util::task::LocalSpawnExt;
use mcp_worker_sdk::{Env, Server, Session};
use serde_json::json;
use std::cell::RefCell;

pub(super) struct Pipe {
    pub(super) pool: LocalPool,
    pub(super) connection: Connection,
    pub(super) session: Session,
}

/// Connects a host `Connection` to an SDK `Session`; each direction is an async queue, as a MessagePort is.
pub(super) fn pipe(server: Server) -> Pipe {
    let pool = LocalPool::new();
    let spawner = pool.spawner();
    let (to_server, mut server_inbox) = mpsc::unbounded::<String>();
    let (to_host, mut host_inbox) = mpsc::unbounded::<String>();

    let task_spawner = spawner.clone();
    let session = server
        .into_session(
            Env::default(),
            Rc::new(move |frame| {
                let _ = to_host.unbounded_send(frame);
            }),
            Rc::new(move |fut| task_spawner.spawn_local(fut).expect("spawn")),
        )
        .expect("server starts");
    let connection = Connection::new(
        "echo",
        Box::new(move |frame| to_server.unbounded_send(frame.to_owned()).map_err(|e| SendError::new(e.to_string()))),
        Rc::new(|| 0.0),
    );
    let s = session.clone();
    spawner
        .spawn_local(async move {
            while let Some(frame) = server_inbox.next().await {
                s.handle(&frame);
            }
        })
        .expect("spawn");
    let c = connection.clone();
    spawner
        .spawn_local(async move {
            while let Some(frame) = host_inbox.next().await {
                c.receive(&frame);
            }
        })
        .expect("spawn");
    Pipe { pool, connection, session }
}

fn echo(extra: usize) -> Server {
    echo_server::server(&Env::from_pairs([("ECHO_EXTRA_TOOLS", extra.to_string())]))
}

impl Pipe {
    pub(super) fn client(&mut self) -> McpClient {
        let options = ClientOptions::default();
        let init = McpClient::initialize(self.connection.clone(), &options, None);
        self.pool.run_until(init).expect("initialize")
    }
}

#[test]
fn the_lifecycle_negotiates_and_marks_the_session_initialized() {
    let mut pipe = pipe(echo(0));
    let client = pipe.client();
    assert_eq!(client.server_info().server_info.name, "echo");
    assert_eq!(client.server_info().protocol_version, "2025-11-25");
    pipe.pool.run_until_stalled();
    assert!(pipe.session.is_initialized());
}

#[test]
fn list_tools_follows_every_page() {
    let mut pipe = pipe(echo(1_000));
    let client = pipe.client();
    let tools = pipe.pool.run_until(client.list_tools()).unwrap();
    assert_eq!(tools.len(), 1_003);
    assert_eq!(tools[3].name, "synthetic_0");
    assert_eq!(tools[1_002].name, "synthetic_999");
}

#[test]
fn call_tool_returns_results_and_tool_errors_as_results() {
    let mut pipe = pipe(echo(0));
    let client = pipe.client();
    let args = json!({"text": "hello"}).as_object().cloned();
    let result = pipe.pool.run_until(client.call_tool("echo", args)).unwrap();
    assert_eq!(result.joined_text(), "hello");
    let bad = json!({"a": 1}).as_object().cloned();
    let result = pipe.pool.run_until(client.call_tool("add", bad)).unwrap();
    assert!(result.is_error(), "a bad argument is a result the model can read");
    let err = pipe.pool.run_until(client.call_tool("missing", None)).unwrap_err();
    assert!(matches!(err, Error::Rpc { ref error, .. } if error.code == -32602), "{err}");
}

#[test]
fn many_concurrent_calls_each_get_their_own_answer() {
    let mut pipe = pipe(echo(0));
    let client = Rc::new(pipe.client());
    let answers = Rc::new(RefCell::new(Vec::new()));
    for i in 0..500 {
        let (client, answers) = (client.clone(), answers.clone());
        pipe.pool
            .spawner()
            .spawn_local(async move {
                let args = json!({"text": format!("m{i}")}).as_object().cloned();
                let result = client.call_tool("echo", args).await.unwrap();
                answers.borrow_mut().push((i, result.joined_text()));
            })
            .unwrap();
    }
    pipe.pool.run_until_stalled();
    let answers = answers.borrow();
    assert_eq!(answers.len(), 500);
    assert!(answers.iter().all(|(i, text)| *text == format!("m{i}")));
}

#[test]
fn arguments_must_be_an_object() {
    let mut pipe = pipe(echo(0));
    let client = pipe.client();
    let args = RawValue::from_string("[1,2]".into()).unwrap();
    let err = pipe.pool.run_until(client.call_tool_raw("echo", Some(&args), CallOptions::default())).unwrap_err();
    assert_eq!(err.code(), "INVALID_INPUT");
}

#[test]
fn progress_is_delivered_during_a_call() {
    use mcp_worker_sdk::{Ctx, NoArgs, ToolDef};
    let server = Server::new("p", "1").tool(ToolDef::new("work", |ctx: Ctx, _: NoArgs| async move {
        ctx.progress(0.0, Some(100.0), None);
        ctx.progress(50.0, Some(100.0), None);
        ctx.progress(100.0, Some(100.0), None);
        "done"
    }));
    let mut pipe = pipe(server);
    let client = pipe.client();
    let seen = Rc::new(RefCell::new(Vec::new()));
    let log = seen.clone();
    let options = CallOptions {
        on_progress: Some(Rc::new(move |p: &mcp_worker_protocol::notifications::ProgressParams| {
            log.borrow_mut().push(p.progress)
        })),
        ..CallOptions::default()
    };
    let raw = pipe.pool.run_until(client.call_tool_raw("work", None, options)).unwrap();
    assert!(raw.get().contains("done"));
    assert_eq!(*seen.borrow(), vec![0.0, 50.0, 100.0]);
}

#[test]
fn a_server_with_an_unknown_protocol_version_is_refused() {
    // A fake server that answers initialize with a version from the future.
    let connection = Connection::new("future", Box::new(|_| Ok(())), Rc::new(|| 0.0));
    let mut pool = LocalPool::new();
    let c = connection.clone();
    let options = ClientOptions::default();
    let init = McpClient::initialize(connection.clone(), &options, None);
    pool.spawner()
        .spawn_local(async move {
            c.receive(r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2999-01-01","capabilities":{},"serverInfo":{"name":"f","version":"1"}}}"#);
        })
        .unwrap();
    let err = pool.run_until(init).unwrap_err();
    assert_eq!(err.code(), "PROTOCOL");
    assert!(err.to_string().contains("2999-01-01"), "{err}");
    assert!(connection.closed_reason().is_some());
}
