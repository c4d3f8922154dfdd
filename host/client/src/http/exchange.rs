//! Streamable HTTP (MCP 2025-11-25, "Transports") without I/O: the headers of each request, what a response means,
//! and what the session keeps (its id and the negotiated protocol version). The browser glue,
//! `transport` (on wasm32 only), does what these functions decide.

use super::mirrored::{ModernPeek, header_params, param_headers};
use super::tool_headers::{Listed, ToolHeaders};
use mcp_worker_protocol::quoted::{json, quoted};
use serde::Deserialize;
use serde_json::value::RawValue;

/// `Accept` of a POST: the server may answer with JSON or with a stream of events.
pub const ACCEPT_POST: &str = "application/json, text/event-stream";
/// `Accept` of the GET that opens the server's own stream.
pub const ACCEPT_GET: &str = "text/event-stream";
/// The session header.
pub const SESSION_HEADER: &str = "Mcp-Session-Id";
/// The protocol version header, sent on every request after `initialize`.
pub const VERSION_HEADER: &str = "MCP-Protocol-Version";
/// The header that resumes a stream after the last event received.
pub const LAST_EVENT_ID_HEADER: &str = "Last-Event-ID";

/// What a session keeps between requests.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HttpSession {
    /// The id the server gave in its answer to `initialize`; sent with every later request.
    pub id: Option<String>,
    /// The protocol version `initialize` settled on; sent with every later request.
    pub protocol_version: Option<String>,
    /// The id of the `initialize` request in flight, whose answer carries the version.
    initialize_id: Option<i64>,
    /// MCP 2026-07-28: the `tools/list` requests in flight, whose answers say which arguments go in headers.
    tools_lists: Vec<i64>,
    /// MCP 2026-07-28: the arguments each tool mirrors in headers (`x-mcp-header`).
    header_params: ToolHeaders,
}

/// The kind of a request, which decides its headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestKind {
    /// A POST carrying one message.
    Post,
    /// The GET that opens (or resumes) a stream.
    Get,
    /// The DELETE that ends the session.
    Delete,
}

impl HttpSession {
    /// The protocol headers of a request of `kind` (the configured headers are added by the caller);
    /// `last_event_id` resumes a stream.
    pub fn headers(&self, kind: RequestKind, last_event_id: Option<&str>) -> Vec<(&'static str, String)> {
        let mut headers = Vec::with_capacity(4);
        match kind {
            RequestKind::Post => {
                headers.push(("Accept", ACCEPT_POST.to_owned()));
                headers.push(("Content-Type", "application/json".to_owned()));
            }
            RequestKind::Get => headers.push(("Accept", ACCEPT_GET.to_owned())),
            RequestKind::Delete => {}
        }
        if let Some(id) = &self.id {
            headers.push((SESSION_HEADER, id.clone()));
        }
        if let Some(version) = &self.protocol_version {
            headers.push((VERSION_HEADER, version.clone()));
        }
        if let Some(last) = last_event_id.filter(|id| !id.is_empty()) {
            headers.push((LAST_EVENT_ID_HEADER, last.to_owned()));
        }
        headers
    }

    /// Notes a frame about to be posted: the `initialize` request, whose answer settles the version, and the
    /// `tools/list` requests, whose answers say which arguments go in headers.
    pub fn sending(&mut self, frame: &FramePeek) {
        match (frame.method.as_deref(), frame.id) {
            (Some("initialize"), _) => self.initialize_id = frame.id,
            (Some("tools/list"), Some(id)) if self.tools_lists.len() < 64 => self.tools_lists.push(id),
            _ => {}
        }
    }

    /// The headers a frame of MCP 2026-07-28 mirrors from its body (none for a frame of the handshake era):
    /// the version, method and name, and for a tool call the arguments its tool marks with `x-mcp-header`.
    pub fn mirrored(&self, frame: &str, peek: &FramePeek) -> Vec<(String, String)> {
        let modern = ModernPeek::of(frame);
        let mut headers = modern.headers(peek.is_request());
        let params = modern.name.as_ref().filter(|_| modern.method.as_deref() == Some("tools/call"));
        if let Some(params) = params.map(|tool| self.header_params.get(tool)).filter(|p| !p.is_empty()) {
            #[derive(Deserialize)]
            struct Call {
                params: Arguments,
            }
            #[derive(Deserialize)]
            struct Arguments {
                #[serde(default)]
                arguments: serde_json::Value,
            }
            if let Ok(call) = mcp_worker_protocol::json::from_str::<Call>(frame) {
                headers.extend(param_headers(params, &call.params.arguments));
            }
        }
        headers
    }

