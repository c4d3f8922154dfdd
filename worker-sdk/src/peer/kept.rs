//! Answers whose result is text the session keeps between answers: the first `tools/list` page, which every client
//! asks for again after each change notification. A transport that asked for them
//! ([`crate::Session::enable_kept_frames`]) gets the frame in two parts, so that it can keep its own form of the
//! kept text (the web transport keeps the JavaScript string) instead of converting the same text on every answer.

use mcp_worker_protocol::RequestId;
use mcp_worker_protocol::jsonrpc::result_frame_head;
use std::rc::Rc;

/// A response frame in two parts: `head` (`{"jsonrpc":"2.0","id":…,"result":`), then the kept result text, then
/// [`KeptFrame::TAIL`]. The same `kept` (the same `Rc`) stands for the same text for as long as it is alive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptFrame {
    /// The frame up to its result.
    pub head: String,
    /// The result, as the session keeps it.
    pub kept: Rc<str>,
}

impl KeptFrame {
    /// What closes the frame after its result.
    pub const TAIL: &'static str = "}";

    /// The frame answering `id` with `kept`.
    pub(crate) fn new(id: &RequestId, kept: Rc<str>) -> Self {
        Self { head: result_frame_head(id, 0), kept }
    }

    /// The whole frame as one text.
    pub fn into_text(self) -> String {
        let mut text = String::with_capacity(self.head.len() + self.kept.len() + 1);
        text.push_str(&self.head);
        text.push_str(&self.kept);
        text.push_str(Self::TAIL);
        text
    }
}

/// Where a session writes the frames of kept results (the transport posts them as one message).
pub type KeptOutbound = Rc<dyn Fn(KeptFrame)>;

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_worker_protocol::jsonrpc::encode_result;
    use serde_json::value::RawValue;

    #[test]
    fn the_parts_make_the_frame_the_plain_path_writes() {
        let result = r#"{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}"#;
        let raw = RawValue::from_string(result.to_owned()).unwrap();
        for id in [RequestId::Number(7), RequestId::String("a \"quoted\" id".into())] {
            let frame = KeptFrame::new(&id, Rc::from(result));
            assert_eq!(frame.into_text(), encode_result(&id, &raw).unwrap());
        }
    }
}
