//! An authorization kept between sessions (the runtime keeps it in the vault): what a later session needs to send
//! the tokens and refresh them without asking the user again, bound to the URL of the server it was made for.

use serde::{Deserialize, Serialize};
use zeroize::Zeroizing;

use super::OAuthError;
use super::discovery::AuthorizationServerMetadata;
use super::registration::ClientRegistration;
use super::tokens::Tokens;

const SAVED: &str = "saved authorization";
/// The layout written today; a record of another layout is not read (the user signs in again).
const VERSION: u32 = 1;

/// Tokens, with the client and the authorization server that issued them, for one MCP server.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SavedAuthorization {
    /// The URL of the MCP server the tokens were issued for: they are used for that URL and no other.
    pub server_url: String,
    /// The `resource` (RFC 8707) they were issued for.
    pub resource: String,
    /// The scope asked for.
    pub scope: Option<String>,
    /// The authorization server that issued them (its token endpoint refreshes them).
    pub server: AuthorizationServerMetadata,
    /// The client they were issued to.
    pub client: ClientRegistration,
    /// The tokens.
    pub tokens: Tokens,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RecordOut<'a> {
    version: u32,
    server_url: &'a str,
    resource: &'a str,
    scope: Option<&'a str>,
    authorization_server: &'a AuthorizationServerMetadata,
    client_id: &'a str,
    client_secret: Option<&'a str>,
    token_endpoint_auth_method: Option<&'a str>,
    access_token: &'a str,
    refresh_token: Option<&'a str>,
    expires_at_ms: Option<u64>,
    granted_scope: Option<&'a str>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RecordIn {
    version: u32,
    server_url: String,
    resource: String,
    scope: Option<String>,
    authorization_server: AuthorizationServerMetadata,
    client_id: String,
    client_secret: Option<String>,
    token_endpoint_auth_method: Option<String>,
    access_token: String,
    refresh_token: Option<String>,
    expires_at_ms: Option<u64>,
    granted_scope: Option<String>,
}

impl SavedAuthorization {
    /// The record to store: JSON, wiped when dropped (it holds the tokens and the client secret).
    pub fn to_json(&self) -> Zeroizing<String> {
        let record = RecordOut {
            version: VERSION,
            server_url: &self.server_url,
            resource: &self.resource,
            scope: self.scope.as_deref(),
            authorization_server: &self.server,
            client_id: &self.client.client_id,
            client_secret: self.client.client_secret.as_deref().map(String::as_str),
            token_endpoint_auth_method: self.client.token_endpoint_auth_method.as_deref(),
            access_token: &self.tokens.access_token,
            refresh_token: self.tokens.refresh_token.as_deref().map(String::as_str),
            expires_at_ms: self.tokens.expires_at_ms,
            granted_scope: self.tokens.scope.as_deref(),
        };
        // Serializing plain strings and numbers cannot fail.
        Zeroizing::new(serde_json::to_string(&record).unwrap_or_default())
    }

    /// Reads a stored record for the server at `server_url`. A record made for another URL is refused (the tokens
    /// were issued to another server, or its config changed), as is one of another layout or that does not parse.
    pub fn from_json(text: &str, server_url: &str) -> Result<Self, OAuthError> {
        let record: RecordIn =
            mcp_worker_protocol::json::from_str(text).map_err(|e| bad(format!("it does not parse ({e})")))?;
        let RecordIn {
            version,
            server_url: saved_for,
            resource,
            scope,
            authorization_server,
            client_id,
            client_secret,
            token_endpoint_auth_method,
            access_token,
            refresh_token,
            expires_at_ms,
            granted_scope,
        } = record;
        let access_token = Zeroizing::new(access_token);
        let refresh_token = refresh_token.map(Zeroizing::new);
        let client_secret = client_secret.map(Zeroizing::new);
        if version != VERSION {
            return Err(bad(format!("it has layout {version}, not {VERSION}")));
        }
        if saved_for != server_url {
            return Err(bad(format!("it was made for {saved_for}, not {server_url}")));
        }
        if access_token.is_empty() {
            return Err(bad("it has no access token".to_owned()));
        }
        let mut client = ClientRegistration::new(client_id, None);
        client.client_secret = client_secret;
        client.token_endpoint_auth_method = token_endpoint_auth_method;
        Ok(Self {
            server_url: saved_for,
            resource,
            scope,
            server: authorization_server,
            client,
            tokens: Tokens { access_token, refresh_token, expires_at_ms, scope: granted_scope },
        })
    }
}

fn bad(reason: String) -> OAuthError {
    OAuthError::BadDocument { document: SAVED, reason }
}

#[cfg(test)]
#[path = "saved_tests.rs"]
mod tests;
