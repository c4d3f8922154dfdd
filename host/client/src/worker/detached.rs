//! Frames whose large strings travel beside them (`docs/wire-protocol.md`, "Detached strings"). The host asks for
//! them in `connect`; a server built with the SDK then posts a result with texts of 32 KiB or more as
//! `{frame, strings: [[marker, string], …]}`, the frame holding each string's marker where the string goes, and each
//! string given as itself or as a `Uint8Array` of its UTF-8 (moved, not copied, across the port).
//!
//! Putting them back happens in JavaScript, on the page: for a call whose result goes to JavaScript, after
//! `JSON.parse` of the small frame (the large strings are never parsed, escaped or copied into wasm); for every
//! other frame, as text spliced at each quoted marker, which is then read like any frame. A frame whose strings do
//! not fit it fails its request with a protocol error.

use super::JsCalls;
use crate::connection::Connection;
use crate::error::Error;
use js_sys::JsString;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/frames.js")]
extern "C" {
    /// The characters of a frame with detached strings (its JSON and every string), or -1 when `data` is not one.
    #[wasm_bindgen(js_name = detachedLength)]
    fn detached_length(data: &JsValue) -> f64;

    /// The message with its strings put back, parsed; throws when they do not fit it or are not UTF-8.
    #[wasm_bindgen(js_name = attachParsed, catch)]
    fn attach_parsed(data: &JsValue) -> Result<JsValue, JsValue>;

    /// The message with its strings put back, as JSON text; throws when they do not fit it or are not UTF-8.
    #[wasm_bindgen(js_name = attachText, catch)]
    fn attach_text(data: &JsValue) -> Result<JsString, JsValue>;

    /// The request id the frame answers, or -1.
    #[wasm_bindgen(js_name = frameId)]
    fn frame_id(data: &JsValue) -> f64;
}

/// The length of `data` in characters when it is a frame with detached strings.
pub(super) fn length(data: &JsValue) -> Option<u32> {
    let length = detached_length(data);
    #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "string lengths fit u32")]
    (length >= 0.0).then_some(length.min(f64::from(u32::MAX)) as u32)
}

/// Takes a frame with detached strings: a plain result for a JavaScript caller goes to it; anything else comes
/// back as text, for the connection to read. `None` when the frame was answered or failed its request.
pub(super) fn receive(data: &JsValue, connection: &Connection, js_calls: &JsCalls) -> Option<JsString> {
    if js_calls.is_waiting() {
        match attach_parsed(data) {
            Ok(message) if js_calls.offer_message(&message, connection) => return None,
            Ok(_) => {}
            Err(thrown) => return fail(data, connection, &thrown),
        }
    }
    match attach_text(data) {
        Ok(text) => Some(text),
        Err(thrown) => fail(data, connection, &thrown),
    }
}

/// Fails the request a frame whose strings cannot be put back answers (a frame that answers none is dropped, as a
/// malformed frame is).
fn fail(data: &JsValue, connection: &Connection, thrown: &JsValue) -> Option<JsString> {
    let id = frame_id(data);
    if id >= 0.0 {
        let reason = super::describe_js(thrown);
        let message = format!("the server's answer had detached strings that cannot be put back: {reason}");
        #[expect(clippy::cast_possible_truncation, reason = "frameId returns only safe integers")]
        connection.fail(id as i64, Error::Protocol { server: connection.server().to_owned(), message });
    }
    None
}
