//! The first page of `tools/list`, asked for with `server/discover` when a worker says it answers MCP 2026-07-28
//! from its first frame (`docs/wire-protocol.md`, "boot"): the first listing made soon after, with no change to the
//! tools since, is served from that answer instead of a round trip of its own. It serves one listing at most.

use crate::connection::{Connection, RequestOptions};
use crate::error::Result;
use futures_channel::oneshot;
use mcp_worker_protocol::{PaginatedParams, methods};
use serde_json::value::RawValue;
use std::cell::RefCell;

/// How long after it was asked for the first page serves a listing: a caller lists the tools right after the
/// start, or asks again. A later listing asks the server, as any listing does.
pub(crate) const FIRST_TOOLS_FOR_MS: u32 = 2_000;

/// A first page on its way, in the form `P` its listing reads.
pub(crate) struct FirstTools<P> {
    page: oneshot::Receiver<Result<P>>,
    /// When it was asked for (the connection's clock), and the connection's count of tool changes then.
    asked_at_ms: f64,
    tools_changes: u64,
}

impl<P> FirstTools<P> {
    /// The page `page` will bring, asked for on `connection` now.
    pub(crate) fn new(connection: &Connection, page: oneshot::Receiver<Result<P>>) -> Self {
        Self { page, asked_at_ms: connection.now_ms(), tools_changes: connection.tools_list_changes() }
    }

    /// The page, when it may still serve a listing: asked for lately, and no tool changed since.
    fn take_if_fresh(self, connection: &Connection) -> Option<oneshot::Receiver<Result<P>>> {
        let fresh = connection.now_ms() - self.asked_at_ms <= f64::from(FIRST_TOOLS_FOR_MS);
        (fresh && self.tools_changes == connection.tools_list_changes()).then_some(self.page)
    }
}

/// For a listing about to start: the page kept in `slot`, taken either way (it serves one listing at most), and
/// handed over when it may still serve this one.
pub(crate) fn take<P>(
    slot: &RefCell<Option<FirstTools<P>>>,
    connection: &Connection,
) -> Option<oneshot::Receiver<Result<P>>> {
    let first = slot.borrow_mut().take();
    first.and_then(|first| first.take_if_fresh(connection))
}

/// The page from [`take`] once it came, or `None` (no page, or it failed: the listing then asks again).
pub(crate) async fn arrived<P>(page: Option<oneshot::Receiver<Result<P>>>) -> Option<P> {
    page?.await.ok()?.ok()
}

/// Asks `connection`'s server for its first page of tools now, as text, for [`crate::McpClient`]'s listings.
#[cfg_attr(all(not(target_arch = "wasm32"), not(test)), expect(dead_code, reason = "the worker transport's"))]
pub(crate) fn ask_as_text(connection: &Connection, timeout_ms: u32) -> FirstTools<Box<RawValue>> {
    let (sender, page) = oneshot::channel();
    let id = connection.next_request_id();
    let params = PaginatedParams::default();
    let options = RequestOptions::timeout(timeout_ms);
    let reply = Box::new(move |outcome| drop(sender.send(outcome)));
    connection.request_with_callback(id, methods::TOOLS_LIST, Some(&params), options, reply);
    FirstTools::new(connection, page)
}
