//! A step budget for fend: it asks its interrupt between evaluation steps and inside big-number loops, so counting
//! those questions bounds the work of any expression (`10^10^10`, `factorial 1000000`) in the worker's one thread.

use std::sync::atomic::{AtomicU64, Ordering};

/// The steps one evaluation may take: well under a second of work in a release build (about 3 s in a debug one).
pub(crate) const MAX_STEPS: u64 = 1_000_000;

/// Says "stop" once the budget is spent.
#[derive(Debug)]
pub(crate) struct StepBudget {
    steps: AtomicU64,
    limit: u64,
}

impl StepBudget {
    pub(crate) fn new(limit: u64) -> Self {
        Self { steps: AtomicU64::new(0), limit }
    }

    /// Whether the budget ran out (fend then reports "Interrupted").
    pub(crate) fn exhausted(&self) -> bool {
        self.steps.load(Ordering::Relaxed) > self.limit
    }
}

impl fend_core::Interrupt for StepBudget {
    fn should_interrupt(&self) -> bool {
        self.steps.fetch_add(1, Ordering::Relaxed) >= self.limit
    }
}
