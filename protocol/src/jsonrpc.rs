//! JSON-RPC 2.0 messages as MCP uses them: one JSON object per frame, no batches.
//!
//! Incoming frames are classified explicitly by which members they carry ([`Message::parse`]); payloads stay raw
//! JSON text until the receiver knows what type it expects. Outgoing frames are written with the `encode_*`
//! functions, which serialize the payload straight into the frame.

use crate::error::ErrorObject;
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::fmt;

/// A request id: a string or an integer, never null (MCP `basic/index`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum RequestId {
    /// An integer id.
    Number(i64),
    /// A string id.
    String(String),
}

impl From<i64> for RequestId {
    fn from(n: i64) -> Self {
        Self::Number(n)
    }
}

impl From<&str> for RequestId {
    fn from(s: &str) -> Self {
        Self::String(s.to_owned())
    }
}

impl From<&RequestId> for serde_json::Value {
    fn from(id: &RequestId) -> Self {
        match id {
            RequestId::Number(n) => Self::from(*n),
            RequestId::String(s) => Self::from(s.as_str()),
        }
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Number(n) => write!(f, "{n}"),
            Self::String(s) => f.write_str(&crate::quoted::quoted(s)),
        }
    }
}

impl Serialize for RequestId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Number(n) => s.serialize_i64(*n),
            Self::String(v) => s.serialize_str(v),
        }
    }
}

