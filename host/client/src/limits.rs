//! What bounds one connection: the size of the frames a server may send, how long it may stay silent, how many
//! notifications it may send, and how many requests it may have waiting on the host.

use crate::liveness::DEFAULT_UNRESPONSIVE_AFTER_MS;

/// The default largest frame a server may send, in UTF-16 code units (for JSON text, about bytes): 16 Mi.
pub const DEFAULT_MAX_FRAME_CHARS: u32 = 16 * 1024 * 1024;

/// The most frames one message between the page and a worker may carry as a batch, in either direction
/// (`docs/wire-protocol.md`, "Batches"). Small batches keep both threads busy: with 64 calls in flight, batches of
/// 16 let the worker start on the first while the page is still sending the rest (on the bench's 2-core machine,
/// 64 in flight ran at about 0.95-1.0x raw postMessage's rate with 16, 0.65-0.87x with 8, 0.55-0.76x with 64).
pub const MAX_BATCH_FRAMES: u32 = 16;

/// The most characters the frames of one batch may have together, unless the connection's largest frame is
/// smaller: batches are for small frames, and one bounds what a message asks of the page as a frame does.
pub const MAX_BATCH_CHARS: u32 = 64 * 1024;

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

    /// The most characters the frames of one batch from the server may have together.
    pub fn max_batch_chars(&self) -> u32 {
        MAX_BATCH_CHARS.min(self.max_frame_chars)
    }

    /// Sets how long a worker may be silent; 0 turns the heartbeat off.
    #[must_use]
    pub fn unresponsive_after_ms(mut self, ms: u32) -> Self {
        self.unresponsive_after_ms = ms;
        self
    }
}

/// The default sustained rate of notifications a server may send, per second.
pub const DEFAULT_NOTIFICATIONS_PER_SECOND: u32 = 1_000;
/// The default burst of notifications above the sustained rate.
pub const DEFAULT_NOTIFICATION_BURST: u32 = 500;
/// The default number of notifications over the rate, within one second, after which a server is disconnected.
pub const DEFAULT_MAX_DROPPED_PER_SECOND: u32 = 500;
/// The default number of requests a server may have waiting on the host at once (elicitation, sampling, roots).
pub const DEFAULT_MAX_PENDING_SERVER_REQUESTS: usize = 8;
/// The default time a request from a server may wait for its answer: a server's own request timeout is 60 s in
/// the official SDKs, so an answer after that reaches nobody.
pub const DEFAULT_SERVER_REQUEST_TIMEOUT_MS: u32 = 60_000;

/// How many notifications a server may send: a token bucket per connection, refilled at `per_second` up to
/// `burst`. A notification takes a token per started KiB of its frame (at most the whole bucket), so the bucket
/// bounds bytes as well as messages.
///
/// Over the rate, log messages (`notifications/message`) and notifications the host does not act on are dropped,
/// progress is coalesced (the latest value per request is kept and delivered when the rate allows, and before the
/// request's answer), and list changes are coalesced per list. `notifications/cancelled` is always followed. What
/// was dropped is reported at most once a second ([`crate::connection::FloodReport`]).
///
/// A server that goes on sending past `max_dropped_per_second` notifications over the rate within one second is
/// disconnected: its pending requests fail with a protocol error naming it, and the host stops reading its frames
/// at once. Dropping is cheap for the host, but the browser spends page time dispatching every message (100,000 of
/// them stall the page for most of a second whatever the host does with them); closing the channel is the only way
/// to stop that.
///
/// The defaults (1,000 a second, bursts of 500, disconnected after 500 more within a second) are far above what
/// a well-behaved server sends (a few progress notifications a second per call, logs at `info` level). The browser
/// dispatches a flood's messages back to back, 20-60 µs each on a loaded 2-core machine whatever the host does with
/// them, so the page's stall grows with what it reads before the cut: disconnected after 1,000 more (about 1,600
/// messages read), the flood test's page stalled 57-158 ms here; after 500 more (about 1,100), 28-98 ms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct NotificationLimits {
    /// Notifications per second, sustained (default [`DEFAULT_NOTIFICATIONS_PER_SECOND`]; 0 turns the limit off).
    pub per_second: u32,
    /// Notifications at once above the sustained rate (default [`DEFAULT_NOTIFICATION_BURST`]).
    pub burst: u32,
    /// Notifications over the rate within one second after which the server is disconnected (default
    /// [`DEFAULT_MAX_DROPPED_PER_SECOND`]; 0: never disconnected, only dropped).
    pub max_dropped_per_second: u32,
}

impl Default for NotificationLimits {
    fn default() -> Self {
        Self {
            per_second: DEFAULT_NOTIFICATIONS_PER_SECOND,
            burst: DEFAULT_NOTIFICATION_BURST,
            max_dropped_per_second: DEFAULT_MAX_DROPPED_PER_SECOND,
        }
    }
}

impl NotificationLimits {
    /// `per_second` sustained, bursts of `burst`, disconnected after the default number over the rate.
    pub fn new(per_second: u32, burst: u32) -> Self {
        Self { per_second, burst, max_dropped_per_second: DEFAULT_MAX_DROPPED_PER_SECOND }
    }

    /// No limit.
    pub fn unlimited() -> Self {
        Self { per_second: 0, burst: 0, max_dropped_per_second: 0 }
    }

    /// Sets how many notifications over the rate, within one second, disconnect the server (0: never).
    #[must_use]
    pub fn max_dropped_per_second(mut self, count: u32) -> Self {
        self.max_dropped_per_second = count;
        self
    }
}

/// How many requests a server may have waiting on the host (elicitation, sampling, roots), and for how long.
///
/// A request over the cap is answered at once with an error (code [`TOO_MANY_REQUESTS`]) without reaching the
/// application; a request not answered in time is answered with an error and its handler dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ServerRequestLimits {
    /// Requests waiting at once (default [`DEFAULT_MAX_PENDING_SERVER_REQUESTS`]).
    pub max_pending: usize,
    /// Milliseconds each may wait for its answer (default [`DEFAULT_SERVER_REQUEST_TIMEOUT_MS`]; 0: for ever).
    pub timeout_ms: u32,
}

/// The JSON-RPC error code of a server request refused because too many of the server's requests wait already.
pub const TOO_MANY_REQUESTS: i64 = -32000;

impl Default for ServerRequestLimits {
    fn default() -> Self {
        Self { max_pending: DEFAULT_MAX_PENDING_SERVER_REQUESTS, timeout_ms: DEFAULT_SERVER_REQUEST_TIMEOUT_MS }
    }
}

impl ServerRequestLimits {
    /// At most `max_pending` waiting, each for at most `timeout_ms` (0: for ever).
    pub fn new(max_pending: usize, timeout_ms: u32) -> Self {
        Self { max_pending, timeout_ms }
    }
}
