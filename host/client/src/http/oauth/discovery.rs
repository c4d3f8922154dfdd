//! Finding the authorization server: the MCP server's protected resource metadata (RFC 9728) names it, and its own
//! metadata (RFC 8414, or OpenID Connect Discovery) gives its endpoints and what it supports. This module lists the
//! URLs to try in the order the spec sets, and parses and checks the two documents; the glue fetches.

use serde::{Deserialize, Serialize};

use super::OAuthError;
use super::challenge::BearerChallenge;
use super::error::unreadable;
use super::url::{HttpUrl, parse_secure_url, parse_url};

const PRM: &str = "protected resource metadata";
const AS_METADATA: &str = "authorization server metadata";

/// Where to look for the MCP server's protected resource metadata, in order: the challenge's `resource_metadata`
/// when it gave a usable one (then only that), else the well-known URI at the server's path, then at the root
/// ("MCP clients MUST … use the resource metadata URL from the parsed WWW-Authenticate headers when present;
/// otherwise, they MUST fall back to constructing and requesting the well-known URIs in the order listed above").
pub fn protected_resource_metadata_urls(
    mcp_url: &str,
    challenge: Option<&BearerChallenge>,
) -> Result<Vec<String>, OAuthError> {
    let server = parse_url("MCP server", mcp_url)?;
    let from_challenge = challenge.and_then(|c| c.resource_metadata.as_deref());
    if let Some(url) = from_challenge.filter(|url| parse_url("resource metadata", url).is_ok()) {
        return Ok(vec![url.to_owned()]);
    }
    let root = format!("{}/.well-known/oauth-protected-resource", server.origin());
    if server.trimmed_path().is_empty() && server.query.is_none() {
        return Ok(vec![root]);
    }
    Ok(vec![server.well_known("oauth-protected-resource"), root])
}

/// Where to look for the metadata of the authorization server `issuer`, in the spec's order: with a path,
/// RFC 8414 path insertion, then OpenID Connect path insertion, then OpenID Connect path appending; without one,
/// RFC 8414 then OpenID Connect. The issuer must be https (or http on this machine) without query or fragment.
pub fn authorization_server_metadata_urls(issuer: &str) -> Result<Vec<String>, OAuthError> {
    let url = parse_secure_url("authorization server", issuer)?;
    if url.query.is_some() || url.has_fragment {
        return Err(OAuthError::BadUrl {
            what: "authorization server",
            url: issuer.to_owned(),
            reason: "an issuer has no query or fragment (RFC 8414 §2)".to_owned(),
        });
    }
    let (origin, path) = (url.origin(), url.trimmed_path());
    if path.is_empty() {
        return Ok(vec![
            format!("{origin}/.well-known/oauth-authorization-server"),
            format!("{origin}/.well-known/openid-configuration"),
        ]);
    }
    Ok(vec![
        format!("{origin}/.well-known/oauth-authorization-server{path}"),
        format!("{origin}/.well-known/openid-configuration{path}"),
        format!("{origin}{path}/.well-known/openid-configuration"),
    ])
}

/// Whether a metadata URL that answered `status` should give way to the next one in the list: a 4xx says the
/// document is not there. (A fetch that failed outright, as CORS makes it, is the glue's to count as absent too.)
/// Other statuses end the search: the document is there but unusable, or the server is failing.
pub fn worth_trying_next(status: u16) -> bool {
    (400..500).contains(&status)
}

/// The MCP server's protected resource metadata (RFC 9728 §2), with the fields MCP uses.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct ProtectedResourceMetadata {
    /// The resource identifier, exactly as published: the `resource` parameter of every authorization and token
    /// request (RFC 8707), since authorization servers compare it as a string.
    pub resource: String,
    /// The issuers of the authorization servers that accept tokens for it, in the server's order of preference.
    #[serde(default)]
    pub authorization_servers: Vec<String>,
    /// The scopes it knows; requested when the challenge names none.
    #[serde(default)]
    pub scopes_supported: Option<Vec<String>>,
}

