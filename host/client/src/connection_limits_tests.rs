//! What bounds a server's notifications and requests to the host.

use super::*;
use crate::limits::TOO_MANY_REQUESTS;
use crate::server_requests::{ServerRequest, ServerRequestHandlers};
use futures_executor::{LocalPool, block_on};
use futures_util::task::LocalSpawnExt;
use serde_json::{Value, json};
use std::cell::Cell;

struct Rig {
    connection: Connection,
    sent: Rc<RefCell<Vec<String>>>,
    now: Rc<Cell<f64>>,
    reports: Rc<RefCell<Vec<FloodReport>>>,
    notified: Rc<RefCell<Vec<String>>>,
}

fn rig(limits: NotificationLimits) -> Rig {
    let sent = Rc::new(RefCell::new(Vec::new()));
    let now = Rc::new(Cell::new(0.0));
    let (sink_log, clock_now) = (sent.clone(), now.clone());
    let connection = Connection::new(
        "srv",
        Box::new(move |frame| {
            sink_log.borrow_mut().push(frame.to_owned());
            Ok(())
        }),
        Rc::new(move || clock_now.get()),
    );
    connection.set_notification_limits(limits);
    let reports = Rc::new(RefCell::new(Vec::new()));
    let log = reports.clone();
    connection.set_flood_handler(Some(Rc::new(move |report: &FloodReport| log.borrow_mut().push(*report))));
    let notified = Rc::new(RefCell::new(Vec::new()));
    let log = notified.clone();
    connection.set_notification_handler(Some(Rc::new(move |n: &Notification| log.borrow_mut().push(n.method.clone()))));
    Rig { connection, sent, now, reports, notified }
}

impl Rig {
    fn frames(&self) -> Vec<Value> {
        self.sent.borrow_mut().drain(..).map(|f| serde_json::from_str(&f).unwrap()).collect()
    }

    fn at(&self, ms: f64) {
        self.now.set(ms);
        self.connection.sweep();
    }
}

fn log_frame(i: usize) -> String {
    format!(r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"level":"info","data":"line {i}"}}}}"#)
}

#[test]
fn a_server_that_floods_past_the_bound_is_disconnected_after_a_last_report() {
    let rig = rig(NotificationLimits::default());
    let call = rig.connection.request::<()>("tools/call", None, RequestOptions::default());
    for i in 0..100_000 {
        rig.connection.receive(&log_frame(i));
    }
    assert_eq!(rig.notified.borrow().len(), 500, "the burst");
    let reports = rig.reports.borrow().clone();
    assert_eq!(reports.len(), 1, "{reports:?}");
    assert_eq!(reports[0].log_dropped, 501, "reported at once, before the disconnection");
    let closed = rig.connection.closed_reason().expect("disconnected");
    assert!(matches!(closed, Error::Protocol { ref server, .. } if server == "srv"), "{closed}");
    assert!(closed.to_string().contains("more than 500 notifications over its limit"), "{closed}");
    let failed = block_on(call).unwrap_err();
    assert_eq!(failed.to_string(), closed.to_string(), "the call in flight fails at once with the cause");
}

#[test]
fn large_log_messages_weigh_what_they_carry() {
    let rig = rig(NotificationLimits::default());
    let big = format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"level":"info","data":"{}"}}}}"#,
        "x".repeat(600 * 1024)
    );
    for _ in 0..3 {
        rig.connection.receive(&big);
    }
    assert_eq!(rig.notified.borrow().len(), 1, "a message of 600 KiB takes the whole bucket (500 tokens)");
    let closed = rig.connection.closed_reason().expect("one more is over the bound's 500 KiB");
    assert!(closed.to_string().contains("notifications over its limit"), "{closed}");
    assert_eq!(rig.reports.borrow()[0].log_dropped, 1);
}

#[test]
fn dropping_within_the_bound_each_second_keeps_the_server() {
    let rig = rig(NotificationLimits::new(1_000, 2_000).max_dropped_per_second(1_000));
    for second in 0..5 {
        rig.at(f64::from(second) * 1_000.0);
        for i in 0..2_000 {
            rig.connection.receive(&log_frame(i));
        }
    }
    assert!(rig.connection.closed_reason().is_none(), "{:?}", rig.connection.closed_reason());
    let delivered = rig.notified.borrow().len();
    assert_eq!(delivered, 2_000 + 4 * 1_000, "the burst, then a second's worth each second, 1,000 dropped each");
}

