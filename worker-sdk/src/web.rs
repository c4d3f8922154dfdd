//! Browser glue: serves a [`Server`] on the MessagePort the host hands the worker.
//!
//! The worker side of the wire protocol (see `docs/wire-protocol.md`): the bootstrap script posts `boot`, receives
//! `connect {port, env, module?}`, instantiates the wasm and calls [`connect`] through [`crate::export_server!`].

mod batcher;
mod buffers;

use crate::env::Env;
use crate::peer::{DetachedFrame, KeptFrame, Outbound, Sleeper};
use crate::server::Server;
use crate::session::Spawner;
use batcher::{BatchLimits, Batcher};
use buffers::BufferPool;
use futures_util::FutureExt;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent, MessagePort};

#[doc(hidden)]
pub mod __private {
    pub use wasm_bindgen;
    pub use web_sys;
}

/// Starts serving on `port`. Called by the code [`crate::export_server!`] generates. `options` is what the caller
/// passed after the environment: `{sseStreams: true}` from a transport that understands
/// [`crate::Ctx::close_sse_stream`]'s hints, `{detachStrings: true}` from the worker bootstrap when the host's
/// `connect` said it puts detached strings back ([`crate::Session::enable_detached_strings`]), and `{detachBytes:
/// true}` when it also takes them as UTF-8 bytes.
pub fn connect(port: MessagePort, env: JsValue, options: JsValue, factory: impl FnOnce(&Env) -> Server) {
    install_panic_hook();
    let env = env_from_js(&env);
    let server = factory(&env);

    let batcher = Batcher::new(port.clone(), batch_limits(&options));
    let out_batcher = batcher.clone();
    let out: Outbound = Rc::new(move |frame: String| out_batcher.send(&frame));
    let spawn: Spawner = Rc::new(wasm_bindgen_futures::spawn_local);
    let session = match server.into_session(env, out, spawn) {
        Ok(session) => session,
        Err(problem) => return post_fatal(&problem.to_string()),
    };
    let sleeper: Sleeper = Rc::new(|ms| gloo_timers::future::TimeoutFuture::new(ms).boxed_local());
    session.set_sleeper(sleeper);
    if option_is_true(&options, "sseStreams") {
        session.enable_sse_stream_hints();
    }
    session.enable_kept_frames(kept_frames(port.clone(), batcher.clone()));
    let pool = Rc::new(BufferPool::default());
    if option_is_true(&options, "detachStrings") {
        let port = port.clone();
        let as_bytes = option_is_true(&options, "detachBytes");
        let pool = pool.clone();
        session.enable_detached_strings(Rc::new(move |frame: DetachedFrame| {
            let transfer = js_sys::Array::new();
            let message = detached_message(frame, as_bytes.then_some((&transfer, &*pool)));
            batcher.flush();
            let _ = port.post_message_with_transferable(&message, &transfer);
        }));
    }
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let data = event.data();
        if let Some(frame) = data.as_string() {
            return session.handle(&frame);
        }
        if js_sys::Array::is_array(&data) {
            // A batch from the host: its frames in order, as if each had come alone.
            for frame in data.unchecked_into::<js_sys::Array>().iter() {
                session.handle(&frame.as_string().unwrap_or_default());
            }
        } else if is_buffers(&data) {
            // The host gives back the buffers of detached bytes it has decoded.
            pool.give(&data);
        } else {
            // Frames are JSON text; a peer that posts objects is served too.
            let frame = js_sys::JSON::stringify(&data).ok().and_then(|s| s.as_string());
            session.handle(frame.as_deref().unwrap_or_default());
        }
    });
    port.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker: the port is the server's whole life.
    on_message.forget();
}

/// The server's manifest as JSON, built from the factory with an empty environment. Called by the code
/// [`crate::export_server!`] generates; the build runs it in node to write `manifest.json`.
pub fn manifest(factory: impl FnOnce(&Env) -> Server) -> String {
    factory(&Env::default()).manifest().to_json()
}

/// The schemas the server makes, built from the factory with an empty environment: the table a release build
/// embeds with the SDK's `prebuilt-schemas` feature. Called by the code [`crate::export_server!`] generates.
pub fn schemas(factory: impl FnOnce(&Env) -> Server) -> String {
    crate::schema_table::recorded(|| {
        // Tools and prompts added as the server runs most often take no arguments: the table always has those.
        crate::schema::make_sdk_schemas();
        drop(factory(&Env::default()));
    })
}

