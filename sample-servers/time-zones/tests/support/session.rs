//! A real SDK session on an in-memory transport and a local executor: frames in, frames out.

use futures_executor::LocalPool;
use futures_util::task::LocalSpawnExt;
use mcp_worker_sdk::{Env, Outbound, Server, Session, Spawner};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::rc::Rc;

pub(crate) struct Client {
    pool: LocalPool,
    session: Session,
    sent: Rc<RefCell<Vec<String>>>,
    next_id: i64,
}

impl Client {
    /// A session of `server`, initialized as a client would.
    pub(crate) fn new(server: Server) -> Self {
        let pool = LocalPool::new();
        let spawner = pool.spawner();
        let sent = Rc::new(RefCell::new(Vec::new()));
        let sink = sent.clone();
        let outbound: Outbound = Rc::new(move |frame| sink.borrow_mut().push(frame));
        let spawn: Spawner = Rc::new(move |task| spawner.spawn_local(task).expect("spawn"));
        let session = server.into_session(Env::default(), outbound, spawn).expect("a valid server");
        let mut client = Self { pool, session, sent, next_id: 0 };
        let init = client.request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}),
        );
        assert!(init.get("result").is_some(), "{init}");
        client.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        client
    }

    /// Sends a frame, runs every ready task, returns the frames written.
    pub(crate) fn send(&mut self, frame: &str) -> Vec<Value> {
        self.session.handle(frame);
        self.pool.run_until_stalled();
        self.sent.borrow_mut().drain(..).map(|text| serde_json::from_str(&text).expect("JSON")).collect()
    }

    /// Sends a request and returns its answer.
    pub(crate) fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let frame = json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params});
        let frames = self.send(&frame.to_string());
        frames.into_iter().find(|f| f["id"] == self.next_id).expect("an answer")
    }

    /// Calls a tool and returns its result.
    pub(crate) fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let answer = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        answer["result"].clone()
    }

    /// Calls a tool that must succeed and returns its structured content.
    #[track_caller]
    pub(crate) fn ok(&mut self, tool: &str, arguments: Value) -> Value {
        let result = self.call(tool, arguments);
        assert_ne!(result["isError"], true, "{tool} failed: {result}");
        result["structuredContent"].clone()
    }

    /// Calls a tool that must fail and returns its error text.
    #[track_caller]
    pub(crate) fn error(&mut self, tool: &str, arguments: Value) -> String {
        let result = self.call(tool, arguments);
        assert_eq!(result["isError"], true, "{tool} should have failed: {result}");
        text(&result).to_owned()
    }

    /// The listed tools.
    pub(crate) fn tools(&mut self) -> Vec<Value> {
        let answer = self.request("tools/list", json!({}));
        answer["result"]["tools"].as_array().cloned().unwrap_or_default()
    }
}

/// The text of a result's first content block.
pub(crate) fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}
