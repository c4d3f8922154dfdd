//! Closing the port of a server disconnected for what it sent, off the page's thread.
//!
//! `MessagePort.close()` discards the messages still queued on the port, on the thread that calls it. A server cut
//! off for flooding has usually queued far more than the page read: a flood of 100,000 single-frame notifications,
//! stopped after the page's first 1,500, left the rest on the port, and closing it held the page for 60-70 ms here
//! (`tests/tests/hostile.rs`). Transferred to a worker of the page's that closes it there, the port leaves the page
//! in a fraction of a millisecond.
//!
//! The worker (a few lines from a `blob:` URL) is made on the first such close and kept for the next. Where it cannot
//! run (a page whose policy allows no `blob:` worker), the page closes the port itself, as before.

use js_sys::Array;
use std::cell::{Cell, RefCell};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Blob, BlobPropertyBag, MessagePort, Url, Worker};

/// The worker's whole script: it closes every port it is given.
const SCRIPT: &str = "onmessage = (event) => { for (const port of event.ports) port.close(); };";

thread_local! {
    static DISPOSER: RefCell<Option<Worker>> = const { RefCell::new(None) };
    /// Set when the worker could not be made or failed to start: ports are closed on the page from then on.
    static UNAVAILABLE: Cell<bool> = const { Cell::new(false) };
}

/// Closes `port`, which may hold a backlog of messages, off the page's thread when it can, else on it. No message of
/// the port is delivered to the page afterwards either way.
pub(super) fn close_off_thread(port: &MessagePort) {
    port.set_onmessage(None);
    let handed_over = with_disposer(|disposer| disposer.post_message_with_transfer(&JsValue::NULL, &Array::of1(port)));
    if !handed_over {
        port.close();
    }
}

/// Runs `hand_over` with the disposing worker, made first if there is none; false when there is none to be had, or
/// the hand-over failed.
fn with_disposer(hand_over: impl FnOnce(&Worker) -> Result<(), JsValue>) -> bool {
    if UNAVAILABLE.get() {
        return false;
    }
    DISPOSER.with(|slot| {
        let mut slot = slot.borrow_mut();
        if slot.is_none() {
            *slot = make_disposer();
        }
        match slot.as_ref() {
            Some(disposer) => hand_over(disposer).is_ok(),
            None => {
                UNAVAILABLE.set(true);
                false
            }
        }
    })
}

fn make_disposer() -> Option<Worker> {
    let options = BlobPropertyBag::new();
    options.set_type("text/javascript");
    let blob = Blob::new_with_str_sequence_and_options(&Array::of1(&SCRIPT.into()), &options).ok()?;
    let url = Url::create_object_url_with_blob(&blob).ok()?;
    let worker = Worker::new(&url);
    // The URL is resolved when the worker is constructed; it is not needed after.
    let _ = Url::revoke_object_url(&url);
    let worker = worker.ok()?;
    // A policy may refuse the script only once it is fetched: the ports handed over meanwhile are closed with the
    // worker, and the next ones on the page.
    let on_error = Closure::once_into_js(|| {
        UNAVAILABLE.set(true);
        DISPOSER.with(|slot| slot.borrow_mut().take());
    });
    worker.set_onerror(Some(on_error.unchecked_ref()));
    Some(worker)
}