    /// Notes a frame received: the answer to `initialize` settles the protocol version; the answer to a
    /// `tools/list` says which arguments go in headers, and loses the tools whose `x-mcp-header` annotations
    /// are invalid (as the spec requires): then the frame to deliver instead is returned.
    pub fn received(&mut self, frame: &str) -> Option<String> {
        if !self.tools_lists.is_empty() {
            let id = FramePeek::of(frame).id;
            if let Some(index) = self.tools_lists.iter().position(|listed| Some(*listed) == id) {
                self.tools_lists.swap_remove(index);
                return self.tools_listed(frame);
            }
        }
        self.initialize_settled(frame);
        None
    }

    /// Reads the tools of a `tools/list` answer; returns the frame without the invalid ones, if there were any.
    fn tools_listed(&mut self, frame: &str) -> Option<String> {
        let mut answer: serde_json::Value = mcp_worker_protocol::json::from_str(frame).ok()?;
        let tools = answer.get_mut("result")?.get_mut("tools")?.as_array_mut()?;
        let before = tools.len();
        let mut page: Vec<Listed> = Vec::with_capacity(before);
        tools.retain(|tool| {
            let Some(name) = tool.get("name").and_then(serde_json::Value::as_str) else { return true };
            let params = header_params(tool.get("inputSchema").unwrap_or(&serde_json::Value::Null)).ok();
            let valid = params.is_some();
            page.push((name.to_owned(), params));
            valid
        });
        self.header_params.update(page);
        (tools.len() != before).then(|| json(&answer))
    }

    fn initialize_settled(&mut self, frame: &str) {
        let Some(expected) = self.initialize_id else { return };
        #[derive(Deserialize)]
        struct Answer {
            id: Option<i64>,
            result: Option<Settled>,
        }
        #[derive(Deserialize)]
        struct Settled {
            #[serde(rename = "protocolVersion")]
            protocol_version: Option<String>,
        }
        let Ok(answer) = mcp_worker_protocol::json::from_str::<Answer>(frame) else { return };
        if answer.id != Some(expected) {
            return;
        }
        self.initialize_id = None;
        if let Some(version) = answer.result.and_then(|r| r.protocol_version) {
            self.protocol_version = Some(version);
        }
    }

    /// Takes the session id a response carried, if the session has none yet. An id that is not visible ASCII is
    /// refused (the spec allows only 0x21-0x7E).
    pub fn accept_session_id(&mut self, value: Option<&str>) -> Result<(), String> {
        let Some(value) = value else { return Ok(()) };
        if value.is_empty() || !value.bytes().all(|b| (0x21..=0x7e).contains(&b)) {
            return Err("the server sent an Mcp-Session-Id that is not visible ASCII".to_owned());
        }
        if self.id.is_none() {
            self.id = Some(value.to_owned());
        }
        Ok(())
    }
}

/// What a frame is, read from its top level only.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct FramePeek {
    /// A request's or notification's method.
    #[serde(default)]
    pub method: Option<String>,
    /// A request's id, when it is a number (the host numbers its own requests).
    #[serde(default, deserialize_with = "numeric_id")]
    pub id: Option<i64>,
}

impl FramePeek {
    /// Reads `frame`'s method and id; an unreadable frame is neither.
    pub fn of(frame: &str) -> Self {
        mcp_worker_protocol::json::from_str(frame).unwrap_or_default()
    }

    /// Whether the frame is a request (it has a method and an id): one the server must answer.
    pub fn is_request(&self) -> bool {
        self.method.is_some() && self.id.is_some()
    }
}

fn numeric_id<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<i64>, D::Error> {
    let raw = Option::<&RawValue>::deserialize(deserializer)?;
    Ok(raw.and_then(|raw| raw.get().parse().ok()))
}

