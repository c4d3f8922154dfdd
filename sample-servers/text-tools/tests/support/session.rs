//! A server in a real SDK session, driven with JSON-RPC frames on a local executor.

use futures_executor::LocalPool;
use futures_util::task::LocalSpawnExt;
use mcp_worker_sdk::{Env, Outbound, Server, Session, Spawner};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::rc::Rc;

pub(crate) struct TestSession {
    pool: LocalPool,
    session: Session,
    sent: Rc<RefCell<Vec<String>>>,
    next_id: i64,
}

impl TestSession {
    /// Starts a session and completes the handshake (`initialize`, `notifications/initialized`).
    pub(crate) fn start(server: Server) -> Self {
        let pool = LocalPool::new();
        let spawner = pool.spawner();
        let sent = Rc::new(RefCell::new(Vec::new()));
        let sink = sent.clone();
        let out: Outbound = Rc::new(move |frame| sink.borrow_mut().push(frame));
        let spawn: Spawner = Rc::new(move |task| spawner.spawn_local(task).expect("spawn"));
        let session = server.into_session(Env::default(), out, spawn).expect("a valid server");
        let mut s = Self { pool, session, sent, next_id: 1 };
        let init = s.request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}),
        );
        assert!(init["result"]["capabilities"]["tools"].is_object(), "{init}");
        s.session.handle(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        s.pool.run_until_stalled();
        assert!(s.sent.borrow().is_empty());
        s
    }

    /// Sends a request and returns its one answer.
    pub(crate) fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.session.handle(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string());
        self.pool.run_until_stalled();
        let frames: Vec<String> = self.sent.borrow_mut().drain(..).collect();
        assert_eq!(frames.len(), 1, "expected one answer, got {frames:#?}");
        let answer: Value = serde_json::from_str(&frames[0]).expect("JSON");
        assert_eq!(answer["id"], id, "{answer}");
        answer
    }

    /// `tools/list`: every tool (one page).
    pub(crate) fn list_tools(&mut self) -> Vec<Value> {
        let answer = self.request("tools/list", json!({}));
        assert_eq!(answer["result"]["nextCursor"], Value::Null, "one page expected");
        answer["result"]["tools"].as_array().expect("tools").clone()
    }

    /// `tools/call`: the call's result.
    pub(crate) fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let answer = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        answer["result"].clone()
    }
}
