use super::*;
use crate::error::ErrorCode;

fn parse(text: &str) -> Message {
    Message::parse(text).unwrap_or_else(|e| panic!("{text} did not parse: {e}"))
}

fn reject(text: &str) -> IncomingError {
    match Message::parse(text) {
        Ok(m) => panic!("{text} parsed as {m:?}"),
        Err(e) => e,
    }
}

#[test]
fn a_request_has_a_method_and_an_id() {
    let Message::Request(r) = parse(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"x"}}"#) else {
        panic!("not a request")
    };
    assert_eq!(r.id, RequestId::Number(1));
    assert_eq!(r.method, "tools/list");
    assert_eq!(r.params.map(|p| p.get().to_owned()).as_deref(), Some(r#"{"cursor":"x"}"#));
}

#[test]
fn string_ids_are_kept_as_strings() {
    let Message::Request(r) = parse(r#"{"jsonrpc":"2.0","id":"abc","method":"ping"}"#) else { panic!() };
    assert_eq!(r.id, RequestId::String("abc".into()));
    assert!(r.params.is_none());
}

#[test]
fn a_notification_has_a_method_and_no_id() {
    let m = parse(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    assert!(matches!(m, Message::Notification(n) if n.method == "notifications/initialized"));
}

#[test]
fn a_notification_is_never_mistaken_for_a_response() {
    // The classic `untagged` pitfall: every response field optional makes this parse as a response.
    let m = parse(r#"{"jsonrpc":"2.0","method":"x"}"#);
    assert!(matches!(m, Message::Notification(_)));
}

#[test]
fn a_result_response_is_matched_by_id() {
    let Message::Response(r) = parse(r#"{"jsonrpc":"2.0","id":"7","result":{"tools":[]}}"#) else { panic!() };
    assert_eq!(r.id, RequestId::String("7".into()));
    assert_eq!(r.outcome.unwrap().get(), r#"{"tools":[]}"#);
}

#[test]
fn an_error_response_carries_the_error_object() {
    let Message::Response(r) =
        parse(r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"nope","data":{"m":"x"}}}"#)
    else {
        panic!()
    };
    let err = r.outcome.unwrap_err();
    assert_eq!(err.code, ErrorCode::METHOD_NOT_FOUND);
    assert_eq!(err.message, "nope");
    assert_eq!(err.data, Some(serde_json::json!({"m":"x"})));
}

#[test]
fn an_error_with_null_or_no_id_is_unattributed() {
    assert!(matches!(
        parse(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}"#),
        Message::UnattributedError(e) if e.code == ErrorCode::PARSE_ERROR
    ));
    assert!(matches!(
        parse(r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"bad"}}"#),
        Message::UnattributedError(_)
    ));
}

#[test]
fn a_null_request_id_is_an_invalid_request() {
    let e = reject(r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#);
    assert_eq!(e.error.code, ErrorCode::INVALID_REQUEST);
    assert!(e.answerable);
    assert_eq!(e.id, None);
}

#[test]
fn fractional_boolean_and_object_ids_are_rejected() {
    for id in ["1.5", "true", "{}", "[1]"] {
        let e = reject(&format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#));
        assert_eq!(e.error.code, ErrorCode::INVALID_REQUEST, "id {id}");
    }
}

#[test]
fn text_that_is_not_json_is_a_parse_error() {
    for text in ["", "{", "not json", "{\"jsonrpc\":\"2.0\",}", "\u{0}"] {
        let e = reject(text);
        assert_eq!(e.error.code, ErrorCode::PARSE_ERROR, "{text:?}");
        assert!(e.answerable);
    }
}

#[test]
fn json_that_is_not_an_object_is_an_invalid_request() {
    for text in ["[]", "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", "1", "\"x\"", "null"] {
        let e = reject(text);
        assert_eq!(e.error.code, ErrorCode::INVALID_REQUEST, "{text}");
    }
    assert!(reject("[]").error.message.contains("batch"));
}

#[test]
fn the_version_member_is_required_and_exact() {
    for text in [
        r#"{"id":1,"method":"ping"}"#,
        r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
        r#"{"jsonrpc":2.0,"id":1,"method":"ping"}"#,
    ] {
        let e = reject(text);
        assert_eq!(e.error.code, ErrorCode::INVALID_REQUEST, "{text}");
        assert_eq!(e.id, Some(RequestId::Number(1)), "the readable id is kept for the answer");
    }
}

#[test]
fn mixed_members_are_rejected() {
    for text in [
        r#"{"jsonrpc":"2.0","id":1,"method":"ping","result":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}"#,
        r#"{"jsonrpc":"2.0","id":1}"#,
        r#"{"jsonrpc":"2.0","result":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":7}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"x","params":3}"#,
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":"x"}}"#,
    ] {
        let e = reject(text);
        assert_eq!(e.error.code, ErrorCode::INVALID_REQUEST, "{text}");
    }
}

#[test]
fn malformed_responses_and_notifications_are_not_answered() {
    assert!(!reject(r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}"#).answerable);
    assert!(!reject(r#"{"jsonrpc":"1.0","method":"notifications/x"}"#).answerable);
    assert!(reject(r#"{"jsonrpc":"1.0","id":4,"method":"x"}"#).answerable);
}

#[test]
fn unknown_members_are_ignored() {
    assert!(matches!(parse(r#"{"jsonrpc":"2.0","id":1,"method":"ping","extra":[1,2]}"#), Message::Request(_)));
}

#[test]
fn encoded_frames_round_trip() {
    let id = RequestId::Number(42);
    let text = encode_request(&id, "tools/call", Some(&serde_json::json!({"name":"echo"}))).unwrap();
    assert_eq!(text, r#"{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"echo"}}"#);
    assert!(matches!(parse(&text), Message::Request(r) if r.id == id));

    let text = encode_notification::<()>("notifications/initialized", None).unwrap();
    assert_eq!(text, r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);

    let text = encode_result(&RequestId::String("a".into()), &EmptyResult {}).unwrap();
    assert_eq!(text, r#"{"jsonrpc":"2.0","id":"a","result":{}}"#);

    let text = encode_error(None, &ErrorObject::parse_error("bad"));
    assert_eq!(text, r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"bad"}}"#);
}

#[test]
fn large_integer_ids_round_trip_and_overflow_is_rejected() {
    let max = format!(r#"{{"jsonrpc":"2.0","id":{},"method":"ping"}}"#, i64::MAX);
    assert!(matches!(parse(&max), Message::Request(r) if r.id == RequestId::Number(i64::MAX)));
    let over = r#"{"jsonrpc":"2.0","id":18446744073709551615,"method":"ping"}"#;
    assert_eq!(reject(over).error.code, ErrorCode::INVALID_REQUEST);
}

#[test]
fn a_request_with_a_duplicated_member_is_answered_to_its_id() {
    let e = reject(r#"{"jsonrpc":"2.0","id":4,"method":"ping","method":"x"}"#);
    assert_eq!((e.id, e.error.code, e.answerable), (Some(RequestId::Number(4)), ErrorCode::INVALID_REQUEST, true));
    assert!(!reject(r#"{"jsonrpc":"2.0","method":"x","method":"y"}"#).answerable);
}

#[test]
fn a_frame_given_up_parses_as_a_borrowed_one_does() {
    let text = "é\\\"x".repeat(200_000);
    let large =
        format!(r#" {{"result" : {{"content":[{{"type":"text","text":"{text}"}}]}} ,"id":9,"jsonrpc":"2.0"}} "#);
    let frames = [
        large.clone(),
        r#"{"jsonrpc":"2.0","id":"7","result":{"tools":[]}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"x"}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"nope"}}"#.to_owned(),
    ];
    for frame in frames {
        let borrowed = format!("{:?}", Message::parse(&frame));
        assert_eq!(format!("{:?}", Message::parse_owned(frame)), borrowed);
    }
    for bad in ["[1]", "{", r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}"#] {
        assert_eq!(Message::parse_owned(bad.to_owned()).unwrap_err(), reject(bad));
    }
    let Message::Response(Response { id, outcome: Ok(result) }) = parse_owned_checked(large) else { panic!() };
    assert_eq!(id, RequestId::Number(9));
    assert!(result.get().starts_with(r#"{"content":[{"type":"text","text":"é\""#) && result.get().ends_with("\"}]}"));
}

fn parse_owned_checked(frame: String) -> Message {
    Message::parse_owned(frame).unwrap_or_else(|e| panic!("did not parse: {e}"))
}

#[test]
fn a_result_written_as_text_makes_the_frame_encode_result_writes() {
    let result = r#"{"content":[{"type":"text","text":"a \"quoted\" word"}]}"#;
    let raw = RawValue::from_string(result.to_owned()).unwrap_or_else(|e| panic!("{e}"));
    for id in [RequestId::Number(7), RequestId::String("a\"b".into())] {
        let expected = encode_result(&id, &raw).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(encode_result_text(&id, result), expected);
    }
}
