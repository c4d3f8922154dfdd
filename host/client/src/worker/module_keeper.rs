//! Compiled wasm kept between a server's runs. The browser shares compiled code between modules of the same bytes
//! within a process, and keeps it while any of them lives. A server's worker that stops takes its module with it,
//! so without a module held elsewhere its next start (a restart, a start after a stop) compiled each function again
//! as its first calls reached it: in a sandboxed frame, its first `server/discover` took 9-24 ms rather than 2-3.
//!
//! No start takes a kept module: each compiles the wasm again (the sandboxed worker, as the page's fetch for it
//! streams it, or the page for a worker on its origin), and the page fetches it as its HTTP cache says, so a bundle
//! whose wasm changed gets the new one. A kept module only keeps that compile's code warm.
//!
//! - On the page's origin, the page holds the modules its starts compiled ([`keep_on_page`]).
//! - Sandboxed workers run in the process of the page's sandboxed frames, which the page cannot hand a module to:
//!   a hidden sandboxed frame, the frame script in its `keep` role, compiles and holds their wasm
//!   ([`keep_in_sandbox`]).
//!
//! Each keeps modules of the [`KEPT_MAX`] wasm URLs last started: a stopped server's compiled code stays in memory
//! while its module is kept, as a running server's does while it runs. The sandbox's keeper compiles a URL new to it
//! as the page's fetch through its HTTP cache streams it, as a sandboxed start's worker does (an opaque origin's own
//! requests are never cached).

use super::endpoint::{frame_parent, new_frame, post_once_loaded};
use crate::sandbox::spare_frame_document;
use js_sys::{Array, Object, Reflect, WebAssembly};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use web_sys::{HtmlIFrameElement, MessageChannel, MessagePort};

/// How many wasm URLs each keeper holds a module of (the frame script's `KEPT_MAX` is the same).
const KEPT_MAX: usize = 8;

/// The frame in the keeper's role, and the port wasm URLs go to.
struct SandboxKeeper {
    frame: HtmlIFrameElement,
    control: MessagePort,
    /// The URLs it keeps, the latest last: as the frame script keeps them, so that the page fetches only new ones.
    kept: Vec<String>,
}

#[wasm_bindgen(module = "/js/frames.js")]
extern "C" {
    /// Fetches the wasm at `url` through the page's HTTP cache and posts `{ keep: url, body }` on `port`.
    #[wasm_bindgen(js_name = keepWasm)]
    fn keep_wasm(url: &str, port: &MessagePort);
}

thread_local! {
    static PAGE_KEPT: RefCell<Vec<(String, WebAssembly::Module)>> = const { RefCell::new(Vec::new()) };
    static SANDBOX_KEEPER: RefCell<Option<SandboxKeeper>> = const { RefCell::new(None) };
}

/// Holds `module`, compiled by the page from `wasm_url` for a start on the page's origin, in place of the one held
/// for that URL before.
pub(super) fn keep_on_page(wasm_url: &str, module: &WebAssembly::Module) {
    PAGE_KEPT.with(|kept| {
        let mut kept = kept.borrow_mut();
        kept.retain(|(url, _)| url != wasm_url);
        if kept.len() >= KEPT_MAX {
            kept.remove(0);
        }
        kept.push((wasm_url.to_owned(), module.clone()));
    });
}

/// Has the sandbox's keeper frame compile and hold `wasm_url`, making the frame first when there is none (or the
/// page removed it).
pub(super) fn keep_in_sandbox(wasm_url: &str) {
    SANDBOX_KEEPER.with(|keeper| {
        let mut keeper = keeper.borrow_mut();
        if !keeper.as_ref().is_some_and(|k| k.frame.is_connected()) {
            *keeper = make_sandbox_keeper();
        }
        if let Some(keeper) = keeper.as_mut() {
            let known = keeper.kept.iter().any(|url| url == wasm_url);
            keeper.kept.retain(|url| url != wasm_url);
            if keeper.kept.len() >= KEPT_MAX {
                keeper.kept.remove(0);
            }
            keeper.kept.push(wasm_url.to_owned());
            if known {
                // Already kept: the frame only moves it to the latest.
                let message = Object::new();
                let _ = Reflect::set(&message, &"keep".into(), &wasm_url.into());
                let _ = keeper.control.post_message(&message);
            } else {
                keep_wasm(wasm_url, &keeper.control);
            }
        }
    });
}

/// A hidden sandboxed frame in the keeper's role: the frame script with a spare frame's policy (it fetches wasm from
/// anywhere on the web, as the servers whose wasm it keeps do), told so by its first message. Messages to `control`
/// wait in the port until the frame has loaded and taken it.
fn make_sandbox_keeper() -> Option<SandboxKeeper> {
    let (document, parent) = frame_parent()?;
    let frame = new_frame(&document, &spare_frame_document()).ok()?;
    let _ = frame.set_attribute("title", "MCP server module keeper");
    let channel = MessageChannel::new().ok()?;
    let init = Object::new();
    let _ = Reflect::set(&init, &"mcpWorkerFrame".into(), &1.into());
    let _ = Reflect::set(&init, &"keep".into(), &true.into());
    let _ = Reflect::set(&init, &"control".into(), &channel.port2());
    post_once_loaded(&frame, init, Array::of1(&channel.port2()));
    parent.append_child(&frame).ok()?;
    Some(SandboxKeeper { frame, control: channel.port1(), kept: Vec::new() })
}
