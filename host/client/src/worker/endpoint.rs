//! Where a server's worker lives, and the control channel to it: a worker on the page's origin, or a worker in a
//! sandboxed frame of its own (an opaque origin, with the server's network policy as its Content-Security-Policy).
//!
//! Both start the worker from [`WORKER_PRELUDE`], so heartbeat, self-close notices and blocked-request reports work
//! the same way whatever the server's bundle does.

use crate::sandbox::{FramePolicy, Isolation, WORKER_PRELUDE};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Blob, BlobPropertyBag, HtmlIFrameElement, MessageChannel, MessagePort, Url, Worker, WorkerOptions};

/// The control side of a started worker.
pub(super) enum Endpoint {
    /// A worker on the page's origin.
    Page { worker: Worker, blob_url: String },
    /// A worker started by a sandboxed frame; control messages go through the frame over `control`.
    Sandboxed { frame: HtmlIFrameElement, control: MessagePort },
}

/// What the server's worker starts from, resolved against the page.
pub(super) struct Entry {
    /// The bundle's bootstrap, absolute.
    pub(super) url: String,
    /// The server's wasm when the worker fetches it itself, absolute.
    pub(super) wasm_url: Option<String>,
}

impl Entry {
    /// `url` (and `wasm_url`) resolved against the page's base URL.
    pub(super) fn resolve(url: &str, wasm_url: Option<&str>) -> Result<Self, String> {
        let base = web_sys::window().and_then(|w| w.document()).and_then(|d| d.base_uri().ok().flatten());
        let absolute = |url: &str| {
            let resolved = match &base {
                Some(base) => Url::new_with_base(url, base),
                None => Url::new(url),
            };
            resolved.map(|u| u.href()).map_err(|_| format!("`{url}` is not a URL"))
        };
        Ok(Self { url: absolute(url)?, wasm_url: wasm_url.map(absolute).transpose()? })
    }
}

impl Endpoint {
    /// Starts the worker: on the page's origin directly, or in a new sandboxed frame (appended to the document,
    /// hidden). The frame's load is awaited by the caller through the control channel (its first message).
    pub(super) fn start(name: &str, entry: &Entry, isolation: &Isolation) -> Result<Self, String> {
        match isolation {
            Isolation::PageOrigin => {
                let source = format!("const entry = {};\n{WORKER_PRELUDE}", js_string_literal(&entry.url));
                let parts = Array::of1(&JsValue::from_str(&source));
                let options = BlobPropertyBag::new();
                options.set_type("text/javascript");
                let blob = Blob::new_with_str_sequence_and_options(&parts, &options).map_err(describe)?;
                let blob_url = Url::create_object_url_with_blob(&blob).map_err(describe)?;
                let worker_options = WorkerOptions::new();
                worker_options.set_name(name);
                let worker = Worker::new_with_options(&blob_url, &worker_options).map_err(|e| {
                    let _ = Url::revoke_object_url(&blob_url);
                    describe(e)
                })?;
                Ok(Self::Page { worker, blob_url })
            }
            Isolation::Sandboxed(network) => {
                // The bundle's wasm is fetched by its bootstrap, beside it, unless the spec names another.
                let sibling_wasm;
                let wasm_url = match &entry.wasm_url {
                    Some(url) => url.as_str(),
                    None => {
                        sibling_wasm =
                            format!("{}server_bg.wasm", &entry.url[..entry.url.rfind('/').map_or(0, |i| i + 1)]);
                        sibling_wasm.as_str()
                    }
                };
                let policy = FramePolicy { entry_url: &entry.url, wasm_url: Some(wasm_url), network };
                let document = web_sys::window().and_then(|w| w.document()).ok_or("there is no document")?;
                let frame: HtmlIFrameElement = document.create_element("iframe").map_err(describe)?.unchecked_into();
                let _ = frame.set_attribute("sandbox", "allow-scripts");
                let _ = frame.set_attribute("aria-hidden", "true");
                let _ = frame.set_attribute("title", &format!("MCP server {name}"));
                let _ = frame.set_attribute("style", "display:none");
                frame.set_srcdoc(&policy.document());
                let channel = MessageChannel::new().map_err(describe)?;
                let control = channel.port1();
                let init = Object::new();
                let _ = Reflect::set(&init, &"mcpWorkerFrame".into(), &1.into());
                let _ = Reflect::set(&init, &"entry".into(), &entry.url.as_str().into());
                let _ = Reflect::set(&init, &"prelude".into(), &WORKER_PRELUDE.into());
                let _ = Reflect::set(&init, &"name".into(), &name.into());
                let _ = Reflect::set(&init, &"control".into(), &channel.port2());
                // The frame's script listens from its first run; the message is sent once it has loaded.
                let target = frame.clone();
                let port2 = channel.port2();
                let onload = Closure::once_into_js(move || {
                    if let Some(window) = target.content_window() {
                        let _ = window.post_message_with_transfer(&init, "*", &Array::of1(&port2));
                    }
                });
                frame.set_onload(Some(onload.unchecked_ref()));
                let parent = document.body().map(Into::into).or_else(|| document.document_element().map(Into::into));
                let parent: web_sys::Node = parent.ok_or("the document has no element to hold the server's frame")?;
                keep_sandbox_process_warm(&document, &parent);
                parent.append_child(&frame).map_err(describe)?;
                control.start();
                Ok(Self::Sandboxed { frame, control })
            }
        }
    }

