//! A remote server's OAuth, as the manager runs it: the application's setup with the server's tokens kept by the
//! credential source (the vault), bound to the URL the server's config names; the `authorizationRequired` event when
//! the user must act; and the `needs_authorization` status of a server that could not start without them. Such a
//! server is not restarted on a timer (each start could open a sign-in window): the next use or reconnect starts it.

use super::{Inner, ManagerEvent};
use crate::config::ServerConfig;
use crate::credentials::{Secret, ServerIdentity};
use crate::manager::CredentialSource;
use futures_util::future::LocalBoxFuture;
use mcp_worker_client::http::oauth::setup::{AuthorizationRequired, OAuthSetup, OnAuthorizationRequired, TokenStore};
use std::rc::Rc;
use zeroize::Zeroizing;

/// One server's tokens in the credential source.
struct SourceTokenStore {
    source: Rc<dyn CredentialSource>,
    server: String,
    identity: ServerIdentity,
}

impl TokenStore for SourceTokenStore {
    fn load(&self) -> LocalBoxFuture<'static, Option<Zeroizing<String>>> {
        let loading = self.source.saved_authorization(&self.server, &self.identity);
        Box::pin(async move { loading.await.map(|record| Zeroizing::new(record.expose().to_owned())) })
    }

    fn save(&self, record: Option<Zeroizing<String>>) -> LocalBoxFuture<'static, ()> {
        let record = record.map(|record| Secret::new(record.as_str()));
        let saving = self.source.save_authorization(&self.server, &self.identity, record);
        // A source that cannot keep them (a locked vault): the tokens last for the session.
        Box::pin(async move {
            let _ = saving.await;
        })
    }
}

impl Inner {
    /// The application's OAuth setup for `name`, its tokens kept by the credential source if there is one.
    pub(super) fn oauth_setup(&self, name: &str, config: &ServerConfig) -> Option<OAuthSetup> {
        let setup = self.options.oauth.clone()?;
        let Some(source) = self.credentials.borrow().clone() else { return Some(setup) };
        let store = SourceTokenStore { source, server: name.to_owned(), identity: config.transport.identity() };
        Some(setup.with_store(Rc::new(store)))
    }

    /// `name` could not start without an authorization the user did not give (or that failed): it waits in
    /// `needs_authorization` for its next use, with no restart on a timer.
    pub(super) fn needs_authorization(&self, name: &str, generation: u64, error: &crate::Error) {
        let waiting = self.current(name, generation, |slot| {
            slot.starting = None;
            slot.client = None;
            slot.health.needs_authorization(error.to_string());
        });
        if waiting.is_some() {
            self.emit_status(name);
        }
    }

    /// Tells the application (an `AuthorizationRequired` event) when `name`'s user must act.
    pub(super) fn authorization_hook(self: &Rc<Self>, name: &str) -> OnAuthorizationRequired {
        let weak = Rc::downgrade(self);
        let server = name.to_owned();
        Rc::new(move |required: AuthorizationRequired| {
            if let Some(inner) = weak.upgrade()
                && inner.slots.borrow().contains_key(&server)
            {
                inner.events.emit(&ManagerEvent::AuthorizationRequired { server: server.clone(), required });
            }
        })
    }
}