impl<'de> Deserialize<'de> for RequestId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct IdVisitor;
        impl de::Visitor<'_> for IdVisitor {
            type Value = RequestId;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string or an integer")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<RequestId, E> {
                Ok(RequestId::Number(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<RequestId, E> {
                i64::try_from(v).map(RequestId::Number).map_err(|_| E::custom("integer id out of range"))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<RequestId, E> {
                Ok(RequestId::String(v.to_owned()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<RequestId, E> {
                Ok(RequestId::String(v))
            }
        }
        d.deserialize_any(IdVisitor)
    }
}

/// A request: it has a `method` and an `id`, and expects exactly one response.
#[derive(Debug)]
pub struct Request {
    /// The request id.
    pub id: RequestId,
    /// The method name.
    pub method: String,
    /// The raw `params`, if any.
    pub params: Option<Box<RawValue>>,
}

/// A notification: it has a `method` and no `id`, and gets no response.
#[derive(Debug)]
pub struct Notification {
    /// The method name.
    pub method: String,
    /// The raw `params`, if any.
    pub params: Option<Box<RawValue>>,
}

/// A response to a request this side sent.
#[derive(Debug)]
pub struct Response {
    /// The id of the request answered.
    pub id: RequestId,
    /// The raw `result`, or the error.
    pub outcome: Result<Box<RawValue>, ErrorObject>,
}

/// One classified JSON-RPC message.
#[derive(Debug)]
#[non_exhaustive]
pub enum Message {
    /// A request to this side.
    Request(Request),
    /// A notification to this side.
    Notification(Notification),
    /// A response to a request from this side.
    Response(Response),
    /// An error response with a null id: the peer could not read one of our frames.
    UnattributedError(ErrorObject),
}

/// A frame that is not a valid message, with the error the receiver should answer with.
#[derive(Debug, Clone, PartialEq)]
pub struct IncomingError {
    /// The id to answer, when one could be read (JSON-RPC answers with a null id otherwise).
    pub id: Option<RequestId>,
    /// The error: -32700 for text that is not JSON, -32600 for JSON that is not a message.
    pub error: ErrorObject,
    /// Whether an error response is owed to the peer: true unless the frame is clearly a response or a
    /// notification, which are reported locally and never answered (so two peers cannot loop on errors).
    pub answerable: bool,
}

impl fmt::Display for IncomingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for IncomingError {}

/// The members of a frame, captured raw (borrowed from the frame's text) so that `null` and absent stay
/// distinguishable.
#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(default, borrow, deserialize_with = "present")]
    jsonrpc: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    id: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    method: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    params: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    result: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    error: Option<&'a RawValue>,
}

fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(d).map(Some)
}

/// A result of at least this many bytes is made from its frame's own buffer by [`Message::parse_owned`] (which reads
/// it a second time to make it): below, a copy costs less than the second read, and its memory matters little.
const IN_PLACE_RESULT_BYTES: usize = 1 << 20;

/// A message as read from a frame: like [`Message`], with a response's result still borrowed from the frame.
enum Classified<'a> {
    Owned(Message),
    Result(RequestId, &'a RawValue),
}

impl Message {
    /// Classifies one incoming frame.
    ///
    /// Never panics: every frame is either a [`Message`] or an [`IncomingError`] that says what is wrong and
    /// whether the peer is owed an error response.
    pub fn parse(text: &str) -> Result<Self, IncomingError> {
        Ok(match Self::classify(text)? {
            Classified::Owned(message) => message,
            Classified::Result(id, result) => Self::Response(Response { id, outcome: Ok(result.to_owned()) }),
        })
    }

    /// [`Message::parse`] for a frame the caller gives up: a large result is made from the frame's own buffer
    /// (moved to its start and truncated) instead of a copy, so that the frame and its result are never in memory
    /// twice.
    pub fn parse_owned(mut text: String) -> Result<Self, IncomingError> {
        let (id, start, len) = match Self::classify(&text)? {
            Classified::Owned(message) => return Ok(message),
            Classified::Result(id, result) if result.get().len() < IN_PLACE_RESULT_BYTES => {
                return Ok(Self::Response(Response { id, outcome: Ok(result.to_owned()) }));
            }
            // The result's place in the frame: its text is a slice of the frame's.
            Classified::Result(id, result) => {
                (id, result.get().as_ptr() as usize - text.as_ptr() as usize, result.get().len())
            }
        };
        text.truncate(start + len);
        text.drain(..start);
        // The text is the very JSON value serde read above, so this only checks it again.
        match RawValue::from_string(text) {
            Ok(result) => Ok(Self::Response(Response { id, outcome: Ok(result) })),
            Err(e) => Err(IncomingError {
                id: Some(id),
                error: ErrorObject::invalid_request(e.to_string()),
                answerable: false,
            }),
        }
    }

    fn classify(text: &str) -> Result<Classified<'_>, IncomingError> {
        // Serde reads a struct from an array too; a frame must be an object, so anything else goes to `unreadable`.
        let envelope: Envelope<'_> = match text.trim_start().starts_with('{') {
            true => match crate::json::from_str(text) {
                Ok(e) => e,
                Err(err) => return Err(unreadable(text, &err.to_string())),
            },
            false => return Err(unreadable(text, "not an object")),
        };
        // Owed an answer unless it is clearly a response or a notification (answering those could loop).
        let is_response = envelope.result.is_some() || envelope.error.is_some();
        let is_notification = envelope.method.is_some() && envelope.id.is_none();
        let looks_like_request = !is_response && !is_notification;
        let fail = |id: Option<RequestId>, message: String| IncomingError {
            id,
            error: ErrorObject::invalid_request(message),
            answerable: looks_like_request,
        };
        let id = match &envelope.id {
            None => None,
            Some(raw) => match crate::json::from_str::<RequestId>(raw.get()) {
                Ok(id) => Some(Ok(id)),
                Err(_) => Some(Err(raw.get().to_owned())),
            },
        };
        let readable_id = id.as_ref().and_then(|r| r.as_ref().ok().cloned());

        match envelope.jsonrpc.map(RawValue::get) {
            Some("\"2.0\"") => {}
            Some(other) => {
                return Err(fail(readable_id, format!("jsonrpc must be \"2.0\", got {other}")));
            }
            None => {
                return Err(fail(readable_id, "missing member \"jsonrpc\": \"2.0\"".into()));
            }
        }

        if let Some(method) = envelope.method {
            let Ok(method) = crate::json::from_str::<String>(method.get()) else {
                return Err(fail(readable_id, "method must be a string".into()));
            };
            if envelope.result.is_some() || envelope.error.is_some() {
                return Err(fail(readable_id, "a message with a method carries no result or error".into()));
            }
            let params = match envelope.params {
                Some(p) if !p.get().starts_with(['{', '[']) => {
                    return Err(fail(readable_id, "params must be an object or an array".into()));
                }
                other => other.map(ToOwned::to_owned),
            };
            return match id {
                None => Ok(Classified::Owned(Self::Notification(Notification { method, params }))),
                Some(Ok(id)) => Ok(Classified::Owned(Self::Request(Request { id, method, params }))),
                Some(Err(raw)) => Err(fail(None, format!("request id must be a string or an integer, got {raw}"))),
            };
        }

        match (envelope.result, envelope.error, id) {
            (Some(result), None, Some(Ok(id))) => Ok(Classified::Result(id, result)),
            (None, Some(error), id) => {
                let error = crate::json::from_str::<ErrorObject>(error.get())
                    .map_err(|e| fail(readable_id.clone(), format!("malformed error object: {e}")))?;
                Ok(Classified::Owned(match id {
                    Some(Ok(id)) => Self::Response(Response { id, outcome: Err(error) }),
                    Some(Err(raw)) if raw == "null" => Self::UnattributedError(error),
                    None => Self::UnattributedError(error),
                    Some(Err(raw)) => {
                        return Err(fail(None, format!("response id must be a string or an integer, got {raw}")));
                    }
                }))
            }
            (Some(_), Some(_), _) => Err(fail(readable_id, "a response carries result or error, not both".into())),
            (Some(_), None, _) => Err(fail(None, "a result response needs a string or integer id".into())),
            (None, None, _) => Err(fail(readable_id, "a message needs a method, a result or an error".into())),
        }
    }
}

