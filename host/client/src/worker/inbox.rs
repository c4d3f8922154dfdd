//! Reading the frames a worker posts to the page: bounded in size before anything reads them, handed to the
//! connection in the order they came, and a large one read in a task of its own.
//!
//! A frame of megabytes costs the page twice: copying it into wasm, then reading its JSON. Done in the task that
//! received it, the two add up to one stall; the inbox copies it at once and reads it in the next task (see
//! [`crate::next_task`]), and every frame that arrives meanwhile waits its turn behind it, so order is kept.

use super::long_text;
use super::sender::{self, FrameSender};
use super::{JsCalls, detached};
use crate::connection::{Connection, Screened};
use crate::error::Error;
use crate::next_task;
use js_sys::{Array, JsString};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::{Rc, Weak};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// Frames longer than this (in UTF-16 units) are screened from their first characters before they are copied into
/// wasm; shorter ones are copied at once (one call into JavaScript fewer on every ordinary message).
const SCREEN_FROM_PREFIX_ABOVE: u32 = 1024;

/// Frames at least this long (in UTF-16 units) are read in the task after the one that copied them. A frame of
/// 2 Mi units costs a few milliseconds to copy and as many to read; from there on, the two are kept apart.
pub(super) const READ_LATER_FROM_UNITS: u32 = 2 * 1024 * 1024;

/// What waits its turn: a frame not yet looked at, or one copied into wasm and screened, to be read.
enum Waiting {
    Posted(JsValue),
    Copied(String, Screened),
}

/// The server's frames, on their way to its connection.
pub(super) struct Inbox {
    connection: Connection,
    max_frame_chars: u32,
    max_batch_chars: u32,
    sender: Rc<FrameSender>,
    js_calls: JsCalls,
    waiting: RefCell<VecDeque<Waiting>>,
    /// Closes the transport once the connection has closed (a frame too large, a flood): the browser would otherwise
    /// go on spending the page's time dispatching whatever the server queued.
    on_closed: Box<dyn Fn(Error)>,
}

impl Inbox {
    pub(super) fn new(
        connection: Connection,
        limits: (u32, u32),
        sender: Rc<FrameSender>,
        js_calls: JsCalls,
        on_closed: Box<dyn Fn(Error)>,
    ) -> Rc<Self> {
        let (max_frame_chars, max_batch_chars) = limits;
        Rc::new(Self {
            connection,
            max_frame_chars,
            max_batch_chars,
            sender,
            js_calls,
            waiting: RefCell::default(),
            on_closed,
        })
    }

    /// A frame the worker posted.
    pub(super) fn offer(self: &Rc<Self>, data: JsValue) {
        if !self.waiting.borrow().is_empty() {
            self.waiting.borrow_mut().push_back(Waiting::Posted(data));
            return;
        }
        if let Some(copied) = self.read(&data) {
            self.waiting.borrow_mut().push_back(copied);
            self.read_later();
        }
        self.after_reading();
    }

    /// Reads what waits, in order, up to and including one copied frame; the rest in later tasks.
    fn read_waiting(self: &Rc<Self>) {
        loop {
            let next = self.waiting.borrow_mut().pop_front();
            match next {
                None => return,
                Some(Waiting::Copied(text, screened)) => {
                    self.connection.receive_owned(text, screened);
                    break;
                }
                Some(Waiting::Posted(data)) => {
                    if let Some(copied) = self.read(&data) {
                        self.waiting.borrow_mut().push_front(copied);
                        break;
                    }
                }
            }
            if self.after_reading() {
                return;
            }
        }
        if !self.after_reading() && !self.waiting.borrow().is_empty() {
            self.read_later();
        }
    }

    fn read_later(self: &Rc<Self>) {
        let weak: Weak<Self> = Rc::downgrade(self);
        next_task::later(move || {
            if let Some(inbox) = weak.upgrade() {
                inbox.read_waiting();
            }
        });
    }

