//! Requests to the client (`elicitation/create`, `sampling/createMessage`, `roots/list`), kept in the protocol's
//! table of requests in flight ([`PendingTable`], shared with the host) with a channel waiting for each answer.
//!
//! A request to the client is sent only when the client declared the capability it needs. Its answer arrives
//! through [`crate::Session::handle`] and is delivered by id. It fails with [`Error::Timeout`] after the timeout
//! (and the client is told with `notifications/cancelled`); a handler that stops waiting (its own request was
//! cancelled) also tells the client.

use super::Peer;
use crate::error::Error;
use futures_channel::oneshot;
use futures_util::future::{Either, select};
use mcp_worker_protocol::jsonrpc::{Response, encode_request};
use mcp_worker_protocol::pending::{PendingTable, cancel_notice};
use mcp_worker_protocol::{ErrorObject, RequestId, methods};
use serde_json::value::RawValue;
use std::cell::RefCell;
use std::rc::Rc;

type Reply = oneshot::Sender<Result<Box<RawValue>, ErrorObject>>;

/// Requests sent to the client and not yet answered. They carry no deadline: each request races its own timer.
#[derive(Default)]
pub(crate) struct Outgoing {
    table: RefCell<PendingTable<Reply>>,
}

impl Outgoing {
    /// Hands a response to the request waiting for it. A response nobody waits for (late, or bogus) is dropped.
    pub(crate) fn deliver(&self, response: Response) {
        let taken = self.table.borrow_mut().take_response(&response.id);
        if let Some(entry) = taken {
            let _ = entry.waiter.send(response.outcome);
        }
    }

    /// How many requests to the client await an answer.
    pub(crate) fn pending(&self) -> usize {
        self.table.borrow().len()
    }
}

/// The capability a server-to-client method needs, and whether the client declared it.
fn check_capability(peer: &Peer, method: &str) -> Result<(), Error> {
    let client = peer.capabilities.borrow();
    let caps = client.as_ref();
    let (capability, declared) = match method {
        methods::SAMPLING_CREATE_MESSAGE => ("sampling", caps.is_some_and(|c| c.sampling.is_some())),
        // `{}` means form mode (the only mode before 2025-11-25); otherwise `form` must be listed.
        methods::ELICITATION_CREATE => (
            "elicitation.form",
            caps.and_then(|c| c.elicitation.as_ref()).is_some_and(|e| e.is_empty() || e.contains_key("form")),
        ),
        methods::ROOTS_LIST => ("roots", caps.is_some_and(|c| c.roots.is_some())),
        _ => return Ok(()),
    };
    if declared {
        Ok(())
    } else {
        Err(Error::CapabilityMissing { method: method.to_owned(), capability: capability.to_owned() })
    }
}

/// Removes a request from the pending table if it is still there, and tells the client to stop working on it.
/// Runs when the waiting future is dropped, so that an abandoned request never lingers.
struct PendingGuard {
    peer: Rc<Peer>,
    id: i64,
    reason: String,
}

impl Drop for PendingGuard {
    fn drop(&mut self) {
        let removed = self.peer.outgoing.table.borrow_mut().remove(self.id);
        let notice = removed.and_then(|entry| cancel_notice(self.id, &entry.method, &self.reason));
        if let Some(frame) = notice {
            self.peer.send(frame);
        }
    }
}

/// Sends `method` to the client and waits for its result, for at most `timeout_ms` (when the session has a timer).
/// Not generic: the caller writes the params and reads the result (see `Ctx::request_as`).
pub(crate) async fn request(
    peer: &Rc<Peer>,
    method: &str,
    params: Option<&serde_json::Value>,
    timeout_ms: u32,
) -> Result<Box<RawValue>, Error> {
    check_capability(peer, method)?;
    let id = peer.outgoing.table.borrow_mut().next_id();
    let frame = encode_request(&RequestId::Number(id), method, params)
        .map_err(|e| Error::InvalidResponse { method: method.to_owned(), reason: format!("params: {e}") })?;
    let (reply, answer) = oneshot::channel();
    peer.outgoing.table.borrow_mut().insert(id, method, None, reply);
    let mut guard = PendingGuard { peer: peer.clone(), id, reason: "the server stopped waiting".into() };
    peer.send(frame);

    let outcome = match peer.timer(timeout_ms) {
        Some(timer) => match select(answer, timer).await {
            Either::Left((outcome, _)) => Some(outcome),
            Either::Right(((), _)) => None,
        },
        None => Some(answer.await),
    };
    match outcome {
        Some(Ok(Ok(raw))) => Ok(raw),
        Some(Ok(Err(error))) => Err(Error::Rpc { method: method.to_owned(), error }),
        // The session dropped the pending table: it is over.
        Some(Err(oneshot::Canceled)) => Err(Error::Closed),
        None => {
            guard.reason = format!("timed out after {timeout_ms} ms");
            drop(guard);
            Err(Error::Timeout { method: method.to_owned(), ms: timeout_ms })
        }
    }
}
