//! Work begun in the caller's turn of the event loop.
//!
//! `wasm_bindgen_futures::spawn_local` polls a future for the first time in a microtask, after the code that spawned
//! it has run. Work whose first steps need no wait (a request checked, encoded and handed to `fetch()`) does them at
//! once instead: the future is polled here, and only what is left, if anything, becomes a task. That first poll's
//! waker does nothing: the task polls the future again when it starts, and from then on the task's waker is the one
//! a future keeps, as every future must allow.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

/// Polls `future` once, now.
pub fn poll_now<F: Future + ?Sized>(future: Pin<&mut F>) -> Poll<F::Output> {
    future.poll(&mut Context::from_waker(Waker::noop()))
}

/// Runs `future` up to its first wait now, and the rest, if any, as a task of the page.
#[cfg(target_arch = "wasm32")]
pub fn spawn(future: impl Future<Output = ()> + 'static) {
    spawn_boxed(Box::pin(future));
}

/// [`spawn`] past the boxing, compiled once.
#[cfg(target_arch = "wasm32")]
fn spawn_boxed(mut future: Pin<Box<dyn Future<Output = ()>>>) {
    if poll_now(future.as_mut()).is_pending() {
        wasm_bindgen_futures::spawn_local(future);
    }
}