fn unreadable(text: &str, err: &str) -> IncomingError {
    // Valid JSON that is not an object (an array is a batch, which MCP removed) is an invalid request;
    // text that is not JSON at all is a parse error.
    if crate::json::from_str::<de::IgnoredAny>(text).is_ok() {
        // An object serde could not read as an envelope has a duplicated member. It is still invalid; it is answered
        // (to its id, the last one as `JSON.parse` reads it) by the same rule as every frame: unless it is clearly
        // a response or a notification.
        if let Ok(frame) = crate::json::from_str::<serde_json::Map<String, serde_json::Value>>(text) {
            let id = frame.get("id").and_then(|id| RequestId::deserialize(id).ok());
            let is_response = frame.contains_key("result") || frame.contains_key("error");
            let is_notification = frame.contains_key("method") && !frame.contains_key("id");
            let answerable = !is_response && !is_notification;
            let error = ErrorObject::invalid_request(format!("malformed message: {err}"));
            return IncomingError { id, error, answerable };
        }
        let what = if text.trim_start().starts_with('[') {
            "batches are not supported by MCP; send one message per frame".to_owned()
        } else {
            format!("a message must be a JSON object: {err}")
        };
        IncomingError { id: None, error: ErrorObject::invalid_request(what), answerable: true }
    } else {
        IncomingError { id: None, error: ErrorObject::parse_error(format!("invalid JSON: {err}")), answerable: true }
    }
}

#[derive(Serialize)]
struct RequestFrame<'a, P: ?Sized> {
    jsonrpc: &'static str,
    id: &'a RequestId,
    method: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    params: Option<&'a P>,
}

#[derive(Serialize)]
struct NotificationFrame<'a, P> {
    jsonrpc: &'static str,
    method: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    params: Option<&'a P>,
}

#[derive(Serialize)]
struct ResultFrame<'a, R> {
    jsonrpc: &'static str,
    id: &'a RequestId,
    result: &'a R,
}

#[derive(Serialize)]
struct ErrorFrame<'a> {
    jsonrpc: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a RequestId>,
    error: &'a ErrorObject,
}

/// Writes a request frame.
pub fn encode_request<P: Serialize + ?Sized>(
    id: &RequestId,
    method: &str,
    params: Option<&P>,
) -> serde_json::Result<String> {
    serde_json::to_string(&RequestFrame { jsonrpc: "2.0", id, method, params })
}

/// Writes a notification frame.
pub fn encode_notification<P: Serialize>(method: &str, params: Option<&P>) -> serde_json::Result<String> {
    serde_json::to_string(&NotificationFrame { jsonrpc: "2.0", method, params })
}

/// Writes a success response frame.
pub fn encode_result<R: Serialize>(id: &RequestId, result: &R) -> serde_json::Result<String> {
    serde_json::to_string(&ResultFrame { jsonrpc: "2.0", id, result })
}

/// Writes a result response frame around `result`, JSON text the caller wrote (for one made of serde_json's own
/// output, such as [`crate::modern::complete_result`]'s): it is copied in, not read again.
pub fn encode_result_text(id: &RequestId, result: &str) -> String {
    let mut frame = result_frame_head(id, result.len() + 1);
    frame.push_str(result);
    frame.push('}');
    frame
}

/// The start of a result response frame to `id`, up to its result (`{"jsonrpc":"2.0","id":…,"result":`), with room
/// for `more` bytes after it; the result and a closing `}` complete the frame.
pub fn result_frame_head(id: &RequestId, more: usize) -> String {
    // A request id is a number or a string, which always serializes.
    let id = serde_json::to_string(id).unwrap_or_default();
    let mut head = String::with_capacity(id.len() + 30 + more);
    head.push_str("{\"jsonrpc\":\"2.0\",\"id\":");
    head.push_str(&id);
    head.push_str(",\"result\":");
    head
}

/// Writes an error response frame. `id` is `None` only when the request's id could not be read.
pub fn encode_error(id: Option<&RequestId>, error: &ErrorObject) -> String {
    // An ErrorObject always serializes: its data is a Value and its other members are plain.
    serde_json::to_string(&ErrorFrame { jsonrpc: "2.0", id, error })
        .unwrap_or_else(|_| r#"{"jsonrpc":"2.0","error":{"code":-32603,"message":"unserializable error"}}"#.to_owned())
}

/// The empty result `{}` (answers to `ping` and other acknowledgements).
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
pub struct EmptyResult {}

#[cfg(test)]
#[path = "jsonrpc_tests.rs"]
mod tests;
