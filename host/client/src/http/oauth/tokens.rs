//! The token endpoint's answer (RFC 6749 §5.1, §5.2) and what the host keeps of it.

use std::fmt;

use serde::Deserialize;
use serde_json::Value;
use zeroize::Zeroizing;

use super::OAuthError;
use super::error::{tidy, unreadable};

const TOKEN_RESPONSE: &str = "token response";

/// The tokens of one authorization. The access and refresh tokens are zeroed when dropped and never shown by `Debug`.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Tokens {
    /// The access token, sent as `Authorization: Bearer …` with every request to the MCP server.
    pub access_token: Zeroizing<String>,
    /// The refresh token, if the server issued one.
    pub refresh_token: Option<Zeroizing<String>>,
    /// When the access token expires (milliseconds since the epoch), if the server said (`expires_in`).
    pub expires_at_ms: Option<u64>,
    /// The scope granted, if the server said (it does when it differs from the scope asked for).
    pub scope: Option<String>,
}

impl Tokens {
    /// Reads the token endpoint's answer, `status` and `body`, received at `now_ms`: tokens of type Bearer (in any
    /// case), or the OAuth error it is, or a bare status.
    pub fn parse(status: u16, body: &str, now_ms: u64) -> Result<Self, OAuthError> {
        #[derive(Deserialize)]
        struct Answer {
            access_token: Option<String>,
            token_type: Option<String>,
            expires_in: Option<Value>,
            refresh_token: Option<String>,
            scope: Option<String>,
            error: Option<String>,
            error_description: Option<String>,
        }
        let answer = mcp_worker_protocol::json::from_str::<Answer>(body);
        if let Ok(Answer { error: Some(error), error_description, .. }) = &answer {
            let description = error_description.as_deref().map(tidy);
            return Err(OAuthError::Refused { endpoint: "token endpoint", error: tidy(error), description });
        }
        if !(200..300).contains(&status) {
            return Err(OAuthError::HttpStatus { endpoint: "token endpoint", status });
        }
        let answer = answer.map_err(|e| unreadable(TOKEN_RESPONSE, &e))?;
        let access_token = Zeroizing::new(answer.access_token.unwrap_or_default());
        if access_token.is_empty() {
            return Err(missing("access_token"));
        }
        match answer.token_type.as_deref() {
            Some(kind) if kind.eq_ignore_ascii_case("bearer") => {}
            Some(kind) => return Err(OAuthError::UnsupportedTokenType { token_type: tidy(kind) }),
            None => return Err(missing("token_type")),
        }
        Ok(Self {
            access_token,
            refresh_token: answer.refresh_token.filter(|t| !t.is_empty()).map(Zeroizing::new),
            expires_at_ms: answer
                .expires_in
                .as_ref()
                .and_then(seconds)
                .map(|s| now_ms.saturating_add(s.saturating_mul(1000))),
            scope: answer.scope.filter(|s| !s.trim().is_empty()),
        })
    }

    /// Whether the access token expires within `margin_ms` of `now_ms` (or has): time to refresh. A token without
    /// a known lifetime never needs it; a 401 will tell.
    pub fn needs_refresh(&self, now_ms: u64, margin_ms: u64) -> bool {
        self.expires_at_ms.is_some_and(|at| now_ms.saturating_add(margin_ms) >= at)
    }

    /// The value of the `Authorization` header: `Bearer <access token>`.
    pub fn authorization_header(&self) -> Zeroizing<String> {
        Zeroizing::new(format!("Bearer {}", self.access_token.as_str()))
    }

    /// These tokens, fresh from a refresh, completed from `previous`: its refresh token when no new one was issued
    /// (a new one replaces it, RFC 6749 §6), and its scope when none was named (then it is unchanged, §5.1).
    #[must_use]
    pub fn after_refresh(mut self, previous: &Self) -> Self {
        if self.refresh_token.is_none() {
            self.refresh_token = previous.refresh_token.clone();
        }
        if self.scope.is_none() {
            self.scope = previous.scope.clone();
        }
        self
    }
}

impl fmt::Debug for Tokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tokens")
            .field("access_token", &"<redacted>")
            .field("refresh_token", &self.refresh_token.as_ref().map(|_| "<redacted>"))
            .field("expires_at_ms", &self.expires_at_ms)
            .field("scope", &self.scope)
            .finish()
    }
}

/// `expires_in` in seconds: a number, or a string of digits as some servers send; negative or fractional parts
/// are dropped.
fn seconds(value: &Value) -> Option<u64> {
    match value {
        Value::Number(number) => number.as_u64().or_else(|| number.as_f64().filter(|s| *s >= 0.0).map(|s| s as u64)),
        Value::String(text) => text.trim().parse().ok(),
        _ => None,
    }
}

fn missing(field: &str) -> OAuthError {
    OAuthError::BadDocument { document: TOKEN_RESPONSE, reason: format!("it has no {field}") }
}

#[cfg(test)]
#[path = "tokens_tests.rs"]
mod tests;