    /// Posts a control message, transferring `transfer`.
    pub(super) fn post(&self, message: &JsValue, transfer: &Array) -> Result<(), JsValue> {
        match self {
            Self::Page { worker, .. } => worker.post_message_with_transfer(message, transfer),
            Self::Sandboxed { control, .. } => control.post_message_with_transferable(message, transfer),
        }
    }

    /// Where control messages from the worker arrive (`message` events).
    pub(super) fn control_target(&self) -> &web_sys::EventTarget {
        match self {
            Self::Page { worker, .. } => worker,
            Self::Sandboxed { control, .. } => control,
        }
    }

    /// The worker object, when the page holds it (its `error` events are the page's to read).
    pub(super) fn page_worker(&self) -> Option<&Worker> {
        match self {
            Self::Page { worker, .. } => Some(worker),
            Self::Sandboxed { .. } => None,
        }
    }

    /// Stops the worker: terminated, or its frame removed (which ends every worker of the frame).
    pub(super) fn terminate(&self) {
        match self {
            Self::Page { worker, blob_url } => {
                worker.terminate();
                let _ = Url::revoke_object_url(blob_url);
            }
            Self::Sandboxed { frame, control } => {
                control.close();
                frame.set_onload(None);
                frame.remove();
            }
        }
    }
}

thread_local! {
    static WARM_FRAME: std::cell::RefCell<Option<HtmlIFrameElement>> = const { std::cell::RefCell::new(None) };
}

/// Keeps one empty sandboxed frame in the page for as long as it lives. The browser runs sandboxed frames in a
/// process of their own and ends it with the last of them; without this frame, each server start after the others
/// stopped would wait for a new process (about 70 ms here). The frame runs nothing and holds nothing.
fn keep_sandbox_process_warm(document: &web_sys::Document, parent: &web_sys::Node) {
    WARM_FRAME.with(|warm| {
        if warm.borrow().as_ref().is_some_and(|frame| frame.is_connected()) {
            return;
        }
        let Ok(element) = document.create_element("iframe") else { return };
        let frame: HtmlIFrameElement = element.unchecked_into();
        let _ = frame.set_attribute("sandbox", "allow-scripts");
        let _ = frame.set_attribute("aria-hidden", "true");
        let _ = frame.set_attribute("style", "display:none");
        frame.set_srcdoc("<!doctype html><meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'\">");
        if parent.append_child(&frame).is_ok() {
            *warm.borrow_mut() = Some(frame);
        }
    });
}

/// A JavaScript string literal of `text` (JSON's escaping is JavaScript's, plus the two line separators).
fn js_string_literal(text: &str) -> String {
    serde_json::to_string(text)
        .unwrap_or_else(|_| "\"\"".into())
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

fn describe(value: JsValue) -> String {
    super::describe_js(&value)
}
