//! `Message::parse` never panics on what a peer sends, and whenever it rejects a frame that names a method and a
//! readable id, the rejection can be answered to that id.
//!
//! The inputs are generated deterministically from a few valid frames: every truncation, every member replaced by a
//! value of each JSON type or removed, duplicated members, deep nesting, very long strings, broken `\u` escapes.

#![allow(clippy::disallowed_methods, reason = "tests read JSON with serde_json itself")]

use mcp_worker_protocol::{IncomingError, Message, RequestId};
use serde_json::{Value, json};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Valid frames of each kind, with non-ASCII text so that char boundaries differ from byte boundaries.
const SEEDS: &[&str] = &[
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"héllo 🦀"}}}"#,
    r#"{"jsonrpc":"2.0","id":"réq-1","method":"ping"}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":0.5}}"#,
    r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"ünïcode"}],"isError":false}}"#,
    r#"{"jsonrpc":"2.0","id":"x","error":{"code":-32602,"message":"Unknown tool: ✗","data":{"tool":"✗"}}}"#,
    r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
];

/// Parses `text`, failing the test with the input (abridged) if it panics, and checks the answerability rule.
fn parse(text: &str) -> Result<Message, IncomingError> {
    let abridged = || text.chars().take(200).collect::<String>();
    let outcome = catch_unwind(AssertUnwindSafe(|| Message::parse(text)));
    let Ok(parsed) = outcome else { panic!("Message::parse panicked on {}", abridged()) };
    if let (Err(err), Some(id)) = (&parsed, request_id(text)) {
        assert!(err.answerable, "{}: not answerable although it names a method and id {id}: {err}", abridged());
        assert_eq!(err.id.as_ref(), Some(&id), "{}: the rejection lost the id ({err})", abridged());
    }
    parsed
}

/// The id of `text` when it is a JSON object with a `method` and a string or integer `id`.
fn request_id(text: &str) -> Option<RequestId> {
    let Ok(Value::Object(frame)) = serde_json::from_str::<Value>(text) else { return None };
    frame.get("method")?;
    match frame.get("id")? {
        Value::String(s) => Some(RequestId::String(s.clone())),
        Value::Number(n) => n.as_i64().map(RequestId::Number),
        _ => None,
    }
}

/// A value of each JSON type, including the edges of the numeric range.
fn replacements() -> Vec<Value> {
    vec![
        Value::Null,
        json!(true),
        json!(false),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(i64::MAX),
        json!(u64::MAX),
        json!(""),
        json!("2.0"),
        json!("x"),
        json!([]),
        json!([1, "two"]),
        json!({}),
        json!({"code": 1}),
    ]
}

#[test]
fn the_seed_frames_are_valid() {
    for seed in SEEDS {
        assert!(parse(seed).is_ok(), "{seed}");
    }
}

#[test]
fn every_truncation_of_a_valid_frame_is_rejected_without_panicking() {
    for seed in SEEDS {
        for end in (0..seed.len()).filter(|&end| seed.is_char_boundary(end)) {
            assert!(parse(&seed[..end]).is_err(), "a truncation parsed: {}", &seed[..end]);
        }
    }
}

#[test]
fn every_member_replaced_by_every_json_type_or_removed_never_panics() {
    for seed in SEEDS {
        let Ok(Value::Object(frame)) = serde_json::from_str::<Value>(seed) else { panic!("{seed}") };
        for key in frame.keys() {
            let mut removed = frame.clone();
            removed.remove(key);
            let _ = parse(&Value::Object(removed).to_string());
            for replacement in replacements() {
                let mut replaced = frame.clone();
                replaced.insert(key.clone(), replacement);
                let _ = parse(&Value::Object(replaced).to_string());
            }
        }
    }
}

#[test]
fn non_object_frames_are_rejected_without_panicking() {
    for text in ["", " ", "\u{feff}{}", "null", "0", "\"2.0\"", "[]", "[{\"jsonrpc\":\"2.0\",\"method\":\"x\"}]", "{}"]
    {
        assert!(parse(text).is_err(), "{text:?} parsed");
    }
    for replacement in replacements() {
        let _ = parse(&replacement.to_string());
    }
}

