//! The authorization answer: the query the authorization server put on the redirect page's URL (RFC 6749 §4.1.2),
//! which the page hands to the host. It carries the code, or an error; its `state` must be this attempt's
//! (MCP: "discard any results that do not include or have a mismatch with the original state"), and its `iss`,
//! when present or promised, this server's (RFC 9207).

use zeroize::Zeroizing;

use super::OAuthError;
use super::discovery::AuthorizationServerMetadata;
use super::encoding::form_pairs;
use super::error::tidy;

/// The code of the redirect's `query` (`location.search`, with or without its `?`), for the attempt that sent
/// `expected_state` to `server`.
pub fn authorization_code(
    query: &str,
    expected_state: &str,
    server: &AuthorizationServerMetadata,
) -> Result<Zeroizing<String>, OAuthError> {
    let pairs = form_pairs(query);
    let value = |name: &str| pairs.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
    if value("state") != Some(expected_state) || expected_state.is_empty() {
        return Err(OAuthError::StateMismatch);
    }
    let issuer = value("iss");
    if issuer.is_some_and(|iss| iss != server.issuer)
        || (issuer.is_none() && server.authorization_response_iss_parameter_supported)
    {
        return Err(OAuthError::IssuerParameterMismatch { expected: server.issuer.clone(), found: issuer.map(tidy) });
    }
    if let Some(error) = value("error") {
        return Err(OAuthError::Refused {
            endpoint: "authorization server",
            error: tidy(error),
            description: value("error_description").map(tidy),
        });
    }
    match value("code").filter(|code| !code.is_empty()) {
        Some(code) => Ok(Zeroizing::new(code.to_owned())),
        None => Err(OAuthError::BadDocument {
            document: "authorization answer",
            reason: "it carries neither a code nor an error".to_owned(),
        }),
    }
}

#[cfg(test)]
#[path = "callback_tests.rs"]
mod tests;
