//! The heartbeat that notices a worker that died without a word (`self.close()` from code that went around the
//! prelude, `terminate()`, out of memory, a crashed process): browsers fire no event for it, and a `MessagePort`
//! whose other end is gone swallows messages silently.
//!
//! The host pings on each sweep; the worker's prelude answers. One ping is outstanding at a time. A worker that
//! leaves a ping unanswered for [`Heartbeat::unresponsive_after_ms`] is dead, or blocked so long that it might as
//! well be; it is judged only after at least one more sweep, so a page that was itself blocked (or throttled in a
//! background tab) gets to read the answer that waited in its queue before judging.

/// A worker unanswered this long is treated as dead (with sweeps every 100 ms: noticed within 0.9 s of its death).
pub const DEFAULT_UNRESPONSIVE_AFTER_MS: u32 = 700;

/// What to do at a sweep.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Beat {
    /// Send a ping.
    Ping,
    /// A ping is on its way; nothing to do.
    Wait,
    /// The ping sent this long ago was never answered.
    Unresponsive {
        /// Milliseconds since the unanswered ping.
        silent_ms: f64,
    },
}

/// One worker's heartbeat state.
#[derive(Debug, Clone)]
pub struct Heartbeat {
    unresponsive_after_ms: u32,
    outstanding_since: Option<f64>,
    sweeps_since_ping: u32,
}

impl Heartbeat {
    /// A heartbeat that judges a worker dead after `unresponsive_after_ms` without an answer.
    pub fn new(unresponsive_after_ms: u32) -> Self {
        Self { unresponsive_after_ms, outstanding_since: None, sweeps_since_ping: 0 }
    }

    /// The limit this heartbeat judges by.
    pub fn unresponsive_after_ms(&self) -> u32 {
        self.unresponsive_after_ms
    }

    /// A sweep at `now` (milliseconds).
    pub fn sweep(&mut self, now: f64) -> Beat {
        match self.outstanding_since {
            None => {
                self.outstanding_since = Some(now);
                self.sweeps_since_ping = 0;
                Beat::Ping
            }
            Some(since) => {
                self.sweeps_since_ping = self.sweeps_since_ping.saturating_add(1);
                let silent_ms = now - since;
                if self.sweeps_since_ping >= 2 && silent_ms >= f64::from(self.unresponsive_after_ms) {
                    Beat::Unresponsive { silent_ms }
                } else {
                    Beat::Wait
                }
            }
        }
    }

    /// The worker answered.
    pub fn pong(&mut self) {
        self.outstanding_since = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answering_worker_is_pinged_once_per_answer() {
        let mut beat = Heartbeat::new(700);
        assert_eq!(beat.sweep(0.0), Beat::Ping);
        assert_eq!(beat.sweep(100.0), Beat::Wait);
        beat.pong();
        assert_eq!(beat.sweep(200.0), Beat::Ping);
        beat.pong();
        assert_eq!(beat.sweep(10_000.0), Beat::Ping, "a long pause between sweeps is not silence");
    }

    #[test]
    fn a_silent_worker_is_unresponsive_after_the_limit_and_within_a_second_of_its_death() {
        let mut beat = Heartbeat::new(DEFAULT_UNRESPONSIVE_AFTER_MS);
        assert_eq!(beat.sweep(0.0), Beat::Ping);
        beat.pong();
        // Dies right after answering at 0 ms; sweeps every 100 ms.
        let mut now = 0.0;
        let verdict = loop {
            now += 100.0;
            if let Beat::Unresponsive { silent_ms } = beat.sweep(now) {
                break (now, silent_ms);
            }
        };
        assert_eq!(verdict, (800.0, 700.0));
    }

    #[test]
    fn a_page_that_was_blocked_reads_its_queue_before_judging() {
        let mut beat = Heartbeat::new(700);
        assert_eq!(beat.sweep(0.0), Beat::Ping);
        // The page was blocked for 5 s: the first sweep after it does not judge...
        assert_eq!(beat.sweep(5_000.0), Beat::Wait);
        // ...the answer that waited in the queue is read...
        beat.pong();
        assert_eq!(beat.sweep(5_100.0), Beat::Ping);
        // ...and without it, the next sweep does.
        assert_eq!(beat.sweep(10_000.0), Beat::Wait);
        assert_eq!(beat.sweep(10_100.0), Beat::Unresponsive { silent_ms: 5_000.0 });
    }
}
