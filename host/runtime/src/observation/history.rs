//! The last events, in a ring buffer, for subscribers that arrive late.

use super::events::StatusEvent;
use super::filter::EventFilter;
use std::collections::VecDeque;
use std::rc::Rc;

/// The last `capacity` events, oldest first. Older ones are dropped as new ones arrive.
#[derive(Debug)]
pub(crate) struct History {
    capacity: usize,
    events: VecDeque<Rc<StatusEvent>>,
}

impl History {
    pub(crate) fn new(capacity: usize) -> Self {
        Self { capacity, events: VecDeque::with_capacity(capacity.min(1024)) }
    }

    pub(crate) fn capacity(&self) -> usize {
        self.capacity
    }

    /// Changes the capacity, dropping the oldest events that no longer fit.
    pub(crate) fn set_capacity(&mut self, capacity: usize) {
        self.capacity = capacity;
        self.trim();
    }

    pub(crate) fn push(&mut self, event: Rc<StatusEvent>) {
        if self.capacity == 0 {
            return;
        }
        self.events.push_back(event);
        self.trim();
    }

    /// The kept events that pass `filter` and come after `after_seq`, oldest first; at most the newest `limit`.
    pub(crate) fn select(&self, filter: &EventFilter, after_seq: u64, limit: Option<usize>) -> Vec<Rc<StatusEvent>> {
        let mut selected: Vec<Rc<StatusEvent>> =
            self.events.iter().filter(|e| e.seq > after_seq && filter.matches(e)).cloned().collect();
        if let Some(limit) = limit {
            let excess = selected.len().saturating_sub(limit);
            selected.drain(..excess);
        }
        selected
    }

    fn trim(&mut self) {
        while self.events.len() > self.capacity {
            self.events.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observation::events::{EventBody, ServerEvent};

    fn event(seq: u64) -> Rc<StatusEvent> {
        let body = EventBody::ServerRemoved(ServerEvent { server: format!("s{seq}") });
        Rc::new(StatusEvent { id: format!("t-{seq}"), seq, timestamp: 0.0, body })
    }

    fn seqs(events: &[Rc<StatusEvent>]) -> Vec<u64> {
        events.iter().map(|e| e.seq).collect()
    }

    #[test]
    fn keeps_the_newest_up_to_its_capacity() {
        let mut history = History::new(3);
        (1..=5).for_each(|seq| history.push(event(seq)));
        assert_eq!(seqs(&history.select(&EventFilter::all(), 0, None)), [3, 4, 5]);
        assert_eq!(seqs(&history.select(&EventFilter::all(), 3, None)), [4, 5], "after a seq");
        assert_eq!(seqs(&history.select(&EventFilter::all(), 0, Some(1))), [5], "the newest within the limit");
        history.set_capacity(1);
        assert_eq!(seqs(&history.select(&EventFilter::all(), 0, None)), [5]);
        history.set_capacity(0);
        history.push(event(6));
        assert!(history.select(&EventFilter::all(), 0, None).is_empty(), "capacity 0 keeps nothing");
    }

    #[test]
    fn selection_applies_the_filter() {
        let mut history = History::new(10);
        (1..=4).for_each(|seq| history.push(event(seq)));
        let only = EventFilter::all().servers(["s2", "s4"]);
        assert_eq!(seqs(&history.select(&only, 0, None)), [2, 4]);
    }
}
