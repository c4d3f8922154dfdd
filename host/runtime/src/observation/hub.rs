//! The ObservationManager: numbers events, keeps the last ones, and hands each to the subscribers whose filter
//! it passes.
//!
//! Delivery is in emission order for every subscriber, also when a subscriber's callback causes new events (they
//! are queued and delivered after the current one, to everyone). A subscriber added or removed during a delivery
//! takes effect at once. Replaying the history to a late subscriber counts as a delivery: what its callback causes
//! while it catches up is queued the same way, and delivered to everyone, the new subscriber included, once the
//! replay is over. No callback is ever called while the hub's state is borrowed, so a callback may use the hub
//! (and whatever emits to it) freely.
//!
//! A subscriber never holds up the others: callbacks should return quickly (the JavaScript API catches what a
//! callback throws and never waits for what it returns), and a [`super::EventStream`] has a bounded buffer that
//! drops its oldest events when its consumer falls behind.

use super::events::{EventBody, StatusEvent};
use super::filter::EventFilter;
use super::history::History;
use super::redact::Redactor;
use super::stream::{EventStream, StreamBuffer};
use mcp_worker_client::connection::Clock;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::fmt;
use std::rc::{Rc, Weak};

/// How many events are kept for late subscribers unless configured otherwise.
pub const DEFAULT_HISTORY: usize = 256;

/// A subscriber's callback.
pub type EventCallback = Rc<dyn Fn(&StatusEvent)>;

/// A subscription's handle, to end it with [`ObservationManager::unsubscribe`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SubscriptionId(u64);

#[derive(Clone)]
enum Sink {
    Callback(EventCallback),
    Stream(Rc<StreamBuffer>),
}

#[derive(Clone)]
struct Subscriber {
    id: SubscriptionId,
    filter: EventFilter,
    /// Events up to this one are not for this subscriber (emitted before it came, or replayed to it already).
    after_seq: u64,
    sink: Sink,
}

pub(crate) struct HubInner {
    clock: Clock,
    prefix: String,
    last_seq: Cell<u64>,
    history: RefCell<History>,
    subscribers: RefCell<Vec<Subscriber>>,
    next_id: Cell<u64>,
    queue: RefCell<VecDeque<Rc<StatusEvent>>>,
    delivering: Cell<bool>,
    redactor: Rc<Redactor>,
}

impl HubInner {
    pub(crate) fn remove(&self, id: SubscriptionId) -> bool {
        let mut subscribers = self.subscribers.borrow_mut();
        let before = subscribers.len();
        subscribers.retain(|s| s.id != id);
        subscribers.len() != before
    }

    fn is_subscribed(&self, id: SubscriptionId) -> bool {
        self.subscribers.borrow().iter().any(|s| s.id == id)
    }

    fn deliver(&self, event: &Rc<StatusEvent>) {
        let targets: Vec<Subscriber> = self
            .subscribers
            .borrow()
            .iter()
            .filter(|s| event.seq > s.after_seq && s.filter.matches(event))
            .cloned()
            .collect();
        for subscriber in targets {
            // One that an earlier callback unsubscribed gets nothing more.
            if !self.is_subscribed(subscriber.id) {
                continue;
            }
            match &subscriber.sink {
                Sink::Callback(callback) => callback(event),
                Sink::Stream(buffer) => buffer.push(event.clone()),
            }
        }
    }
}

impl Drop for HubInner {
    fn drop(&mut self) {
        // Wake outside the borrow: a waker is code of its own.
        let buffers: Vec<Rc<StreamBuffer>> = self
            .subscribers
            .get_mut()
            .drain(..)
            .filter_map(|subscriber| match subscriber.sink {
                Sink::Stream(buffer) => Some(buffer),
                Sink::Callback(_) => None,
            })
            .collect();
        for buffer in buffers {
            buffer.wake();
        }
    }
}

/// Resets the delivering flag even if a callback panics, so later events are still delivered.
struct Delivering<'a>(&'a Cell<bool>);

impl Drop for Delivering<'_> {
    fn drop(&mut self) {
        self.0.set(false);
    }
}

/// The status socket's hub. Cheap to clone; clones are the same hub.
#[derive(Clone)]
pub struct ObservationManager {
    inner: Rc<HubInner>,
}

impl fmt::Debug for ObservationManager {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ObservationManager")
            .field("last_seq", &self.inner.last_seq.get())
            .field("subscribers", &self.inner.subscribers.borrow().len())
            .field("history_capacity", &self.history_capacity())
            .finish()
    }
}

impl ObservationManager {
    /// A hub that stamps events with `clock` (ms since the epoch), names them `{id_prefix}-{seq}`, and keeps the
    /// last `history` of them. Give each runtime a unique prefix (a random UUID in the browser) so that ids stay
    /// unique in an agent's observation store across page loads.
    pub fn new(clock: Clock, id_prefix: impl Into<String>, history: usize) -> Self {
        let inner = HubInner {
            clock,
            prefix: id_prefix.into(),
            last_seq: Cell::new(0),
            history: RefCell::new(History::new(history)),
            subscribers: RefCell::new(Vec::new()),
            next_id: Cell::new(1),
            queue: RefCell::new(VecDeque::new()),
            delivering: Cell::new(false),
            redactor: Rc::new(Redactor::new()),
        };
        Self { inner: Rc::new(inner) }
    }

    pub(crate) fn from_inner(inner: Rc<HubInner>) -> Self {
        Self { inner }
    }

