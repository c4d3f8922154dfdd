//! Where a server's worker lives, and the control channel to it: a worker on the page's origin, or a worker in a
//! sandboxed frame of its own (an opaque origin, with the server's network policy as its Content-Security-Policy).
//!
//! Every worker runs the worker guard first (`mcp_worker_protocol::worker_guard`), so heartbeat, self-close notices
//! and blocked-request reports work the same way whatever the server's bundle does. A worker on the page's origin
//! starts from its bundle's own URL, whose bootstrap runs the guard (the browser fetches the script while the
//! worker's thread starts); the host's prelude ([`worker_prelude`]) runs it for every other worker: sandboxed ones,
//! and those of bundles whose `boot` did not say `guard: true`.

use crate::sandbox::{FramePolicy, Isolation, js_string_literal, spare_frame_document, worker_prelude};
use js_sys::{Array, Object, Reflect};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{
    Blob, BlobPropertyBag, HtmlIFrameElement, MessageChannel, MessagePort, Url, Worker, WorkerOptions, WorkerType,
};

#[wasm_bindgen(module = "/js/frames.js")]
extern "C" {
    /// Fetches the wasm at `url` and the bootstrap at `entry` through the page's HTTP cache and hands them (their
    /// responses' bodies, streams) to the worker's prelude, on a port sent on `port`, the
    /// control channel of a sandboxed start, which the frame relays: an opaque origin's own requests are never
    /// cached, so a sandboxed worker that fetched its files downloaded them at every start.
    #[wasm_bindgen(js_name = sendBundle)]
    fn send_bundle(url: &str, entry: &str, port: &MessagePort);
}

/// The control side of a started worker.
pub(super) enum Endpoint {
    /// A worker on the page's origin, started from its bundle's own URL or from the host's prelude (a blob: URL).
    Page { worker: Worker, blob_url: Option<String> },
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

    /// The server's wasm: the one the spec names, or else `server_bg.wasm` beside the bootstrap.
    pub(super) fn wasm(&self) -> String {
        match &self.wasm_url {
            Some(url) => url.clone(),
            None => format!("{}server_bg.wasm", &self.url[..self.url.rfind('/').map_or(0, |i| i + 1)]),
        }
    }

    /// The server's wasm when the host knows there is one: the spec names it, or the entry is an SDK bundle's
    /// `bootstrap.js`. Other workers fetch what they need themselves.
    pub(super) fn known_wasm(&self) -> Option<String> {
        let path = self.url.split(['?', '#']).next().unwrap_or_default();
        (self.wasm_url.is_some() || path.ends_with("/bootstrap.js")).then(|| self.wasm())
    }
}

