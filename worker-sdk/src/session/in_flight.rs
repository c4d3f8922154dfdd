//! The requests a session is serving: each handler runs as a task of its own, which the client can cancel by id.

use super::{Session, Spawner};
use crate::cancel::CancelSignal;
use crate::peer::encode_reply;
use futures_util::future::{AbortHandle, Abortable, LocalBoxFuture};
use mcp_worker_protocol::id_map::IdMap;
use mcp_worker_protocol::jsonrpc::encode_result_text;
use mcp_worker_protocol::{ErrorObject, RequestId};
use std::cell::RefCell;
use std::future::Future;
use std::task::{Context, Poll, Waker};

struct Call {
    abort: AbortHandle,
    cancel: CancelSignal,
}

/// The requests being served, by id, and how their tasks run.
pub(super) struct InFlight {
    spawn: Spawner,
    calls: RefCell<IdMap<RequestId, Call>>,
}

impl InFlight {
    pub(super) fn new(spawn: Spawner) -> Self {
        Self { spawn, calls: RefCell::new(IdMap::new()) }
    }

    pub(super) fn len(&self) -> usize {
        self.calls.borrow().len()
    }

    pub(super) fn contains(&self, id: &RequestId) -> bool {
        self.calls.borrow().contains(id)
    }

    /// Stops the handler serving `id`; it sends no response. Unknown or finished ids are ignored.
    pub(super) fn cancel(&self, id: &RequestId) {
        let call = self.calls.borrow_mut().remove(id);
        if let Some(call) = call {
            call.cancel.cancel();
            call.abort.abort();
        }
    }
}

impl Session {
    /// Runs a handler's future concurrently with everything else, answering `id` when it completes, unless the
    /// client cancels the request first.
    pub(super) fn spawn_request<R, F>(&self, id: RequestId, cancel: CancelSignal, work: F)
    where
        R: serde::Serialize + 'static,
        F: Future<Output = Result<R, ErrorObject>> + 'static,
    {
        // Only the result's encoding depends on the handler: the task around it is compiled once.
        let reply_id = id.clone();
        let framed = Box::pin(async move { encode_reply(&reply_id, work.await) });
        self.spawn_framed(id, cancel, framed);
    }

    /// [`Session::spawn_request`] for work whose result is JSON text already (a modern result, written with what
    /// its era adds around it): the text goes into the frame as it is.
    pub(super) fn spawn_written<F>(&self, id: RequestId, cancel: CancelSignal, work: F)
    where
        F: Future<Output = Result<String, ErrorObject>> + 'static,
    {
        let reply_id = id.clone();
        let framed = Box::pin(async move { work.await.map(|result| encode_result_text(&reply_id, &result)) });
        self.spawn_framed(id, cancel, framed);
    }

    fn spawn_framed(
        &self,
        id: RequestId,
        cancel: CancelSignal,
        mut work: LocalBoxFuture<'static, Result<String, ErrorObject>>,
    ) {
        // Most handlers finish without waiting. Polled once here, they are answered within the message handler:
        // no task, no abort handle, no entry in the table of calls (nothing else runs meanwhile, so no cancellation
        // or request of the same id can come in between). A handler that waits is handed to the spawner, whose
        // first poll registers a real waker (nothing can be missed: a future re-checks its state on every poll).
        let mut first_poll = Context::from_waker(Waker::noop());
        if let Poll::Ready(frame) = work.as_mut().poll(&mut first_poll) {
            return self.state.peer.answer(&id, frame);
        }
        let (abort, registration) = AbortHandle::new_pair();
        self.in_flight.calls.borrow_mut().insert(id.clone(), Call { abort, cancel });
        let session = self.clone();
        (self.in_flight.spawn)(Box::pin(async move {
            // An aborted request (notifications/cancelled) sends nothing: the spec says no response.
            if let Ok(frame) = Abortable::new(work, registration).await {
                session.in_flight.calls.borrow_mut().remove(&id);
                session.state.peer.answer(&id, frame);
            }
        }));
    }
}
