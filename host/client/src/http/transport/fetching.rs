//! Requests and bodies: `fetch` with the transport's headers and abort signal, what a failed request means (the
//! browser says only "Failed to fetch", whether the server could not be reached or refused CORS), and bodies read
//! as text, chunk by chunk. Each request is built, and each chunk read and decoded, by one call into JavaScript
//! (`js/http.js`) rather than one per header, option or field.

use super::HttpTransport;
use crate::Error;
use crate::worker::describe_js;
use futures_util::future::LocalBoxFuture;
use js_sys::{Promise, Reflect};
use mcp_worker_protocol::quoted::quoted;
use std::ops::ControlFlow;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{ReadableStreamDefaultReader, Response, ResponseType, TextDecoder};

#[wasm_bindgen(module = "/js/http.js")]
extern "C" {
    /// `fetch(url)` with the request built in JavaScript: `headers` holds each name and value followed by a NUL.
    /// Throws, naming the header, for a header the browser refuses.
    #[wasm_bindgen(js_name = fetchWith, catch)]
    fn fetch_with(
        url: &str,
        method: &str,
        headers: &str,
        body: Option<&str>,
        signal: Option<&web_sys::AbortSignal>,
        manual_redirect: bool,
    ) -> Result<Promise, JsValue>;

    /// Forgets the headers `fetch_with` keeps for the next request (it reuses the last ones it made for the same
    /// text): a transport that closes may have had its credentials in them.
    #[wasm_bindgen(js_name = forgetHeaders)]
    pub(super) fn forget_headers();

    /// The next chunk of the body `reader` reads, decoded by `decoder` (streaming); `undefined` once it has ended.
    #[wasm_bindgen(js_name = nextText)]
    fn next_text(reader: &ReadableStreamDefaultReader, decoder: &TextDecoder) -> Promise;
}

/// What aborts a request: the transport's close, a signal of its own (which the close also fires), or nothing.
pub(super) enum Abort<'a> {
    ByClose,
    By(&'a web_sys::AbortSignal),
    Never,
}

