//! What an application gives for OAuth: its redirect page, its client (if registered beforehand), and the function
//! that has the user authorize (a popup, usually); what the runtime adds: where tokens are kept between sessions.
//! And what the transport says when the user must act. Used by the browser transport.

use futures_util::future::LocalBoxFuture;
use serde::Serialize;
use std::rc::Rc;
use zeroize::Zeroizing;

/// Opens an authorization URL for the user and resolves to the query of the redirect page's URL (`code=…&state=…`).
pub type Authorize = Rc<dyn Fn(String) -> LocalBoxFuture<'static, Result<String, String>>>;

/// Where one server's authorization is kept between sessions: a [`super::saved::SavedAuthorization`] as JSON. The
/// runtime keeps it in the vault, bound to the server and its URL.
pub trait TokenStore {
    /// The record saved for this server, if there is one and it can be read now (a locked vault cannot).
    fn load(&self) -> LocalBoxFuture<'static, Option<Zeroizing<String>>>;
    /// Saves the record, or forgets it (`None`: the authorization is gone). Errors are the store's to report: the
    /// tokens stay in use for the session either way.
    fn save(&self, record: Option<Zeroizing<String>>) -> LocalBoxFuture<'static, ()>;
}

/// How a server's requests get authorized when it asks (a 401 with a Bearer challenge).
#[derive(Clone)]
pub struct OAuthSetup {
    /// The redirect page the authorization server sends the user back to.
    pub redirect_uri: String,
    /// A client registered beforehand with the authorization server, if any.
    pub client_id: Option<String>,
    /// Its secret, for a confidential client.
    pub client_secret: Option<String>,
    /// The URL of the app's client ID metadata document, if it has one.
    pub client_metadata_url: Option<String>,
    /// The name the authorization server shows the user.
    pub client_name: String,
    /// Has the user authorize.
    pub authorize: Authorize,
    /// Where tokens are kept between sessions; without one, they last as long as the transport.
    pub store: Option<Rc<dyn TokenStore>>,
}

impl OAuthSetup {
    /// This setup, keeping its tokens in `store`.
    #[must_use]
    pub fn with_store(mut self, store: Rc<dyn TokenStore>) -> Self {
        self.store = Some(store);
        self
    }
}

impl std::fmt::Debug for OAuthSetup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuthSetup")
            .field("redirect_uri", &self.redirect_uri)
            .field("client_id", &self.client_id)
            .field("client_metadata_url", &self.client_metadata_url)
            .field("store", &self.store.is_some())
            .finish_non_exhaustive()
    }
}

/// The user must act before a remote server can be used: sign in (again), or grant more. Sent before the
/// application's `authorize` is called, and when a server asks for authorization that none is configured for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AuthorizationRequired {
    /// The server's URL.
    pub url: String,
    /// Why the user must act.
    pub reason: AuthorizationReason,
    /// The authorization server the user signs in with, when it is known.
    pub authorization_server: Option<String>,
    /// The scope asked for, when there is one.
    pub scope: Option<String>,
    /// Whether the runtime can have the user authorize (an `oauth` option is configured): when true the
    /// application's `authorize` is being called; when false the server stays unusable until one is.
    pub can_authorize: bool,
}

impl AuthorizationRequired {
    /// The user must act for the server at `url`, for `reason`; `can_authorize` when the runtime is asking now.
    pub fn new(url: impl Into<String>, reason: AuthorizationReason, can_authorize: bool) -> Self {
        Self { url: url.into(), reason, authorization_server: None, scope: None, can_authorize }
    }
}

/// Why the user must act.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum AuthorizationReason {
    /// No authorization is kept for this server: a first sign-in.
    SignIn,
    /// The kept authorization stopped working (expired and could not be refreshed, or revoked): sign in again.
    Expired,
    /// The server needs a wider scope than was granted (a 403 `insufficient_scope`).
    InsufficientScope,
}

/// Runs when the user must act.
pub type OnAuthorizationRequired = Rc<dyn Fn(AuthorizationRequired)>;
