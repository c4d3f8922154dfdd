//! Running work in a later task of the page's event loop.
//!
//! Work done in one task holds the page for all of it: no input, timer or rendering happens until it ends (and an
//! `await` that is already ready does not end it: futures run as microtasks). The host splits the handling of a large
//! frame (copying it into wasm, reading its envelope, decoding a listing) into tasks of its own, so that the page's
//! longest stall is the longest of them, not their sum.
//!
//! The later task is a timer of 1 ms: the browser runs what fell due before it first, the page's own timers included.
//! (A message posted to a `MessageChannel`, or a `setTimeout(0)`, which Chromium posts as an immediate task, would come
//! sooner, but ahead of the timers that fell due meanwhile: the page's timers would still wait for all of the work. A
//! large frame costs tens of milliseconds to handle; the millisecond is a small part of it.) Outside the browser
//! (native tests), work runs at once.

/// Runs `work` in a later task of the page's event loop.
#[cfg(target_arch = "wasm32")]
pub fn later(work: impl FnOnce() + 'static) {
    let work: Box<dyn FnOnce()> = Box::new(work);
    gloo_timers::callback::Timeout::new(1, work).forget();
}

/// Runs `work` now: outside the browser there is no page to keep responsive.
#[cfg(not(target_arch = "wasm32"))]
pub fn later(work: impl FnOnce() + 'static) {
    work();
}

/// Resolves in a later task of the page's event loop, after what the browser had queued (at once outside it).
pub async fn next_task() {
    let (done, wait) = futures_channel::oneshot::channel();
    later(move || {
        let _ = done.send(());
    });
    let _ = wait.await;
}
