//! The context a tool handler receives: its request, progress reporting, and the server's environment.

use crate::env::Env;
use crate::session::Outbound;
use mcp_worker_protocol::jsonrpc::{RequestId, encode_notification};
use mcp_worker_protocol::methods;
use mcp_worker_protocol::notifications::{ProgressParams, ProgressToken};
use std::cell::Cell;
use std::fmt;
use std::rc::Rc;

/// What a tool handler knows about the request it serves. Cheap to clone.
#[derive(Clone)]
pub struct Ctx {
    inner: Rc<CtxInner>,
}

struct CtxInner {
    request_id: RequestId,
    progress_token: Option<ProgressToken>,
    last_progress: Cell<Option<f64>>,
    env: Rc<Env>,
    out: Outbound,
}

impl fmt::Debug for Ctx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ctx")
            .field("request_id", &self.inner.request_id)
            .field("progress_token", &self.inner.progress_token)
            .finish_non_exhaustive()
    }
}

impl Ctx {
    pub(crate) fn new(
        request_id: RequestId,
        progress_token: Option<ProgressToken>,
        env: Rc<Env>,
        out: Outbound,
    ) -> Self {
        Self { inner: Rc::new(CtxInner { request_id, progress_token, last_progress: Cell::new(None), env, out }) }
    }

    /// The id of the request being served.
    pub fn request_id(&self) -> &RequestId {
        &self.inner.request_id
    }

    /// The environment the host provided (declared settings and credentials).
    pub fn env(&self) -> &Env {
        &self.inner.env
    }

    /// Whether the caller asked for progress (sent a `progressToken`).
    pub fn wants_progress(&self) -> bool {
        self.inner.progress_token.is_some()
    }

    /// Reports progress to the caller. Does nothing when the caller sent no progress token, and skips values
    /// that do not increase (the spec requires progress to increase).
    pub fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        let Some(token) = &self.inner.progress_token else { return };
        if self.inner.last_progress.get().is_some_and(|last| progress <= last) {
            return;
        }
        self.inner.last_progress.set(Some(progress));
        let mut params = ProgressParams::new(token.clone(), progress);
        params.total = total;
        params.message = message.map(str::to_owned);
        if let Ok(frame) = encode_notification(methods::PROGRESS, Some(&params)) {
            (self.inner.out)(frame);
        }
    }
}