#[test]
fn a_flood_of_log_messages_delivers_the_bucket_and_one_report() {
    let rig = rig(NotificationLimits::new(1_000, 2_000).max_dropped_per_second(0));
    for i in 0..100_000 {
        rig.connection.receive(&log_frame(i));
    }
    assert_eq!(rig.notified.borrow().len(), 2_000, "the burst, and nothing more within the same instant");
    rig.at(0.0);
    rig.at(500.0);
    let reports = rig.reports.borrow().clone();
    assert_eq!(reports.len(), 1, "at most one report a second: {reports:?}");
    assert_eq!(reports[0].log_dropped, 98_000);
    assert_eq!(reports[0].other_dropped + reports[0].progress_coalesced, 0);
    // Half a second later, 500 more fit; the next report comes a second after the first.
    for i in 0..1_000 {
        rig.connection.receive(&log_frame(i));
    }
    assert_eq!(rig.notified.borrow().len(), 2_500);
    rig.at(999.0);
    assert_eq!(rig.reports.borrow().len(), 1);
    rig.at(1_000.0);
    assert_eq!(rig.reports.borrow()[1].log_dropped, 500);
    rig.at(3_000.0);
    assert_eq!(rig.reports.borrow().len(), 2, "nothing dropped, nothing reported");
}

#[test]
fn a_log_message_in_another_layout_is_counted_all_the_same() {
    let rig = rig(NotificationLimits::new(1, 1));
    let frame = r#"{"params":{"level":"info","data":"x"},"method":"notifications/message","jsonrpc":"2.0"}"#;
    for _ in 0..10 {
        rig.connection.receive(frame);
    }
    rig.at(0.0);
    assert_eq!(rig.notified.borrow().len(), 1);
    assert_eq!(rig.reports.borrow()[0].log_dropped, 9);
}

fn progress(token: i64, value: u32) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":{token},"progress":{value}}}}}"#
    )
}

