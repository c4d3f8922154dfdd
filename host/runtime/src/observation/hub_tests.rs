use super::*;
use crate::credentials::Secret;
use crate::observation::events::{EventKind, ServerEvent, ServerLogEvent};
use futures_executor::block_on;
use futures_util::StreamExt;
use futures_util::task::noop_waker_ref;
use mcp_worker_protocol::LoggingLevel;
use serde_json::json;
use std::task::{Context, Poll};

fn hub(history: usize) -> ObservationManager {
    let now = Rc::new(Cell::new(1_000.0));
    ObservationManager::new(Rc::new(move || now.get()), "rt", history)
}

fn removed(server: &str) -> EventBody {
    EventBody::ServerRemoved(ServerEvent { server: server.into() })
}

fn log(server: &str, data: serde_json::Value) -> EventBody {
    EventBody::ServerLog(ServerLogEvent { server: server.into(), level: LoggingLevel::Info, logger: None, data })
}

/// The seq and server of each event a subscriber got.
type Seen = Rc<RefCell<Vec<(u64, String)>>>;

/// A callback that records the seq and server of what it gets.
fn recorder() -> (EventCallback, Seen) {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let log = seen.clone();
    let callback: EventCallback =
        Rc::new(move |e: &StatusEvent| log.borrow_mut().push((e.seq, e.server().unwrap_or("").to_owned())));
    (callback, seen)
}

#[test]
fn events_are_numbered_without_gaps_and_delivered_in_order_to_matching_subscribers() {
    let hub = hub(10);
    let (all, seen_all) = recorder();
    let (only_b, seen_b) = recorder();
    hub.subscribe(EventFilter::all(), all);
    hub.subscribe(EventFilter::all().servers(["b"]), only_b);
    for server in ["a", "b", "a", "b"] {
        hub.emit(removed(server));
    }
    let seqs: Vec<u64> = seen_all.borrow().iter().map(|(seq, _)| *seq).collect();
    assert_eq!(seqs, [1, 2, 3, 4]);
    assert_eq!(*seen_b.borrow(), [(2, "b".to_owned()), (4, "b".to_owned())]);
    let history = hub.history(&EventFilter::all(), None);
    assert_eq!(history[0].id, "rt-1");
    assert_eq!(history[0].timestamp, 1_000.0);
    assert_eq!(
        serde_json::to_value(&history[0]).unwrap(),
        json!({
            "id": "rt-1", "seq": 1, "timestamp": 1000.0, "type": "serverRemoved", "server": "a"
        })
    );
}

#[test]
fn an_event_caused_by_a_callback_reaches_everyone_after_the_one_being_delivered() {
    let hub = hub(10);
    let (first, seen_first) = recorder();
    let inner = hub.clone();
    // The first subscriber reacts to "a" by emitting "b" (as a UI that disables a server on an event would).
    hub.subscribe(
        EventFilter::all(),
        Rc::new(move |e: &StatusEvent| {
            first(e);
            if e.server() == Some("a") {
                inner.emit(removed("b"));
            }
        }),
    );
    let (second, seen_second) = recorder();
    hub.subscribe(EventFilter::all(), second);
    hub.emit(removed("a"));
    let expected = [(1, "a".to_owned()), (2, "b".to_owned())];
    assert_eq!(*seen_first.borrow(), expected);
    assert_eq!(*seen_second.borrow(), expected, "the second subscriber sees a before b too");
}

#[test]
fn a_late_subscriber_catches_up_from_the_history_without_gap_or_duplicate() {
    let hub = hub(3);
    for server in ["a", "b", "c", "d"] {
        hub.emit(removed(server));
    }
    let (late, seen) = recorder();
    hub.subscribe_with_history(EventFilter::all(), 0, late);
    hub.emit(removed("e"));
    let seqs: Vec<u64> = seen.borrow().iter().map(|(seq, _)| *seq).collect();
    assert_eq!(seqs, [2, 3, 4, 5], "the 3 kept, then the new one");
    let (resumed, seen_resumed) = recorder();
    hub.subscribe_with_history(EventFilter::all(), 4, resumed);
    assert_eq!(seen_resumed.borrow().len(), 1, "only what came after seq 4");
}

