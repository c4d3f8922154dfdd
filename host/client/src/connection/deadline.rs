//! A request's deadline: its timeout, moved by progress when asked, up to a hard maximum.

use super::RequestOptions;

/// When a request times out, and whether progress moves that.
#[derive(Clone, Copy)]
pub(super) struct Deadline {
    pub(super) at: f64,
    timeout_ms: u32,
    reset_on_progress: bool,
    /// The hard maximum: when it and the timeout it allows.
    hard: Option<(f64, u32)>,
}

impl Deadline {
    pub(super) fn new(now: f64, options: &RequestOptions) -> Option<Self> {
        let timeout_ms = options.timeout_ms?;
        let hard = options.max_total_ms.filter(|_| options.reset_on_progress).map(|ms| (now + f64::from(ms), ms));
        let at = now + f64::from(timeout_ms);
        Some(Self {
            at: hard.map_or(at, |(h, _)| at.min(h)),
            timeout_ms,
            reset_on_progress: options.reset_on_progress,
            hard,
        })
    }

    /// The timeout that fails the request at `at`: the hard maximum when it is the one that binds.
    pub(super) fn expired_ms(&self) -> u32 {
        match self.hard {
            Some((hard_at, hard_ms)) if hard_at <= self.at => hard_ms,
            _ => self.timeout_ms,
        }
    }

    pub(super) fn progressed(&mut self, now: f64) {
        if self.reset_on_progress {
            let at = now + f64::from(self.timeout_ms);
            self.at = self.hard.map_or(at, |(h, _)| at.min(h));
        }
    }
}
