//! Following cancellations: which requests the host cancelled, and whether the server kept working on them.
//!
//! A server should stop a request when told `notifications/cancelled`. One that keeps sending progress for it
//! is still working; the owner of the connection (the manager) hears of it and can terminate the worker.

use super::Connection;
use std::rc::Rc;

/// Cancellations are remembered for this long at most.
const FORGET_AFTER_MS: f64 = 600_000.0;
/// And at most this many.
const MAX_TRACKED: usize = 1024;

/// What happened to a cancelled request.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum CancelEvent {
    /// The host sent `notifications/cancelled` for request `id` (timed out, or abandoned by its caller).
    Sent {
        /// The request.
        id: i64,
    },
    /// The server reported progress on request `id`, `since_ms` after it was cancelled.
    ProgressAfterCancel {
        /// The request.
        id: i64,
        /// Milliseconds since the cancellation.
        since_ms: f64,
    },
}

/// Receives [`CancelEvent`]s.
pub type CancelHandler = Rc<dyn Fn(&CancelEvent)>;

impl Connection {
    /// Receives an event for each cancellation the host sends, and for progress that arrives on a cancelled
    /// request. Cancellations are tracked only while a handler is set.
    pub fn set_cancel_handler(&self, handler: Option<CancelHandler>) {
        if handler.is_none() {
            self.inner.cancelled.borrow_mut().clear();
        }
        *self.inner.on_cancel.borrow_mut() = handler;
    }

    pub(super) fn cancellation_sent(&self, id: i64) {
        let Some(handler) = self.inner.on_cancel.borrow().clone() else { return };
        {
            let mut cancelled = self.inner.cancelled.borrow_mut();
            if cancelled.len() >= MAX_TRACKED {
                let oldest = cancelled.iter().min_by(|a, b| a.1.total_cmp(b.1)).map(|(id, _)| *id);
                if let Some(oldest) = oldest {
                    cancelled.remove(&oldest);
                }
            }
            cancelled.insert(id, (self.inner.clock)());
        }
        handler(&super::CancelEvent::Sent { id });
    }

    pub(super) fn progress_after_cancel(&self, id: i64, now: f64) {
        let Some(at) = self.inner.cancelled.borrow().get(&id).copied() else { return };
        let handler = self.inner.on_cancel.borrow().clone();
        if let Some(handler) = handler {
            handler(&CancelEvent::ProgressAfterCancel { id, since_ms: now - at });
        }
    }

    pub(super) fn forget_old_cancellations(&self, now: f64) {
        self.inner.cancelled.borrow_mut().retain(|_, at| now - at < FORGET_AFTER_MS);
    }
}
