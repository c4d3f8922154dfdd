//! What the page posts on a worker's port, and the bounds of the batches it reads there. Frames travel together
//! (`docs/wire-protocol.md`, "Batches"): the page's frames to a worker that reads batches go out as one message per
//! turn of the event loop ([`FrameSender`]), and a worker's batch is bounded before any of its frames is read
//! ([`check`]). The same sender gives a worker back the buffers of the detached bytes it sent ("Detached strings").

use crate::limits::MAX_BATCH_FRAMES;
use js_sys::Array;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/frames.js")]
extern "C" {
    /// Posts the page's frames to a worker's port: one by one, or, once [`FrameSender::batches`] was called, those
    /// of one turn of the event loop as one message.
    pub type FrameSender;

    #[wasm_bindgen(constructor)]
    pub fn new(port: &web_sys::MessagePort) -> FrameSender;

    /// From now on, frames go in batches of at most `max_frames` frames and `max_chars` characters.
    #[wasm_bindgen(method)]
    pub fn batches(this: &FrameSender, max_frames: u32, max_chars: u32);

    /// From now on, the buffers of decoded detached bytes go back to the worker ([`FrameSender::recycle`]).
    #[wasm_bindgen(method)]
    pub fn recycles(this: &FrameSender);

    /// Gives the worker back the buffers of `data`'s detached bytes, decoded by now, if it takes them.
    #[wasm_bindgen(method)]
    pub fn recycle(this: &FrameSender, data: &JsValue);

    /// Posts `frame` (a string), now or at the end of this turn of the event loop.
    #[wasm_bindgen(method, catch)]
    pub fn send(this: &FrameSender, frame: &JsValue) -> Result<(), JsValue>;

    /// The total length of a batch's frames, or -1 when one of them is not a string.
    #[wasm_bindgen(js_name = batchLength)]
    fn batch_length(batch: &Array) -> f64;
}

/// Why a batch from the server cannot be read, if it cannot: too many frames, a frame that is not text, or more
/// characters than `max_chars`.
pub(super) fn check(batch: &Array, max_chars: u32) -> Result<(), String> {
    let count = batch.length();
    if count > MAX_BATCH_FRAMES {
        return Err(format!("the server sent a batch of {count} frames; the limit is {MAX_BATCH_FRAMES}"));
    }
    let chars = batch_length(batch);
    if chars < 0.0 {
        return Err("the server sent a batch with a frame that is not text".to_owned());
    }
    if chars > f64::from(max_chars) {
        #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a count of characters")]
        let chars = chars as u64;
        return Err(format!("the server sent a batch of {chars} characters; the limit is {max_chars}"));
    }
    Ok(())
}
