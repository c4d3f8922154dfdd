//! A session wired to an in-memory transport, a local executor and a manual clock. Every frame the session writes
//! is checked against the official MCP schema before a test sees it.

#![allow(dead_code, reason = "shared by several test crates, each using part of it")]

use super::schema::{Revision, assert_server_frame};
use futures_channel::oneshot;
use futures_executor::LocalPool;
use futures_util::FutureExt;
use futures_util::task::LocalSpawnExt;
use mcp_worker_sdk::{Env, Outbound, Server, Session, Sleeper, Spawner};
use serde_json::{Value, json};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

type Timers = Rc<RefCell<Vec<(u64, oneshot::Sender<()>)>>>;

pub(crate) struct Harness {
    pub(crate) pool: LocalPool,
    pub(crate) session: Session,
    sent: Rc<RefCell<Vec<String>>>,
    /// The method of every request the test sent, by id, to check each result against its definition.
    methods: HashMap<String, String>,
    now: Rc<Cell<u64>>,
    timers: Timers,
    /// How many frames the session wrote, all checked.
    pub(crate) checked: usize,
    /// The revision whose schema the frames are checked against: see [`Harness::modern`].
    revision: Revision,
}

impl Harness {
    pub(crate) fn new(server: Server) -> Self {
        Self::with_env(server, Env::default())
    }

    pub(crate) fn with_env(server: Server, env: Env) -> Self {
        let pool = LocalPool::new();
        let spawner = pool.spawner();
        let sent = Rc::new(RefCell::new(Vec::new()));
        let sink = sent.clone();
        let out: Outbound = Rc::new(move |frame| sink.borrow_mut().push(frame));
        let spawn: Spawner = Rc::new(move |fut| spawner.spawn_local(fut).expect("spawn"));
        let session = server.into_session(env, out, spawn).expect("valid server");
        let now = Rc::new(Cell::new(0));
        let timers: Timers = Rc::default();
        let (clock, queue) = (now.clone(), timers.clone());
        let sleeper: Sleeper = Rc::new(move |ms| {
            let (fire, fired) = oneshot::channel();
            queue.borrow_mut().push((clock.get() + u64::from(ms), fire));
            async move {
                let _ = fired.await;
            }
            .boxed_local()
        });
        session.set_sleeper(sleeper);
        Self { pool, session, sent, methods: HashMap::new(), now, timers, checked: 0, revision: Revision::Handshake }
    }

    /// From now on, checks every frame against the schema of MCP 2026-07-28 (for a client of the modern era).
    pub(crate) fn modern(mut self) -> Self {
        self.revision = Revision::Modern;
        self
    }

    /// Runs every ready task and returns the frames written since, each checked against the schema.
    pub(crate) fn drain(&mut self) -> Vec<Value> {
        self.pool.run_until_stalled();
        let frames: Vec<String> = self.sent.borrow_mut().drain(..).collect();
        frames
            .iter()
            .map(|text| {
                let frame: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
                assert_server_frame(self.revision, &frame, |id| self.methods.get(&id.to_string()).cloned());
                self.checked += 1;
                frame
            })
            .collect()
    }

    /// Sends a frame WITHOUT running any task: returns what the session wrote from within `handle` itself.
    pub(crate) fn handle_only(&mut self, frame: &str) -> Vec<Value> {
        self.remember(frame);
        self.session.handle(frame);
        let frames: Vec<String> = self.sent.borrow_mut().drain(..).collect();
        frames
            .iter()
            .map(|text| serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}")))
            .collect()
    }

    /// Sends a frame, runs every ready task, and returns the frames written since.
    pub(crate) fn exchange(&mut self, frame: &str) -> Vec<Value> {
        self.remember(frame);
        self.session.handle(frame);
        self.drain()
    }

    /// Notes the method of a request, so its answer is checked against the right result definition.
    fn remember(&mut self, frame: &str) {
        if let Ok(value) = serde_json::from_str::<Value>(frame)
            && let (Some(id), Some(method)) = (value.get("id"), value.get("method").and_then(Value::as_str))
        {
            self.methods.insert(id.to_string(), method.to_owned());
        }
    }

    /// Sends a frame and expects exactly one frame back.
    #[track_caller]
    pub(crate) fn one(&mut self, frame: &str) -> Value {
        let mut frames = self.exchange(frame);
        assert_eq!(frames.len(), 1, "expected one frame, got {frames:#?}");
        frames.remove(0)
    }

    /// Sends a request and expects exactly its answer back.
    #[track_caller]
    pub(crate) fn request(&mut self, id: i64, method: &str, params: Value) -> Value {
        let answer = self.one(&request(id, method, params));
        assert_eq!(answer["id"], id, "{answer}");
        answer
    }

    /// `initialize` with the given client capabilities, then `notifications/initialized`.
    pub(crate) fn initialize(&mut self, capabilities: Value) -> Value {
        let params = json!({"protocolVersion": "2025-11-25", "capabilities": capabilities,
                            "clientInfo": {"name": "harness", "version": "1"}});
        let answer = self.request(0, "initialize", params);
        assert!(self.exchange(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).is_empty());
        answer
    }

    /// Lets `ms` milliseconds pass: fires the timers due, runs what they woke, returns the frames written.
    pub(crate) fn advance(&mut self, ms: u64) -> Vec<Value> {
        let mut frames = self.drain();
        let until = self.now.get() + ms;
        loop {
            let next = self.timers.borrow().iter().map(|(at, _)| *at).filter(|at| *at <= until).min();
            let Some(at) = next else { break };
            self.now.set(at);
            let due: Vec<_> = {
                let mut timers = self.timers.borrow_mut();
                let (due, later) = std::mem::take(&mut *timers).into_iter().partition(|(t, _)| *t <= at);
                *timers = later;
                due
            };
            for (_, fire) in due {
                let _ = fire.send(());
            }
            frames.extend(self.drain());
        }
        self.now.set(until);
        frames
    }

    /// Runs until no timer is left, letting time pass as needed.
    pub(crate) fn settle(&mut self) -> Vec<Value> {
        let mut frames = self.drain();
        loop {
            let next = self.timers.borrow().iter().map(|(at, _)| *at).min();
            let Some(at) = next else { break };
            let wait = at.saturating_sub(self.now.get());
            frames.extend(self.advance(wait));
        }
        frames
    }
}

pub(crate) fn request(id: i64, method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

pub(crate) fn call(id: i64, name: &str, args: Value) -> String {
    request(id, "tools/call", json!({"name": name, "arguments": args}))
}

/// A response from the client to a request the server sent.
pub(crate) fn response(id: &Value, result: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string()
}

/// The text of a result's first content block.
pub(crate) fn text(answer: &Value) -> &str {
    answer["result"]["content"][0]["text"].as_str().unwrap_or_default()
}
