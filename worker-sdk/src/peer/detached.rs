//! Large strings of a result sent beside its frame instead of inside it (`docs/wire-protocol.md`, "Detached
//! strings"), for a host that asked for them. The frame's JSON carries a marker string where each one goes; the host
//! puts the strings back after it parses the frame. A large result then costs neither JSON escaping here nor a JSON
//! parse of the whole text on the page: the strings cross as they are.

use mcp_worker_protocol::{CallToolResult, ContentBlock, ReadResourceResult, RequestId, ResourceContents};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// Strings of at least this many bytes are detached; smaller ones cost less to escape than to send apart.
pub const DETACH_FROM_BYTES: usize = 32 * 1024;

/// A frame whose large strings travel beside it: `json` holds each string's marker where the string goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DetachedFrame {
    /// The JSON-RPC message, with markers in place of the detached strings.
    pub json: String,
    /// Each marker and the string it stands for, in the order they were detached.
    pub strings: Vec<(String, String)>,
}

/// Where a session writes a frame with detached strings (the transport posts it as one message).
pub type DetachedOutbound = Rc<dyn Fn(DetachedFrame)>;

/// Detached strings: each marker and the string it stands for.
type Strings = Vec<(String, String)>;

/// Detaches large strings from results, and keeps them by request until the result is sent.
pub(crate) struct Detacher {
    out: DetachedOutbound,
    /// Random per session: a string a tool returns cannot be taken for a marker unless it knows this.
    nonce: String,
    count: Cell<u64>,
    /// By request: few are kept at a time (from a handler's end to its answer, within one poll).
    kept: RefCell<Vec<(RequestId, Strings)>>,
}

impl Detacher {
    /// A detacher writing to `out`, or `None` when the platform has no randomness for its markers.
    pub(crate) fn new(out: DetachedOutbound) -> Option<Self> {
        let mut bytes = [0u8; 12];
        getrandom::fill(&mut bytes).ok()?;
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let nonce =
            bytes.iter().flat_map(|b| [HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]).map(char::from).collect();
        Some(Self { out, nonce, count: Cell::new(0), kept: RefCell::default() })
    }

    /// Takes the large texts and data of a `tools/call` result out, for the answer to `id`.
    pub(crate) fn detach_call_result(&self, id: &RequestId, result: &mut CallToolResult) {
        let mut found = Vec::new();
        for block in &mut result.content {
            match block {
                ContentBlock::Text(text) => self.take(&mut text.text, &mut found),
                ContentBlock::Image(media) | ContentBlock::Audio(media) => self.take(&mut media.data, &mut found),
                ContentBlock::Resource(embedded) => self.take_contents(&mut embedded.resource, &mut found),
                _ => {}
            }
        }
        self.keep(id, found);
    }

    /// Takes the large texts and blobs of a `resources/read` result out, for the answer to `id`.
    pub(crate) fn detach_read_result(&self, id: &RequestId, result: &mut ReadResourceResult) {
        let mut found = Vec::new();
        for contents in &mut result.contents {
            self.take_contents(contents, &mut found);
        }
        self.keep(id, found);
    }

    /// The strings detached for the answer to `id` (none when nothing was).
    pub(crate) fn take_for(&self, id: &RequestId) -> Strings {
        let mut kept = self.kept.borrow_mut();
        match kept.iter().position(|(kept_for, _)| kept_for == id) {
            Some(at) => kept.swap_remove(at).1,
            None => Vec::new(),
        }
    }

    /// Sends a frame with its detached strings.
    pub(crate) fn send(&self, json: String, strings: Strings) {
        (self.out)(DetachedFrame { json, strings });
    }

    fn take_contents(&self, contents: &mut ResourceContents, found: &mut Strings) {
        match contents {
            ResourceContents::Text { text, .. } => self.take(text, found),
            ResourceContents::Blob { blob, .. } => self.take(blob, found),
            _ => {}
        }
    }

    fn take(&self, text: &mut String, found: &mut Strings) {
        if text.len() >= DETACH_FROM_BYTES {
            let n = self.count.get();
            self.count.set(n + 1);
            let mut marker = String::from("mcp-worker-detached:");
            marker.push_str(&self.nonce);
            marker.push(':');
            marker.push_str(&n.to_string());
            let detached = std::mem::replace(text, marker.clone());
            found.push((marker, detached));
        }
    }

    fn keep(&self, id: &RequestId, found: Strings) {
        if !found.is_empty() {
            self.kept.borrow_mut().push((id.clone(), found));
        }
    }
}
