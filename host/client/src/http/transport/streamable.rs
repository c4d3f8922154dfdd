//! Streamable HTTP (MCP 2025-11-25): each frame is POSTed. An answer in JSON is delivered at once; an answer as a
//! stream is read event by event until it ends, and when it ends or breaks before the request's answer, it is
//! resumed with a GET that carries `Last-Event-ID`, after the server's `retry` time. Once
//! `notifications/initialized` is answered, a GET opens the server's own stream (405 means the server has none),
//! reopened with `Last-Event-ID` when it drops. HTTP 404 to a request that carried the session id means the server
//! ended the session: the connection closes (pending calls fail, naming the server) and whoever owns the client
//! starts a new session. A server that refuses the first `initialize` with 400, 404 or 405 is tried as a server of
//! the older HTTP+SSE transport, as the spec's backwards compatibility asks.

use super::HttpTransport;
use super::fetching::{self, excerpt, header, read_chunks, read_text};
use crate::Error;
use crate::http::exchange::{
    FramePeek, GetReply, PostReply, RequestKind, SESSION_HEADER, classify_get, classify_post, json_body_frames,
};
use crate::http::sse::SseDecoder;
use futures_util::future::LocalBoxFuture;
use gloo_timers::future::TimeoutFuture;
use std::ops::ControlFlow;
use std::rc::Rc;
use web_sys::Response;

/// How long to wait before resuming a stream when the server did not say (`retry`).
const DEFAULT_RETRY_MS: u32 = 1_000;
/// How many times in a row a dropped stream is resumed before the request is given up.
const MAX_RESUMPTIONS: u32 = 5;

impl HttpTransport {
    /// POSTs one frame and delivers what comes back.
    pub(super) async fn post(self: Rc<Self>, frame: String) {
        let peek = FramePeek::of(&frame);
        // MCP 2026-07-28 cancels a request by closing its stream: its POST is aborted, and nothing is posted.
        if peek.method.as_deref() == Some("notifications/cancelled")
            && !self.posts.borrow().is_empty()
            && let Some(post) = cancelled_request(&frame).and_then(|id| self.posts.borrow_mut().remove(&id))
        {
            post.abort();
            return;
        }
        let initialized = peek.method.as_deref() == Some("notifications/initialized");
        self.clone().post_frame(frame, &peek).await;
        // Whatever the answer (some servers answer 200 where 202 is due), the session's own stream opens next.
        if initialized {
            wasm_bindgen_futures::spawn_local(self.listen());
        }
    }

    async fn post_frame(self: Rc<Self>, frame: String, peek: &FramePeek) {
        self.session.borrow_mut().sending(peek);
        let with_session = self.session.borrow().id.is_some();
        let initializing = peek.method.as_deref() == Some("initialize");
        let mut headers = fetching::headers(self.session.borrow().headers(RequestKind::Post, None));
        headers
            .extend(self.session.borrow().mirrored(&frame, peek).into_iter().map(|(name, value)| (name.into(), value)));
        let sent_with = self.auth.generation();
        // A request of MCP 2026-07-28 gets an abort of its own (its cancellation), which the close also fires.
        let own = match (peek.id, headers.iter().any(|(name, _)| name == "Mcp-Method")) {
            (Some(id), true) => web_sys::AbortController::new().ok().map(|post| {
                self.posts.borrow_mut().insert(id, post.clone());
                (id, post)
            }),
            _ => None,
        };
        let signal = own.as_ref().map(|(_, post)| post.signal());
        let abort = signal.as_ref().map_or(fetching::Abort::ByClose, fetching::Abort::By);
        let response = self.fetch_abortable(&self.url, "POST", &headers, Some(&frame), abort).await;
        self.clone().answer_post(response, frame, peek, with_session, initializing, sent_with).await;
        if let Some((id, _)) = own {
            self.posts.borrow_mut().remove(&id);
        }
    }

