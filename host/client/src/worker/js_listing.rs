//! `tools/list` for the JavaScript API, read the way [`JsCalls`] reads tool results: each page is parsed by the
//! page's `JSON.parse` as it arrives, and its tools are appended to one JavaScript array there. No page crosses into
//! wasm, is scanned, and crosses back as text. The session keeps everything else: request ids and timeouts, the
//! cursor loop and page limits ([`Pages`]), and any answer that is not a plain result (an error, a
//! 2026-07-28 result that is not `complete`), which is read in Rust as before.

use super::js_calls::JsCalls;
use crate::connection::RequestOptions;
use crate::error::{Error, Result};
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
enum Page {
    Parsed(JsValue),
    Text(Box<RawValue>),
}

impl JsCalls {
    /// Every tool `client`'s server offers (all pages), as one array of the objects the page parsed.
    pub async fn list_tools(&self, client: &McpClient) -> Result<js_sys::Array> {
        let tools = js_sys::Array::new();
        let mut pages = Pages::new(methods::TOOLS_LIST);
        loop {
            let params = pages.next_params().map_err(|message| client.protocol_error(message))?;
            let next = match self.request_page(client, &params).await? {
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

    /// Requests one page of `tools/list`: the page's `JSON.parse` reads a plain result, the session anything else.
    async fn request_page(&self, client: &McpClient, params: &PaginatedParams) -> Result<Page> {
        let (sender, receiver) = oneshot::channel::<Result<Page>>();
        let by_page = Rc::new(RefCell::new(Some(sender)));
        let by_session = by_page.clone();
        let options = RequestOptions::timeout(client.request_timeout_ms());
        self.request(
            client.connection(),
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
        let dropped = || Error::Closed {
            server: client.connection().server().to_owned(),
            reason: "the connection was dropped".into(),
        };
        receiver.await.unwrap_or_else(|_| Err(dropped()))
    }
}

fn describe(thrown: JsValue) -> String {
    super::describe_js(&thrown)
}
