//! Checks of the frames we write: valid against the official schema as the generic JSON-RPC type and as their
//! specific MCP type, and readable by our own `Message::parse`.

#![allow(dead_code, reason = "shared by several test crates, each using part of it")]

use crate::schema::assert_valid;
use mcp_worker_protocol::{JsonObject, Message, RequestId, jsonrpc};
use serde::Serialize;
use serde_json::Value;

/// A JSON object from a `json!` literal.
pub(crate) fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

/// A frame is JSON, valid as `JSONRPCMessage` and as each of `defs`, and parses as one of our messages.
#[track_caller]
pub(crate) fn assert_frame(frame: &str, defs: &[&str]) {
    let value: Value = serde_json::from_str(frame).unwrap_or_else(|e| panic!("we wrote {frame}, not JSON: {e}"));
    assert_valid("JSONRPCMessage", &value);
    for def in defs {
        assert_valid(def, &value);
    }
    if let Err(e) = Message::parse(frame) {
        panic!("our own frame {frame} does not parse: {e}");
    }
}

/// A request we send, with an integer and with a string id, is valid as `def`.
#[track_caller]
pub(crate) fn assert_request<P: Serialize>(method: &str, params: Option<&P>, def: &str) {
    for id in [RequestId::Number(1), RequestId::from("req-1")] {
        let frame = jsonrpc::encode_request(&id, method, params).unwrap_or_else(|e| panic!("{method}: {e}"));
        assert_frame(&frame, &["JSONRPCRequest", def]);
    }
}

/// A notification we send is valid as `def`.
#[track_caller]
pub(crate) fn assert_notification<P: Serialize>(method: &str, params: Option<&P>, def: &str) {
    let frame = jsonrpc::encode_notification(method, params).unwrap_or_else(|e| panic!("{method}: {e}"));
    assert_frame(&frame, &["JSONRPCNotification", def]);
}

/// A result we send is valid inside a response frame, and on its own as `def`.
#[track_caller]
pub(crate) fn assert_result<R: Serialize>(result: &R, def: &str) {
    let frame = jsonrpc::encode_result(&RequestId::from(42), result).unwrap_or_else(|e| panic!("{def}: {e}"));
    assert_frame(&frame, &["JSONRPCResultResponse"]);
    let value: Value = serde_json::from_str(&frame).unwrap_or_else(|e| panic!("{frame}: {e}"));
    assert_valid(def, &value["result"]);
}
