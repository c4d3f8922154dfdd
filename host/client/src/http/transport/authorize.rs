//! OAuth 2.1 for a remote server, in the browser: what [`crate::http::oauth`] decides, done with `fetch`. On a 401
//! with a Bearer challenge (or a 403 asking for more scope), the transport finds the server's protected resource
//! metadata and its authorization server's metadata, registers (a configured client, a client ID metadata document,
//! or dynamic registration), has the user authorize through the application's `authorize` function (a popup that
//! comes back to the redirect page, usually), trades the code for tokens, and sends the request again with them.
//! Tokens live in the transport, for its session; they are refreshed before they expire.

use super::HttpTransport;
use super::fetching::read_text;
use crate::Error;
use crate::http::oauth::challenge::BearerChallenge;
use crate::http::oauth::discovery::{
    AuthorizationServerMetadata, ProtectedResourceMetadata, authorization_server_metadata_urls,
    protected_resource_metadata_urls, worth_trying_next,
};
use crate::http::oauth::pkce::{Pkce, STATE_RANDOM_BYTES, VERIFIER_RANDOM_BYTES, state_from_random};
use crate::http::oauth::registration::{
    ClientMetadata, ClientRegistration, Registration, choose_registration, parse_registration_response,
};
use crate::http::oauth::request::{AuthorizationRequest, Grant, token_request};
use crate::http::oauth::scope::{MAX_STEP_UPS, initial_scope, step_up};
use crate::http::oauth::setup::OAuthSetup;
use crate::http::oauth::tokens::Tokens;
use crate::http::oauth::{OAuthError, callback::authorization_code};
use wasm_bindgen::JsCast;

/// What an authorization left for later requests.
pub(super) struct Authorized {
    tokens: Tokens,
    server: AuthorizationServerMetadata,
    client: ClientRegistration,
    resource: String,
    scope: Option<String>,
    step_ups: u32,
}

impl HttpTransport {
    /// The `Authorization` header of the tokens the transport holds, refreshed first when they are about to expire.
    pub(super) async fn bearer(&self) -> Option<String> {
        let now = js_sys::Date::now() as u64;
        let due = self.authorized.borrow().as_ref().map(|a| a.tokens.needs_refresh(now, 30_000));
        if due == Some(true) {
            let _ = self.refresh().await;
        }
        self.authorized.borrow().as_ref().map(|a| a.tokens.authorization_header().to_string())
    }

    /// Runs the authorization after the server refused a request; `Ok` when the request may be sent again.
    pub(super) async fn authorize(&self, status: u16, challenge: Option<&str>) -> Result<(), Error> {
        let Some(setup) = self.oauth.clone() else {
            return Err(self.oauth_error("the server asks for authorization, and none is configured for it"));
        };
        let challenge = challenge.and_then(BearerChallenge::parse);
        let previous = self.authorized.borrow_mut().take();
        let (scope, step_ups) = match (&previous, status) {
            (Some(before), 403) => {
                let scope = step_up(challenge.as_ref(), before.scope.as_deref(), before.step_ups)
                    .map_err(|e| self.oauth_failure(&e))?;
                (Some(scope), before.step_ups + 1)
            }
            (Some(before), _) if before.step_ups >= MAX_STEP_UPS => {
                return Err(self.oauth_error("the server refused the tokens its authorization server issued"));
            }
            (Some(before), _) => (None, before.step_ups + 1),
            (None, _) => (None, 0),
        };
        let resource = self.resource_metadata(challenge.as_ref()).await?;
        let server = self.authorization_server(&resource).await?;
        let client = self.client(&setup, &server).await?;
        let scope = scope.or_else(|| initial_scope(challenge.as_ref(), &resource));
        let random = |n| random_bytes(n).ok_or_else(|| self.oauth_error("this browser has no crypto.getRandomValues"));
        let pkce = Pkce::from_random(&random(VERIFIER_RANDOM_BYTES)?).map_err(|e| self.oauth_failure(&e))?;
        let state = state_from_random(&random(STATE_RANDOM_BYTES)?).map_err(|e| self.oauth_failure(&e))?;
        let url = AuthorizationRequest {
            server: &server,
            client_id: &client.client_id,
            redirect_uri: &setup.redirect_uri,
            pkce: &pkce,
            state: &state,
            scope: scope.as_deref(),
            resource: &resource.resource,
        }
        .url()
        .map_err(|e| self.oauth_failure(&e))?;
        let query = (setup.authorize)(url).await.map_err(|reason| self.oauth_error(&reason))?;
        let query = query.trim_start_matches(|c| c != '?').trim_start_matches('?');
        let code = authorization_code(query, &state, &server).map_err(|e| self.oauth_failure(&e))?;
        let grant = Grant::AuthorizationCode { code: &code, redirect_uri: &setup.redirect_uri, pkce: &pkce };
        let tokens = self.tokens(&server, &client, grant, &resource.resource).await?;
        *self.authorized.borrow_mut() =
            Some(Authorized { tokens, server, client, resource: resource.resource, scope, step_ups });
        Ok(())
    }

