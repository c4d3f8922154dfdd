//! The promises the JavaScript API's async methods return.

use futures_util::future::LocalBoxFuture;
use js_sys::Promise;
use std::future::Future;
use std::task::Poll;
use wasm_bindgen::JsValue;

/// A promise settled with `future`'s result. The future is boxed, so that the code that runs a future and settles
/// its promise is compiled once, not once for every async method (wasm-bindgen's `future_to_promise` is generic over
/// the future).
pub(crate) fn promise(future: impl Future<Output = Result<JsValue, JsValue>> + 'static) -> Promise {
    let boxed: LocalBoxFuture<'static, Result<JsValue, JsValue>> = Box::pin(future);
    wasm_bindgen_futures::future_to_promise(boxed)
}

/// [`promise`] for a method whose first steps need no wait: they run now, before the method returns, rather than in
/// a microtask after the caller's code (for a tool call, up to its request handed to the transport).
pub(crate) fn started_promise(future: impl Future<Output = Result<JsValue, JsValue>> + 'static) -> Promise {
    let mut boxed: LocalBoxFuture<'static, Result<JsValue, JsValue>> = Box::pin(future);
    match mcp_worker_client::started::poll_now(boxed.as_mut()) {
        Poll::Ready(Ok(value)) => Promise::resolve(&value),
        Poll::Ready(Err(error)) => Promise::reject(&error),
        Poll::Pending => wasm_bindgen_futures::future_to_promise(boxed),
    }
}