#[test]
fn duplicated_members_never_panic() {
    for seed in SEEDS {
        let Ok(Value::Object(frame)) = serde_json::from_str::<Value>(seed) else { panic!("{seed}") };
        for (key, value) in &frame {
            let body = seed.strip_suffix('}').unwrap();
            let _ = parse(&format!("{body},{}:{value}}}", Value::String(key.clone())));
            let _ = parse(&format!("{body},{}:\"other\"}}", Value::String(key.clone())));
        }
    }
}

#[test]
fn ten_thousand_levels_of_nesting_do_not_overflow_the_stack() {
    let depth = 10_000;
    let arrays = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let objects = format!("{}1{}", r#"{"a":"#.repeat(depth), "}".repeat(depth));
    for nested in [&arrays, &objects] {
        let _ = parse(nested);
        let _ = parse(&nested[..nested.len() / 2]);
        let frame = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{nested}}}"#);
        let _ = parse(&frame);
        for member in ["id", "method", "jsonrpc", "result", "error", "extra"] {
            let _ = parse(&format!(r#"{{"jsonrpc":"2.0","method":"x","{member}":{nested}}}"#));
        }
        // Params are carried raw; a receiver that reads them gets serde_json's recursion-limit error, not a stack
        // overflow.
        let Ok(Message::Request(request)) = parse(&frame) else { panic!("deeply nested params were not carried") };
        let params = request.params.map(|p| p.get().to_owned()).unwrap_or_default();
        assert!(serde_json::from_str::<Value>(&params).is_err());
    }
}

#[test]
fn a_one_mebibyte_string_is_carried_without_trouble() {
    let big = "é".repeat(512 * 1024);
    let call = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"{big}"}}}}}}"#
    );
    let Ok(Message::Request(request)) = parse(&call) else { panic!("a large call did not parse as a request") };
    assert_eq!(
        request.params.map(|p| p.get().len()),
        Some(big.len() + r#"{"name":"echo","arguments":{"text":""}}"#.len())
    );
    for member in [r#""id""#, r#""method""#, r#""jsonrpc""#] {
        let _ = parse(&format!(r#"{{"jsonrpc":"2.0","id":1,"method":"x",{member}:"{big}"}}"#));
    }
    let _ = parse(&call[..call.len() - 3]);
}

#[test]
fn invalid_unicode_escapes_never_panic() {
    let escapes = [
        r"\ud800",
        r"\udc00",
        r"\ud800\u0041",
        r"\udbff\udbff",
        r"\ud83e\udd80",
        r"\u0000",
        r"\uZZZZ",
        r"\u12",
        r"\x41",
        r"\",
    ];
    for escape in escapes {
        for text in [
            format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{escape}"}}"#),
            format!(r#"{{"jsonrpc":"2.0","id":"{escape}","method":"ping"}}"#),
            format!(r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"{escape}":"{escape}"}}}}"#),
            format!(r#"{{"jsonrpc":"2.0","id":1,"method":"ping","{escape}":1}}"#),
            format!(r#"{{"jsonrpc":"2.0","id":1,"error":{{"code":1,"message":"{escape}"}}}}"#),
            format!(r#"{{"jsonrpc":"2.0{escape}","id":1,"method":"ping"}}"#),
        ] {
            let _ = parse(&text);
        }
    }
}

#[test]
fn random_token_soup_never_panics() {
    // A fixed-seed xorshift generator: the same inputs on every run.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let tokens = [
        "{",
        "}",
        "[",
        "]",
        ":",
        ",",
        "\"",
        "\\",
        "\"jsonrpc\"",
        "\"2.0\"",
        "\"id\"",
        "\"method\"",
        "\"params\"",
        "\"result\"",
        "\"error\"",
        "1",
        "-0",
        "1e999",
        "null",
        "true",
        "\"é\"",
        " ",
        "\u{0}",
        "🦀",
    ];
    for _ in 0..20_000 {
        let len = (next() % 24) as usize;
        let mut text = String::from("{");
        for _ in 0..len {
            text.push_str(tokens[(next() % tokens.len() as u64) as usize]);
        }
        let _ = parse(&text);
    }
}