/// What the answer to a POST means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PostReply {
    /// 202: a notification or response was accepted; nothing comes back on this request.
    Accepted,
    /// 200 with `application/json`: one message, or a batch.
    Json,
    /// 200 with `text/event-stream`: messages until the answer, then the stream ends.
    Stream,
    /// 404 on a request that carried a session id: the session is over, the client must initialize again.
    SessionExpired,
    /// 400, 404 or 405 to the first `initialize` (no session yet): perhaps a server of the older HTTP+SSE
    /// transport.
    NotStreamableHttp {
        /// The status.
        status: u16,
    },
    /// 400 or 404 with `application/json`: perhaps a JSON-RPC error answering the request (MCP 2026-07-28 answers
    /// a request it refuses so: -32601 with 404, -32602, -32020, -32021 or -32022 with 400).
    JsonError {
        /// The status.
        status: u16,
    },
    /// 401 or 403: the server wants (other) credentials.
    Unauthorized {
        /// The status.
        status: u16,
        /// The `WWW-Authenticate` header, if the browser let it be read.
        challenge: Option<String>,
    },
    /// Any other answer: the request failed.
    Failed {
        /// Why, in words.
        reason: String,
    },
}

/// What `status` and `content_type` mean for a POST; `with_session` when the request carried a session id,
/// `initializing` when it carried `initialize`.
pub fn classify_post(
    status: u16,
    content_type: Option<&str>,
    with_session: bool,
    initializing: bool,
    challenge: Option<String>,
) -> PostReply {
    match status {
        202 => PostReply::Accepted,
        200..=299 => match media_type(content_type).as_str() {
            "application/json" => PostReply::Json,
            "text/event-stream" => PostReply::Stream,
            // A body-less 200/204 to a notification is as good as 202.
            "" if status == 204 => PostReply::Accepted,
            other => PostReply::Failed {
                reason: format!(
                    "the server answered with content type {}, neither application/json nor text/event-stream",
                    quoted(if other.is_empty() { "(none)" } else { other })
                ),
            },
        },
        404 if with_session => PostReply::SessionExpired,
        400 | 404 | 405 if initializing && !with_session => PostReply::NotStreamableHttp { status },
        400 | 404 if media_type(content_type) == "application/json" => PostReply::JsonError { status },
        401 | 403 => PostReply::Unauthorized { status, challenge },
        _ => PostReply::Failed { reason: format!("the server answered HTTP {status}") },
    }
}

/// What the answer to the GET that opens the server's stream means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GetReply {
    /// A stream of events.
    Stream,
    /// 405: the server offers no stream of its own; nothing to do.
    NotOffered,
    /// 404 with a session: the session is over.
    SessionExpired,
    /// Anything else: the stream could not be opened.
    Failed {
        /// Why, in words.
        reason: String,
    },
}

/// What `status` and `content_type` mean for the GET.
pub fn classify_get(status: u16, content_type: Option<&str>, with_session: bool) -> GetReply {
    match status {
        200 if media_type(content_type) == "text/event-stream" => GetReply::Stream,
        405 => GetReply::NotOffered,
        404 if with_session => GetReply::SessionExpired,
        200 => GetReply::Failed { reason: "the server's stream is not text/event-stream".to_owned() },
        _ => GetReply::Failed { reason: format!("the server answered HTTP {status} to the GET of its stream") },
    }
}

/// `text/event-stream; charset=utf-8` → `text/event-stream`.
fn media_type(content_type: Option<&str>) -> String {
    content_type.unwrap_or("").split(';').next().unwrap_or("").trim().to_ascii_lowercase()
}

/// The messages of a JSON body: one message, or each message of a batch, as frames.
pub fn json_body_frames(body: &str) -> Result<Vec<String>, String> {
    let trimmed = body.trim_start();
    if trimmed.starts_with('[') {
        let batch: Vec<&RawValue> = mcp_worker_protocol::json::from_str(body)
            .map_err(|e| format!("the server's JSON answer is unreadable: {e}"))?;
        return Ok(batch.into_iter().map(|m| m.get().to_owned()).collect());
    }
    if trimmed.is_empty() {
        return Ok(Vec::new());
    }
    Ok(vec![body.to_owned()])
}

#[cfg(test)]
#[path = "exchange_tests.rs"]
mod tests;