impl Endpoint {
    /// Starts the worker: on the page's origin (from the bundle's own URL when [`Start::OwnUrl`]), or in a sandboxed
    /// frame of its own (hidden): the frame made ahead when there is one (loaded or loading), given the server's
    /// policy, or else a new frame with the policy in its document. The worker's start is awaited by the caller
    /// through the control channel (its first message).
    pub(super) fn start(name: &str, entry: &Entry, isolation: &Isolation, from: Start) -> Result<Self, String> {
        match isolation {
            Isolation::PageOrigin => {
                let worker_options = WorkerOptions::new();
                worker_options.set_name(name);
                if from == Start::OwnUrl {
                    worker_options.set_type(WorkerType::Module);
                    match Worker::new_with_options(&entry.url, &worker_options) {
                        Ok(worker) => return Ok(Self::Page { worker, blob_url: None }),
                        // A page whose policy does not allow the bundle's URL as a worker allows the prelude's blob.
                        Err(_) => remember_unguarded(&entry.url),
                    }
                }
                let source = format!(
                    "\"use strict\";\nconst entry = {};\n{}",
                    js_string_literal(&entry.url),
                    worker_prelude(None)
                );
                let parts = Array::of1(&JsValue::from_str(&source));
                let options = BlobPropertyBag::new();
                options.set_type("text/javascript");
                let blob = Blob::new_with_str_sequence_and_options(&parts, &options).map_err(describe)?;
                let blob_url = Url::create_object_url_with_blob(&blob).map_err(describe)?;
                worker_options.set_type(WorkerType::Classic);
                let worker = Worker::new_with_options(&blob_url, &worker_options).map_err(|e| {
                    let _ = Url::revoke_object_url(&blob_url);
                    describe(e)
                })?;
                Ok(Self::Page { worker, blob_url: Some(blob_url) })
            }
            Isolation::Sandboxed(network) => {
                // The bundle's wasm is fetched by its bootstrap, beside it, unless the spec names another.
                let wasm = entry.wasm();
                let wasm_url = wasm.as_str();
                let policy = FramePolicy { entry_url: &entry.url, wasm_url: Some(wasm_url), network };
                let channel = MessageChannel::new().map_err(describe)?;
                let control = channel.port1();
                let init = Object::new();
                let _ = Reflect::set(&init, &"mcpWorkerFrame".into(), &1.into());
                let _ = Reflect::set(&init, &"entry".into(), &entry.url.as_str().into());
                // The worker compiles the wasm of an SDK bundle from its first run, as the page's fetch streams it.
                let known_wasm = entry.known_wasm();
                let _ = Reflect::set(&init, &"prelude".into(), &worker_prelude(known_wasm.as_deref()).into());
                let _ = Reflect::set(&init, &"name".into(), &name.into());
                let _ = Reflect::set(&init, &"control".into(), &channel.port2());
                let transfer = Array::of1(&channel.port2());
                let frame = match take_spare_frame() {
                    // A frame made ahead: the server's policy goes with the first message, at once if it has loaded.
                    Some(spare) => {
                        let _ = Reflect::set(&init, &"policy".into(), &policy.content_security_policy().into());
                        match spare.frame.content_window().filter(|_| spare.loaded.get()) {
                            Some(window) => {
                                if let Err(error) = window.post_message_with_transfer(&init, "*", &transfer) {
                                    spare.frame.remove();
                                    return Err(describe(error));
                                }
                            }
                            None => post_once_loaded(&spare.frame, init, transfer),
                        }
                        spare.frame
                    }
                    None => {
                        let (document, parent) =
                            frame_parent().ok_or("the document has no element to hold the server's frame")?;
                        let frame = new_frame(&document, &policy.document())?;
                        post_once_loaded(&frame, init, transfer);
                        parent.append_child(&frame).map_err(describe)?;
                        frame
                    }
                };
                let _ = frame.set_attribute("title", &format!("MCP server {name}"));
                control.start();
                if let Some(wasm) = &known_wasm {
                    send_bundle(wasm, &entry.url, &control);
                }
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

    /// Whether the worker was started from its bundle's own URL, without the host's prelude.
    pub(super) fn started_from_own_url(&self) -> bool {
        matches!(self, Self::Page { blob_url: None, .. })
    }

    /// Stops the worker: terminated, or its frame removed (which ends every worker of the frame).
    pub(super) fn terminate(&self) {
        match self {
            Self::Page { worker, blob_url } => {
                worker.terminate();
                if let Some(blob_url) = blob_url {
                    let _ = Url::revoke_object_url(blob_url);
                }
            }
            Self::Sandboxed { frame, control } => {
                control.close();
                frame.set_onload(None);
                frame.remove();
            }
        }
    }
}

/// How a worker on the page's origin starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Start {
    /// From the bundle's own URL: its bootstrap runs the worker guard itself, and says so in `boot`.
    OwnUrl,
    /// From the host's prelude, which runs the guard and then imports the bundle.
    Prelude,
}

impl Start {
    /// How to start the worker of `entry`: from its own URL when the bundle is on the page's origin (a worker's
    /// script must be) and has not been seen to start without the guard.
    pub(super) fn for_entry(entry: &Entry, isolation: &Isolation) -> Self {
        let same_origin = || {
            let page = web_sys::window().and_then(|w| w.location().origin().ok());
            let bundle = Url::new(&entry.url).ok().map(|url| url.origin());
            page.is_some() && page == bundle
        };
        let unguarded = UNGUARDED.with(|urls| urls.borrow().contains(&entry.url));
        if matches!(isolation, Isolation::PageOrigin) && !unguarded && same_origin() {
            Self::OwnUrl
        } else {
            Self::Prelude
        }
    }
}

/// The most bundle URLs remembered as starting without the guard; past it, the record starts again.
const MAX_UNGUARDED: usize = 256;

thread_local! {
    /// Bundles on the page's origin whose worker did not run the guard, or could not start from its own URL: their
    /// next starts go through the prelude at once.
    static UNGUARDED: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Remembers that the bundle at `url` starts through the prelude.
pub(super) fn remember_unguarded(url: &str) {
    UNGUARDED.with(|urls| {
        let mut urls = urls.borrow_mut();
        if urls.iter().any(|known| known == url) {
            return;
        }
        if urls.len() >= MAX_UNGUARDED {
            urls.clear();
        }
        urls.push(url.to_owned());
    });
}

/// A sandboxed frame made ahead of the next server start, and whether it has loaded.
struct SpareFrame {
    frame: HtmlIFrameElement,
    loaded: Rc<Cell<bool>>,
    _on_load: Closure<dyn FnMut()>,
}

thread_local! {
    static SPARE_FRAME: RefCell<Option<SpareFrame>> = const { RefCell::new(None) };
}

/// The page's document, and the element that holds servers' frames (its body, or its root element).
pub(super) fn frame_parent() -> Option<(web_sys::Document, web_sys::Node)> {
    let document = web_sys::window().and_then(|w| w.document())?;
    let parent = document.body().map(Into::into).or_else(|| document.document_element().map(Into::into))?;
    Some((document, parent))
}

/// A new hidden sandboxed frame (not yet in the document) whose document is `srcdoc`.
pub(super) fn new_frame(document: &web_sys::Document, srcdoc: &str) -> Result<HtmlIFrameElement, String> {
    let frame: HtmlIFrameElement = document.create_element("iframe").map_err(describe)?.unchecked_into();
    let _ = frame.set_attribute("sandbox", "allow-scripts");
    let _ = frame.set_attribute("aria-hidden", "true");
    let _ = frame.set_attribute("style", "display:none");
    frame.set_srcdoc(srcdoc);
    Ok(frame)
}

/// The spare frame, loaded or still loading: taken, so that it runs one server only.
fn take_spare_frame() -> Option<SpareFrame> {
    let spare = SPARE_FRAME.with(|spare| spare.borrow_mut().take())?;
    spare.frame.set_onload(None);
    if spare.frame.is_connected() { Some(spare) } else { None }
}

/// Posts the frame's first message once it has loaded (its script listens from its first run).
pub(super) fn post_once_loaded(frame: &HtmlIFrameElement, init: Object, transfer: Array) {
    let target = frame.clone();
    let onload = Closure::once_into_js(move || {
        if let Some(window) = target.content_window() {
            let _ = window.post_message_with_transfer(&init, "*", &transfer);
        }
    });
    frame.set_onload(Some(onload.unchecked_ref()));
}

/// When dropped at the end of a sandboxed start, makes the frame of the next start, and has the module keeper hold
/// the started server's wasm ([`super::module_keeper`]), once the new server has had [`SETTLE_MS`] to itself and then the
/// page is idle (within [`IDLE_WITHIN_MS`]). Made during a start, or as the caller's first calls run, the frame's load
/// competes with them (for the sandbox's process, and for the machine's cores): it made starts slower, not faster.
/// The page is idle while it awaits those first calls, so an idle callback alone does not wait for them: made at once,
/// the frame took a start and its first listing from about 35 ms to 42.
pub(super) struct SpareAfterStart {
    /// Whether the start was sandboxed.
    pub(super) sandboxed: bool,
    /// The wasm the server's worker compiled, when the host knows it.
    pub(super) wasm: Option<String>,
}

/// How long after a start its server has the sandbox's process to itself, for the caller's first calls.
const SETTLE_MS: u32 = 250;
/// The longest the work after a start then waits for the page to be idle.
const IDLE_WITHIN_MS: u32 = 1_000;

impl Drop for SpareAfterStart {
    fn drop(&mut self) {
        if !self.sandboxed {
            return;
        }
        let wasm = self.wasm.take();
        gloo_timers::callback::Timeout::new(SETTLE_MS, move || {
            let Some(window) = web_sys::window() else { return };
            let make = Closure::once_into_js(move || {
                make_spare_frame();
                if let Some(wasm) = wasm {
                    super::module_keeper::keep_in_sandbox(&wasm);
                }
            });
            let options = web_sys::IdleRequestOptions::new();
            options.set_timeout(IDLE_WITHIN_MS);
            let _ = window.request_idle_callback_with_options(make.unchecked_ref(), &options);
        })
        .forget();
    }
}

/// Keeps one sandboxed frame loaded ahead of the next server start, with the frame script and a policy that the
/// server's own narrows when the frame is taken ([`crate::sandbox::spare_frame_policy`]). A start then skips the
/// frame's load. The frame also keeps the browser's process for sandboxed frames alive between servers; without
/// one, each start after the others stopped would wait for a new process (about 70 ms here).
fn make_spare_frame() {
    SPARE_FRAME.with(|spare| {
        if spare.borrow().as_ref().is_some_and(|s| s.frame.is_connected()) {
            return;
        }
        let Some((document, parent)) = frame_parent() else { return };
        let Ok(frame) = new_frame(&document, &spare_frame_document()) else { return };
        let _ = frame.set_attribute("title", "MCP server frame (spare)");
        let loaded = Rc::new(Cell::new(false));
        let flag = loaded.clone();
        let on_load = Closure::<dyn FnMut()>::new(move || flag.set(true));
        frame.set_onload(Some(on_load.as_ref().unchecked_ref()));
        if parent.append_child(&frame).is_ok() {
            *spare.borrow_mut() = Some(SpareFrame { frame, loaded, _on_load: on_load });
        }
    });
}

fn describe(value: JsValue) -> String {
    super::describe_js(&value)
}