    /// Trades the refresh token for new tokens; on failure the tokens are dropped (the next 401 authorizes again).
    async fn refresh(&self) -> Result<(), Error> {
        let Some(mut authorized) = self.authorized.borrow_mut().take() else { return Ok(()) };
        let Some(refresh) = authorized.tokens.refresh_token.clone() else { return Ok(()) };
        let grant = Grant::RefreshToken(&refresh);
        let tokens = self.tokens(&authorized.server, &authorized.client, grant, &authorized.resource).await?;
        authorized.tokens = tokens.after_refresh(&authorized.tokens);
        *self.authorized.borrow_mut() = Some(authorized);
        Ok(())
    }

    async fn resource_metadata(&self, challenge: Option<&BearerChallenge>) -> Result<ProtectedResourceMetadata, Error> {
        let urls = protected_resource_metadata_urls(&self.url, challenge).map_err(|e| self.oauth_failure(&e))?;
        let mut last = None;
        for url in urls {
            let (status, body) = self.get_json(&url).await?;
            if status == 200 {
                return ProtectedResourceMetadata::parse(&body, &self.url).map_err(|e| self.oauth_failure(&e));
            }
            last = Some(status);
            if !worth_trying_next(status) {
                break;
            }
        }
        let status = last.map_or_else(String::new, |s| format!(" (last: HTTP {s})"));
        Err(self.oauth_error(&format!("the server published no protected resource metadata{status}")))
    }

    async fn authorization_server(
        &self,
        resource: &ProtectedResourceMetadata,
    ) -> Result<AuthorizationServerMetadata, Error> {
        let Some(issuer) = resource.authorization_servers.first() else {
            return Err(self.oauth_error("the protected resource metadata names no authorization server"));
        };
        for url in authorization_server_metadata_urls(issuer).map_err(|e| self.oauth_failure(&e))? {
            let (status, body) = self.get_json(&url).await?;
            if status == 200 {
                return AuthorizationServerMetadata::parse(&body, issuer).map_err(|e| self.oauth_failure(&e));
            }
            if !worth_trying_next(status) {
                break;
            }
        }
        Err(self.oauth_error(&format!("the authorization server {issuer} published no metadata")))
    }

    async fn client(
        &self,
        setup: &OAuthSetup,
        server: &AuthorizationServerMetadata,
    ) -> Result<ClientRegistration, Error> {
        let registration = choose_registration(server, setup.client_id.is_some(), setup.client_metadata_url.as_deref())
            .map_err(|e| self.oauth_failure(&e))?;
        match registration {
            Registration::Configured => {
                Ok(ClientRegistration::new(setup.client_id.clone().unwrap_or_default(), setup.client_secret.clone()))
            }
            Registration::MetadataDocument(client) => Ok(client),
            Registration::Dynamic { endpoint } => {
                let metadata = ClientMetadata {
                    client_name: setup.client_name.clone(),
                    redirect_uris: vec![setup.redirect_uri.clone()],
                    client_uri: None,
                };
                let body = metadata.registration_request().map_err(|e| self.oauth_failure(&e))?;
                let headers =
                    [("Content-Type", "application/json".to_owned()), ("Accept", "application/json".to_owned())];
                let (status, answer) = self.plain("POST", &endpoint, &headers, Some(&body)).await?;
                parse_registration_response(status, &answer).map_err(|e| self.oauth_failure(&e))
            }
        }
    }

    async fn tokens(
        &self,
        server: &AuthorizationServerMetadata,
        client: &ClientRegistration,
        grant: Grant<'_>,
        resource: &str,
    ) -> Result<Tokens, Error> {
        let request = token_request(server, client, grant, resource).map_err(|e| self.oauth_failure(&e))?;
        let headers: Vec<(&'static str, String)> =
            request.headers().into_iter().map(|(name, value)| (name, value.to_owned())).collect();
        let (status, body) = self.plain("POST", &request.url, &headers, Some(&request.body)).await?;
        Tokens::parse(status, &body, js_sys::Date::now() as u64).map_err(|e| self.oauth_failure(&e))
    }

    async fn get_json(&self, url: &str) -> Result<(u16, String), Error> {
        self.plain("GET", url, &[("Accept", "application/json".to_owned())], None).await
    }

    /// A request to an authorization endpoint: none of the server's configured headers, never through redirects.
    async fn plain(
        &self,
        method: &str,
        url: &str,
        headers: &[(&'static str, String)],
        body: Option<&str>,
    ) -> Result<(u16, String), Error> {
        let response = self.fetch_plain(url, method, headers, body).await?;
        let status = response.status();
        let text = read_text(&response, 1 << 20).await.map_err(|reason| self.oauth_error(&reason))?;
        Ok((status, text))
    }

    fn oauth_failure(&self, error: &OAuthError) -> Error {
        self.oauth_error(&error.to_string())
    }

    fn oauth_error(&self, reason: &str) -> Error {
        Error::Unauthorized {
            server: self.server.clone(),
            status: 401,
            challenge: None,
            detail: Some(format!("authorization failed: {reason}")),
        }
    }
}

/// `n` random bytes from the browser's CSPRNG (`crypto.getRandomValues`); `None` where there is none.
fn random_bytes(n: usize) -> Option<Vec<u8>> {
    let array = js_sys::Uint8Array::new_with_length(u32::try_from(n).ok()?);
    let crypto = js_sys::Reflect::get(&js_sys::global(), &"crypto".into()).ok()?;
    let get = js_sys::Reflect::get(&crypto, &"getRandomValues".into()).ok()?;
    get.dyn_ref::<js_sys::Function>()?.call1(&crypto, &array).ok()?;
    Some(array.to_vec())
}
