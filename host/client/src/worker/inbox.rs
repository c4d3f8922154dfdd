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
use std::rc::{Rc, Weak};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// Frames longer than this (in UTF-16 units) are screened from their first characters before they are copied into
/// wasm; shorter ones are copied at once (one call into JavaScript fewer on every ordinary message).
const SCREEN_FROM_PREFIX_ABOVE: u32 = 1024;

/// Frames at least this long (in UTF-16 units) are read in the task after the one that copied them. A frame of
/// 2 Mi units costs a few milliseconds to copy and as many to read; from there on, the two are kept apart.
const READ_LATER_FROM_UNITS: u32 = 2 * 1024 * 1024;

/// A frame copied into wasm and screened, to be read.
type Copied = (String, Screened);

/// The server's frames, on their way to its connection.
pub(super) struct Inbox {
    connection: Connection,
    max_frame_chars: u32,
    max_batch_chars: u32,
    sender: Rc<FrameSender>,
    js_calls: JsCalls,
    /// The frame copied to be read in a later task, if any.
    copied: RefCell<Option<Copied>>,
    /// Frames posted while one waits to be read, in order, not yet looked at.
    posted: RefCell<Vec<JsValue>>,
    /// Closes the transport once the connection has closed (a frame too large, a flood): the browser would otherwise
    /// go on spending the page's time dispatching whatever the server queued.
    on_closed: Box<dyn Fn(Error)>,
}

impl Inbox {
    pub(super) fn new(
        connection: Connection,
        max_frame_chars: u32,
        max_batch_chars: u32,
        sender: Rc<FrameSender>,
        js_calls: JsCalls,
        on_closed: Box<dyn Fn(Error)>,
    ) -> Rc<Self> {
        Rc::new(Self {
            connection,
            max_frame_chars,
            max_batch_chars,
            sender,
            js_calls,
            copied: RefCell::default(),
            posted: RefCell::default(),
            on_closed,
        })
    }

    /// A frame the worker posted.
    pub(super) fn offer(self: &Rc<Self>, data: JsValue) {
        if self.copied.borrow().is_some() {
            self.posted.borrow_mut().push(data);
            return;
        }
        if let Some(copied) = self.read(&data) {
            *self.copied.borrow_mut() = Some(copied);
            self.read_later();
        }
        self.after_reading();
    }

    /// Reads the copied frame, then the frames posted behind it, in order, until one more is copied: that one is read
    /// in the next task, with the frames still behind it.
    fn read_waiting(self: &Rc<Self>) {
        let Some((text, screened)) = self.copied.take() else { return };
        self.connection.receive_owned(text, screened);
        if self.after_reading() {
            return;
        }
        let mut posted = std::mem::take(&mut *self.posted.borrow_mut()).into_iter();
        while let Some(data) = posted.next() {
            if let Some(copied) = self.read(&data) {
                *self.copied.borrow_mut() = Some(copied);
                // Nothing was posted meanwhile (frames come as events, never during this task): the rest wait.
                *self.posted.borrow_mut() = posted.collect();
                self.read_later();
                return;
            }
            if self.after_reading() {
                return;
            }
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
        self.copied.take();
        self.posted.borrow_mut().clear();
        (self.on_closed)(cause);
        true
    }

    /// Reads a frame, or copies it and returns it to be read later.
    fn read(&self, data: &JsValue) -> Option<Copied> {
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
    fn read_text(&self, frame: Option<JsString>) -> Option<Copied> {
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
                    return Some((copied, screened));
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
                && let Some((text, screened)) = self.read_text(frame.dyn_into::<JsString>().ok())
            {
                connection.receive_owned(text, screened);
            }
        }
    }
}
