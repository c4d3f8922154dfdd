//! Buffers the host gives back (`docs/wire-protocol.md`, "Detached strings"): once the page has decoded a detached
//! string's bytes, it moves their buffer back to the worker, which copies the next large string into it. Filling
//! memory written before costs a fraction of filling fresh memory: in Chromium, copying 8 MiB out of wasm memory
//! took 0.7 ms into a buffer used before and 8-9.5 ms into a new one, most of it the fresh pages' first touch.

use std::cell::RefCell;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// The most buffers kept: the largest ones given back.
const MAX_KEPT: usize = 2;

/// The buffers given back, for the next detached strings.
#[derive(Default)]
pub(super) struct BufferPool {
    kept: RefCell<Vec<js_sys::ArrayBuffer>>,
}

impl BufferPool {
    /// Keeps the buffers of a `{mcpWorker: "buffers", buffers: [...]}` message (the largest few).
    pub(super) fn give(&self, message: &JsValue) {
        let Ok(buffers) = js_sys::Reflect::get(message, &JsValue::from_str("buffers")) else { return };
        let Ok(buffers) = buffers.dyn_into::<js_sys::Array>() else { return };
        let mut kept = self.kept.borrow_mut();
        for buffer in buffers.iter().filter_map(|buffer| buffer.dyn_into::<js_sys::ArrayBuffer>().ok()) {
            kept.push(buffer);
            if kept.len() > MAX_KEPT {
                // The smallest goes.
                let smallest = (0..kept.len()).min_by_key(|&at| kept[at].byte_length()).unwrap_or(0);
                kept.swap_remove(smallest);
            }
        }
    }

    /// `text`'s UTF-8 in a `Uint8Array` of its own buffer: the smallest kept one it fits in, or a new one.
    pub(super) fn bytes_of(&self, text: &str) -> js_sys::Uint8Array {
        let Ok(length) = u32::try_from(text.len()) else { return js_sys::Uint8Array::from(text.as_bytes()) };
        let mut kept = self.kept.borrow_mut();
        let fitting = (0..kept.len()).filter(|&at| kept[at].byte_length() >= length);
        let Some(at) = fitting.min_by_key(|&at| kept[at].byte_length()) else {
            return js_sys::Uint8Array::from(text.as_bytes());
        };
        let buffer = kept.swap_remove(at);
        let view = js_sys::Uint8Array::new_with_byte_offset_and_length(&buffer, 0, length);
        view.copy_from(text.as_bytes());
        view
    }
}
