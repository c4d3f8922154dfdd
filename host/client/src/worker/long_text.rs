//! Copying a long JavaScript string into wasm memory.
//!
//! wasm-bindgen's own copy (`JsValue::as_string`) walks the string one UTF-16 unit at a time in JavaScript while it
//! is ASCII, and on the first other character reserves three bytes for every unit left. In Chromium the walk costs
//! 2.5-4 ns a unit: 17-27 ms of the page's time for a frame of 7 MB. The browser's `TextEncoder.encodeInto` writes
//! the same bytes natively, straight into wasm memory, in about half that (`encode`, which returns a new buffer, takes
//! 40-60 ms there).

use js_sys::{JsString, Uint8Array};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// Strings at least this long (in UTF-16 units) are copied through `TextEncoder`. Shorter ones are copied by
/// wasm-bindgen, which needs one call fewer.
const ENCODE_FROM_UNITS: u32 = 16 * 1024;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = TextEncoder)]
    type Encoder;
    #[wasm_bindgen(constructor, js_class = "TextEncoder")]
    fn new() -> Encoder;
    /// `TextEncoder.prototype.encodeInto`, the string taken as a JavaScript value: it never passes through wasm.
    #[wasm_bindgen(method, js_name = encodeInto)]
    fn encode_into(this: &Encoder, text: &JsString, into: &Uint8Array) -> Encoded;

    /// What `encodeInto` did: UTF-16 units read, bytes written.
    type Encoded;
    #[wasm_bindgen(method, getter)]
    fn read(this: &Encoded) -> u32;
    #[wasm_bindgen(method, getter)]
    fn written(this: &Encoded) -> u32;
}

thread_local! {
    static ENCODER: Encoder = Encoder::new();
}

/// `text` as a Rust string. A lone surrogate, which UTF-8 cannot hold, becomes U+FFFD, as with wasm-bindgen's copy.
pub(super) fn to_rust(text: &JsString) -> String {
    let units = text.length();
    if units < ENCODE_FROM_UNITS {
        return String::from(text);
    }
    // One byte a unit holds an ASCII string whole. What does not fit is encoded into room made for it: three bytes a
    // unit, the most UTF-8 takes for a UTF-16 unit. With four bytes of room any character fits, so each round reads.
    let mut bytes = vec![0; units as usize];
    let (mut filled, mut read) = (0, 0);
    while read < units {
        if bytes.len() - filled < 4 {
            bytes.resize(filled + 3 * (units - read) as usize + 4, 0);
        }
        let rest = if read == 0 { text.clone() } else { text.slice(read, units) };
        let encoded = ENCODER.with(|encoder| encoder.encode_into(&rest, &wasm_view(&mut bytes[filled..])));
        if encoded.read() == 0 {
            // Not seen: an encoder that reads nothing with room to spare. wasm-bindgen's copy loses nothing.
            return String::from(text);
        }
        read += encoded.read();
        filled += encoded.written() as usize;
    }
    bytes.truncate(filled);
    if bytes.capacity() > filled + filled / 4 {
        bytes.shrink_to_fit();
    }
    // The encoder writes UTF-8 by its specification; were it ever not to, nothing is lost by replacing.
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// A JavaScript view of `bytes` in wasm memory, for the encoder to write into. Valid until wasm memory next grows.
fn wasm_view(bytes: &mut [u8]) -> Uint8Array {
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    // Wasm32 addresses and lengths fit in u32.
    let (start, length) = (bytes.as_mut_ptr() as usize as u32, bytes.len() as u32);
    Uint8Array::new_with_byte_offset_and_length(&memory.buffer(), start, length)
}
