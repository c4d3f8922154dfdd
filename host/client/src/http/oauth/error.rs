//! Why an authorization step cannot go on, in words a user can act on.

use mcp_worker_protocol::quoted::quoted;

/// An authorization step that cannot go on. Each message says what was wrong and, where someone can act, what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OAuthError {
    /// A URL that is not an absolute http(s) URL.
    #[error("the {what} URL {url} cannot be used: {reason}", url = quoted(.url))]
    BadUrl {
        /// Which URL (`MCP server`, `token endpoint`, …).
        what: &'static str,
        /// The URL as given.
        url: String,
        /// Why, in words.
        reason: String,
    },
    /// An authorization server URL in plain http on a host other than this machine.
    #[error(
        "the {what} {url} is not https: OAuth sends secrets there, so only https (or http on localhost) is \
         accepted; ask the server's operator for an https address", url = quoted(.url)
    )]
    NotHttps {
        /// Which URL.
        what: &'static str,
        /// The URL as given.
        url: String,
    },
    /// A document that is not what its standard says (not JSON, a required field missing, a wrong type).
    #[error("the {document} is unusable: {reason}")]
    BadDocument {
        /// Which document (`protected resource metadata`, `token response`, …).
        document: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// Protected resource metadata made for another resource (RFC 9728 §3.3): it must not be used.
    #[error(
        "the protected resource metadata describes {resource}, not the MCP server at {server}, so it was not \
         used; check the server's URL, or tell its operator that its metadata names another resource", resource = quoted(.resource), server = quoted(.server)
    )]
    ResourceMismatch {
        /// The `resource` of the document.
        resource: String,
        /// The MCP server's URL.
        server: String,
    },
    /// Authorization server metadata whose `issuer` is not the one it was fetched for (RFC 8414 §3.3): it must not
    /// be used.
    #[error(
        "the authorization server metadata fetched for {expected} names the issuer {found}, so it was not used \
         (a mismatch can mean an impersonated server)", expected = quoted(.expected), found = quoted(.found)
    )]
    IssuerMismatch {
        /// The issuer the metadata was fetched for.
        expected: String,
        /// The `issuer` in the metadata.
        found: String,
    },
    /// The authorization server does not offer PKCE with S256, without which MCP forbids authorizing.
    #[error(
        "the authorization server {issuer} does not list S256 in code_challenge_methods_supported, and MCP clients \
         must not authorize without PKCE S256; its operator has to enable it", issuer = quoted(.issuer)
    )]
    PkceUnsupported {
        /// The issuer.
        issuer: String,
    },
    /// The authorization server does not offer the authorization code grant.
    #[error("the authorization server {issuer} does not offer the authorization_code grant, the only one MCP uses", issuer = quoted(.issuer))]
    GrantUnsupported {
        /// The issuer.
        issuer: String,
    },
    /// No way to be known to the authorization server.
    #[error(
        "the host cannot register with the authorization server {issuer}: it supports neither client ID metadata \
         documents nor dynamic client registration; register a client with it and configure its client ID (and \
         secret, if it issued one) for this server", issuer = quoted(.issuer)
    )]
    NoRegistration {
        /// The issuer.
        issuer: String,
    },
    /// Too few random bytes for a PKCE verifier or a state.
    #[error("{needed} random bytes are needed, {got} were given")]
    NotEnoughRandomness {
        /// How many are needed.
        needed: usize,
        /// How many were given.
        got: usize,
    },
    /// An OAuth error answer (RFC 6749 §4.1.2.1, §5.2; RFC 7591 §3.2.2).
    #[error("{}", refusal(.endpoint, .error, .description.as_deref()))]
    Refused {
        /// Who refused (`authorization server`, `token endpoint`, `registration endpoint`).
        endpoint: &'static str,
        /// The `error` code, such as `invalid_grant`.
        error: String,
        /// The `error_description`, if any (tidied: no control characters, at most 300 characters).
        description: Option<String>,
    },
    /// An answer that is neither a success nor an OAuth error.
    #[error("the {endpoint} answered HTTP {status} without an OAuth error; try again later")]
    HttpStatus {
        /// Who answered.
        endpoint: &'static str,
        /// The status.
        status: u16,
    },
    /// The redirect's `state` is not the one sent: the answer belongs to another attempt, or was forged.
    #[error(
        "the authorization answer does not carry the state this attempt sent, so it was discarded; start the \
         authorization again"
    )]
    StateMismatch,
    /// The redirect's `iss` is missing where promised, or names another server (RFC 9207): a mix-up.
    #[error(
        "the authorization answer {}, so it was discarded (a mix-up of authorization servers); start the \
         authorization again",
        issuer_parameter(.expected, .found.as_deref())
    )]
    IssuerParameterMismatch {
        /// The issuer the authorization was sent to.
        expected: String,
        /// The `iss` of the answer, if any.
        found: Option<String>,
    },
    /// A 403 that more authorization did not (or cannot) cure.
    #[error(
        "the server still refuses the request after {attempts} authorization(s){}; the account may not be allowed \
         this, ask the server's operator",
        scope_asked(.scope.as_deref())
    )]
    ScopeRefused {
        /// The scope the server asked for, if it said.
        scope: Option<String>,
        /// How many authorizations were tried for it.
        attempts: u32,
    },
    /// A token of a type other than Bearer.
    #[error("the token endpoint issued a {token_type} token; MCP servers take Bearer tokens only", token_type = quoted(.token_type))]
    UnsupportedTokenType {
        /// The `token_type`.
        token_type: String,
    },
}