#[test]
fn progress_over_the_rate_is_coalesced_and_the_last_value_reaches_the_caller() {
    let rig = rig(NotificationLimits::new(10, 2));
    let seen = Rc::new(RefCell::new(Vec::new()));
    let log = seen.clone();
    let options = RequestOptions {
        on_progress: Some(Rc::new(move |p: &ProgressParams| log.borrow_mut().push(p.progress))),
        ..RequestOptions::default()
    };
    let call = rig.connection.request("tools/call", Some(&json!({})), options);
    for value in 1..=50 {
        rig.connection.receive(&progress(1, value));
    }
    assert_eq!(*seen.borrow(), [1.0, 2.0]);
    // A tenth of a second gives one token: the latest value so far.
    rig.at(100.0);
    assert_eq!(*seen.borrow(), [1.0, 2.0, 50.0]);
    for value in 51..=60 {
        rig.connection.receive(&progress(1, value));
    }
    // The answer comes before any token: the last progress still reaches the caller first.
    rig.connection.receive(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
    block_on(call).unwrap();
    assert_eq!(*seen.borrow(), [1.0, 2.0, 50.0, 60.0]);
    rig.at(1_100.0);
    let reports: Vec<u64> = rig.reports.borrow().iter().map(|r| r.progress_coalesced).collect();
    assert_eq!(reports, [47, 9], "reported at the first sweep, then a second later");
}

#[test]
fn list_changes_over_the_rate_are_coalesced_per_list() {
    let rig = rig(NotificationLimits::new(10, 1));
    rig.connection.receive(r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":1}}"#);
    for _ in 0..100 {
        rig.connection.receive(r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#);
        rig.connection.receive(r#"{"jsonrpc":"2.0","method":"notifications/prompts/list_changed"}"#);
        rig.connection.receive(r#"{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"a"}}"#);
    }
    // One token at a time (the burst is 1): each sweep delivers one list change.
    rig.at(1_000.0);
    rig.at(2_000.0);
    rig.at(3_000.0);
    let notified = rig.notified.borrow().clone();
    assert_eq!(
        notified,
        ["notifications/message", "notifications/tools/list_changed", "notifications/prompts/list_changed"]
    );
    let report = rig.reports.borrow()[0];
    assert_eq!((report.list_changed_coalesced, report.other_dropped), (198, 100));
}

#[test]
fn without_limits_every_notification_is_delivered() {
    let rig = rig(NotificationLimits::unlimited());
    for i in 0..10_000 {
        rig.connection.receive(&log_frame(i));
    }
    rig.at(1_000.0);
    assert_eq!(rig.notified.borrow().len(), 10_000);
    assert!(rig.reports.borrow().is_empty());
}

/// Handlers on `pool` whose elicitation and sampling futures never end; `called` counts the calls.
fn waiting_handlers(pool: &LocalPool, called: &Rc<Cell<usize>>) -> ServerRequestHandlers {
    let spawner = pool.spawner();
    let handler: crate::server_requests::RequestHandler = {
        let called = called.clone();
        Rc::new(move |_: ServerRequest| {
            called.set(called.get() + 1);
            Box::pin(futures_util::future::pending())
        })
    };
    ServerRequestHandlers::new(Rc::new(move |f| {
        let _ = spawner.spawn_local(f);
    }))
    .on_elicitation(handler.clone())
    .on_sampling(handler)
}

fn elicit(id: usize) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"elicitation/create","params":{{"message":"?"}}}}"#)
}

#[test]
fn the_ninth_waiting_request_is_refused_without_reaching_the_application() {
    let mut pool = LocalPool::new();
    let rig = rig(NotificationLimits::default());
    let called = Rc::new(Cell::new(0));
    rig.connection.set_server_request_handlers(Some(waiting_handlers(&pool, &called)));
    for id in 1..=9 {
        rig.connection.receive(&elicit(id));
    }
    pool.run_until_stalled();
    assert_eq!(called.get(), 8);
    let frames = rig.frames();
    assert_eq!(frames.len(), 1);
    assert_eq!(frames[0]["id"], 9);
    assert_eq!(frames[0]["error"]["code"], TOO_MANY_REQUESTS);
    assert!(frames[0]["error"]["message"].as_str().unwrap().contains("too many pending requests"));
    // `ping` is answered whatever waits.
    rig.connection.receive(r#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#);
    assert_eq!(rig.frames()[0]["result"], json!({}));
    rig.at(0.0);
    assert_eq!(rig.reports.borrow()[0].requests_refused, 1);
    // Once one is cancelled by the server, there is room again.
    rig.connection.receive(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}"#);
    rig.connection.receive(&elicit(10));
    pool.run_until_stalled();
    assert_eq!(called.get(), 9);
    assert!(rig.frames().is_empty());
}

#[test]
fn a_request_that_waits_too_long_is_answered_with_an_error_and_its_handler_dropped() {
    let mut pool = LocalPool::new();
    let rig = rig(NotificationLimits::default());
    rig.connection.set_server_request_limits(ServerRequestLimits::new(8, 60_000));
    let called = Rc::new(Cell::new(0));
    let seen = Rc::new(RefCell::new(None));
    let keep = seen.clone();
    let spawner = pool.spawner();
    let handlers = ServerRequestHandlers::new(Rc::new(move |f| {
        let _ = spawner.spawn_local(f);
    }))
    .on_elicitation(Rc::new(move |request: ServerRequest| {
        *keep.borrow_mut() = Some(request.timed_out.clone());
        Box::pin(futures_util::future::pending())
    }));
    rig.connection.set_server_request_handlers(Some(handlers));
    rig.connection.receive(&elicit(1));
    pool.run_until_stalled();
    rig.at(59_999.0);
    assert!(rig.frames().is_empty());
    rig.at(60_000.0);
    pool.run_until_stalled();
    let frames = rig.frames();
    assert_eq!(frames[0]["id"], 1);
    assert_eq!(frames[0]["error"]["code"], -32001);
    assert_eq!(
        frames[0]["error"]["message"],
        "elicitation/create timed out after 60000 ms waiting for the host's answer"
    );
    assert!(seen.borrow().as_ref().unwrap().get(), "the handler can tell it timed out");
    assert_eq!(rig.connection.server_requests_waiting(), 0);
    assert_eq!(called.get(), 0);
}