    async fn answer_post(
        self: Rc<Self>,
        response: Result<Response, Error>,
        frame: String,
        peek: &FramePeek,
        with_session: bool,
        initializing: bool,
        sent_with: u64,
    ) {
        let response = match response {
            Ok(response) => response,
            Err(error) => return self.failed(peek, error),
        };
        let accepted = self.session.borrow_mut().accept_session_id(header(&response, SESSION_HEADER).as_deref());
        if let Err(message) = accepted {
            return self.close_connection(Error::Protocol { server: self.server.clone(), message });
        }
        let status = response.status();
        let challenge = header(&response, "WWW-Authenticate");
        let content_type = header(&response, "Content-Type");
        match classify_post(status, content_type.as_deref(), with_session, initializing, challenge) {
            PostReply::Accepted if peek.is_request() => {
                let method = peek.method.as_deref().unwrap_or_default();
                self.failed(
                    peek,
                    self.http_error(Some(status), format!("the server answered {method} with 202 and no answer")),
                );
            }
            PostReply::Accepted => {}
            PostReply::Json => match read_text(&response, self.max_frame_chars).await {
                Ok(text) => match json_body_frames(&text) {
                    Ok(frames) => frames.iter().for_each(|frame| self.deliver(frame)),
                    Err(message) => self.close_connection(Error::Protocol { server: self.server.clone(), message }),
                },
                Err(reason) => self.failed(peek, self.http_error(Some(status), reason)),
            },
            PostReply::Stream => self.read_answer_stream(response, peek).await,
            PostReply::JsonError { status } => {
                let text = read_text(&response, self.max_frame_chars).await.unwrap_or_default();
                match json_body_frames(&text) {
                    // The server refused the request with a JSON-RPC error: its caller gets that error.
                    Ok(frames)
                        if frames.iter().any(|frame| FramePeek::of(frame).id == peek.id && peek.id.is_some()) =>
                    {
                        frames.iter().for_each(|frame| self.deliver(frame));
                    }
                    _ => {
                        let detail: String = text.chars().take(300).collect();
                        self.failed(
                            peek,
                            self.http_error(Some(status), format!("the server answered HTTP {status}: {detail}")),
                        );
                    }
                }
            }
            PostReply::SessionExpired => self.session_expired(),
            PostReply::NotStreamableHttp { status } => self.fall_back_to_legacy(frame, peek, status).await,
            PostReply::Unauthorized { status, challenge } if self.oauth.is_some() => {
                match self.authorize(sent_with, status, challenge.as_deref()).await {
                    // A task of its own: `send` may come back here.
                    Ok(()) => wasm_bindgen_futures::spawn_local(self.clone().send(frame)),
                    Err(error) => self.failed(peek, error),
                }
            }
            PostReply::Unauthorized { status, challenge } => {
                self.tell_unconfigured();
                let detail = excerpt(&response).await;
                self.failed(peek, Error::Unauthorized { server: self.server.clone(), status, challenge, detail });
            }
            PostReply::Failed { reason } => {
                let reason = match excerpt(&response).await {
                    Some(detail) => format!("{reason}: {detail}"),
                    None => reason,
                };
                self.failed(peek, self.http_error(Some(status), reason));
            }
        }
    }

    /// The first `initialize` was refused: a server of the HTTP+SSE transport answers the GET of its URL with its
    /// event stream, and then `initialize` goes there.
    async fn fall_back_to_legacy(self: Rc<Self>, frame: String, peek: &FramePeek, status: u16) {
        match self.open_legacy().await {
            // A task of its own: `send` may come back here.
            Ok(()) => wasm_bindgen_futures::spawn_local(self.clone().send(frame)),
            Err(error) => {
                let reason = format!(
                    "the server refused Streamable HTTP (HTTP {status} to initialize), and the GET of its URL did \
                     not open an HTTP+SSE event stream either ({error}): check the URL"
                );
                self.failed(peek, self.http_error(Some(status), reason));
            }
        }
    }

    /// Reads the stream that answers a request; resumes it while it drops before the answer.
    async fn read_answer_stream(self: &Rc<Self>, response: Response, peek: &FramePeek) {
        let mut decoder = SseDecoder::new(self.max_frame_chars);
        let mut answered = false;
        let mut response = response;
        for attempt in 0..=MAX_RESUMPTIONS {
            let ended = self
                .read_events(&response, &mut decoder, &mut |frame| {
                    let delivered = FramePeek::of(frame);
                    answered |= delivered.method.is_none() && delivered.id.is_some() && delivered.id == peek.id;
                })
                .await;
            if answered || self.closed.get() || !peek.is_request() {
                return;
            }
            // Ended or broken, the stream resumes from its last event, if it had one.
            let Some(last) = decoder.last_event_id().filter(|id| !id.is_empty()).map(str::to_owned) else {
                let reason = match ended {
                    Err(reason) => format!("{reason}, and there is no event ID to resume from"),
                    Ok(()) => "the server closed the stream before answering, with no event ID to resume from".into(),
                };
                return self.failed(peek, self.http_error(None, reason));
            };
            if attempt == MAX_RESUMPTIONS {
                break;
            }
            TimeoutFuture::new(decoder.retry_ms().unwrap_or(DEFAULT_RETRY_MS)).await;
            response = match self.resume(&last).await {
                Ok(Some(response)) => response,
                Ok(None) => return,
                Err(error) => return self.failed(peek, error),
            };
        }
        let reason = format!("the server's stream dropped {MAX_RESUMPTIONS} times in a row before the answer");
        self.failed(peek, self.http_error(None, reason));
    }

