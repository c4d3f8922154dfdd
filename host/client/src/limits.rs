//! What bounds one worker connection: the size of the frames a server may send, and how long it may stay silent.

use crate::liveness::DEFAULT_UNRESPONSIVE_AFTER_MS;

/// The default largest frame a server may send, in UTF-16 code units (for JSON text, about bytes): 16 Mi.
pub const DEFAULT_MAX_FRAME_CHARS: u32 = 16 * 1024 * 1024;

/// Bounds of one worker connection; each violation closes the connection with an error naming the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct WorkerLimits {
    /// The largest frame the server may send, in UTF-16 code units (default [`DEFAULT_MAX_FRAME_CHARS`]). A larger
    /// frame fails every pending request with a protocol error and closes the connection, before the frame is
    /// copied into wasm or parsed.
    pub max_frame_chars: u32,
    /// How long the worker may leave a heartbeat unanswered before it is treated as dead (default
    /// [`DEFAULT_UNRESPONSIVE_AFTER_MS`]; 0 turns the heartbeat off). A worker that blocks its own event loop this
    /// long is treated as dead too.
    pub unresponsive_after_ms: u32,
}

impl Default for WorkerLimits {
    fn default() -> Self {
        Self { max_frame_chars: DEFAULT_MAX_FRAME_CHARS, unresponsive_after_ms: DEFAULT_UNRESPONSIVE_AFTER_MS }
    }
}

impl WorkerLimits {
    /// Sets the largest frame, in UTF-16 code units.
    #[must_use]
    pub fn max_frame_chars(mut self, chars: u32) -> Self {
        self.max_frame_chars = chars;
        self
    }

    /// Sets how long a worker may be silent; 0 turns the heartbeat off.
    #[must_use]
    pub fn unresponsive_after_ms(mut self, ms: u32) -> Self {
        self.unresponsive_after_ms = ms;
        self
    }
}
