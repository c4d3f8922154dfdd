//! What carries a session's frames, seen from the session: the part that ends it. A transport delivers frames into
//! its [`crate::Connection`] and sends the connection's outgoing frames; the session closes it when it closes.
//!
//! The Web Worker transport (`worker`, in the browser) is the first implementation.

/// What ends a client's transport when the client closes (terminates the worker, for a worker).
pub trait Transport {
    /// Ends the transport. Called once.
    fn close(&self);
}
