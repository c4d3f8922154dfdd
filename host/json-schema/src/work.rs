//! The step counter of one validation: every piece of work is paid for here first, and once a limit is passed
//! every check returns at once, so that the validation ends within its budget and reports which limit it went over.
//!
//! The prices below make a step at most about 25 ns of work natively, whatever its kind (measured by
//! `calibration_tests.rs` on the costliest work of each kind; in V8's wasm the worst measured was about 33 ns):
//! what costs less is charged as much, so that the budget bounds time whatever the schema asks for.

use crate::{Exceeded, Limits};

/// A schema visited at one place in the value: each keyword looked up in it.
pub(crate) const VISIT: u64 = 12;
/// Keys of a schema object per extra step of a visit (a wide object makes every lookup slower).
pub(crate) const KEYS_PER_STEP: u64 = 64;
/// A `$ref` followed.
pub(crate) const REF: u64 = 6;
/// A branch evaluated or looked up (`anyOf`, `oneOf`, `not`, `if`, `contains`, `propertyNames`).
pub(crate) const BRANCH: u64 = 12;
/// A violation written.
pub(crate) const VIOLATION: u64 = 32;
/// An item, member, name or rule read.
pub(crate) const READ: u64 = 1;
/// Bytes of text read per step (string lengths, long strings compared, references resolved).
pub(crate) const TEXT_BYTES_PER_STEP: u64 = 64;

#[derive(Debug)]
pub(crate) struct Work {
    pub(crate) limits: Limits,
    steps: u64,
    exceeded: Option<Exceeded>,
}

impl Work {
    pub(crate) fn new(limits: Limits) -> Self {
        Self { limits, steps: 0, exceeded: None }
    }

    /// Spends `steps`. `false` once the budget is gone: the caller stops.
    pub(crate) fn spend(&mut self, steps: u64) -> bool {
        if self.exceeded.is_some() {
            return false;
        }
        self.steps = self.steps.saturating_add(steps);
        if self.steps > self.limits.max_steps {
            self.exceeded = Some(Exceeded::Steps(self.limits.max_steps));
            return false;
        }
        true
    }

    /// Enters a check at nesting `depth` of a schema with `keys` keys: a visit, and the depth limit.
    pub(crate) fn visit(&mut self, depth: usize, keys: usize) -> bool {
        if depth > self.limits.max_depth && self.exceeded.is_none() {
            self.exceeded = Some(Exceeded::Depth(self.limits.max_depth));
        }
        self.spend(VISIT + keys as u64 / KEYS_PER_STEP)
    }

    /// Steps left before the budget is gone.
    pub(crate) fn remaining(&self) -> u64 {
        if self.exceeded.is_some() { 0 } else { self.limits.max_steps - self.steps }
    }

    pub(crate) fn exhausted(&self) -> bool {
        self.exceeded.is_some()
    }

    pub(crate) fn exceeded(&self) -> Option<Exceeded> {
        self.exceeded
    }

    #[cfg(test)]
    pub(crate) fn used(&self) -> u64 {
        self.steps
    }
}
