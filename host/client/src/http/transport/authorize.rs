//! OAuth 2.1 for a remote server, in the browser: what [`crate::http::oauth`] decides, done with `fetch`. On a 401
//! with a Bearer challenge (or a 403 asking for more scope), the transport finds the server's protected resource
//! metadata and its authorization server's metadata, registers (a configured client, a client ID metadata document,
//! or dynamic registration), has the user authorize through the application's `authorize` function (a popup that
//! comes back to the redirect page, usually), trades the code for tokens, and sends the request again with them.
//!
//! Tokens are refreshed before they expire, and after a 401 when there is a refresh token. They are kept in the
//! setup's store (the vault, for the runtime) and restored by the next session of the same URL. Requests refused
//! together lead to one sign-in: the first takes the lock; the others find new tokens when they get it. Before the
//! user is asked, [`AuthorizationRequired`] says so.

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
use crate::http::oauth::saved::SavedAuthorization;
use crate::http::oauth::scope::{MAX_STEP_UPS, initial_scope, step_up};
use crate::http::oauth::setup::{AuthorizationReason, AuthorizationRequired, OAuthSetup, OnAuthorizationRequired};
use crate::http::oauth::tokens::Tokens;
use crate::http::oauth::{OAuthError, callback::authorization_code};
use futures_util::future::LocalBoxFuture;
use futures_util::lock::Mutex;
use std::cell::{Cell, RefCell};
use wasm_bindgen::JsCast;

/// Refresh this long before the access token expires.
const REFRESH_MARGIN_MS: u64 = 30_000;

/// The transport's authorization: the tokens in use and what happened to them.
#[derive(Default)]
pub(super) struct AuthState {
    current: RefCell<Option<Authorized>>,
    /// Counts changes of the tokens in use: a request refused with older tokens than these is sent again as is.
    generation: Cell<u64>,
    /// An authorization was held and is gone: the next sign-in is a sign-in again.
    lost: Cell<bool>,
    /// Held while tokens are being obtained (a sign-in, a refresh).
    busy: Mutex<()>,
    /// Told when the user must act.
    on_required: Option<OnAuthorizationRequired>,
    /// Whether a server that asks for authorization, with none configured, was reported.
    told_unconfigured: Cell<bool>,
}

impl AuthState {
    /// No tokens yet; `on_required` is told when the user must act.
    pub(super) fn new(on_required: Option<OnAuthorizationRequired>) -> Self {
        Self { on_required, ..Self::default() }
    }

    /// Which tokens a request sent now carries; give it to [`HttpTransport::authorize`] if the request is refused.
    pub(super) fn generation(&self) -> u64 {
        self.generation.get()
    }

    fn replace(&self, authorized: Option<Authorized>) {
        if authorized.is_none() && self.current.borrow().is_some() {
            self.lost.set(true);
        }
        *self.current.borrow_mut() = authorized;
        self.generation.set(self.generation.get() + 1);
    }
}

/// The authorization in use.
struct Authorized {
    saved: SavedAuthorization,
    /// Sign-ins in a row that the server refused.
    step_ups: u32,
    /// These tokens come from a refresh made because the server refused the previous ones: if it refuses these too,
    /// the user signs in again.
    refreshed_after_refusal: bool,
}

impl HttpTransport {
    /// Takes up the authorization a previous session kept for this URL, if the store has one.
    pub(super) async fn restore_authorization(&self) {
        let Some(store) = self.oauth.as_ref().and_then(|setup| setup.store.clone()) else { return };
        let Some(record) = store.load().await else { return };
        if let Ok(saved) = SavedAuthorization::from_json(&record, &self.url) {
            let authorized = Authorized { saved, step_ups: 0, refreshed_after_refusal: false };
            self.auth.replace(Some(authorized));
        }
    }