/// Posts frames of kept results with the JavaScript string of the kept text made once: while the session answers
/// with the same text (the same `Rc`), only the frame's head is converted. A `tools/list` of 500 tools is about
/// 96 KB of text, which costs the worker 0.1 ms to convert on every answer.
fn kept_frames(port: MessagePort, batcher: Rc<Batcher>) -> crate::KeptOutbound {
    let last: std::cell::RefCell<Option<(Rc<str>, js_sys::JsString)>> = std::cell::RefCell::default();
    Rc::new(move |frame: KeptFrame| {
        let mut last = last.borrow_mut();
        let kept = match &*last {
            Some((text, js)) if Rc::ptr_eq(text, &frame.kept) => js.clone(),
            _ => {
                let js = js_sys::JsString::from(&*frame.kept);
                // Holding the `Rc` keeps its address from being reused for other text while it is compared.
                *last = Some((frame.kept.clone(), js.clone()));
                js
            }
        };
        let message = js_sys::JsString::from(frame.head.as_str()).concat(&kept).concat(&KeptFrame::TAIL.into());
        batcher.flush();
        let _ = port.post_message(&message);
    })
}

/// `{frame, strings: [[marker, string], …]}`: a frame and its detached strings, posted as one message. With
/// `transfer`, each string goes as a `Uint8Array` of its UTF-8, whose buffer is added to `transfer`: copying bytes out
/// of wasm memory and moving them across costs the worker a fraction of making a JavaScript string of them, and the
/// page decodes them in about the time it would take to receive that string.
fn detached_message(frame: DetachedFrame, transfer: Option<(&js_sys::Array, &BufferPool)>) -> JsValue {
    let strings = js_sys::Array::new();
    for (marker, text) in frame.strings {
        let value: JsValue = match transfer {
            Some((transfer, pool)) => {
                let bytes = pool.bytes_of(&text);
                transfer.push(&bytes.buffer());
                bytes.into()
            }
            None => JsValue::from_str(&text),
        };
        strings.push(&js_sys::Array::of2(&JsValue::from_str(&marker), &value));
    }
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &"frame".into(), &JsValue::from_str(&frame.json));
    let _ = js_sys::Reflect::set(&message, &"strings".into(), &strings);
    message.into()
}

/// Whether a message on the port is the host's `{mcpWorker: "buffers", …}`.
fn is_buffers(data: &JsValue) -> bool {
    js_sys::Reflect::get(data, &JsValue::from_str("mcpWorker"))
        .is_ok_and(|kind| kind.as_string().as_deref() == Some("buffers"))
}

/// The batches the host reads (`batchFrames` and `batchChars` of its `connect`), if it reads any.
fn batch_limits(options: &JsValue) -> Option<BatchLimits> {
    let number = |name: &str| {
        let value = js_sys::Reflect::get(options, &JsValue::from_str(name)).ok()?.as_f64()?;
        #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "clamped to u32 first")]
        (value >= 1.0).then(|| value.min(f64::from(u32::MAX)) as u32)
    };
    if !options.is_object() {
        return None;
    }
    Some(BatchLimits { frames: number("batchFrames")?, chars: number("batchChars")? })
}

fn option_is_true(options: &JsValue, name: &str) -> bool {
    options.is_object() && js_sys::Reflect::get(options, &JsValue::from_str(name)).is_ok_and(|v| v.is_truthy())
}

fn env_from_js(env: &JsValue) -> Env {
    let Some(object) = env.dyn_ref::<js_sys::Object>() else { return Env::default() };
    let pairs = js_sys::Object::entries(object).into_iter().filter_map(|entry| {
        let entry: js_sys::Array = entry.dyn_into().ok()?;
        Some((entry.get(0).as_string()?, entry.get(1).as_string()?))
    });
    Env::from_pairs(pairs)
}

/// Tells the host the server died, and why. Posted on the worker itself, outside the MCP channel.
fn post_fatal(error: &str) {
    web_sys::console::error_1(&JsValue::from_str(error));
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &"mcpWorker".into(), &"fatal".into());
    let _ = js_sys::Reflect::set(&message, &"error".into(), &error.into());
    if let Ok(scope) = js_sys::global().dyn_into::<DedicatedWorkerGlobalScope>() {
        let _ = scope.post_message(&message);
    }
}

/// A panic ends the worker. The host (and through it a model) is told what the panic said, never where in the
/// server's source it happened; the location goes to the worker's console, for the author, when the build kept it
/// (release bundles built by `cargo xtask build --release` keep none: `xtask/src/build/lean_std.rs`).
fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let message =
            payload.downcast_ref::<&str>().copied().or_else(|| payload.downcast_ref::<String>().map(String::as_str));
        let report = panic_report(message);
        // `post_fatal` writes the report to the console too.
        if let Some(place) = info.location().filter(|place| place.line() > 0) {
            web_sys::console::error_1(&format!("{report} (at {place})").into());
        }
        post_fatal(&report);
    }));
}

/// What the host is told of a panic: its message, without a location.
fn panic_report(message: Option<&str>) -> String {
    match message {
        Some(message) => format!("server panicked: {message}"),
        None => "server panicked".to_owned(),
    }
}
