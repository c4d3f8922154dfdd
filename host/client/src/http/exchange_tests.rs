use super::*;

#[test]
fn a_post_accepts_json_and_events_and_later_requests_carry_the_session_and_version() {
    let mut session = HttpSession::default();
    let first = session.headers(RequestKind::Post, None);
    assert_eq!(first, vec![("Accept", ACCEPT_POST.to_owned()), ("Content-Type", "application/json".to_owned())]);
    let init = FramePeek::of(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#);
    assert!(init.is_request());
    session.sending(&init);
    session.accept_session_id(Some("abc-123")).unwrap();
    session.received(r#"{"jsonrpc":"2.0","method":"notifications/message","params":{}}"#);
    assert_eq!(session.protocol_version, None, "only the answer to initialize settles it");
    session.received(r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{}}}"#);
    assert_eq!(session.protocol_version.as_deref(), Some("2025-06-18"));
    let get = session.headers(RequestKind::Get, Some("42"));
    assert_eq!(
        get,
        vec![
            ("Accept", ACCEPT_GET.to_owned()),
            (SESSION_HEADER, "abc-123".to_owned()),
            (VERSION_HEADER, "2025-06-18".to_owned()),
            (LAST_EVENT_ID_HEADER, "42".to_owned()),
        ]
    );
    session.accept_session_id(Some("other")).unwrap();
    assert_eq!(session.id.as_deref(), Some("abc-123"), "the first id stays for the session");
    assert_eq!(session.headers(RequestKind::Delete, Some("")).len(), 2, "no empty Last-Event-ID");
}

#[test]
fn a_session_id_must_be_visible_ascii() {
    let mut session = HttpSession::default();
    assert!(session.accept_session_id(Some("bad id")).is_err());
    assert!(session.accept_session_id(Some("é")).is_err());
    assert!(session.accept_session_id(Some("")).is_err());
    assert_eq!(session.id, None);
    assert!(session.accept_session_id(None).is_ok());
}

#[test]
fn frames_are_peeked_at_their_top_level() {
    let peek = FramePeek::of(r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"id":9,"method":"x"}}"#);
    assert_eq!(peek, FramePeek { method: Some("tools/call".into()), id: Some(7) });
    let note = FramePeek::of(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}"#);
    assert!(!note.is_request());
    assert_eq!(FramePeek::of(r#"{"jsonrpc":"2.0","id":"s1","result":{}}"#).id, None, "not one of ours");
    assert_eq!(FramePeek::of("not json"), FramePeek::default());
}

#[test]
fn post_answers_are_classified_as_the_spec_says() {
    assert_eq!(classify_post(202, None, true, false, None), PostReply::Accepted);
    assert_eq!(classify_post(200, Some("application/json; charset=utf-8"), true, false, None), PostReply::Json);
    assert_eq!(classify_post(200, Some("Text/Event-Stream"), true, false, None), PostReply::Stream);
    assert_eq!(classify_post(404, None, true, false, None), PostReply::SessionExpired);
    assert_eq!(classify_post(405, None, false, true, None), PostReply::NotStreamableHttp { status: 405 });
    assert_eq!(classify_post(400, None, false, true, None), PostReply::NotStreamableHttp { status: 400 });
    assert!(matches!(classify_post(400, None, true, false, None), PostReply::Failed { .. }));
    let challenge = Some(r#"Bearer resource_metadata="https://x/.well-known/oauth-protected-resource""#.to_owned());
    assert_eq!(
        classify_post(401, None, false, true, challenge.clone()),
        PostReply::Unauthorized { status: 401, challenge }
    );
    let PostReply::Failed { reason } = classify_post(200, Some("text/html"), false, true, None) else { panic!() };
    assert!(reason.contains("text/html"), "{reason}");
    let PostReply::Failed { reason } = classify_post(500, None, true, false, None) else { panic!() };
    assert!(reason.contains("500"), "{reason}");
}

#[test]
fn get_answers_are_classified_as_the_spec_says() {
    assert_eq!(classify_get(200, Some("text/event-stream"), true), GetReply::Stream);
    assert_eq!(classify_get(405, None, true), GetReply::NotOffered);
    assert_eq!(classify_get(404, None, true), GetReply::SessionExpired);
    assert!(matches!(classify_get(200, Some("application/json"), true), GetReply::Failed { .. }));
}

#[test]
fn a_json_body_is_one_message_or_a_batch() {
    assert_eq!(json_body_frames(r#"{"id":1}"#).unwrap(), vec![r#"{"id":1}"#.to_owned()]);
    assert_eq!(json_body_frames(r#" [{"id":1}, {"id":2}]"#).unwrap(), vec![r#"{"id":1}"#, r#"{"id":2}"#]);
    assert!(json_body_frames("").unwrap().is_empty());
    assert!(json_body_frames("[oops").is_err());
}
