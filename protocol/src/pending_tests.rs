use super::*;

/// A table whose waiters are labels, so tests can see which request came out.
fn table() -> PendingTable<&'static str> {
    PendingTable::new()
}

fn ids<W>(entries: &[(i64, Entry<W>)]) -> Vec<i64> {
    entries.iter().map(|(id, _)| *id).collect()
}

#[test]
fn ids_count_up_from_one() {
    let mut table = table();
    assert_eq!((table.next_id(), table.next_id(), table.next_id()), (1, 2, 3));
    assert!(table.is_empty(), "reserving an id records nothing");
}

#[test]
fn ids_wrap_back_to_one_and_are_never_zero_or_negative() {
    let mut table = table();
    table.next = i64::MAX;
    assert_eq!(table.next_id(), i64::MAX);
    assert_eq!(table.next_id(), 1);
    assert_eq!(table.next_id(), 2);
}

#[test]
fn a_response_takes_the_request_with_its_id_once() {
    let mut table = table();
    let (a, b) = (table.next_id(), table.next_id());
    table.insert(a, "ping", None, "a");
    table.insert(b, "tools/list", None, "b");
    assert_eq!(table.len(), 2);
    // Answers in the other order still reach the right request.
    let entry = table.take_response(&RequestId::Number(b)).unwrap();
    assert_eq!((&*entry.method, entry.waiter), ("tools/list", "b"));
    assert!(table.take_response(&RequestId::Number(b)).is_none(), "a second answer is late");
    assert_eq!(table.take_response(&RequestId::Number(a)).unwrap().waiter, "a");
    assert!(table.is_empty());
}

#[test]
fn unknown_and_string_ids_find_nothing_and_leave_the_table_alone() {
    let mut table = table();
    let id = table.next_id();
    table.insert(id, "ping", None, "a");
    assert!(table.take_response(&RequestId::Number(77)).is_none());
    assert!(table.take_response(&RequestId::Number(-1)).is_none());
    // "1" is not 1: this side only sends integer ids.
    assert!(table.take_response(&RequestId::from("1")).is_none());
    assert_eq!(table.len(), 1);
}

#[test]
fn a_removed_request_is_gone_and_its_late_answer_finds_nothing() {
    let mut table = table();
    let id = table.next_id();
    table.insert(id, "tools/call", None, "a");
    assert_eq!(table.remove(id).unwrap().waiter, "a");
    assert!(table.remove(id).is_none(), "removing twice finds nothing");
    assert!(table.take_response(&RequestId::Number(id)).is_none());
    assert!(table.is_empty());
}

#[test]
fn inserting_under_a_pending_id_replaces_the_request() {
    let mut table = table();
    table.insert(5, "ping", None, "old");
    table.insert(5, "tools/call", None, "new");
    assert_eq!(table.len(), 1);
    let entry = table.remove(5).unwrap();
    assert_eq!((&*entry.method, entry.waiter), ("tools/call", "new"));
}

#[test]
fn only_overdue_requests_come_out_in_id_order() {
    let mut table = table();
    table.insert(3, "tools/call", Some(Deadline::fixed(0.0, 100)), "three");
    table.insert(1, "tools/call", Some(Deadline::fixed(0.0, 50)), "one");
    table.insert(2, "ping", None, "patient");
    table.insert(4, "tools/call", Some(Deadline::fixed(0.0, 500)), "later");
    assert!(table.overdue(49.0).is_empty());
    let due = table.overdue(100.0);
    assert_eq!(ids(&due), vec![1, 3], "due at the deadline itself");
    assert_eq!(due[1].1.deadline.map(|d| d.expired_ms()), Some(100));
    assert!(table.overdue(100.0).is_empty(), "an overdue request comes out once");
    assert_eq!(table.len(), 2);
    assert_eq!(ids(&table.overdue(f64::MAX)), vec![4], "a request without a deadline waits for ever");
    assert_eq!(table.remove(2).unwrap().waiter, "patient");
}

#[test]
fn progress_moves_a_deadline_that_resets_up_to_the_hard_maximum() {
    let mut table = table();
    table.insert(1, "tools/call", Some(Deadline::reset_on_progress(0.0, 100, Some(250))), "a");
    assert_eq!(table.progressed(1, 90.0), Some(&"a"));
    assert!(table.overdue(150.0).is_empty(), "progress at 90 ms moved the deadline to 190 ms");
    table.progressed(1, 150.0);
    assert!(table.overdue(249.0).is_empty());
    table.progressed(1, 249.0);
    let due = table.overdue(250.0);
    assert_eq!(ids(&due), vec![1], "the hard maximum binds whatever progress comes");
    assert_eq!(due[0].1.deadline.map(|d| d.expired_ms()), Some(250));
}

#[test]
fn progress_leaves_a_fixed_deadline_and_a_request_without_one_alone() {
    let mut table = table();
    table.insert(1, "tools/call", Some(Deadline::fixed(0.0, 100)), "fixed");
    table.insert(2, "tools/call", None, "none");
    assert_eq!(table.progressed(1, 90.0), Some(&"fixed"));
    assert_eq!(table.progressed(2, 90.0), Some(&"none"));
    assert_eq!(ids(&table.overdue(100.0)), vec![1]);
    assert_eq!(table.len(), 1);
}

#[test]
fn progress_on_a_request_not_pending_finds_nothing() {
    let mut table = table();
    table.insert(1, "tools/call", Some(Deadline::reset_on_progress(0.0, 100, None)), "a");
    assert_eq!(table.progressed(9, 90.0), None);
    table.remove(1);
    assert_eq!(table.progressed(1, 90.0), None, "removed (cancelled): the caller may follow it up");
}

#[test]
fn draining_empties_the_table_in_id_order_and_ids_count_on() {
    let mut table = table();
    for waiter in ["a", "b", "c"] {
        let id = table.next_id();
        table.insert(id, "ping", Some(Deadline::fixed(0.0, 10)), waiter);
    }
    let drained = table.drain();
    assert_eq!(ids(&drained), vec![1, 2, 3]);
    assert_eq!(drained.iter().map(|(_, e)| e.waiter).collect::<Vec<_>>(), vec!["a", "b", "c"]);
    assert!(table.is_empty());
    assert!(table.overdue(f64::MAX).is_empty());
    assert_eq!(table.next_id(), 4, "an id is never reused for a different request");
}
