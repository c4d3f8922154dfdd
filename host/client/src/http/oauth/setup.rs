//! What an application gives for OAuth: its redirect page, its client (if registered beforehand), and the function
//! that has the user authorize (a popup, usually). Used by the browser transport.

use futures_util::future::LocalBoxFuture;
use std::rc::Rc;

/// Opens an authorization URL for the user and resolves to the query of the redirect page's URL (`code=…&state=…`).
pub type Authorize = Rc<dyn Fn(String) -> LocalBoxFuture<'static, Result<String, String>>>;

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
}

impl std::fmt::Debug for OAuthSetup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuthSetup")
            .field("redirect_uri", &self.redirect_uri)
            .field("client_id", &self.client_id)
            .field("client_metadata_url", &self.client_metadata_url)
            .finish_non_exhaustive()
    }
}
