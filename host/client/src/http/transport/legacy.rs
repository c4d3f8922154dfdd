//! The HTTP+SSE transport of MCP 2024-11-05, for servers configured with it (`type: "sse"`) and for those that
//! refuse Streamable HTTP: a GET of the server's URL opens its event stream, whose first `endpoint` event names
//! where to POST messages (on the same origin); every message from the server arrives on that stream. The stream
//! cannot be resumed: when it ends, the connection closes and whoever owns the client starts again.

use super::fetching::{excerpt, header, read_chunks};
use super::{HttpTransport, Mode};
use crate::Error;
use crate::http::exchange::{ACCEPT_GET, FramePeek};
use crate::http::sse::SseDecoder;
use futures_channel::oneshot;
use futures_util::future::{Either, select};
use gloo_timers::future::TimeoutFuture;
use mcp_worker_protocol::quoted::quoted;
use std::ops::ControlFlow;
use std::rc::Rc;
use web_sys::Response;

/// How long the event stream may take to name its endpoint.
const ENDPOINT_TIMEOUT_MS: u32 = 10_000;

impl HttpTransport {
    /// Opens the server's event stream and waits for the endpoint it names; messages go there from now on.
    pub(super) async fn open_legacy(self: &Rc<Self>) -> crate::Result<()> {
        let response = self.fetch(&self.url, "GET", &[("Accept".into(), ACCEPT_GET.to_owned())], None).await?;
        let status = response.status();
        if status == 401 || status == 403 {
            let challenge = header(&response, "WWW-Authenticate");
            let detail = excerpt(&response).await;
            return Err(Error::Unauthorized { server: self.server.clone(), status, challenge, detail });
        }
        let content_type = header(&response, "Content-Type").unwrap_or_default();
        if status != 200 || !content_type.to_ascii_lowercase().starts_with("text/event-stream") {
            let reason = format!(
                "the GET of its event stream got HTTP {status} ({content_type})",
                content_type = quoted(&content_type)
            );
            return Err(self.http_error(Some(status), reason));
        }
        let (named, endpoint) = oneshot::channel();
        wasm_bindgen_futures::spawn_local(self.clone().read_legacy_stream(response, named));
        match select(endpoint, TimeoutFuture::new(ENDPOINT_TIMEOUT_MS)).await {
            Either::Left((Ok(Ok(())), _)) => Ok(()),
            Either::Left((Ok(Err(reason)), _)) => Err(self.http_error(Some(status), reason)),
            Either::Left((Err(_), _)) => Err(self.http_error(Some(status), "the event stream ended")),
            Either::Right(_) => Err(self.http_error(
                Some(status),
                format!("the event stream named no endpoint within {ENDPOINT_TIMEOUT_MS} ms"),
            )),
        }
    }

    /// POSTs one frame to the endpoint; the answer comes on the event stream.
    pub(super) async fn post_legacy(&self, endpoint: &str, frame: &str) {
        let peek = FramePeek::of(frame);
        let headers = [("Content-Type".into(), "application/json".to_owned())];
        let response = match self.fetch(endpoint, "POST", &headers, Some(frame)).await {
            Ok(response) => response,
            Err(error) => return self.failed(&peek, error),
        };
        let status = response.status();
        if status == 401 || status == 403 {
            let challenge = header(&response, "WWW-Authenticate");
            let detail = excerpt(&response).await;
            self.failed(&peek, Error::Unauthorized { server: self.server.clone(), status, challenge, detail });
        } else if !(200..300).contains(&status) {
            let detail = excerpt(&response).await.map(|d| format!(": {d}")).unwrap_or_default();
            let reason = format!("the server answered HTTP {status} to a message{detail}");
            self.failed(&peek, self.http_error(Some(status), reason));
        }
    }

    /// Reads the event stream for as long as it lasts: the endpoint first (told through `named`), then messages.
    async fn read_legacy_stream(self: Rc<Self>, response: Response, named: oneshot::Sender<Result<(), String>>) {
        let mut named = Some(named);
        let mut decoder = SseDecoder::new(self.max_frame_chars);
        let ended = read_chunks(&response, &mut |chunk| {
            let events = match decoder.push(chunk) {
                Ok(events) => events,
                Err(large) => {
                    let message = format!("the server sent an event larger than {} characters", large.max);
                    self.close_connection(Error::Protocol { server: self.server.clone(), message });
                    return ControlFlow::Break(());
                }
            };
            for event in events {
                match event.event.as_str() {
                    "endpoint" => match self.endpoint_of(&event.data) {
                        Ok(endpoint) => {
                            *self.mode.borrow_mut() = Mode::Legacy { endpoint };
                            if let Some(named) = named.take() {
                                let _ = named.send(Ok(()));
                            }
                        }
                        Err(reason) => {
                            if let Some(named) = named.take() {
                                let _ = named.send(Err(reason));
                            }
                            return ControlFlow::Break(());
                        }
                    },
                    "" | "message" if !event.data.is_empty() => self.deliver(&event.data),
                    _ => {}
                }
            }
            if self.closed.get() { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        })
        .await;
        if let Some(named) = named.take() {
            let reason = ended.err().unwrap_or_else(|| "the event stream ended before it named an endpoint".into());
            let _ = named.send(Err(reason));
            return;
        }
        if !self.closed.get() {
            let reason = "the server closed its event stream (an HTTP+SSE stream cannot be resumed)".into();
            self.close_connection(Error::Closed { server: self.server.clone(), reason });
        }
    }

    /// The endpoint an `endpoint` event names, resolved against the stream's URL; another origin is refused.
    fn endpoint_of(&self, data: &str) -> Result<String, String> {
        let stream = web_sys::Url::new(&self.url).map_err(|_| format!("{} is not a URL", self.url))?;
        let endpoint = web_sys::Url::new_with_base(data.trim(), &self.url)
            .map_err(|_| format!("the server named an endpoint that is not a URL: {data}", data = quoted(data)))?;
        if endpoint.origin() != stream.origin() {
            return Err(format!(
                "the server named an endpoint on another origin ({}), which is refused",
                endpoint.origin()
            ));
        }
        Ok(endpoint.href())
    }
}
