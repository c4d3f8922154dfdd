//! Events as a `Stream`, with a bounded buffer: a consumer that falls behind loses the oldest events (and can see
//! how many), and never holds up the runtime or other subscribers.

use super::events::StatusEvent;
use super::hub::{HubInner, SubscriptionId};
use futures_util::Stream;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::fmt;
use std::pin::Pin;
use std::rc::{Rc, Weak};
use std::task::{Context, Poll, Waker};

/// What the hub and the stream share.
#[derive(Debug)]
pub(crate) struct StreamBuffer {
    state: RefCell<BufferState>,
}

#[derive(Debug)]
struct BufferState {
    queue: VecDeque<Rc<StatusEvent>>,
    capacity: usize,
    missed: u64,
    waker: Option<Waker>,
}

impl StreamBuffer {
    pub(crate) fn new(capacity: usize) -> Self {
        let state = BufferState { queue: VecDeque::new(), capacity: capacity.max(1), missed: 0, waker: None };
        Self { state: RefCell::new(state) }
    }

    /// Queues an event, dropping the oldest when full, and wakes the consumer.
    pub(crate) fn push(&self, event: Rc<StatusEvent>) {
        let waker = {
            let mut state = self.state.borrow_mut();
            if state.queue.len() >= state.capacity {
                state.queue.pop_front();
                state.missed += 1;
            }
            state.queue.push_back(event);
            state.waker.take()
        };
        if let Some(waker) = waker {
            waker.wake();
        }
    }

    /// Wakes the consumer so that it sees the end (the observation manager is going away).
    pub(crate) fn wake(&self) {
        let waker = self.state.borrow_mut().waker.take();
        if let Some(waker) = waker {
            waker.wake();
        }
    }
}

/// Status events as a [`Stream`]. Made by [`super::ObservationManager::stream`]; dropping it unsubscribes. It ends
/// when the observation manager is dropped.
pub struct EventStream {
    pub(crate) buffer: Rc<StreamBuffer>,
    pub(crate) hub: Weak<HubInner>,
    pub(crate) id: SubscriptionId,
}

impl fmt::Debug for EventStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EventStream").field("id", &self.id).field("missed", &self.missed()).finish()
    }
}

impl EventStream {
    /// How many events were dropped because the buffer was full when they came.
    pub fn missed(&self) -> u64 {
        self.buffer.state.borrow().missed
    }

    /// How many events wait to be taken.
    pub fn queued(&self) -> usize {
        self.buffer.state.borrow().queue.len()
    }
}

impl Stream for EventStream {
    type Item = Rc<StatusEvent>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let mut state = self.buffer.state.borrow_mut();
        if let Some(event) = state.queue.pop_front() {
            return Poll::Ready(Some(event));
        }
        if self.hub.strong_count() == 0 {
            return Poll::Ready(None);
        }
        state.waker = Some(cx.waker().clone());
        Poll::Pending
    }
}

impl Drop for EventStream {
    fn drop(&mut self) {
        if let Some(hub) = self.hub.upgrade() {
            hub.remove(self.id);
        }
    }
}
