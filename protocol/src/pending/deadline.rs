//! A request's deadline: its timeout, moved by progress when asked, up to a hard maximum.
//!
//! Times are milliseconds on the owner's clock (`Date.now()` in the browser); the deadline never reads a clock
//! itself, so it tests natively with plain numbers.

/// When a request times out, and whether progress moves that.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Deadline {
    at: f64,
    timeout_ms: u32,
    reset_on_progress: bool,
    /// The hard maximum: when it falls and the total it allows.
    hard: Option<(f64, u32)>,
}

impl Deadline {
    /// Times out `timeout_ms` after `now`, whatever progress comes.
    pub fn fixed(now: f64, timeout_ms: u32) -> Self {
        Self { at: now + f64::from(timeout_ms), timeout_ms, reset_on_progress: false, hard: None }
    }

    /// Times out `timeout_ms` after `now` or after the latest progress, but never later than `max_total_ms` after
    /// `now` when that is given.
    pub fn reset_on_progress(now: f64, timeout_ms: u32, max_total_ms: Option<u32>) -> Self {
        let hard = max_total_ms.map(|ms| (now + f64::from(ms), ms));
        let mut deadline = Self { at: now, timeout_ms, reset_on_progress: true, hard };
        deadline.restart(now);
        deadline
    }

    /// When the request times out.
    pub fn at(&self) -> f64 {
        self.at
    }

    /// Whether the request has timed out at `now`.
    pub fn is_due(&self, now: f64) -> bool {
        self.at <= now
    }

    /// The timeout that fails the request at [`Deadline::at`]: the hard maximum when it is the one that binds.
    pub fn expired_ms(&self) -> u32 {
        match self.hard {
            Some((hard_at, hard_ms)) if hard_at <= self.at => hard_ms,
            _ => self.timeout_ms,
        }
    }

    /// Progress was reported at `now`: a deadline that resets on progress restarts its timeout from there.
    pub fn progressed(&mut self, now: f64) {
        if self.reset_on_progress {
            self.restart(now);
        }
    }

    fn restart(&mut self, now: f64) {
        let at = now + f64::from(self.timeout_ms);
        self.at = self.hard.map_or(at, |(hard_at, _)| at.min(hard_at));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_deadline_falls_after_its_timeout_and_ignores_progress() {
        let mut deadline = Deadline::fixed(1_000.0, 100);
        assert_eq!(deadline.at(), 1_100.0);
        assert!(!deadline.is_due(1_099.0));
        assert!(deadline.is_due(1_100.0), "due at the deadline itself");
        deadline.progressed(1_090.0);
        assert_eq!(deadline.at(), 1_100.0);
        assert_eq!(deadline.expired_ms(), 100);
    }

    #[test]
    fn progress_restarts_the_timeout_from_the_time_it_came() {
        let mut deadline = Deadline::reset_on_progress(0.0, 100, None);
        assert_eq!(deadline.at(), 100.0);
        deadline.progressed(90.0);
        assert_eq!(deadline.at(), 190.0);
        deadline.progressed(1_000.0);
        assert_eq!(deadline.at(), 1_100.0, "no hard maximum: progress keeps it alive for ever");
        assert_eq!(deadline.expired_ms(), 100);
    }

    #[test]
    fn the_hard_maximum_binds_whatever_progress_comes() {
        let mut deadline = Deadline::reset_on_progress(0.0, 100, Some(250));
        deadline.progressed(90.0);
        assert_eq!((deadline.at(), deadline.expired_ms()), (190.0, 100), "the timeout still binds");
        deadline.progressed(200.0);
        assert_eq!((deadline.at(), deadline.expired_ms()), (250.0, 250), "now the hard maximum does");
        deadline.progressed(249.0);
        assert_eq!(deadline.at(), 250.0);
        assert!(deadline.is_due(250.0));
    }

    #[test]
    fn a_hard_maximum_below_the_timeout_binds_from_the_start() {
        let deadline = Deadline::reset_on_progress(10.0, 100, Some(50));
        assert_eq!((deadline.at(), deadline.expired_ms()), (60.0, 50));
    }

    #[test]
    fn a_hard_maximum_equal_to_the_timeout_is_named_as_such() {
        // Both fall at once: the error names the hard maximum, as the one no progress could have moved.
        let deadline = Deadline::reset_on_progress(0.0, 100, Some(100));
        assert_eq!((deadline.at(), deadline.expired_ms()), (100.0, 100));
    }
}
