//! `tools/list` for the JavaScript API, read the way [`JsCalls`] reads tool results: each page is parsed by the
//! page's `JSON.parse` as it arrives, and its tools are appended to one JavaScript array there. No page crosses into
//! wasm, is scanned, and crosses back as text. The session keeps everything else: request ids and timeouts, the
//! cursor loop and page limits ([`Pages`]), and any answer that is not a plain result (an error, a
//! 2026-07-28 result that is not `complete`), which is read in Rust as before.
//!
//! A worker that answers MCP 2026-07-28 from its first frame is asked for its first page when it starts, with
//! `server/discover` ([`JsCalls::ask_first_tools`], `session::first_tools`).

use super::js_calls::JsCalls;
use crate::connection::{Connection, RequestOptions};
use crate::error::{Error, Result};
use crate::session::first_tools::{self, FirstTools};
use crate::session::{McpClient, Pages, read_tools_page};
use futures_channel::oneshot;
use mcp_worker_protocol::{PaginatedParams, methods};
use serde_json::value::RawValue;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/frames.js")]
extern "C" {
    /// Appends the tools of a `tools/list` result the page parsed to `tools`, and returns its `nextCursor`
    /// (`undefined` at the end). Throws for a result without a `tools` array or with a cursor that is not a string.
    #[wasm_bindgen(js_name = appendListed, catch)]
    fn append_listed(tools: &js_sys::Array, result: &JsValue) -> std::result::Result<JsValue, JsValue>;

    /// Parses one page's `tools` array (JSON text) and appends its tools to `tools`.
    #[wasm_bindgen(js_name = appendPage, catch)]
    fn append_page(tools: &js_sys::Array, text: &str) -> std::result::Result<(), JsValue>;
}

/// A page as it came: parsed by the page (a plain result), or as text (anything the session read).
pub(super) enum Page {
    Parsed(JsValue),
    Text(Box<RawValue>),
}

impl JsCalls {
    /// Every tool `client`'s server offers (all pages), as one array of the objects the page parsed.
    pub async fn list_tools(&self, client: &McpClient) -> Result<js_sys::Array> {
        let tools = js_sys::Array::new();
        let mut pages = Pages::new(methods::TOOLS_LIST);
        let mut first = first_tools::take(&self.first_tools, client.connection());
        loop {
            let params = pages.next_params().map_err(|message| client.protocol_error(message))?;
            let page = match first_tools::arrived(first.take()).await {
                Some(page) => page,
                None => self.request_page(client.connection(), client.request_timeout_ms(), &params).await?,
            };
            let next = match page {
                Page::Parsed(result) => append_listed(&tools, &result).map(|next| next.as_string()).map_err(describe),
                Page::Text(raw) => read_tools_page(&raw).and_then(|(page_tools, next)| {
                    append_page(&tools, page_tools.get()).map(|()| next).map_err(describe)
                }),
            };
            let next = next.map_err(|message| client.protocol_error(message))?;
            if !pages.follow(next).map_err(|message| client.protocol_error(message))? {
                return Ok(tools);
            }
        }
    }

    /// Asks `connection`'s server for its first page of tools now, for the next listing (see [`FirstTools`]). It is
    /// kept until the first listing takes it (one page, the server's) or the client goes.
    pub(crate) fn ask_first_tools(&self, connection: &Connection, timeout_ms: u32) {
        let page = self.send_page_request(connection, timeout_ms, &PaginatedParams::default());
        *self.first_tools.borrow_mut() = Some(FirstTools::new(connection, page));
    }

    /// Requests one page of `tools/list`: the page's `JSON.parse` reads a plain result, the session anything else.
    async fn request_page(&self, connection: &Connection, timeout_ms: u32, params: &PaginatedParams) -> Result<Page> {
        let receiver = self.send_page_request(connection, timeout_ms, params);
        let dropped =
            || Error::Closed { server: connection.server().to_owned(), reason: "the connection was dropped".into() };
        receiver.await.unwrap_or_else(|_| Err(dropped()))
    }

    /// Sends a `tools/list` request for one page; its page comes on the receiver.
    fn send_page_request(
        &self,
        connection: &Connection,
        timeout_ms: u32,
        params: &PaginatedParams,
    ) -> oneshot::Receiver<Result<Page>> {
        let (sender, receiver) = oneshot::channel::<Result<Page>>();
        let by_page = Rc::new(RefCell::new(Some(sender)));
        let by_session = by_page.clone();
        let options = RequestOptions::timeout(timeout_ms);
        self.request(
            connection,
            (methods::TOOLS_LIST, Some(params)),
            options,
            Box::new(move |result| {
                if let Some(sender) = by_page.borrow_mut().take() {
                    let _ = sender.send(Ok(Page::Parsed(result)));
                }
            }),
            Box::new(move |outcome| {
                if let Some(sender) = by_session.borrow_mut().take() {
                    let _ = sender.send(outcome.map(Page::Text));
                }
            }),
        );
        receiver
    }
}

fn describe(thrown: JsValue) -> String {
    super::describe_js(&thrown)
}
