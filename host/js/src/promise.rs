//! The promises the JavaScript API's async methods return.

use futures_util::future::LocalBoxFuture;
use js_sys::Promise;
use std::future::Future;
use wasm_bindgen::JsValue;

/// A promise settled with `future`'s result. The future is boxed, so that the code that runs a future and settles
/// its promise is compiled once, not once for every async method (wasm-bindgen's `future_to_promise` is generic over
/// the future).
pub(crate) fn promise(future: impl Future<Output = Result<JsValue, JsValue>> + 'static) -> Promise {
    let boxed: LocalBoxFuture<'static, Result<JsValue, JsValue>> = Box::pin(future);
    wasm_bindgen_futures::future_to_promise(boxed)
}
