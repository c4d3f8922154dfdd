//! Aborting work with an `AbortSignal`: the work's future is dropped, which cancels what it was waiting for (an MCP
//! call sends `notifications/cancelled` to its server), and the promise rejects with an `AbortError`.

use super::convert::{JsFailure, property};
use futures_channel::oneshot;
use futures_util::future::{Either, select};
use std::future::Future;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::EventTarget;

/// The `signal` of an options object, if it has one.
pub(crate) fn signal_of(options: &JsValue) -> Result<Option<EventTarget>, JsFailure> {
    match property(options, "signal") {
        None => Ok(None),
        Some(signal) if signal.is_null() => Ok(None),
        Some(signal) => {
            let aborted = property(&signal, "aborted").and_then(|a| a.as_bool());
            match (signal.dyn_into::<EventTarget>(), aborted) {
                (Ok(target), Some(_)) => Ok(Some(target)),
                _ => Err(JsFailure::invalid("signal must be an AbortSignal")),
            }
        }
    }
}

/// Runs `work` until it ends or `signal` aborts, whichever comes first.
pub(crate) async fn abortable<T>(
    signal: Option<EventTarget>,
    what: &str,
    work: impl Future<Output = Result<T, JsFailure>>,
) -> Result<T, JsFailure> {
    let Some(signal) = signal else { return work.await };
    if property(&signal, "aborted").and_then(|a| a.as_bool()) == Some(true) {
        return Err(JsFailure::aborted(what));
    }
    let (tx, rx) = oneshot::channel::<()>();
    let mut tx = Some(tx);
    let listener = Closure::<dyn FnMut()>::new(move || {
        if let Some(tx) = tx.take() {
            let _ = tx.send(());
        }
    });
    let function: &js_sys::Function = listener.as_ref().unchecked_ref();
    let _ = signal.add_event_listener_with_callback("abort", function);
    let work = std::pin::pin!(work);
    let outcome = match select(work, rx).await {
        Either::Left((outcome, _)) => outcome,
        // Dropping `work` here cancels it.
        Either::Right(_) => Err(JsFailure::aborted(what)),
    };
    let _ = signal.remove_event_listener_with_callback("abort", function);
    outcome
}
