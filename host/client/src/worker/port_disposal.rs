//! Closing the port of a server disconnected for what it sent, off the page's thread.
//!
//! `MessagePort.close()` discards the messages still queued on the port, on the thread that calls it. A server cut
//! off for flooding has usually queued far more than the page read: a flood of 100,000 single-frame notifications,
//! stopped after the page's first 1,500, left the rest on the port, and closing it held the page for 60-70 ms here
//! (`tests/tests/hostile.rs`). Transferred to a worker of the page's that closes it there, the port leaves the page
//! in a fraction of a millisecond.
//!
//! The worker (one line from a `blob:` URL, in `js/frames.js`) is made on the first such close and kept for the
//! next. Where it cannot run (a page whose policy allows no `blob:` worker), the page closes the port itself.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/frames.js")]
extern "C" {
    /// Closes `port`, which may hold a backlog of messages, off the page's thread when it can, else on it. No message
    /// of the port reaches the page afterwards either way.
    #[wasm_bindgen(js_name = closeOffThread)]
    pub(super) fn close_off_thread(port: &web_sys::MessagePort);
}