#[test]
fn subscribing_or_unsubscribing_inside_a_callback_takes_effect_at_once() {
    let hub = hub(10);
    let (late, seen_late) = recorder();
    let (victim, seen_victim) = recorder();
    let victim_id = Rc::new(Cell::new(None));
    let (h, id, late) = (hub.clone(), victim_id.clone(), RefCell::new(Some(late)));
    hub.subscribe(
        EventFilter::all(),
        Rc::new(move |_: &StatusEvent| {
            if let Some(victim) = id.take() {
                h.unsubscribe(victim);
            }
            if let Some(late) = late.borrow_mut().take() {
                h.subscribe(EventFilter::all(), late);
            }
        }),
    );
    victim_id.set(Some(hub.subscribe(EventFilter::all(), victim)));
    hub.emit(removed("a"));
    hub.emit(removed("b"));
    assert!(seen_victim.borrow().is_empty(), "unsubscribed before its turn");
    assert_eq!(*seen_late.borrow(), [(2, "b".to_owned())], "subscribed during event 1: gets event 2 only");
}

#[test]
fn a_callback_that_panics_does_not_stop_later_deliveries() {
    let hub = hub(10);
    let (all, seen) = recorder();
    hub.subscribe(EventFilter::all(), all);
    hub.subscribe(EventFilter::all().servers(["boom"]), Rc::new(|_: &StatusEvent| panic!("a subscriber failed")));
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| hub.emit(removed("boom"))));
    assert!(outcome.is_err());
    hub.emit(removed("after"));
    assert_eq!(seen.borrow().last(), Some(&(2, "after".to_owned())));
}

#[test]
fn a_stream_that_is_not_read_keeps_only_its_newest_events_and_holds_up_nobody() {
    let hub = hub(10);
    let stalled = hub.stream(EventFilter::all(), 2);
    let (all, seen) = recorder();
    hub.subscribe(EventFilter::all(), all);
    for server in ["a", "b", "c", "d", "e"] {
        hub.emit(removed(server));
    }
    assert_eq!(seen.borrow().len(), 5, "the callback got everything");
    assert_eq!((stalled.queued(), stalled.missed()), (2, 3));
    let mut stalled = stalled;
    let got: Vec<u64> = block_on(async {
        let mut got = Vec::new();
        for _ in 0..2 {
            got.push(stalled.next().await.unwrap().seq);
        }
        got
    });
    assert_eq!(got, [4, 5]);
}

#[test]
fn a_stream_with_history_replays_then_follows_and_ends_with_the_hub() {
    let hub = hub(10);
    hub.emit(removed("a"));
    hub.emit(log("a", json!("hello")));
    let mut stream = hub.stream_with_history(EventFilter::all().kinds([EventKind::ServerLog]), 0, 16);
    hub.emit(log("a", json!("again")));
    hub.emit(removed("b"));
    assert_eq!(hub.subscriber_count(), 1);
    let first = block_on(stream.next()).unwrap();
    let second = block_on(stream.next()).unwrap();
    assert_eq!((first.seq, second.seq), (2, 3));
    let mut context = Context::from_waker(noop_waker_ref());
    assert!(matches!(stream.poll_next_unpin(&mut context), Poll::Pending));
    drop(hub);
    assert!(matches!(stream.poll_next_unpin(&mut context), Poll::Ready(None)), "ends with the hub");
}

#[test]
fn dropping_a_stream_unsubscribes_it() {
    let hub = hub(10);
    let stream = hub.stream(EventFilter::all(), 4);
    assert_eq!(hub.subscriber_count(), 1);
    drop(stream);
    assert_eq!(hub.subscriber_count(), 0);
}