impl ProtectedResourceMetadata {
    /// Reads the document and checks it is for the MCP server at `mcp_url` and names an authorization server.
    ///
    /// "For" means its `resource` has the server's origin and the server's path or a parent of it (RFC 9728 §3.3
    /// makes the document at the root describe the origin), compared with scheme and host in any case and a
    /// default port written or not. A document for another resource "MUST NOT be used".
    pub fn parse(body: &str, mcp_url: &str) -> Result<Self, OAuthError> {
        let server = parse_url("MCP server", mcp_url)?;
        let document: Self = mcp_worker_protocol::json::from_str(body).map_err(|e| unreadable(PRM, &e))?;
        let covers = HttpUrl::parse(&document.resource).is_ok_and(|resource| resource.covers(&server));
        if !covers {
            return Err(OAuthError::ResourceMismatch { resource: document.resource, server: mcp_url.to_owned() });
        }
        if document.authorization_servers.is_empty() {
            return Err(OAuthError::BadDocument {
                document: PRM,
                reason: "it names no authorization server (authorization_servers is empty or missing)".to_owned(),
            });
        }
        Ok(document)
    }
}

/// An authorization server's metadata (RFC 8414 §2; OpenID Connect Discovery uses the same names), with the fields
/// MCP uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct AuthorizationServerMetadata {
    /// Its issuer identifier.
    pub issuer: String,
    /// Where the user authorizes (the page opened in the popup).
    #[serde(default)]
    pub authorization_endpoint: String,
    /// Where codes and refresh tokens are traded for tokens.
    #[serde(default)]
    pub token_endpoint: String,
    /// Where clients register dynamically (RFC 7591), if it allows it.
    #[serde(default)]
    pub registration_endpoint: Option<String>,
    /// The scopes it knows.
    #[serde(default)]
    pub scopes_supported: Option<Vec<String>>,
    /// The PKCE methods it supports; MCP requires `S256` among them.
    #[serde(default)]
    pub code_challenge_methods_supported: Option<Vec<String>>,
    /// How clients may authenticate at the token endpoint; absent means `client_secret_basic` (RFC 8414 §2).
    #[serde(default)]
    pub token_endpoint_auth_methods_supported: Option<Vec<String>>,
    /// Whether it takes a client ID metadata document's URL as a client ID.
    #[serde(default)]
    pub client_id_metadata_document_supported: bool,
    /// The grants it supports; absent means `authorization_code` and `implicit` (RFC 8414 §2).
    #[serde(default)]
    pub grant_types_supported: Option<Vec<String>>,
    /// Whether its authorization answers carry `iss` (RFC 9207), which must then be checked.
    #[serde(default)]
    pub authorization_response_iss_parameter_supported: bool,
}

impl AuthorizationServerMetadata {
    /// Reads the document fetched for `issuer` and checks what MCP requires: the same issuer (RFC 8414 §3.3),
    /// https endpoints (or http on this machine), PKCE with S256, and the authorization code grant.
    ///
    /// The issuer is compared as a URL: scheme and host case, a default port and a terminating `/` aside, it must
    /// be the same (a different host or path is refused).
    pub fn parse(body: &str, issuer: &str) -> Result<Self, OAuthError> {
        let document: Self = mcp_worker_protocol::json::from_str(body).map_err(|e| unreadable(AS_METADATA, &e))?;
        let expected = parse_url("authorization server", issuer)?;
        if !HttpUrl::parse(&document.issuer).is_ok_and(|found| found.same_as(&expected)) {
            return Err(OAuthError::IssuerMismatch { expected: issuer.to_owned(), found: document.issuer });
        }
        document.check_endpoints()?;
        let methods = document.code_challenge_methods_supported.as_deref().unwrap_or_default();
        if !methods.iter().any(|m| m == "S256") {
            return Err(OAuthError::PkceUnsupported { issuer: document.issuer });
        }
        if document.grant_types_supported.as_ref().is_some_and(|g| !g.iter().any(|g| g == "authorization_code")) {
            return Err(OAuthError::GrantUnsupported { issuer: document.issuer });
        }
        Ok(document)
    }

    fn check_endpoints(&self) -> Result<(), OAuthError> {
        for (field, value) in
            [("authorization_endpoint", &self.authorization_endpoint), ("token_endpoint", &self.token_endpoint)]
        {
            if value.is_empty() {
                return Err(OAuthError::BadDocument { document: AS_METADATA, reason: format!("it has no {field}") });
            }
        }
        let authorization = parse_secure_url("authorization endpoint", &self.authorization_endpoint)?;
        if authorization.has_fragment {
            return Err(OAuthError::BadUrl {
                what: "authorization endpoint",
                url: self.authorization_endpoint.clone(),
                reason: "an endpoint has no fragment (RFC 6749 §3.1)".to_owned(),
            });
        }
        parse_secure_url("token endpoint", &self.token_endpoint)?;
        if let Some(registration) = &self.registration_endpoint {
            parse_secure_url("registration endpoint", registration)?;
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "discovery_tests.rs"]
mod tests;