impl OAuthError {
    /// Whether the authorization is gone (a refused refresh: `invalid_grant`) and the user must authorize again.
    pub fn requires_sign_in(&self) -> bool {
        matches!(self, Self::Refused { error, .. } if error == "invalid_grant")
    }
}

/// A description from a remote party, fit for a message: control characters removed, at most 300 characters.
pub(super) fn tidy(text: &str) -> String {
    const MAX: usize = 300;
    let clean: String = text.chars().filter(|c| !c.is_control()).take(MAX + 1).collect();
    if clean.chars().count() > MAX { format!("{}…", clean.chars().take(MAX).collect::<String>()) } else { clean }
}

/// A document that did not parse as the JSON its standard describes.
pub(super) fn unreadable(document: &'static str, error: &serde_json::Error) -> OAuthError {
    OAuthError::BadDocument { document, reason: format!("it is not the JSON object its standard describes ({error})") }
}

fn refusal(endpoint: &str, error: &str, description: Option<&str>) -> String {
    let advice = match error {
        "invalid_grant" => "; the authorization expired or was revoked: authorize again",
        "invalid_client" | "unauthorized_client" => {
            "; the authorization server does not accept this client: check the configured client ID and secret"
        }
        "access_denied" => "; access was declined at the authorization server",
        "invalid_scope" => "; the scope asked for is not allowed",
        "invalid_target" => "; the authorization server does not issue tokens for this MCP server (resource)",
        "invalid_redirect_uri" => "; the redirect page's address was refused: it must be https, or http on localhost",
        "temporarily_unavailable" | "server_error" => "; try again later",
        _ => "",
    };
    match description {
        Some(description) => format!("the {endpoint} refused: {error} ({description}){advice}"),
        None => format!("the {endpoint} refused: {error}{advice}"),
    }
}

fn issuer_parameter(expected: &str, found: Option<&str>) -> String {
    match found {
        Some(found) => {
            format!("comes from {found}, not from {expected}", found = quoted(found), expected = quoted(expected))
        }
        None => format!("lacks the iss that {expected} promised", expected = quoted(expected)),
    }
}

fn scope_asked(scope: Option<&str>) -> String {
    scope.map(|scope| format!(" asking for scope {scope}", scope = quoted(scope))).unwrap_or_default()
}