    /// A GET that resumes a stream after `last_event_id`: the response, or `None` when the session ended.
    async fn resume(&self, last_event_id: &str) -> crate::Result<Option<Response>> {
        let headers = fetching::headers(self.session.borrow().headers(RequestKind::Get, Some(last_event_id)));
        let response = self.fetch(&self.url, "GET", &headers, None).await?;
        let with_session = self.session.borrow().id.is_some();
        match classify_get(response.status(), header(&response, "Content-Type").as_deref(), with_session) {
            GetReply::Stream => Ok(Some(response)),
            GetReply::SessionExpired => {
                self.session_expired();
                Ok(None)
            }
            GetReply::NotOffered => Err(self.http_error(
                Some(405),
                "the stream dropped before the answer, and the server does not resume streams (405)",
            )),
            GetReply::Failed { reason } => Err(self.http_error(Some(response.status()), reason)),
        }
    }

    /// The server's own stream, open while the session lasts: reopened (from the last event) when it drops. The
    /// first answer to its GET (a stream, or none) releases [`super::connect`], so that no request races ahead of
    /// the stream a server may answer on.
    async fn listen(self: Rc<Self>) {
        let mut decoder = SseDecoder::new(self.max_frame_chars);
        let mut failures = 0;
        let stream_settled = || {
            if let Some(settled) = self.stream_settled.borrow_mut().take() {
                let _ = settled.send(());
            }
        };
        while !self.closed.get() && failures < MAX_RESUMPTIONS {
            let last = decoder.last_event_id().map(str::to_owned);
            let headers = fetching::headers(self.session.borrow().headers(RequestKind::Get, last.as_deref()));
            let fetched = self.fetch(&self.url, "GET", &headers, None).await;
            stream_settled();
            match fetched {
                Ok(response) => {
                    let with_session = self.session.borrow().id.is_some();
                    let content_type = header(&response, "Content-Type");
                    match classify_get(response.status(), content_type.as_deref(), with_session) {
                        GetReply::Stream => {
                            failures = 0;
                            let _ = self.read_events(&response, &mut decoder, &mut |_| {}).await;
                        }
                        GetReply::NotOffered => return,
                        GetReply::SessionExpired => return self.session_expired(),
                        GetReply::Failed { .. } => failures += 1,
                    }
                }
                Err(_) => failures += 1,
            }
            if !self.closed.get() {
                TimeoutFuture::new(decoder.retry_ms().unwrap_or(DEFAULT_RETRY_MS)).await;
            }
        }
        stream_settled();
    }

    /// Reads a stream of events, delivering each message (and showing it to `seen`) until the stream ends. Boxed,
    /// `seen` a trait object: compiled once for the streams that answer requests and the session's own.
    fn read_events<'a>(
        &'a self,
        response: &'a Response,
        decoder: &'a mut SseDecoder,
        seen: &'a mut dyn FnMut(&str),
    ) -> LocalBoxFuture<'a, Result<(), String>> {
        Box::pin(self.read_events_unboxed(response, decoder, seen))
    }

    async fn read_events_unboxed(
        &self,
        response: &Response,
        decoder: &mut SseDecoder,
        seen: &mut dyn FnMut(&str),
    ) -> Result<(), String> {
        let mut too_large = None;
        read_chunks(response, &mut |chunk| match decoder.push(chunk) {
            Ok(events) => {
                for event in events.iter().filter(|e| !e.data.is_empty()) {
                    self.deliver(&event.data);
                    seen(&event.data);
                }
                if self.closed.get() { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
            }
            Err(large) => {
                too_large = Some(large.max);
                ControlFlow::Break(())
            }
        })
        .await?;
        if let Some(max) = too_large {
            let message = format!("the server sent an event larger than {max} characters");
            self.close_connection(Error::Protocol { server: self.server.clone(), message });
        }
        Ok(())
    }
}

/// The request a `notifications/cancelled` frame cancels, when it is one of the host's (a number).
fn cancelled_request(frame: &str) -> Option<i64> {
    #[derive(serde::Deserialize)]
    struct Cancelled {
        params: CancelledParams,
    }
    #[derive(serde::Deserialize)]
    struct CancelledParams {
        #[serde(rename = "requestId")]
        request_id: i64,
    }
    mcp_worker_protocol::json::from_str::<Cancelled>(frame).ok().map(|c| c.params.request_id)
}
