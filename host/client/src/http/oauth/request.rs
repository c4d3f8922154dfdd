//! The two requests of the authorization code flow: the authorization URL the user opens (RFC 6749 §4.1.1 with PKCE
//! and RFC 8707's `resource`), and the token request (§4.1.3 and §6), authenticated as the client can (§2.3.1).

use std::fmt;

use zeroize::Zeroizing;

use super::OAuthError;
use super::discovery::AuthorizationServerMetadata;
use super::encoding::{base64, form_body, form_encode};
use super::pkce::{self, Pkce};
use super::registration::ClientRegistration;
use super::url::parse_secure_url;

/// `Content-Type` of a token request.
pub const FORM_CONTENT_TYPE: &str = "application/x-www-form-urlencoded";

/// What goes into the authorization URL.
#[derive(Debug, Clone, Copy)]
pub struct AuthorizationRequest<'a> {
    /// The authorization server's metadata (its `authorization_endpoint`).
    pub server: &'a AuthorizationServerMetadata,
    /// The client ID.
    pub client_id: &'a str,
    /// The redirect page: https, or http on localhost.
    pub redirect_uri: &'a str,
    /// The PKCE pair of this attempt (its challenge is sent).
    pub pkce: &'a Pkce,
    /// The state of this attempt.
    pub state: &'a str,
    /// The scope to ask for (see [`scope`](super::scope)); none omits the parameter.
    pub scope: Option<&'a str>,
    /// The resource: the protected resource metadata's `resource`, as published.
    pub resource: &'a str,
}

impl AuthorizationRequest<'_> {
    /// The URL to open: the authorization endpoint (keeping any query it has, RFC 6749 §3.1) with `response_type=code`,
    /// `client_id`, `redirect_uri`, `code_challenge`, `code_challenge_method=S256`, `state`, `scope` when chosen and
    /// `resource`.
    pub fn url(&self) -> Result<String, OAuthError> {
        parse_secure_url("redirect page", self.redirect_uri)?;
        let endpoint = &self.server.authorization_endpoint;
        let mut pairs = vec![
            ("response_type", "code"),
            ("client_id", self.client_id),
            ("redirect_uri", self.redirect_uri),
            ("code_challenge", self.pkce.challenge()),
            ("code_challenge_method", pkce::METHOD),
            ("state", self.state),
        ];
        if let Some(scope) = self.scope.filter(|s| !s.trim().is_empty()) {
            pairs.push(("scope", scope));
        }
        pairs.push(("resource", self.resource));
        let separator = match endpoint.split_once('?') {
            None => "?",
            Some((_, "")) => "",
            Some((_, query)) if query.ends_with('&') => "",
            Some(_) => "&",
        };
        Ok(format!("{endpoint}{separator}{}", form_body(&pairs)))
    }
}

/// What a token request trades for tokens.
#[derive(Clone, Copy)]
pub enum Grant<'a> {
    /// The code the redirect brought, with the PKCE verifier and the redirect URI of that authorization.
    AuthorizationCode {
        /// The code.
        code: &'a str,
        /// The redirect URI sent in the authorization URL.
        redirect_uri: &'a str,
        /// The PKCE pair of that authorization (its verifier is sent).
        pkce: &'a Pkce,
    },
    /// A refresh token.
    RefreshToken(&'a str),
}

impl fmt::Debug for Grant<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::AuthorizationCode { redirect_uri, .. } => {
                f.debug_struct("AuthorizationCode").field("redirect_uri", redirect_uri).finish_non_exhaustive()
            }
            Self::RefreshToken(_) => f.write_str("RefreshToken(<redacted>)"),
        }
    }
}

/// How the client authenticates at the token endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientAuth {
    /// A public client: only `client_id`, in the body.
    None,
    /// `Authorization: Basic` with the form-encoded ID and secret (RFC 6749 §2.3.1).
    SecretBasic,
    /// `client_id` and `client_secret` in the body.
    SecretPost,
}

