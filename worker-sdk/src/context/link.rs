//! What a handler's context reaches in its session.
//!
//! The session's state holds the registry, whose tools, resources and prompts are functions of a [`crate::Ctx`]; so the
//! context cannot name that state. The state implements this trait instead, and the context holds it as one.

use crate::credentials::Credential;
use crate::env::Env;
use crate::peer::Peer;
use std::any::Any;
use std::rc::Rc;

/// The session a request belongs to, as its context sees it.
pub(crate) trait Link {
    /// The environment the host connected the server with.
    fn env(&self) -> &Env;

    /// The credentials the server declared.
    fn credentials(&self) -> &[Credential];

    /// How long a request to the client waits by default.
    fn client_request_timeout_ms(&self) -> u32;

    /// The client.
    fn peer(&self) -> &Rc<Peer>;

    /// The session's state itself, for what sits above the registry ([`crate::ServerHandle`]) to recover it.
    fn into_any(self: Rc<Self>) -> Rc<dyn Any>;
}
