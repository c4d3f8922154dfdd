//! A time budget for fend: it asks its interrupt between evaluation steps and inside big-number loops, so a clock
//! read there bounds the work of any expression (`10^10^10`, `100000!`) in the worker's one thread.
//!
//! A count of steps would be deterministic, but a step's cost grows with the numbers (a step of `100000!` costs
//! thirty times one of `10^10^10` in wasm), so no count both lets `5000!` finish and stops `100000!` in time.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

/// The time one evaluation may take, in milliseconds.
pub(crate) const MAX_MILLIS: f64 = 2000.0;

/// Fend asks often (thousands of times a millisecond in tight loops): the clock is read every this many questions.
const ASKS_PER_CLOCK_READ: u32 = 64;

/// Says "stop" once the time is spent.
#[derive(Debug)]
pub(crate) struct TimeBudget {
    deadline: f64,
    asks: AtomicU32,
    exhausted: AtomicBool,
}

impl TimeBudget {
    /// A budget of `millis` from now.
    pub(crate) fn new(millis: f64) -> Self {
        Self { deadline: now_millis() + millis, asks: AtomicU32::new(0), exhausted: AtomicBool::new(false) }
    }

    /// Whether the time ran out (fend then reports "Interrupted").
    pub(crate) fn exhausted(&self) -> bool {
        self.exhausted.load(Ordering::Relaxed)
    }
}

impl fend_core::Interrupt for TimeBudget {
    fn should_interrupt(&self) -> bool {
        if self.exhausted() {
            return true;
        }
        if !self.asks.fetch_add(1, Ordering::Relaxed).is_multiple_of(ASKS_PER_CLOCK_READ) {
            return false;
        }
        let late = now_millis() > self.deadline;
        self.exhausted.store(late, Ordering::Relaxed);
        late
    }
}

/// Milliseconds since the epoch: the page's clock in the worker (std has none on wasm32-unknown-unknown), the
/// system's natively.
#[cfg(target_arch = "wasm32")]
fn now_millis() -> f64 {
    js_sys::Date::now()
}

#[cfg(not(target_arch = "wasm32"))]
fn now_millis() -> f64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}
