use super::*;
use futures_executor::block_on;
use futures_util::FutureExt;
use serde_json::{Value, json};
use std::cell::Cell;

/// A connection whose frames are captured and whose clock the test sets.
struct Rig {
    connection: Connection,
    sent: Rc<RefCell<Vec<String>>>,
    now: Rc<Cell<f64>>,
}

fn rig() -> Rig {
    let sent = Rc::new(RefCell::new(Vec::new()));
    let now = Rc::new(Cell::new(0.0));
    let sink_log = sent.clone();
    let clock_now = now.clone();
    let connection = Connection::new(
        "srv",
        Box::new(move |frame| {
            sink_log.borrow_mut().push(frame.to_owned());
            Ok(())
        }),
        Rc::new(move || clock_now.get()),
    );
    Rig { connection, sent, now }
}

impl Rig {
    fn frames(&self) -> Vec<Value> {
        self.sent.borrow_mut().drain(..).map(|f| serde_json::from_str(&f).unwrap()).collect()
    }
}

#[test]
fn responses_resolve_the_request_with_the_same_id() {
    let rig = rig();
    let a = rig.connection.request("ping", None::<&()>, RequestOptions::default());
    let b = rig.connection.request("tools/list", Some(&json!({})), RequestOptions::default());
    let frames = rig.frames();
    assert_eq!(frames[0], json!({"jsonrpc":"2.0","id":1,"method":"ping"}));
    assert_eq!(frames[1]["id"], 2);
    // Answers in the other order still reach the right request.
    rig.connection.receive(r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}"#);
    rig.connection.receive(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
    assert_eq!(block_on(b).unwrap().get(), r#"{"tools":[]}"#);
    assert_eq!(block_on(a).unwrap().get(), "{}");
    assert_eq!(rig.connection.pending_count(), 0);
}

#[test]
fn an_error_response_names_server_and_method() {
    let rig = rig();
    let call = rig.connection.request("tools/call", Some(&json!({"name":"x"})), RequestOptions::default());
    rig.connection.receive(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Unknown tool: x"}}"#);
    let err = block_on(call).unwrap_err();
    assert!(matches!(&err, Error::Rpc { error, .. } if error.code == -32602));
    assert_eq!(err.to_string(), "server srv: tools/call failed: Unknown tool: x (code -32602)");
}

#[test]
fn closing_fails_every_pending_request_at_once() {
    let rig = rig();
    let calls: Vec<_> =
        (0..5).map(|_| rig.connection.request("ping", None::<&()>, RequestOptions::default())).collect();
    rig.connection.close(Error::WorkerCrashed { server: "srv".into(), cause: "boom".into() });
    for call in calls {
        let err = call.now_or_never().expect("resolved at once").unwrap_err();
        assert_eq!(err.to_string(), "server srv: worker crashed: boom");
    }
    // Later requests fail fast with the same cause, and nothing more is written.
    rig.frames();
    let late = rig.connection.request("ping", None::<&()>, RequestOptions::default());
    assert!(matches!(late.now_or_never(), Some(Err(Error::WorkerCrashed { .. }))));
    assert!(rig.frames().is_empty());
}

#[test]
fn overdue_requests_time_out_and_are_cancelled_at_the_server() {
    let rig = rig();
    let slow = rig.connection.request("tools/call", Some(&json!({})), RequestOptions::timeout(1_000));
    let patient = rig.connection.request("ping", None::<&()>, RequestOptions::default());
    rig.frames();
    rig.now.set(999.0);
    assert_eq!(rig.connection.sweep(), 0);
    rig.now.set(1_000.0);
    assert_eq!(rig.connection.sweep(), 1);
    let err = slow.now_or_never().expect("resolved").unwrap_err();
    assert_eq!(err.to_string(), "server srv: tools/call timed out after 1000 ms");
    let frames = rig.frames();
    assert_eq!(
        frames,
        vec![
            json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"timed out after 1000 ms"}})
        ]
    );
    // A late answer is ignored; the request without a timeout still waits.
    rig.connection.receive(r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#);
    assert_eq!(rig.connection.pending_count(), 1);
    rig.connection.receive(r#"{"jsonrpc":"2.0","id":2,"result":{}}"#);
    assert!(block_on(patient).is_ok());
}

#[test]
fn dropping_a_request_cancels_it_at_the_server() {
    let rig = rig();
    let call = rig.connection.request("tools/call", Some(&json!({})), RequestOptions::default());
    rig.frames();
    drop(call);
    assert_eq!(rig.connection.pending_count(), 0);
    let frames = rig.frames();
    assert_eq!(frames[0]["method"], "notifications/cancelled");
    assert_eq!(frames[0]["params"]["requestId"], 1);
    // A finished request sends nothing when dropped: the request itself is the only frame.
    let done = rig.connection.request("ping", None::<&()>, RequestOptions::default());
    rig.connection.receive(r#"{"jsonrpc":"2.0","id":2,"result":{}}"#);
    block_on(done).unwrap();
    assert_eq!(rig.frames(), vec![json!({"jsonrpc":"2.0","id":2,"method":"ping"})]);
}

#[test]
fn progress_reaches_the_handler_of_its_request() {
    let rig = rig();
    let seen = Rc::new(RefCell::new(Vec::new()));
    let log = seen.clone();
    let options = RequestOptions {
        on_progress: Some(Rc::new(move |p: &ProgressParams| log.borrow_mut().push((p.progress, p.total)))),
        ..RequestOptions::default()
    };
    let call = rig.connection.request("tools/call", Some(&json!({})), options);
    rig.connection.receive(
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":50,"total":100}}"#,
    );
    rig.connection
        .receive(r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":99,"progress":1}}"#);
    rig.connection.receive(r#"{"jsonrpc":"2.0","method":"notifications/progress","params":"junk"}"#);
    rig.connection.receive(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
    block_on(call).unwrap();
    assert_eq!(*seen.borrow(), vec![(50.0, Some(100.0))]);
}

#[test]
fn the_server_may_ping_and_other_requests_are_refused() {
    let rig = rig();
    rig.connection.receive(r#"{"jsonrpc":"2.0","id":"s1","method":"ping"}"#);
    rig.connection.receive(r#"{"jsonrpc":"2.0","id":"s2","method":"sampling/createMessage","params":{}}"#);
    let frames = rig.frames();
    assert_eq!(frames[0], json!({"jsonrpc":"2.0","id":"s1","result":{}}));
    assert_eq!(frames[1]["error"]["code"], -32601);
}

#[test]
fn garbage_from_the_server_never_breaks_the_connection() {
    let rig = rig();
    let call = rig.connection.request("ping", None::<&()>, RequestOptions::default());
    rig.frames();
    for frame in [
        "",
        "nonsense",
        "[]",
        "{}",
        r#"{"jsonrpc":"2.0","id":1}"#,
        r#"{"jsonrpc":"2.0","id":"1","result":{}}"#,
        r#"{"jsonrpc":"2.0","id":77,"result":{}}"#,
    ] {
        rig.connection.receive(frame);
    }
    assert_eq!(rig.connection.pending_count(), 1, "no garbage resolved the request");
    rig.connection.receive(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
    assert!(block_on(call).is_ok());
    // Frames that are neither responses nor notifications got an error answer; the rest got nothing.
    let answered: Vec<i64> = rig.frames().iter().map(|f| f["error"]["code"].as_i64().unwrap()).collect();
    assert_eq!(answered, vec![-32700, -32700, -32600, -32600, -32600]);
}

#[test]
fn other_notifications_go_to_the_notification_handler() {
    let rig = rig();
    let seen = Rc::new(RefCell::new(Vec::new()));
    let log = seen.clone();
    rig.connection
        .set_notification_handler(Some(Rc::new(move |n: &Notification| log.borrow_mut().push(n.method.clone()))));
    rig.connection.receive(r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#);
    assert_eq!(*seen.borrow(), vec!["notifications/tools/list_changed".to_owned()]);
}

#[test]
fn a_sink_failure_fails_the_request_instead_of_hanging() {
    let connection = Connection::new("srv", Box::new(|_| Err(SendError::new("port closed"))), Rc::new(|| 0.0));
    let call = connection.request("ping", None::<&()>, RequestOptions::default());
    let err = call.now_or_never().expect("resolved at once").unwrap_err();
    assert_eq!(err.to_string(), "server srv: connection closed: port closed");
}

#[test]
fn initialize_is_never_cancelled() {
    let rig = rig();
    let init = rig.connection.request("initialize", Some(&json!({})), RequestOptions::timeout(10));
    rig.frames();
    rig.now.set(10.0);
    assert_eq!(rig.connection.sweep(), 1);
    assert!(matches!(init.now_or_never(), Some(Err(Error::Timeout { .. }))));
    let dropped = rig.connection.request("initialize", Some(&json!({})), RequestOptions::default());
    rig.frames();
    drop(dropped);
    assert!(rig.frames().is_empty(), "no notifications/cancelled for initialize");
}

#[test]
fn progress_moves_the_deadline_up_to_the_hard_maximum() {
    let rig = rig();
    let options = RequestOptions {
        timeout_ms: Some(100),
        reset_on_progress: true,
        max_total_ms: Some(250),
        ..RequestOptions::default()
    };
    let call = rig.connection.request("tools/call", Some(&json!({})), options);
    let progress = r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}"#;
    rig.now.set(90.0);
    rig.connection.receive(progress);
    rig.now.set(150.0);
    assert_eq!(rig.connection.sweep(), 0, "progress at 90 ms moved the deadline to 190 ms");
    rig.connection.receive(progress);
    rig.now.set(249.0);
    assert_eq!(rig.connection.sweep(), 0);
    rig.connection.receive(progress);
    rig.now.set(250.0);
    assert_eq!(rig.connection.sweep(), 1, "the hard maximum binds whatever progress comes");
    let err = call.now_or_never().expect("resolved").unwrap_err();
    assert_eq!(err.to_string(), "server srv: tools/call timed out after 250 ms");
}

#[test]
fn without_reset_progress_does_not_move_the_deadline() {
    let rig = rig();
    let _call = rig.connection.request("tools/call", Some(&json!({})), RequestOptions::timeout(100));
    rig.now.set(90.0);
    rig.connection
        .receive(r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}"#);
    rig.now.set(100.0);
    assert_eq!(rig.connection.sweep(), 1);
}

#[test]
fn the_close_handler_hears_the_cause_once() {
    let rig = rig();
    let seen = Rc::new(RefCell::new(Vec::new()));
    let log = seen.clone();
    rig.connection.set_close_handler(Some(Rc::new(move |e: &Error| log.borrow_mut().push(e.to_string()))));
    rig.connection.close(Error::WorkerCrashed { server: "srv".into(), cause: "boom".into() });
    rig.connection.close(Error::Closed { server: "srv".into(), reason: "again".into() });
    assert_eq!(*seen.borrow(), vec!["server srv: worker crashed: boom".to_owned()]);
    // Set after the fact: told at once.
    let late = Rc::new(Cell::new(false));
    let flag = late.clone();
    rig.connection.set_close_handler(Some(Rc::new(move |_: &Error| flag.set(true))));
    assert!(late.get());
}

#[test]
fn cancellations_and_progress_after_them_are_reported() {
    let rig = rig();
    let events = Rc::new(RefCell::new(Vec::new()));
    let log = events.clone();
    rig.connection.set_cancel_handler(Some(Rc::new(move |e: &CancelEvent| log.borrow_mut().push(*e))));
    let call = rig.connection.request("tools/call", Some(&json!({})), RequestOptions::timeout(100));
    rig.now.set(100.0);
    rig.connection.sweep();
    drop(call);
    rig.now.set(400.0);
    rig.connection
        .receive(r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":2}}"#);
    assert_eq!(
        *events.borrow(),
        vec![CancelEvent::Sent { id: 1 }, CancelEvent::ProgressAfterCancel { id: 1, since_ms: 300.0 }]
    );
    // A late answer means the server stopped: later progress for it is no longer reported.
    rig.connection.receive(r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#);
    rig.connection
        .receive(r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":3}}"#);
    assert_eq!(events.borrow().len(), 2);
}

mod server_requests {
    use super::*;
    use crate::server_requests::{ServerRequest, ServerRequestHandlers};
    use futures_executor::LocalPool;
    use futures_util::task::LocalSpawnExt;
    use mcp_worker_protocol::ErrorObject;

    fn handlers(pool: &LocalPool) -> ServerRequestHandlers {
        let spawner = pool.spawner();
        ServerRequestHandlers::new(Rc::new(move |f| {
            let _ = spawner.spawn_local(f);
        }))
    }

    #[test]
    fn a_registered_handler_answers_and_others_are_refused() {
        let mut pool = LocalPool::new();
        let rig = rig();
        let seen = Rc::new(RefCell::new(None));
        let log = seen.clone();
        let h = handlers(&pool).on_elicitation(Rc::new(move |request: ServerRequest| {
            *log.borrow_mut() = Some(request.clone());
            Box::pin(async move { Ok(json!({"action": "accept", "content": {"ok": true}})) })
        }));
        rig.connection.set_server_request_handlers(Some(h));
        rig.connection
            .receive(r#"{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"message":"Sure?"}}"#);
        rig.connection.receive(r#"{"jsonrpc":"2.0","id":8,"method":"sampling/createMessage","params":{}}"#);
        pool.run_until_stalled();
        let frames = rig.frames();
        assert_eq!(frames[0]["id"], 8);
        assert_eq!(frames[0]["error"]["code"], -32601, "no sampling handler");
        assert_eq!(frames[1], json!({"jsonrpc":"2.0","id":7,"result":{"action":"accept","content":{"ok":true}}}));
        let request = seen.borrow().clone().unwrap();
        assert_eq!((request.server.as_str(), request.method.as_str()), ("srv", "elicitation/create"));
        assert_eq!(request.params, json!({"message": "Sure?"}));
    }

    #[test]
    fn a_handler_error_is_sent_as_a_json_rpc_error() {
        let mut pool = LocalPool::new();
        let rig = rig();
        let h = handlers(&pool)
            .on_roots(Rc::new(|_| Box::pin(async { Err(ErrorObject::invalid_params("no roots for you")) })));
        rig.connection.set_server_request_handlers(Some(h));
        rig.connection.receive(r#"{"jsonrpc":"2.0","id":"r","method":"roots/list"}"#);
        pool.run_until_stalled();
        let frames = rig.frames();
        assert_eq!(frames[0]["error"]["code"], -32602);
        assert_eq!(frames[0]["error"]["message"], "no roots for you");
    }

    #[test]
    fn a_request_the_server_cancels_is_dropped_and_never_answered() {
        let mut pool = LocalPool::new();
        let rig = rig();
        let (tx, rx) = futures_channel::oneshot::channel::<()>();
        let rx = Rc::new(RefCell::new(Some(rx)));
        let dropped = Rc::new(Cell::new(false));
        let flag = dropped.clone();
        let h = handlers(&pool).on_sampling(Rc::new(move |_| {
            let rx = rx.borrow_mut().take();
            let guard = DropFlag(flag.clone());
            Box::pin(async move {
                let _guard = guard;
                if let Some(rx) = rx {
                    let _ = rx.await;
                }
                Ok(json!({}))
            })
        }));
        rig.connection.set_server_request_handlers(Some(h));
        rig.connection.receive(r#"{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{}}"#);
        pool.run_until_stalled();
        rig.connection.receive(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#);
        let _ = tx.send(());
        pool.run_until_stalled();
        assert!(dropped.get(), "the handler's future was dropped");
        assert!(rig.frames().is_empty(), "no answer to a cancelled request");
    }

    struct DropFlag(Rc<Cell<bool>>);
    impl Drop for DropFlag {
        fn drop(&mut self) {
            self.0.set(true);
        }
    }
}

/// What a recorded callback was called with: the raw result text, or the error's text.
type Seen = Rc<RefCell<Vec<std::result::Result<String, String>>>>;

/// A callback that records what it was called with.
fn recorder() -> (Seen, ReplyCallback) {
    let seen: Seen = Rc::default();
    let log = seen.clone();
    let callback: ReplyCallback =
        Box::new(move |outcome| log.borrow_mut().push(outcome.map(|r| r.get().to_owned()).map_err(|e| e.to_string())));
    (seen, callback)
}

#[test]
fn a_callback_request_is_answered_from_the_receive_path_itself() {
    let rig = rig();
    let (seen, callback) = recorder();
    let id = rig.connection.next_request_id();
    rig.connection.request_with_callback(
        id,
        "tools/call",
        Some(&json!({"name": "x"})),
        RequestOptions::default(),
        callback,
    );
    assert_eq!(rig.frames()[0]["params"]["name"], "x");
    rig.connection.receive(r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#);
    assert_eq!(*seen.borrow(), vec![Ok(r#"{"content":[]}"#.to_owned())], "called during receive, no executor");
}

#[test]
fn a_callback_request_times_out_fails_on_close_and_can_be_abandoned() {
    let rig = rig();
    let (timed, callback) = recorder();
    rig.connection.request_with_callback(1, "tools/call", Some(&json!({})), RequestOptions::timeout(5), callback);
    let (closed, callback) = recorder();
    rig.connection.request_with_callback(2, "tools/call", Some(&json!({})), RequestOptions::default(), callback);
    let (abandoned, callback) = recorder();
    rig.connection.request_with_callback(3, "tools/call", Some(&json!({})), RequestOptions::default(), callback);
    rig.frames();

    rig.now.set(5.0);
    rig.connection.sweep();
    assert_eq!(*timed.borrow(), vec![Err("server srv: tools/call timed out after 5 ms".to_owned())]);

    rig.connection.abandon(3, "aborted by the caller");
    let frames = rig.frames();
    assert_eq!(frames.last().unwrap()["params"], json!({"requestId": 3, "reason": "aborted by the caller"}));
    assert!(abandoned.borrow().is_empty(), "an abandoned callback is never called");

    rig.connection.close(Error::Closed { server: "srv".into(), reason: "bye".into() });
    assert_eq!(*closed.borrow(), vec![Err("server srv: connection closed: bye".to_owned())]);
    let (late, callback) = recorder();
    rig.connection.request_with_callback(9, "tools/call", Some(&json!({})), RequestOptions::default(), callback);
    assert_eq!(
        *late.borrow(),
        vec![Err("server srv: connection closed: bye".to_owned())],
        "a closed connection answers at once"
    );
}

#[test]
fn a_request_answered_by_the_transport_is_forgotten_and_a_late_answer_is_told_apart() {
    let rig = rig();
    let (seen, callback) = recorder();
    let id = rig.connection.next_request_id();
    rig.connection.request_with_callback(id, "tools/call", Some(&json!({})), RequestOptions::timeout(5), callback);
    assert!(rig.connection.take_answered(id), "pending: the transport answers it");
    rig.now.set(10.0);
    rig.connection.sweep();
    assert!(seen.borrow().is_empty(), "a request the transport answered neither times out nor is answered twice");
    assert!(!rig.connection.take_answered(id), "a second answer is late");
    let (timed, callback) = recorder();
    rig.connection.request_with_callback(7, "tools/call", Some(&json!({})), RequestOptions::timeout(5), callback);
    rig.now.set(20.0);
    rig.connection.sweep();
    assert_eq!(timed.borrow().len(), 1);
    assert!(!rig.connection.take_answered(7), "an answer after the timeout is late");
}

#[test]
fn a_request_whose_frame_the_transport_sends_is_answered_like_any_other() {
    let rig = rig();
    let (seen, callback) = recorder();
    let id = rig.connection.next_request_id();
    assert!(rig.connection.expect_reply(id, "tools/call", RequestOptions::default(), callback));
    assert!(rig.frames().is_empty(), "the transport sends the frame itself");
    rig.connection.receive(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Unknown tool: x"}}"#);
    assert_eq!(*seen.borrow(), vec![Err("server srv: tools/call failed: Unknown tool: x (code -32602)".to_owned())]);
    rig.connection.close(Error::Closed { server: "srv".into(), reason: "bye".into() });
    let (late, callback) = recorder();
    assert!(!rig.connection.expect_reply(2, "tools/call", RequestOptions::default(), callback));
    assert_eq!(
        *late.borrow(),
        vec![Err("server srv: connection closed: bye".to_owned())],
        "a closed connection answers at once"
    );
}