#[test]
fn credential_values_never_reach_an_event() {
    let hub = hub(10);
    hub.redactor().set_server("a", [("API_KEY".to_owned(), Secret::new("sk-live-123456"))]);
    let (all, _) = recorder();
    hub.subscribe(EventFilter::all(), all);
    hub.emit(log("a", json!({"msg": "using sk-live-123456", "nested": ["sk-live-123456"]})));
    let text = serde_json::to_string(&hub.history(&EventFilter::all(), None)).unwrap();
    assert!(!text.contains("sk-live-123456"), "{text}");
    assert!(text.contains("[credential API_KEY]"));
}

#[test]
fn the_history_size_is_configurable() {
    let hub = hub(DEFAULT_HISTORY);
    assert_eq!(hub.history_capacity(), 256);
    for i in 0..300 {
        hub.emit(removed(&format!("s{i}")));
    }
    assert_eq!(hub.history(&EventFilter::all(), None).len(), 256);
    hub.set_history_capacity(10);
    let kept = hub.history(&EventFilter::all(), None);
    assert_eq!((kept.len(), kept[0].seq), (10, 291));
    assert_eq!(hub.history(&EventFilter::all(), Some(2)).len(), 2);
}

#[test]
fn events_caused_while_replaying_reach_everyone_once_after_the_replay() {
    let hub = hub(10);
    hub.emit(removed("a"));
    hub.emit(removed("b"));
    let (other, seen_other) = recorder();
    hub.subscribe(EventFilter::all(), other);
    let (late, seen_late) = recorder();
    let inner = hub.clone();
    // On the first replayed event the late subscriber changes things (as a UI that disables a server would), which
    // emits two events while the history is being replayed to it.
    hub.subscribe_with_history(
        EventFilter::all(),
        0,
        Rc::new(move |e: &StatusEvent| {
            late(e);
            if e.seq == 1 {
                inner.emit(removed("x"));
                inner.emit(removed("y"));
            }
        }),
    );
    let owned = |events: &[(u64, &str)]| events.iter().map(|(seq, s)| (*seq, (*s).to_owned())).collect::<Vec<_>>();
    assert_eq!(*seen_late.borrow(), owned(&[(1, "a"), (2, "b"), (3, "x"), (4, "y")]), "the replay, then its events");
    assert_eq!(*seen_other.borrow(), owned(&[(3, "x"), (4, "y")]), "the others get them too, once");
    hub.emit(removed("z"));
    assert_eq!(seen_late.borrow().last(), Some(&(5, "z".to_owned())), "then it follows");
    assert_eq!(seen_late.borrow().len(), 5, "no duplicate");
    assert_eq!(*seen_other.borrow(), owned(&[(3, "x"), (4, "y"), (5, "z")]));
    assert_eq!(hub.history(&EventFilter::all(), None).len(), 5);
}

#[test]
fn a_replay_started_inside_a_callback_may_emit_too() {
    let hub = hub(10);
    hub.emit(removed("a"));
    let (late, seen_late) = recorder();
    let (h, late) = (hub.clone(), RefCell::new(Some(late)));
    // Reacting to "b", the first subscriber adds a replaying one, whose callback reacts to "a" by emitting "x".
    hub.subscribe(
        EventFilter::all(),
        Rc::new(move |e: &StatusEvent| {
            if e.server() != Some("b") {
                return;
            }
            let Some(late) = late.borrow_mut().take() else { return };
            let inner = h.clone();
            h.subscribe_with_history(
                EventFilter::all(),
                0,
                Rc::new(move |e: &StatusEvent| {
                    late(e);
                    if e.server() == Some("a") {
                        inner.emit(removed("x"));
                    }
                }),
            );
        }),
    );
    let (other, seen_other) = recorder();
    hub.subscribe(EventFilter::all(), other);
    hub.emit(removed("b"));
    let owned = |events: &[(u64, &str)]| events.iter().map(|(seq, s)| (*seq, (*s).to_owned())).collect::<Vec<_>>();
    assert_eq!(*seen_late.borrow(), owned(&[(1, "a"), (2, "b"), (3, "x")]));
    assert_eq!(*seen_other.borrow(), owned(&[(2, "b"), (3, "x")]), "b, then what its delivery caused");
}