/// How `client` authenticates at a server that supports `supported` (its `token_endpoint_auth_methods_supported`):
/// without a secret, not at all; with one, the method the registration named if it is one of the three, else
/// Basic when the server lists it (or lists nothing: Basic is then the default), else the body.
pub fn client_auth(client: &ClientRegistration, supported: Option<&[String]>) -> ClientAuth {
    if client.client_secret.is_none() {
        return ClientAuth::None;
    }
    match client.token_endpoint_auth_method.as_deref() {
        Some("client_secret_basic") => return ClientAuth::SecretBasic,
        Some("client_secret_post") => return ClientAuth::SecretPost,
        Some("none") => return ClientAuth::None,
        _ => {}
    }
    let lists = |method: &str| supported.is_some_and(|methods| methods.iter().any(|m| m == method));
    if supported.is_none() || lists("client_secret_basic") {
        ClientAuth::SecretBasic
    } else if lists("client_secret_post") {
        ClientAuth::SecretPost
    } else {
        ClientAuth::None
    }
}

/// A POST to the token endpoint. The body and the `Authorization` header hold secrets: they are zeroed when dropped
/// and never shown by `Debug`.
#[derive(Clone, PartialEq, Eq)]
pub struct TokenRequest {
    /// The token endpoint.
    pub url: String,
    /// The form body.
    pub body: Zeroizing<String>,
    /// `Authorization: Basic …`, for `client_secret_basic`.
    pub authorization: Option<Zeroizing<String>>,
}

impl TokenRequest {
    /// The headers to send: `Content-Type`, `Accept`, and `Authorization` when the client authenticates with it.
    pub fn headers(&self) -> Vec<(&'static str, &str)> {
        let mut headers = vec![("Content-Type", FORM_CONTENT_TYPE), ("Accept", "application/json")];
        if let Some(authorization) = &self.authorization {
            headers.push(("Authorization", authorization.as_str()));
        }
        headers
    }
}

impl fmt::Debug for TokenRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TokenRequest")
            .field("url", &self.url)
            .field("body", &"<redacted>")
            .field("authorization", &self.authorization.as_ref().map(|_| "<redacted>"))
            .finish()
    }
}

/// The token request for `grant`, for `resource` (the protected resource metadata's `resource`, as published: the
/// same value as in the authorization URL), authenticated as [`client_auth`] decides.
pub fn token_request(
    server: &AuthorizationServerMetadata,
    client: &ClientRegistration,
    grant: Grant<'_>,
    resource: &str,
) -> Result<TokenRequest, OAuthError> {
    parse_secure_url("token endpoint", &server.token_endpoint)?;
    let mut pairs: Vec<(&str, &str)> = match grant {
        Grant::AuthorizationCode { code, redirect_uri, pkce } => vec![
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", redirect_uri),
            ("code_verifier", pkce.verifier()),
        ],
        Grant::RefreshToken(token) => vec![("grant_type", "refresh_token"), ("refresh_token", token)],
    };
    pairs.push(("resource", resource));
    let secret = client.client_secret.as_ref().map_or("", |s| s.as_str());
    let auth = client_auth(client, server.token_endpoint_auth_methods_supported.as_deref());
    let authorization = match auth {
        ClientAuth::SecretBasic => Some(basic_authorization(&client.client_id, secret)),
        ClientAuth::SecretPost => {
            pairs.extend([("client_id", client.client_id.as_str()), ("client_secret", secret)]);
            None
        }
        ClientAuth::None => {
            pairs.push(("client_id", client.client_id.as_str()));
            None
        }
    };
    Ok(TokenRequest { url: server.token_endpoint.clone(), body: Zeroizing::new(form_body(&pairs)), authorization })
}

/// `Basic BASE64(form(id) ":" form(secret))`: RFC 6749 §2.3.1 form-encodes both before HTTP Basic joins them, so a
/// `:` in the ID survives.
fn basic_authorization(client_id: &str, secret: &str) -> Zeroizing<String> {
    let credentials = Zeroizing::new(format!("{}:{}", form_encode(client_id), form_encode(secret)));
    Zeroizing::new(format!("Basic {}", base64(credentials.as_bytes())))
}

#[cfg(test)]
#[path = "request_tests.rs"]
mod tests;
