//! The cancellation signal of one request: set when the client sends `notifications/cancelled` for it.
//!
//! The session drops a cancelled handler's future, which is what stops it. The signal is for work that outlives
//! that future: tasks the handler spawned, or cleanup that wants to know why it runs.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

/// A shared, set-once flag with wakers.
#[derive(Clone, Default)]
pub(crate) struct CancelSignal {
    inner: Rc<SignalInner>,
}

#[derive(Default)]
struct SignalInner {
    cancelled: Cell<bool>,
    wakers: RefCell<Vec<Waker>>,
}

impl CancelSignal {
    pub(crate) fn cancel(&self) {
        if self.inner.cancelled.replace(true) {
            return;
        }
        let wakers = std::mem::take(&mut *self.inner.wakers.borrow_mut());
        for waker in wakers {
            waker.wake();
        }
    }

    pub(crate) fn is_cancelled(&self) -> bool {
        self.inner.cancelled.get()
    }

    /// A future that completes once the signal is set.
    pub(crate) fn wait(&self) -> Cancelled {
        Cancelled { signal: self.clone() }
    }
}

/// Completes when the request is cancelled. See [`crate::Ctx::cancelled`].
#[must_use = "futures do nothing unless awaited"]
pub struct Cancelled {
    signal: CancelSignal,
}

impl std::fmt::Debug for Cancelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cancelled").field("cancelled", &self.signal.is_cancelled()).finish()
    }
}

impl Future for Cancelled {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.signal.is_cancelled() {
            return Poll::Ready(());
        }
        let mut wakers = self.signal.inner.wakers.borrow_mut();
        if !wakers.iter().any(|w| w.will_wake(cx.waker())) {
            wakers.push(cx.waker().clone());
        }
        Poll::Pending
    }
}
