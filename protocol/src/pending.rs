//! Requests in flight: the table both sides keep of the requests they sent and await answers to.
//!
//! The host's connection (requests to a server) and the SDK's session (requests to the client) number their
//! requests, remember what waits for each answer, hand a response to its waiter by id and forget what is
//! answered, abandoned or overdue. [`PendingTable`] is that bookkeeping, once. It holds no clock, sends nothing
//! and never delivers: each side wraps it in its own cell, passes the time in (`now`, in milliseconds) and decides
//! how a waiter is answered. A request may carry a [`Deadline`]; [`cancel_notice`] writes the
//! `notifications/cancelled` owed when a request is given up.

mod cancel;
mod deadline;

pub use cancel::cancel_notice;
pub use deadline::Deadline;

use crate::id_map::IdMap;
use crate::jsonrpc::RequestId;

/// One request in flight.
#[derive(Debug)]
#[non_exhaustive]
pub struct Entry<W> {
    /// The method requested (errors name it; `initialize` is never cancelled).
    pub method: Box<str>,
    /// When the request times out, if it does.
    pub deadline: Option<Deadline>,
    /// What waits for the answer (a channel, a callback, …), as the owner of the table chose.
    pub waiter: W,
}

/// Requests sent and not yet answered, by id; `W` is what waits for each answer.
///
/// Ids are integers from 1 upwards ([`PendingTable::next_id`]). A response is matched by id
/// ([`PendingTable::take_response`]); one for an id that is not pending (late, bogus, or a string id, which this
/// side never sends) finds nothing and is dropped by the caller, as JSON-RPC says.
#[derive(Debug)]
pub struct PendingTable<W> {
    /// The id the next request gets.
    next: i64,
    /// Ordered by id, so that overdue and drained requests come out in a stable order.
    entries: IdMap<i64, Entry<W>>,
}

impl<W> Default for PendingTable<W> {
    fn default() -> Self {
        Self::new()
    }
}

impl<W> PendingTable<W> {
    /// An empty table whose first id is 1.
    pub fn new() -> Self {
        Self { next: 1, entries: IdMap::new() }
    }

    /// Reserves an id for a new request: 1, 2, 3, …, back to 1 after `i64::MAX` (never zero or negative).
    pub fn next_id(&mut self) -> i64 {
        let id = self.next;
        self.next = id.wrapping_add(1).max(1);
        id
    }

    /// Records a request sent as `id`. An entry already under `id` is replaced, its waiter dropped.
    pub fn insert(&mut self, id: i64, method: &str, deadline: Option<Deadline>, waiter: W) {
        self.entries.insert(id, Entry { method: method.into(), deadline, waiter });
    }

    /// The request a response with `id` answers, removed from the table; `None` when no request with that id is
    /// pending (its answer is late, or bogus).
    pub fn take_response(&mut self, id: &RequestId) -> Option<Entry<W>> {
        match id {
            RequestId::Number(id) => self.entries.remove(id),
            // Requests from this side always have integer ids.
            _ => None,
        }
    }

    /// Forgets request `id` (abandoned, failed, or answered another way) and returns it if it was pending.
    pub fn remove(&mut self, id: i64) -> Option<Entry<W>> {
        self.entries.remove(&id)
    }

    /// Progress was reported on request `id` at `now`: its deadline moves if it moves with progress. Returns the
    /// request's waiter, or `None` when the request is not pending.
    pub fn progressed(&mut self, id: i64, now: f64) -> Option<&W> {
        let entry = self.entries.get_mut(&id)?;
        if let Some(deadline) = &mut entry.deadline {
            deadline.progressed(now);
        }
        Some(&entry.waiter)
    }

    /// Removes and returns, in id order, every request whose deadline has passed at `now`.
    pub fn overdue(&mut self, now: f64) -> Vec<(i64, Entry<W>)> {
        self.entries.remove_picked(|entry| entry.deadline.is_some_and(|d| d.is_due(now)))
    }

    /// Removes and returns every request, in id order (the connection closed). Ids keep counting on.
    pub fn drain(&mut self) -> Vec<(i64, Entry<W>)> {
        self.entries.drain()
    }

    /// How many requests await an answer.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// How many requests of `method` are pending.
    pub fn count_of(&self, method: &str) -> usize {
        self.entries.values().filter(|entry| &*entry.method == method).count()
    }

    /// Whether no request awaits an answer.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
#[path = "pending_tests.rs"]
mod tests;
