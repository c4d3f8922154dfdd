//! Which (schema, place in the value) pairs are being checked, and what branch checks found.
//!
//! A pair met again while it is still being checked is a cycle that consumes no part of the value (`{"$ref": "#"}`):
//! it adds nothing to what the outer check finds, so it ends there, as if it held. A branch check (`anyOf`, `oneOf`,
//! `not`, `if`, `contains`, `propertyNames`) is remembered per pair, so that no pair is evaluated twice and the
//! search for the closest failing branch re-uses what the first pass found. A result that rested on such a cycle
//! further up is not remembered: elsewhere, the assumption would not hold.

use serde_json::Value;
use std::collections::HashMap;
use std::rc::Rc;

/// A schema and a value, by address: both live, unmoved, for the whole validation.
pub(crate) type Key = (usize, usize);

pub(crate) fn key(schema: &Value, instance: &Value) -> Key {
    (std::ptr::from_ref(schema) as usize, std::ptr::from_ref(instance) as usize)
}

/// What a branch check found: how many violations (at most `MAX_ERRORS`) and the first, as shown.
#[derive(Debug, Clone, Default)]
pub(crate) struct Outcome {
    pub(crate) count: usize,
    pub(crate) first: Option<Rc<str>>,
}

/// A check in progress: where it sits, and the assumption mark of its caller.
#[derive(Debug)]
pub(crate) struct Entered {
    index: usize,
    saved: usize,
}

#[derive(Debug, Default)]
pub(crate) struct Frames {
    /// Pairs being checked, with their index in the chain of checks.
    active: HashMap<Key, usize>,
    /// The outermost check that a cycle below assumed to hold, if any.
    assumed: Option<usize>,
    outcomes: HashMap<Key, Outcome>,
}

impl Frames {
    /// Starts checking `key`; `None` when it is already being checked (a cycle: the caller adds nothing).
    pub(crate) fn enter(&mut self, key: Key) -> Option<Entered> {
        if let Some(&index) = self.active.get(&key) {
            self.assumed = Some(self.assumed.map_or(index, |a| a.min(index)));
            return None;
        }
        let index = self.active.len();
        self.active.insert(key, index);
        let saved = self.assumed.take().unwrap_or(usize::MAX);
        Some(Entered { index, saved })
    }

    /// Ends the check of `key`. `true` when what it found holds anywhere: no cycle below it assumed a check above it.
    pub(crate) fn leave(&mut self, key: Key, entered: Entered) -> bool {
        self.active.remove(&key);
        let clean = self.assumed.is_none_or(|a| a >= entered.index);
        let inner = if clean { usize::MAX } else { self.assumed.unwrap_or(usize::MAX) };
        let outer = entered.saved.min(inner);
        self.assumed = (outer != usize::MAX).then_some(outer);
        clean
    }

    pub(crate) fn outcome(&self, key: Key) -> Option<Outcome> {
        self.outcomes.get(&key).cloned()
    }

    pub(crate) fn remember(&mut self, key: Key, outcome: Outcome) {
        self.outcomes.insert(key, outcome);
    }
}
