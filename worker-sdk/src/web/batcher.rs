//! The worker's frames to a host that reads batches (`docs/wire-protocol.md`, "Batches"): the frames written in
//! one turn of the event loop go as one message, an array of them, at its end. Answers to the requests of one batch
//! from the page go back together, and a message costs both threads more than the frames in it.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::MessagePort;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = queueMicrotask)]
    fn queue_microtask(callback: &js_sys::Function);
}

/// How large a batch the host reads: frames, and characters of them together.
#[derive(Clone, Copy, Debug)]
pub(super) struct BatchLimits {
    pub(super) frames: u32,
    pub(super) chars: u32,
}

/// Posts the worker's frames on its port, in batches when the host reads them. Every message on the port goes
/// through [`Batcher::flush`] first, so frames keep their order.
pub(super) struct Batcher {
    port: MessagePort,
    limits: Option<BatchLimits>,
    queue: RefCell<js_sys::Array>,
    chars: Cell<u32>,
    scheduled: Cell<bool>,
    flush_later: RefCell<Option<js_sys::Function>>,
}

impl Batcher {
    pub(super) fn new(port: MessagePort, limits: Option<BatchLimits>) -> Rc<Self> {
        let batcher = Rc::new(Self {
            port,
            limits: limits.filter(|limits| limits.frames > 1 && limits.chars > 0),
            queue: RefCell::new(js_sys::Array::new()),
            chars: Cell::new(0),
            scheduled: Cell::new(false),
            flush_later: RefCell::new(None),
        });
        let weak = Rc::downgrade(&batcher);
        let flush = Closure::<dyn FnMut()>::new(move || {
            if let Some(batcher) = weak.upgrade() {
                batcher.scheduled.set(false);
                batcher.flush();
            }
        });
        *batcher.flush_later.borrow_mut() = Some(flush.into_js_value().unchecked_into());
        batcher
    }

    /// Posts `frame` now, or with the others of this turn.
    pub(super) fn send(&self, frame: &str) {
        let Some(limits) = self.limits else {
            // A closed port drops frames; the host notices the worker is gone through its own events.
            let _ = self.port.post_message(&JsValue::from_str(frame));
            return;
        };
        // Its UTF-8 length: never less than the UTF-16 length the host counts.
        let chars = u32::try_from(frame.len()).unwrap_or(u32::MAX);
        if chars > limits.chars {
            // Too large for any batch: alone, after those before it.
            self.flush();
            let _ = self.port.post_message(&JsValue::from_str(frame));
            return;
        }
        let queued = self.queue.borrow().length();
        if queued >= limits.frames || (queued > 0 && self.chars.get().saturating_add(chars) > limits.chars) {
            self.flush();
        }
        self.queue.borrow().push(&JsValue::from_str(frame));
        self.chars.set(self.chars.get().saturating_add(chars));
        if !self.scheduled.replace(true)
            && let Some(flush) = &*self.flush_later.borrow()
        {
            queue_microtask(flush);
        }
    }

    /// Posts the frames waiting: one alone, more as a batch.
    pub(super) fn flush(&self) {
        let queue = self.queue.replace(js_sys::Array::new());
        self.chars.set(0);
        let message = match queue.length() {
            0 => return,
            1 => queue.get(0),
            _ => queue.into(),
        };
        let _ = self.port.post_message(&message);
    }
}
