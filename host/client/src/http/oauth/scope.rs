//! Which scope to ask for (MCP "Scope Selection Strategy") and when a 403 is worth another authorization
//! ("Step-Up Authorization Flow").

use super::OAuthError;
use super::challenge::BearerChallenge;
use super::discovery::ProtectedResourceMetadata;

/// How many step-up authorizations one request may cause before it fails ("no more than a few times").
pub const MAX_STEP_UPS: u32 = 2;

/// The scope of a first authorization: the challenge's `scope` if it named one ("authoritative for satisfying the
/// current request"), else every scope of the metadata's `scopes_supported`, else none (the parameter is omitted).
pub fn initial_scope(challenge: Option<&BearerChallenge>, resource: &ProtectedResourceMetadata) -> Option<String> {
    if let Some(scope) = challenge.and_then(|c| c.scope.as_deref()).filter(|s| !s.trim().is_empty()) {
        return Some(join(dedup(scopes(scope))));
    }
    let supported = resource.scopes_supported.as_deref().unwrap_or_default();
    let supported: Vec<&str> = supported.iter().map(|s| s.trim()).filter(|s| !s.is_empty()).collect();
    (!supported.is_empty()).then(|| join(dedup(supported)))
}

/// The scope of the next authorization after a 403 whose challenge is `challenge`, when `attempts` step-ups were
/// already made for this request and `previous` is the scope last asked for (or granted).
///
/// The new scope is `previous` plus what the challenge asks for, so that what was granted is not lost. A 403
/// that is not about scope (no `insufficient_scope`, or no scope named), or one still there after
/// [`MAX_STEP_UPS`] step-ups, is an error: more authorization would not help, or has not.
pub fn step_up(
    challenge: Option<&BearerChallenge>,
    previous: Option<&str>,
    attempts: u32,
) -> Result<String, OAuthError> {
    let wanted = challenge.and_then(|c| c.scope.as_deref()).filter(|s| !s.trim().is_empty());
    let about_scope = challenge.is_some_and(|c| c.is_insufficient_scope() || c.error.is_none());
    let Some(wanted) = wanted.filter(|_| about_scope && attempts < MAX_STEP_UPS) else {
        return Err(OAuthError::ScopeRefused { scope: wanted.map(str::to_owned), attempts });
    };
    let mut all = previous.map(scopes).unwrap_or_default();
    all.extend(scopes(wanted));
    Ok(join(dedup(all)))
}

fn scopes(scope: &str) -> Vec<&str> {
    scope.split_ascii_whitespace().collect()
}

/// Keeps the first of each scope, in order.
fn dedup(scopes: Vec<&str>) -> Vec<&str> {
    let mut kept: Vec<&str> = Vec::with_capacity(scopes.len());
    for scope in scopes {
        if !kept.contains(&scope) {
            kept.push(scope);
        }
    }
    kept
}

fn join(scopes: Vec<&str>) -> String {
    scopes.join(" ")
}

#[cfg(test)]
#[path = "scope_tests.rs"]
mod tests;