    /// The `Authorization` header of the tokens in use, refreshed first when they are about to expire.
    pub(super) async fn bearer(&self) -> Option<String> {
        let now = js_sys::Date::now() as u64;
        let due = self.auth.current.borrow().as_ref().map(|a| a.saved.tokens.needs_refresh(now, REFRESH_MARGIN_MS));
        if due == Some(true) {
            let generation = self.auth.generation();
            let _busy = self.auth.busy.lock().await;
            // Another request may have refreshed them meanwhile.
            if self.auth.generation() == generation {
                self.refresh(false).await;
            }
        }
        self.current_bearer()
    }

    /// The `Authorization` header of the tokens in use, as they are (no refresh).
    pub(super) fn current_bearer(&self) -> Option<String> {
        self.auth.current.borrow().as_ref().map(|a| a.saved.tokens.authorization_header().to_string())
    }

    /// A request sent with the tokens of `sent_with` (an [`AuthState::generation`]) was refused with `status` and
    /// `challenge`: obtains tokens it may be sent again with. `Ok` when it may be.
    /// Boxed: compiled once, not into each request that may be refused.
    pub(super) fn authorize<'a>(
        &'a self,
        sent_with: u64,
        status: u16,
        challenge: Option<&'a str>,
    ) -> LocalBoxFuture<'a, Result<(), Error>> {
        Box::pin(self.authorize_unboxed(sent_with, status, challenge))
    }

    async fn authorize_unboxed(&self, sent_with: u64, status: u16, challenge: Option<&str>) -> Result<(), Error> {
        let Some(setup) = self.oauth.clone() else {
            return Err(self.oauth_error("the server asks for authorization, and none is configured for it"));
        };
        let _busy = self.auth.busy.lock().await;
        if self.auth.generation() != sent_with {
            // Signed in (or refreshed) since the request went out: it goes again with the new tokens.
            return Ok(());
        }
        let refreshable = self
            .auth
            .current
            .borrow()
            .as_ref()
            .is_some_and(|a| a.saved.tokens.refresh_token.is_some() && !a.refreshed_after_refusal);
        if status == 401 && refreshable && self.refresh(true).await {
            return Ok(());
        }
        self.sign_in(&setup, status, challenge).await
    }

    /// Has the user authorize, and keeps the tokens.
    async fn sign_in(&self, setup: &OAuthSetup, status: u16, challenge: Option<&str>) -> Result<(), Error> {
        let challenge = challenge.and_then(BearerChallenge::parse);
        let previous = self.auth.current.borrow_mut().take();
        let lost = previous.is_some() || self.auth.lost.get();
        let (scope, step_ups, reason) = match (&previous, status) {
            (Some(before), 403) => {
                let scope = step_up(challenge.as_ref(), before.saved.scope.as_deref(), before.step_ups)
                    .map_err(|e| self.oauth_failure(&e))?;
                (Some(scope), before.step_ups + 1, AuthorizationReason::InsufficientScope)
            }
            (Some(before), _) if before.step_ups >= MAX_STEP_UPS => {
                return Err(self.oauth_error("the server refused the tokens its authorization server issued"));
            }
            (Some(before), _) => (None, before.step_ups + 1, AuthorizationReason::Expired),
            (None, _) if lost => (None, 0, AuthorizationReason::Expired),
            (None, _) => (None, 0, AuthorizationReason::SignIn),
        };
        if previous.is_some() {
            self.auth.lost.set(true);
        }
        let resource = self.resource_metadata(challenge.as_ref()).await?;
        let server = self.authorization_server(&resource).await?;
        let client = self.client(setup, &server).await?;
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
        self.tell_required(reason, Some(server.issuer.clone()), scope.clone(), true);
        let query = (setup.authorize)(url).await.map_err(|reason| self.oauth_error(&reason))?;
        let query = query.trim_start_matches(|c| c != '?').trim_start_matches('?');
        let code = authorization_code(query, &state, &server).map_err(|e| self.oauth_failure(&e))?;
        let grant = Grant::AuthorizationCode { code: &code, redirect_uri: &setup.redirect_uri, pkce: &pkce };
        let tokens = self.tokens(&server, &client, grant, &resource.resource).await?;
        let saved = SavedAuthorization {
            server_url: self.url.clone(),
            resource: resource.resource,
            scope,
            server,
            client,
            tokens,
        };
        self.keep(Authorized { saved, step_ups, refreshed_after_refusal: false }).await;
        Ok(())
    }

    /// Trades the refresh token for new tokens (`after_refusal`: because the server refused the ones in use);
    /// whether it did. Tokens the authorization server will not refresh any more are dropped (and forgotten by the
    /// store); tokens that could not be refreshed for another reason (the network) are kept while they are valid.
    /// Boxed: compiled once for its two callers (a request's bearer, a refused request).
    fn refresh(&self, after_refusal: bool) -> LocalBoxFuture<'_, bool> {
        Box::pin(self.refresh_unboxed(after_refusal))
    }

    async fn refresh_unboxed(&self, after_refusal: bool) -> bool {
        let Some((saved, step_ups)) = self.auth.current.borrow().as_ref().map(|a| (a.saved.clone(), a.step_ups)) else {
            return false;
        };
        let Some(refresh) = saved.tokens.refresh_token.clone() else { return false };
        let grant = Grant::RefreshToken(&refresh);
        match self.token_answer(&saved.server, &saved.client, grant, &saved.resource).await {
            Ok(tokens) => {
                let tokens = tokens.after_refresh(&saved.tokens);
                let saved = SavedAuthorization { tokens, ..saved };
                self.keep(Authorized { saved, step_ups, refreshed_after_refusal: after_refusal }).await;
                true
            }
            Err(error) => {
                let expired = saved.tokens.needs_refresh(js_sys::Date::now() as u64, 0);
                if after_refusal || expired || matches!(&error, Ok(e) if e.requires_sign_in()) {
                    self.auth.replace(None);
                    self.forget().await;
                }
                false
            }
        }
    }

    /// Puts `authorized` in use and saves it.
    async fn keep(&self, authorized: Authorized) {
        let record = authorized.saved.to_json();
        self.auth.replace(Some(authorized));
        if let Some(store) = self.oauth.as_ref().and_then(|setup| setup.store.clone()) {
            store.save(Some(record)).await;
        }
    }

    async fn forget(&self) {
        if let Some(store) = self.oauth.as_ref().and_then(|setup| setup.store.clone()) {
            store.save(None).await;
        }
    }

    /// A server asked for authorization that none is configured for: reported once for the transport.
    pub(super) fn tell_unconfigured(&self) {
        if !self.auth.told_unconfigured.replace(true) {
            self.tell_required(AuthorizationReason::SignIn, None, None, false);
        }
    }

    fn tell_required(
        &self,
        reason: AuthorizationReason,
        authorization_server: Option<String>,
        scope: Option<String>,
        can_authorize: bool,
    ) {
        if let Some(hook) = &self.auth.on_required {
            hook(AuthorizationRequired { url: self.url.clone(), reason, authorization_server, scope, can_authorize });
        }
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
        match self.token_answer(server, client, grant, resource).await {
            Ok(tokens) => Ok(tokens),
            Err(Ok(refused)) => Err(self.oauth_failure(&refused)),
            Err(Err(error)) => Err(error),
        }
    }

    /// The token endpoint's answer: tokens, or what it said (`Ok`), or why it could not be asked (`Err`).
    async fn token_answer(
        &self,
        server: &AuthorizationServerMetadata,
        client: &ClientRegistration,
        grant: Grant<'_>,
        resource: &str,
    ) -> Result<Tokens, Result<OAuthError, Error>> {
        let request = token_request(server, client, grant, resource).map_err(Ok)?;
        let headers: Vec<(&'static str, String)> =
            request.headers().into_iter().map(|(name, value)| (name, value.to_owned())).collect();
        let (status, body) = self.plain("POST", &request.url, &headers, Some(&request.body)).await.map_err(Err)?;
        Tokens::parse(status, &body, js_sys::Date::now() as u64).map_err(Ok)
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