    pub(crate) fn downgrade(&self) -> Weak<HubInner> {
        Rc::downgrade(&self.inner)
    }

    /// The credential values scrubbed from every event.
    pub fn redactor(&self) -> &Rc<Redactor> {
        &self.inner.redactor
    }

    /// Publishes an event: scrubs it, numbers it, keeps it in the history and delivers it. Returns its `seq`.
    pub fn emit(&self, mut body: EventBody) -> u64 {
        let inner = &self.inner;
        if !inner.redactor.is_empty() {
            body.scrub_text(&|text: &mut String| inner.redactor.scrub(text));
        }
        let seq = inner.last_seq.get() + 1;
        inner.last_seq.set(seq);
        let event =
            Rc::new(StatusEvent { id: format!("{}-{seq}", inner.prefix), seq, timestamp: (inner.clock)(), body });
        inner.history.borrow_mut().push(event.clone());
        inner.queue.borrow_mut().push_back(event);
        self.delivering(|| ());
        seq
    }

    /// Runs `first`, then delivers the queued events, in order, unless a delivery is under way already: then only
    /// runs `first`, and the delivery under way delivers what `first` queued once `first` returns. Events emitted
    /// while `first` runs are thus queued, never delivered inside it.
    fn delivering<R>(&self, first: impl FnOnce() -> R) -> R {
        let inner = &self.inner;
        if inner.delivering.replace(true) {
            return first();
        }
        let _guard = Delivering(&inner.delivering);
        let result = first();
        loop {
            let next = inner.queue.borrow_mut().pop_front();
            let Some(event) = next else { break };
            inner.deliver(&event);
        }
        result
    }

    /// The `seq` of the last event emitted (0 before any).
    pub fn last_seq(&self) -> u64 {
        self.inner.last_seq.get()
    }

    /// Calls `callback` with every later event that passes `filter`.
    pub fn subscribe(&self, filter: EventFilter, callback: EventCallback) -> SubscriptionId {
        self.add(filter, self.last_seq(), Sink::Callback(callback))
    }

    /// Like [`Self::subscribe`], but first replays the kept events after `after_seq` (0: all kept) that pass the
    /// filter, oldest first, so a late subscriber catches up without a gap or a duplicate.
    ///
    /// The callback may cause events while it replays (disable a server on the first event it sees, say). They are
    /// not delivered inside the replay: they wait until the replay is over, and then go, in emission order and once
    /// each, to every subscriber that they pass, the new one included, which thus sees the kept events and then
    /// those. Called from inside a callback, the replay happens at once, and the events it causes join the delivery
    /// under way, after those already queued.
    pub fn subscribe_with_history(
        &self,
        filter: EventFilter,
        after_seq: u64,
        callback: EventCallback,
    ) -> SubscriptionId {
        let last = self.last_seq();
        let replay = self.inner.history.borrow().select(&filter, after_seq, None);
        self.delivering(|| {
            for event in &replay {
                callback(event);
            }
            self.add(filter, last, Sink::Callback(callback))
        })
    }

    /// Later events that pass `filter`, as a stream buffering at most `capacity` of them.
    pub fn stream(&self, filter: EventFilter, capacity: usize) -> EventStream {
        self.stream_after(filter, self.last_seq(), capacity)
    }

    /// Like [`Self::stream`], starting with the kept events after `after_seq` (0: all kept).
    pub fn stream_with_history(&self, filter: EventFilter, after_seq: u64, capacity: usize) -> EventStream {
        self.stream_after(filter, after_seq, capacity)
    }

    fn stream_after(&self, filter: EventFilter, after_seq: u64, capacity: usize) -> EventStream {
        let buffer = Rc::new(StreamBuffer::new(capacity));
        let last = self.last_seq();
        let replay = self.inner.history.borrow().select(&filter, after_seq, None);
        for event in replay {
            buffer.push(event);
        }
        let id = self.add(filter, last, Sink::Stream(buffer.clone()));
        EventStream { buffer, hub: Rc::downgrade(&self.inner), id }
    }

    fn add(&self, filter: EventFilter, after_seq: u64, sink: Sink) -> SubscriptionId {
        let id = SubscriptionId(self.inner.next_id.get());
        self.inner.next_id.set(id.0 + 1);
        self.inner.subscribers.borrow_mut().push(Subscriber { id, filter, after_seq, sink });
        id
    }

    /// Ends a subscription; true if it was active.
    pub fn unsubscribe(&self, id: SubscriptionId) -> bool {
        self.inner.remove(id)
    }

    /// How many subscriptions are active.
    pub fn subscriber_count(&self) -> usize {
        self.inner.subscribers.borrow().len()
    }

    /// The kept events that pass `filter`, oldest first; at most the newest `limit`.
    pub fn history(&self, filter: &EventFilter, limit: Option<usize>) -> Vec<StatusEvent> {
        self.inner.history.borrow().select(filter, 0, limit).into_iter().map(|e| (*e).clone()).collect()
    }

    /// How many events are kept.
    pub fn history_capacity(&self) -> usize {
        self.inner.history.borrow().capacity()
    }

    /// Keeps up to `capacity` events from now on (dropping the oldest that no longer fit).
    pub fn set_history_capacity(&self, capacity: usize) {
        self.inner.history.borrow_mut().set_capacity(capacity);
    }
}

#[cfg(test)]
#[path = "hub_tests.rs"]
mod tests;