/// A protocol header: its name (one of the protocol's, or one a request mirrors) and value.
pub(super) type Header = (std::borrow::Cow<'static, str>, String);

/// The protocol's own headers, as [`Header`]s.
pub(super) fn headers(fixed: Vec<(&'static str, String)>) -> Vec<Header> {
    fixed.into_iter().map(|(name, value)| (name.into(), value)).collect()
}

impl HttpTransport {
    /// Starts a request to `url`: the protocol headers, then the configured ones; `abortable` by close.
    pub(super) fn request(
        &self,
        url: &str,
        method: &str,
        protocol: &[Header],
        body: Option<&str>,
        abortable: Abort<'_>,
    ) -> Result<Promise, String> {
        let joined = joined_headers(
            protocol
                .iter()
                .map(|(name, value)| (name.as_ref(), value.as_str()))
                .chain(self.headers.iter().map(|(name, value)| (name.as_str(), value.as_str()))),
        )?;
        let signal = match abortable {
            Abort::ByClose => Some(self.aborter.signal()),
            Abort::By(signal) => Some(signal.clone()),
            Abort::Never => None,
        };
        let manual_redirect = !self.headers.is_empty();
        let url = self.through_proxy(url);
        fetch_with(&url, method, &joined, body, signal.as_ref(), manual_redirect).map_err(|e| describe_js(&e))
    }

    /// Where a request for `url` goes: the URL itself, or the proxy's template with it in place of `{url}`.
    fn through_proxy(&self, url: &str) -> String {
        match &self.proxy {
            Some(template) => template.replace("{url}", &String::from(js_sys::encode_uri_component(url))),
            None => url.to_owned(),
        }
    }

    /// Fetches `url`, abortable by close. A failure is an error naming the server that says why, as far as the
    /// browser lets the page know.
    pub(super) async fn fetch(
        &self,
        url: &str,
        method: &str,
        protocol: &[Header],
        body: Option<&str>,
    ) -> Result<Response, Error> {
        self.fetch_abortable(url, method, protocol, body, Abort::ByClose).await
    }

    /// [`HttpTransport::fetch`], aborted as `abort` says. Boxed: its work (a token refresh included) is compiled
    /// once, not into each of the transport's requests that await it.
    pub(super) fn fetch_abortable<'a>(
        &'a self,
        url: &'a str,
        method: &'a str,
        protocol: &'a [Header],
        body: Option<&'a str>,
        abort: Abort<'a>,
    ) -> LocalBoxFuture<'a, Result<Response, Error>> {
        Box::pin(self.fetch_abortable_unboxed(url, method, protocol, body, abort))
    }

    async fn fetch_abortable_unboxed(
        &self,
        url: &str,
        method: &str,
        protocol: &[Header],
        body: Option<&str>,
        abort: Abort<'_>,
    ) -> Result<Response, Error> {
        if self.closed.get() {
            return Err(self.closed_error());
        }
        let mut protocol = protocol.to_vec();
        if let Some(bearer) = self.bearer().await {
            protocol.push(("Authorization".into(), bearer));
        }
        let promise =
            self.request(url, method, &protocol, body, abort).map_err(|reason| self.http_error(None, reason))?;
        let response: Response = match JsFuture::from(promise).await {
            Ok(response) => response.unchecked_into(),
            Err(_) if self.closed.get() => return Err(self.closed_error()),
            Err(failure) => {
                // Through a proxy, the proxy is what did not answer.
                return Err(Error::Unreachable {
                    server: self.server.clone(),
                    server_origin: origin_of(&self.through_proxy(url)),
                    page_origin: page_origin(),
                    detail: format!("{method} {url}: {}", describe_js(&failure)),
                });
            }
        };
        if response.type_() == ResponseType::Opaqueredirect {
            return Err(self.http_error(
                None,
                format!(
                    "{method} {url} was redirected; requests that carry configured headers do not follow redirects \
                     (the headers could reach another address): configure the final URL"
                ),
            ));
        }
        Ok(response)
    }

    /// A request to an authorization server: only `headers` (none of the server's), direct, without redirects.
    pub(super) async fn fetch_plain(
        &self,
        url: &str,
        method: &str,
        headers: &[(&'static str, String)],
        body: Option<&str>,
    ) -> Result<Response, Error> {
        let joined = joined_headers(headers.iter().map(|(name, value)| (*name, value.as_str())))
            .map_err(|reason| self.http_error(None, reason))?;
        let signal = self.aborter.signal();
        let request = fetch_with(url, method, &joined, body, Some(&signal), true)
            .map_err(|e| self.http_error(None, describe_js(&e)))?;
        match JsFuture::from(request).await {
            Ok(response) => Ok(response.unchecked_into()),
            Err(failure) => Err(Error::Unreachable {
                server: self.server.clone(),
                server_origin: origin_of(url),
                page_origin: page_origin(),
                detail: format!("{method} {url}: {}", describe_js(&failure)),
            }),
        }
    }

    fn closed_error(&self) -> Error {
        Error::Closed { server: self.server.clone(), reason: "the transport is closed".into() }
    }
}

/// Headers as [`fetch_with`] takes them: each name and value followed by a NUL. A NUL in one is refused, as the
/// browser would refuse it.
fn joined_headers<'a>(headers: impl Iterator<Item = (&'a str, &'a str)>) -> Result<String, String> {
    let mut joined = String::new();
    for (name, value) in headers {
        if name.contains('\0') || value.contains('\0') {
            return Err(format!("the header {name} is not a valid HTTP header", name = quoted(name)));
        }
        for part in [name, value] {
            joined.push_str(part);
            joined.push('\0');
        }
    }
    Ok(joined)
}

/// `scheme://host:port` of a URL (the URL itself when it cannot be parsed).
fn origin_of(url: &str) -> String {
    web_sys::Url::new(url).map(|u| u.origin()).unwrap_or_else(|_| url.to_owned())
}

/// The page's (or worker's) own origin.
fn page_origin() -> String {
    Reflect::get(&js_sys::global(), &"location".into())
        .and_then(|location| Reflect::get(&location, &"origin".into()))
        .ok()
        .and_then(|origin| origin.as_string())
        .unwrap_or_else(|| "(unknown)".into())
}

/// A response header, when the browser lets it be read (CORS exposes only what the server lists).
pub(super) fn header(response: &Response, name: &str) -> Option<String> {
    response.headers().get(name).ok().flatten()
}

/// Reads a body as text, chunk by chunk, until it ends or `on_chunk` breaks (the rest is cancelled).
///
/// This and the other readers of a body are boxed, `on_chunk` a trait object: each is compiled once, not into every
/// request of the transport's that awaits it.
pub(super) fn read_chunks<'a>(
    response: &'a Response,
    on_chunk: &'a mut dyn FnMut(&str) -> ControlFlow<()>,
) -> LocalBoxFuture<'a, Result<(), String>> {
    Box::pin(read_chunks_unboxed(response, on_chunk))
}

async fn read_chunks_unboxed(
    response: &Response,
    on_chunk: &mut dyn FnMut(&str) -> ControlFlow<()>,
) -> Result<(), String> {
    let Some(body) = response.body() else { return Ok(()) };
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let decoder = TextDecoder::new().map_err(|e| describe_js(&e))?;
    loop {
        let step = JsFuture::from(next_text(&reader, &decoder))
            .await
            .map_err(|e| format!("reading the answer failed: {}", describe_js(&e)))?;
        let Some(text) = step.as_string() else { return Ok(()) };
        if on_chunk(&text).is_break() {
            let _ = reader.cancel();
            return Ok(());
        }
    }
}

/// The beginning of a body (an error's explanation), on one line; `None` when empty or unreadable.
pub(super) fn excerpt(response: &Response) -> LocalBoxFuture<'_, Option<String>> {
    Box::pin(excerpt_unboxed(response))
}

async fn excerpt_unboxed(response: &Response) -> Option<String> {
    const MAX: usize = 300;
    let mut text = String::new();
    let _ = read_chunks(response, &mut |chunk| {
        text.push_str(chunk);
        if text.len() >= MAX { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    })
    .await;
    let line: String = text.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(MAX).collect();
    (!line.is_empty()).then_some(line)
}

/// A whole body as text, up to `max` characters.
pub(super) fn read_text(response: &Response, max: usize) -> LocalBoxFuture<'_, Result<String, String>> {
    Box::pin(read_text_unboxed(response, max))
}

async fn read_text_unboxed(response: &Response, max: usize) -> Result<String, String> {
    let mut text = String::new();
    let mut over = false;
    read_chunks(response, &mut |chunk| {
        text.push_str(chunk);
        over = text.len() > max;
        if over { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    })
    .await?;
    if over {
        return Err(format!("the server sent an answer larger than {max} characters"));
    }
    Ok(text)
}
