//! A server in a real SDK session, driven natively with JSON-RPC frames on a local executor: for the tests of a
//! server crate (`mcp-worker-sdk` with the `testing` feature, as a dev-dependency). Every method panics with what
//! went wrong, as a test wants.

#![allow(clippy::expect_used, reason = "a test helper fails loudly")]

use crate::{Env, Outbound, Server, Session, Spawner};
use futures_executor::LocalPool;
use futures_util::task::LocalSpawnExt;
use serde_json::{Value, json};
use std::cell::RefCell;
use std::rc::Rc;

/// A client of one server, past the `initialize` handshake.
#[allow(missing_debug_implementations, reason = "a test helper")]
pub struct TestClient {
    pool: LocalPool,
    session: Session,
    sent: Rc<RefCell<Vec<String>>>,
    next_id: i64,
}

impl TestClient {
    /// Starts a session of `server` and completes the handshake (`initialize`, `notifications/initialized`).
    pub fn new(server: Server) -> Self {
        let pool = LocalPool::new();
        let spawner = pool.spawner();
        let sent = Rc::new(RefCell::new(Vec::new()));
        let sink = sent.clone();
        let out: Outbound = Rc::new(move |frame| sink.borrow_mut().push(frame));
        let spawn: Spawner = Rc::new(move |task| spawner.spawn_local(task).expect("spawn"));
        let session = server.into_session(Env::default(), out, spawn).expect("a valid server");
        let mut client = Self { pool, session, sent, next_id: 0 };
        let init = client.request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}),
        );
        assert!(init["result"]["capabilities"]["tools"].is_object(), "{init}");
        assert!(client.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).is_empty());
        client
    }

    /// Sends a frame, runs every ready task, returns the frames written.
    pub fn send(&mut self, frame: &str) -> Vec<Value> {
        self.session.handle(frame);
        self.pool.run_until_stalled();
        self.sent.borrow_mut().drain(..).map(|text| mcp_worker_protocol::json::from_str(&text).expect("JSON")).collect()
    }

    /// Sends a request and returns its answer, which must be the only frame written.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let frame = json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params});
        self.answer(&frame.to_string())
    }

    /// Calls a tool with arguments given as JSON text, sent as they are (a `Value` would sort their keys), and
    /// returns its result.
    pub fn call_raw(&mut self, tool: &str, arguments: &str) -> Value {
        self.next_id += 1;
        let frame = format!(
            r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":{},"arguments":{arguments}}}}}"#,
            self.next_id,
            Value::from(tool)
        );
        self.answer(&frame)["result"].clone()
    }

    fn answer(&mut self, frame: &str) -> Value {
        let mut frames = self.send(frame);
        assert_eq!(frames.len(), 1, "expected one answer, got {frames:#?}");
        let answer = frames.remove(0);
        assert_eq!(answer["id"], self.next_id, "{answer}");
        answer
    }

    /// `tools/call`: the call's result.
    pub fn call(&mut self, tool: &str, arguments: Value) -> Value {
        self.request("tools/call", json!({"name": tool, "arguments": arguments}))["result"].clone()
    }

    /// Calls a tool that must succeed and returns its structured content.
    #[track_caller]
    pub fn ok(&mut self, tool: &str, arguments: Value) -> Value {
        let result = self.call(tool, arguments);
        assert_ne!(result["isError"], true, "{tool} failed: {result}");
        result["structuredContent"].clone()
    }

    /// Calls a tool that must fail and returns its error text.
    #[track_caller]
    pub fn error(&mut self, tool: &str, arguments: Value) -> String {
        let result = self.call(tool, arguments);
        assert_eq!(result["isError"], true, "{tool} should have failed: {result}");
        text(&result).to_owned()
    }

    /// `tools/list`: every tool (one page).
    pub fn list_tools(&mut self) -> Vec<Value> {
        let answer = self.request("tools/list", json!({}));
        assert_eq!(answer["result"]["nextCursor"], Value::Null, "one page expected");
        answer["result"]["tools"].as_array().expect("tools").clone()
    }
}

/// The text of a result's first content block.
pub fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}
