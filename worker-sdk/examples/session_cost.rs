//! What the SDK's session costs per request, natively, against the least any Rust JSON-RPC server does for the same
//! call (serde_json reads the frame into typed structs and writes the answer): `tools/call` of an echo tool, in
//! each protocol era. The figures are medians of rounds measured in the same run, so that the ratio holds on a
//! noisy machine.
//!
//! ```sh
//! cargo run --release -p mcp-worker-sdk --example session_cost [-- <calls per round>]
//! ```
//!
//! In a browser the worker runs the same code compiled to wasm; `cargo xtask bench` measures it there.

#![allow(clippy::expect_used, reason = "a measuring tool fails loudly")]

use futures_executor::LocalPool;
use futures_util::task::LocalSpawnExt;
use mcp_worker_sdk::{Env, Outbound, Server, Session, Spawner, ToolDef};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::hint::black_box;
use std::rc::Rc;
use std::time::Instant;

const ROUNDS: usize = 7;

#[derive(Deserialize, JsonSchema)]
struct EchoArgs {
    /// The text to return.
    text: String,
}

fn server() -> Server {
    Server::new("echo", "1.0.0")
        .title("Echo")
        .tool(ToolDef::new("echo", |args: EchoArgs| async move { args.text }).description("Returns its text"))
}

/// A session of [`server`] on a local executor, and the frames it wrote.
struct Driven {
    pool: LocalPool,
    session: Session,
    sent: Rc<RefCell<Vec<String>>>,
}

impl Driven {
    fn new() -> Self {
        let pool = LocalPool::new();
        let spawner = pool.spawner();
        let sent = Rc::new(RefCell::new(Vec::new()));
        let sink = sent.clone();
        let out: Outbound = Rc::new(move |frame| sink.borrow_mut().push(frame));
        let spawn: Spawner = Rc::new(move |task| spawner.spawn_local(task).expect("a local pool takes tasks"));
        let session = server().into_session(Env::default(), out, spawn).expect("a valid server");
        Self { pool, session, sent }
    }

    /// Hands the session `frame`, runs what is ready, and returns the one frame it wrote.
    fn answer(&mut self, frame: &str) -> String {
        self.session.handle(frame);
        self.pool.run_until_stalled();
        let mut sent = self.sent.borrow_mut();
        assert_eq!(sent.len(), 1, "expected one answer to {frame}, got {sent:?}");
        sent.remove(0)
    }
}

fn handshake_call(id: usize) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"ping"}}}}}}"#
    )
}

fn modern_call(id: usize) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"ping"}},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}},"io.modelcontextprotocol/clientInfo":{{"name":"bench","version":"1.0.0"}}}}}}}}"#
    )
}

/// The baseline: the frame read into typed structs, the answer written, with serde_json and nothing else.
#[allow(clippy::disallowed_methods, reason = "serde_json's own reader, as any server reads a frame")]
fn baseline(frame: &str) -> String {
    #[derive(Deserialize)]
    struct Request<'a> {
        #[allow(dead_code, reason = "read, as any server reads it")]
        jsonrpc: &'a str,
        id: u64,
        #[allow(dead_code, reason = "read, as any server reads it")]
        method: &'a str,
        params: Params,
    }
    #[derive(Deserialize)]
    struct Params {
        #[allow(dead_code, reason = "read, as any server reads it")]
        name: String,
        arguments: EchoArgs,
    }
    #[derive(Serialize)]
    struct Response<'a> {
        jsonrpc: &'a str,
        id: u64,
        result: CallResult,
    }
    #[derive(Serialize)]
    struct CallResult {
        content: [Text; 1],
    }
    #[derive(Serialize)]
    struct Text {
        #[serde(rename = "type")]
        kind: &'static str,
        text: String,
    }
    let request: Request<'_> = serde_json::from_str(frame).expect("a valid frame");
    let text = request.params.arguments.text;
    let result = CallResult { content: [Text { kind: "text", text }] };
    serde_json::to_string(&Response { jsonrpc: "2.0", id: request.id, result }).expect("serializable")
}

/// Median µs per call over [`ROUNDS`] rounds of `frames`.
fn per_call(frames: &[String], mut call: impl FnMut(&str) -> String) -> f64 {
    let mut rounds: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            for frame in frames {
                black_box(call(frame));
            }
            start.elapsed().as_secs_f64() * 1e6 / frames.len() as f64
        })
        .collect();
    rounds.sort_by(f64::total_cmp);
    rounds[ROUNDS / 2]
}

fn main() {
    let calls: usize = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(100_000);
    let mut handshake = Driven::new();
    handshake.answer(
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1.0.0"}}}"#,
    );
    handshake.session.handle(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    let mut modern = Driven::new();
    println!("tools/call echo, µs per call, median of {ROUNDS} rounds of {calls} calls (same run)");
    println!("{:<38} {:>9} {:>9} {:>7}", "era", "session", "serde", "ratio");
    for (era, driven, make) in [
        ("2025-11-25 (after initialize)", &mut handshake, handshake_call as fn(usize) -> String),
        ("2026-07-28 (each request its _meta)", &mut modern, modern_call),
    ] {
        let frames: Vec<String> = (1..=calls).map(make).collect();
        let answer = driven.answer(&frames[0]);
        assert!(answer.contains(r#""text":"ping""#), "{answer}");
        let ours = per_call(&frames, |frame| driven.answer(frame));
        let floor = per_call(&frames, baseline);
        println!("{era:<38} {ours:>9.2} {floor:>9.2} {:>6.2}x", ours / floor);
    }
}
