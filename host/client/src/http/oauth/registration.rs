//! How the host is known to an authorization server (MCP "Client Registration Approaches"): a client ID from the
//! configuration, a client ID metadata document (the URL of a JSON document the app serves is the client ID), or
//! dynamic client registration (RFC 7591).

use std::fmt;

use mcp_worker_protocol::quoted;
use serde::Deserialize;
use serde_json::json;
use zeroize::Zeroizing;

use super::OAuthError;
use super::discovery::AuthorizationServerMetadata;
use super::error::{tidy, unreadable};
use super::url::{parse_secure_url, parse_url};

const REGISTRATION: &str = "registration answer";

/// The client as an authorization server knows it. The secret (if it has one) is zeroed when dropped and never shown
/// by `Debug`.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ClientRegistration {
    /// The client ID.
    pub client_id: String,
    /// The client secret, for a confidential client.
    pub client_secret: Option<Zeroizing<String>>,
    /// How the client authenticates at the token endpoint, when the registration said
    /// (`none`, `client_secret_basic`, `client_secret_post`).
    pub token_endpoint_auth_method: Option<String>,
}

impl ClientRegistration {
    /// A client registered beforehand: its ID, and its secret if it was issued one.
    pub fn new(client_id: impl Into<String>, client_secret: Option<String>) -> Self {
        Self {
            client_id: client_id.into(),
            client_secret: client_secret.map(Zeroizing::new),
            token_endpoint_auth_method: None,
        }
    }
}

impl fmt::Debug for ClientRegistration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientRegistration")
            .field("client_id", &self.client_id)
            .field("client_secret", &self.client_secret.as_ref().map(|_| "<redacted>"))
            .field("token_endpoint_auth_method", &self.token_endpoint_auth_method)
            .finish()
    }
}

/// How to be known to the authorization server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Registration {
    /// Use the client ID (and secret) configured for this server.
    Configured,
    /// Use the URL of the app's client ID metadata document as the client ID; nothing to register.
    MetadataDocument(ClientRegistration),
    /// POST [`ClientMetadata::registration_request`] to this endpoint and read the answer with
    /// [`parse_registration_response`].
    Dynamic {
        /// The registration endpoint.
        endpoint: String,
    },
}

/// Picks the registration in the spec's order of preference: the configured client if there is one (`configured`),
/// else the client ID metadata document at `metadata_document_url` if the app has one and the server takes them,
/// else dynamic registration if the server offers it, else an error that says what to configure.
pub fn choose_registration(
    server: &AuthorizationServerMetadata,
    configured: bool,
    metadata_document_url: Option<&str>,
) -> Result<Registration, OAuthError> {
    if configured {
        return Ok(Registration::Configured);
    }
    if let Some(url) = metadata_document_url.filter(|_| server.client_id_metadata_document_supported) {
        check_metadata_document_url(url)?;
        let client = ClientRegistration {
            client_id: url.to_owned(),
            client_secret: None,
            token_endpoint_auth_method: Some("none".to_owned()),
        };
        return Ok(Registration::MetadataDocument(client));
    }
    match &server.registration_endpoint {
        Some(endpoint) => Ok(Registration::Dynamic { endpoint: endpoint.clone() }),
        None => Err(OAuthError::NoRegistration { issuer: server.issuer.clone() }),
    }
}

/// "The `client_id` URL MUST use the "https" scheme and contain a path component".
fn check_metadata_document_url(url: &str) -> Result<(), OAuthError> {
    let what = "client ID metadata document";
    let parsed = parse_url(what, url)?;
    let reason = if parsed.scheme != "https" {
        "it must be https"
    } else if parsed.trimmed_path().is_empty() {
        "it must have a path, such as https://app.example/oauth/client.json"
    } else if parsed.has_fragment {
        "it must not have a fragment"
    } else {
        return Ok(());
    };
    Err(OAuthError::BadUrl { what, url: url.to_owned(), reason: reason.to_owned() })
}

/// What the host says about itself when it registers (RFC 7591 §2) or in its client ID metadata document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientMetadata {
    /// The name the authorization server shows the user.
    pub client_name: String,
    /// The redirect page's URL(s): https, or http on localhost.
    pub redirect_uris: Vec<String>,
    /// The app's home page, if any.
    pub client_uri: Option<String>,
}

impl ClientMetadata {
    /// The JSON body of a dynamic registration: a public client (`token_endpoint_auth_method: "none"`) of the
    /// authorization code grant, with refresh tokens.
    pub fn registration_request(&self) -> Result<String, OAuthError> {
        Ok(quoted::json(&self.document(None)?))
    }

    /// The client ID metadata document to serve at `client_id_url` (its `client_id` must be that URL exactly).
    pub fn metadata_document(&self, client_id_url: &str) -> Result<String, OAuthError> {
        check_metadata_document_url(client_id_url)?;
        Ok(quoted::json(&self.document(Some(client_id_url))?))
    }

    fn document(&self, client_id: Option<&str>) -> Result<serde_json::Value, OAuthError> {
        if self.redirect_uris.is_empty() {
            return Err(OAuthError::BadUrl {
                what: "redirect page",
                url: String::new(),
                reason: "a client needs at least one redirect URI".to_owned(),
            });
        }
        for uri in &self.redirect_uris {
            parse_secure_url("redirect page", uri)?;
        }
        let mut document = json!({
            "client_name": self.client_name,
            "redirect_uris": self.redirect_uris,
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",
        });
        if let Some(uri) = &self.client_uri {
            document["client_uri"] = json!(uri);
        }
        if let Some(id) = client_id {
            document["client_id"] = json!(id);
        }
        Ok(document)
    }
}

/// Reads the answer to a dynamic registration: `status` and `body`. A success carries the client ID (and a secret
/// if the server made the client confidential); a failure is an OAuth error (RFC 7591 §3.2.2) or a bare status.
pub fn parse_registration_response(status: u16, body: &str) -> Result<ClientRegistration, OAuthError> {
    #[derive(Deserialize)]
    struct Answer {
        client_id: Option<String>,
        client_secret: Option<String>,
        token_endpoint_auth_method: Option<String>,
        error: Option<String>,
        error_description: Option<String>,
    }
    let answer = mcp_worker_protocol::json::from_str::<Answer>(body);
    if let Ok(Answer { error: Some(error), error_description, .. }) = &answer {
        let description = error_description.as_deref().map(tidy);
        return Err(OAuthError::Refused { endpoint: "registration endpoint", error: tidy(error), description });
    }
    if !(200..300).contains(&status) {
        return Err(OAuthError::HttpStatus { endpoint: "registration endpoint", status });
    }
    let answer = answer.map_err(|e| unreadable(REGISTRATION, &e))?;
    let client_id = answer
        .client_id
        .filter(|id| !id.is_empty())
        .ok_or_else(|| OAuthError::BadDocument { document: REGISTRATION, reason: "it has no client_id".to_owned() })?;
    Ok(ClientRegistration {
        client_id,
        client_secret: answer.client_secret.filter(|s| !s.is_empty()).map(Zeroizing::new),
        token_endpoint_auth_method: answer.token_endpoint_auth_method,
    })
}

#[cfg(test)]
#[path = "registration_tests.rs"]
mod tests;
