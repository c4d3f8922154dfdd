//! Detached strings: with a transport that asked for them, a result's large strings travel beside its frame, and
//! putting them back where their markers are gives exactly the frame a plain session sends.

use futures_executor::LocalPool;
use futures_util::task::LocalSpawnExt;
use mcp_worker_sdk::protocol::{ContentBlock, ResourceContents};
use mcp_worker_sdk::{
    DETACH_FROM_BYTES, DetachedFrame, DetachedOutbound, Env, NoArgs, Outbound, ResourceDef, Server, Session, Spawner,
    ToolDef,
};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::rc::Rc;

/// Text with what JSON must escape (quotes, a backslash, a control character) and what it need not (non-ASCII).
fn large_text(bytes: usize) -> String {
    let unit = "a \"quoted\" \\ line\u{1}, café ✓\n";
    unit.repeat(bytes / unit.len() + 1)
}

fn server() -> Server {
    Server::new("detached", "1.0.0")
        .tool(ToolDef::new("large", |_: NoArgs| async { large_text(DETACH_FROM_BYTES * 3) }).read_only())
        .tool(ToolDef::new("small", |_: NoArgs| async { large_text(DETACH_FROM_BYTES / 4) }).read_only())
        .tool(
            ToolDef::new("mixed", |_: NoArgs| async {
                vec![
                    ContentBlock::text("short"),
                    ContentBlock::text(large_text(DETACH_FROM_BYTES)),
                    ContentBlock::image("A".repeat(DETACH_FROM_BYTES * 2), "image/png"),
                ]
            })
            .read_only(),
        )
        .resource(ResourceDef::new("test://big", "big", |_| async {
            vec![ResourceContents::blob("test://big", Some("application/octet-stream"), "Q".repeat(DETACH_FROM_BYTES))]
        }))
}

struct Wire {
    pool: LocalPool,
    session: Session,
    plain: Rc<RefCell<Vec<String>>>,
    detached: Rc<RefCell<Vec<DetachedFrame>>>,
}

impl Wire {
    fn new(detach: bool) -> Self {
        let pool = LocalPool::new();
        let spawner = pool.spawner();
        let (plain, detached) = (Rc::new(RefCell::new(Vec::new())), Rc::new(RefCell::new(Vec::new())));
        let sink = plain.clone();
        let out: Outbound = Rc::new(move |frame| sink.borrow_mut().push(frame));
        let spawn: Spawner = Rc::new(move |task| spawner.spawn_local(task).unwrap());
        let session = server().into_session(Env::default(), out, spawn).unwrap();
        if detach {
            let sink = detached.clone();
            let out: DetachedOutbound = Rc::new(move |frame| sink.borrow_mut().push(frame));
            session.enable_detached_strings(out);
        }
        let mut wire = Self { pool, session, plain, detached };
        wire.send(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#);
        wire.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        wire.plain.borrow_mut().clear();
        wire
    }

    fn send(&mut self, frame: &str) {
        self.session.handle(frame);
        self.pool.run_until_stalled();
    }
}

/// The frame with each detached string put back, as the host's text path does: the quoted marker replaced by the
/// string as JSON.
fn put_back(frame: &DetachedFrame) -> String {
    frame.strings.iter().fold(frame.json.clone(), |json, (marker, text)| {
        let quoted = Value::from(marker.as_str()).to_string();
        assert_eq!(json.matches(&quoted).count(), 1, "each marker is in the frame once");
        json.replacen(&quoted, &Value::from(text.as_str()).to_string(), 1)
    })
}

/// What a session with detached strings and a plain one send for `request`: (detached frames, plain frames of the
/// detaching session, frames of the plain session).
fn both(request: &Value) -> (Vec<DetachedFrame>, Vec<String>, Vec<String>) {
    let (mut detaching, mut plain) = (Wire::new(true), Wire::new(false));
    detaching.send(&request.to_string());
    plain.send(&request.to_string());
    let detached = detaching.detached.borrow().clone();
    let unsplit = detaching.plain.borrow().clone();
    let expected = plain.plain.borrow().clone();
    (detached, unsplit, expected)
}

#[test]
fn a_large_text_travels_beside_its_frame_and_puts_back_to_the_plain_frame() {
    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "large"}});
    let (detached, plain, expected) = both(&call);
    assert!(plain.is_empty(), "the result went as one frame: {plain:?}");
    assert_eq!(detached.len(), 1);
    let frame = &detached[0];
    assert_eq!(frame.strings.len(), 1);
    assert!(frame.json.len() < 400, "the frame keeps only a marker: {}", frame.json);
    assert_eq!(frame.strings[0].1, large_text(DETACH_FROM_BYTES * 3));
    assert_eq!(put_back(frame), expected[0]);
}

#[test]
fn only_strings_over_the_threshold_are_detached_and_each_gets_its_own_marker() {
    let small = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "small"}});
    let (detached, plain, expected) = both(&small);
    assert!(detached.is_empty());
    assert_eq!(plain, expected);

    let mixed = json!({"jsonrpc": "2.0", "id": "m", "method": "tools/call", "params": {"name": "mixed"}});
    let (detached, _, expected) = both(&mixed);
    let frame = &detached[0];
    assert_eq!(frame.strings.len(), 2, "the text and the image data; not the short text");
    assert_ne!(frame.strings[0].0, frame.strings[1].0);
    assert_eq!(put_back(frame), expected[0]);
}

#[test]
fn a_large_resource_blob_is_detached_too() {
    let read = json!({"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {"uri": "test://big"}});
    let (detached, _, expected) = both(&read);
    assert_eq!(detached[0].strings.len(), 1);
    assert_eq!(put_back(&detached[0]), expected[0]);
}

#[test]
fn markers_differ_between_sessions() {
    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "large"}});
    let (first, _, _) = both(&call);
    let (second, _, _) = both(&call);
    assert_ne!(first[0].strings[0].0, second[0].strings[0].0, "a tool cannot guess the marker of its own session");
}

#[test]
fn a_modern_result_is_detached_the_same_way() {
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "tests", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let call = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "large", "_meta": meta}});
    let (detached, plain, expected) = both(&call);
    assert!(plain.is_empty());
    let restored: Value = serde_json::from_str(&put_back(&detached[0])).unwrap();
    assert_eq!(restored["result"]["resultType"], "complete");
    assert_eq!(restored["result"]["content"][0]["text"], large_text(DETACH_FROM_BYTES * 3));
    assert_eq!(put_back(&detached[0]), expected[0]);
}
