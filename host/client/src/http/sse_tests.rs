use super::*;

fn decode_all(chunks: &[&str]) -> (Vec<SseEvent>, SseDecoder) {
    let mut decoder = SseDecoder::new(1 << 20);
    let mut events = Vec::new();
    for chunk in chunks {
        events.extend(decoder.push(chunk).unwrap());
    }
    (events, decoder)
}

fn message(data: &str, id: Option<&str>) -> SseEvent {
    SseEvent { event: "message".into(), data: data.into(), id: id.map(Into::into) }
}

#[test]
fn events_are_dispatched_at_blank_lines_with_their_type_data_and_id() {
    let (events, decoder) =
        decode_all(&["event: message\nid: 7\ndata: {\"a\":1}\n\n", "event: message\ndata: {\"b\":2}\n\n"]);
    assert_eq!(events, vec![message("{\"a\":1}", Some("7")), message("{\"b\":2}", Some("7"))]);
    assert_eq!(decoder.last_event_id(), Some("7"), "the last event ID persists across events");
}

#[test]
fn lines_may_end_in_cr_lf_or_crlf_and_split_anywhere() {
    let text = "data: one\r\n\r\ndata: two\r\rdata: three\n\n";
    let whole = decode_all(&[text]).0;
    assert_eq!(whole.iter().map(|e| e.data.as_str()).collect::<Vec<_>>(), ["one", "two", "three"]);
    // Every split point, including between CR and LF, gives the same events.
    for at in 0..=text.len() {
        let (a, b) = text.split_at(at);
        assert_eq!(decode_all(&[a, b]).0, whole, "split at {at}");
    }
    let by_char: Vec<String> = text.chars().map(String::from).collect();
    let refs: Vec<&str> = by_char.iter().map(String::as_str).collect();
    assert_eq!(decode_all(&refs).0, whole);
}

#[test]
fn data_lines_join_comments_are_skipped_and_a_field_without_colon_is_empty() {
    let (events, _) = decode_all(&[": keep-alive\ndata: a\ndata\ndata:b\n\n"]);
    assert_eq!(events, vec![SseEvent { event: String::new(), data: "a\n\nb".into(), id: None }]);
}

#[test]
fn an_event_without_data_is_not_dispatched_and_its_type_resets() {
    let (events, decoder) = decode_all(&["event: ping\nid: 3\n\ndata: x\n\n"]);
    assert_eq!(events, vec![SseEvent { event: String::new(), data: "x".into(), id: Some("3".into()) }]);
    assert_eq!(decoder.last_event_id(), Some("3"), "an id alone still moves the last event ID");
}

#[test]
fn retry_takes_digits_only_and_an_id_with_nul_is_ignored() {
    let (_, decoder) = decode_all(&["retry: 1500\nretry: soon\nid: a\0b\ndata: x\n\n"]);
    assert_eq!(decoder.retry_ms(), Some(1_500));
    assert_eq!(decoder.last_event_id(), None);
}

#[test]
fn a_leading_bom_is_skipped_once() {
    let (events, _) = decode_all(&["\u{feff}data: x\n\n", "\u{feff}data: y\n\n"]);
    assert_eq!(events[0].data, "x");
    assert_eq!(events.len(), 1, "a BOM later is part of a field name, which is unknown");
}

#[test]
fn an_unfinished_event_stays_until_its_blank_line() {
    let mut decoder = SseDecoder::new(1 << 20);
    assert!(decoder.push("data: par").unwrap().is_empty());
    assert!(decoder.push("tial\n").unwrap().is_empty());
    assert_eq!(decoder.push("\n").unwrap()[0].data, "partial");
}

#[test]
fn an_event_over_the_bound_fails_and_the_decoder_stays_failed() {
    let mut decoder = SseDecoder::new(16);
    assert!(decoder.push("data: 0123456789\n").is_ok());
    assert_eq!(decoder.push("data: 0123456789\n"), Err(EventTooLarge { max: 16 }));
    assert_eq!(decoder.push("\n"), Err(EventTooLarge { max: 16 }));
    let mut unbounded_line = SseDecoder::new(16);
    assert!(unbounded_line.push(&"x".repeat(17)).is_err(), "a line without an end counts too");
}