    /// True when the connection has closed: the transport is closed, and nothing that waits is read.
    fn after_reading(&self) -> bool {
        let Some(cause) = self.connection.closed_reason() else { return false };
        self.waiting.borrow_mut().clear();
        (self.on_closed)(cause);
        true
    }

    /// Reads a frame, or copies it and returns it to be read later.
    fn read(&self, data: &JsValue) -> Option<Waiting> {
        let (connection, max) = (&self.connection, self.max_frame_chars);
        // Text is the usual frame; an array, a batch of them (`docs/wire-protocol.md`, "Batches").
        let text = data.dyn_ref::<JsString>().cloned();
        if text.is_none() && Array::is_array(data) {
            self.read_batch(data.unchecked_ref());
            return None;
        }
        // A frame with detached strings is measured with them; anything else is read as JSON.
        let detached = if text.is_none() { detached::length(data) } else { None };
        let frame = match (text, detached) {
            (Some(text), _) => Some(text),
            (None, Some(_)) => None,
            (None, None) => js_sys::JSON::stringify(data).ok(),
        };
        let length = detached.unwrap_or_else(|| frame.as_ref().map_or(0, JsString::length));
        if length > max {
            let message = format!("the server sent a frame of {length} characters; the limit is {max}");
            connection.close(Error::Protocol { server: connection.server().to_owned(), message });
            return None;
        }
        if detached.is_some() {
            // Put back as JSON, a string can grow (a control character takes six): the limit holds again.
            let received = detached::receive(data, connection, &self.js_calls);
            self.sender.recycle(data);
            return match received {
                Some(text) if text.length() > max => {
                    let length = text.length();
                    let message = format!(
                        "the server sent a frame of {length} characters with its detached strings as JSON; the limit \
                         is {max}"
                    );
                    connection.close(Error::Protocol { server: connection.server().to_owned(), message });
                    None
                }
                Some(text) => self.read_text(Some(text)),
                None => None,
            };
        }
        if self.js_calls.offer(data, connection) {
            return None;
        }
        self.read_text(frame)
    }

    /// Reads a frame of text; a very large one is copied and returned, to be read later. A large log message over the
    /// rate is dropped from its first characters, before the frame is copied; a small frame costs less to copy than
    /// to look at twice, and is judged in `receive`.
    fn read_text(&self, frame: Option<JsString>) -> Option<Waiting> {
        let connection = &self.connection;
        let length = frame.as_ref().map_or(0, JsString::length);
        match frame {
            Some(text) if length > SCREEN_FROM_PREFIX_ABOVE => {
                let screened = connection.screen(&String::from(text.slice(0, 64)), length as usize);
                if screened == Screened::Dropped {
                    return None;
                }
                let copied = long_text::to_rust(&text);
                if length >= READ_LATER_FROM_UNITS {
                    return Some(Waiting::Copied(copied, screened));
                }
                connection.receive_owned(copied, screened);
                None
            }
            frame => {
                connection.receive(&frame.and_then(|f| f.as_string()).unwrap_or_default());
                None
            }
        }
    }

    /// Reads a batch of frames: bounded as a whole, then each frame as if it had come alone, until the connection
    /// closes. A batch over its bounds closes the connection before any of its frames is read. (Each frame of a batch
    /// is at most [`crate::limits::MAX_BATCH_CHARS`] long: none is read later.)
    fn read_batch(&self, batch: &Array) {
        let connection = &self.connection;
        if let Err(message) = sender::check(batch, self.max_batch_chars) {
            connection.close(Error::Protocol { server: connection.server().to_owned(), message });
            return;
        }
        for frame in batch.iter() {
            if connection.closed_reason().is_some() {
                return;
            }
            if !self.js_calls.offer(&frame, connection)
                && let Some(Waiting::Copied(text, screened)) = self.read_text(frame.dyn_into::<JsString>().ok())
            {
                connection.receive_owned(text, screened);
            }
        }
    }
}
