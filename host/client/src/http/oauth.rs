//! Authorization for remote servers (MCP 2025-11-25, "Authorization"): OAuth 2.1 with PKCE, as MCP profiles it,
//! without I/O. Every function here takes what came over the network (a header, a body, a status, the query of a
//! redirect) as text and returns a decision or the next request as plain data; the browser glue does the fetching,
//! opens the popup and keeps the tokens in the vault.
//!
//! The flow, and where the glue comes in:
//!
//! 1. A request to the server answers 401 ([`PostReply::Unauthorized`](super::exchange::PostReply)).
//!    [`challenge::BearerChallenge::parse`] reads its `WWW-Authenticate` header.
//! 2. [`discovery::protected_resource_metadata_urls`] lists where the server's protected resource metadata
//!    (RFC 9728) may be: the challenge's `resource_metadata`, else the well-known URIs in the spec's order. The glue
//!    GETs them in turn ([`discovery::worth_trying_next`] says when to go on) and hands the first document to
//!    [`discovery::ProtectedResourceMetadata::parse`], which refuses one made for another resource.
//! 3. For an issuer of `authorization_servers`, [`discovery::authorization_server_metadata_urls`] lists the RFC 8414
//!    and OpenID Connect locations in the spec's order; [`discovery::AuthorizationServerMetadata::parse`] checks the
//!    issuer, https endpoints and PKCE S256 support (MCP forbids going on without it).
//! 4. [`registration::choose_registration`] picks how the host is known to the authorization server: a client ID
//!    from the configuration, else a client ID metadata document, else dynamic registration (whose body and answer
//!    [`registration::ClientMetadata`] and [`registration::parse_registration_response`] handle).
//! 5. [`pkce::Pkce::from_random`] and [`pkce::state_from_random`] turn bytes from `crypto.getRandomValues` into the
//!    verifier and the state; [`scope::initial_scope`] picks the scope; [`request::AuthorizationRequest::url`] is the
//!    page the glue opens in a popup. The authorization server sends the user back to the redirect page, which posts
//!    its query to the host; [`callback::authorization_code`] checks the state (and `iss`) and yields the code.
//! 6. [`request::token_request`] is the POST that trades the code (with the PKCE verifier and the `resource`) for
//!    tokens, authenticated as the client can; [`tokens::Tokens::parse`] reads the answer, and
//!    [`tokens::Tokens::authorization_header`] is the `Authorization: Bearer …` of every later request.
//! 7. Before a token expires ([`tokens::Tokens::needs_refresh`]) the same [`request::token_request`] with a refresh
//!    token gets new ones; a refused refresh ([`OAuthError::requires_sign_in`]) means going through 5 again.
//! 8. [`saved::SavedAuthorization`] is what a later session needs to go on without the user (the runtime keeps it
//!    in the vault, bound to the server's URL); when the user must act again, the glue says so first
//!    ([`setup::AuthorizationRequired`]).
//! 9. A 403 with `error="insufficient_scope"` asks for more: [`scope::step_up`] gives the wider scope for a new
//!    authorization (5 and 6), a bounded number of times, then gives up with an error that says so.

pub mod callback;
pub mod challenge;
pub mod discovery;
pub(crate) mod encoding;
mod error;
pub mod pkce;
pub mod registration;
pub mod request;
pub mod saved;
pub mod scope;
pub mod setup;
pub mod tokens;
mod url;

pub use error::OAuthError;
