use super::*;

fn resource(scopes: Option<&[&str]>) -> ProtectedResourceMetadata {
    let scopes = scopes.map(|s| serde_json::json!(s)).unwrap_or(serde_json::Value::Null);
    let body = serde_json::json!({
        "resource": "https://mcp.example.com/mcp",
        "authorization_servers": ["https://auth.example.com"],
        "scopes_supported": scopes,
    });
    ProtectedResourceMetadata::parse(&body.to_string(), "https://mcp.example.com/mcp").unwrap()
}

fn challenge(header: &str) -> BearerChallenge {
    BearerChallenge::parse(header).unwrap()
}

#[test]
fn the_challenges_scope_comes_first() {
    let asked = challenge(r#"Bearer scope="mcp:basic""#);
    let scope = initial_scope(Some(&asked), &resource(Some(&["mcp:basic", "mcp:write"])));
    assert_eq!(scope.as_deref(), Some("mcp:basic"));
}

#[test]
fn else_every_supported_scope_else_none() {
    let silent = challenge(r#"Bearer resource_metadata="https://mcp.example.com/prm""#);
    let all = initial_scope(Some(&silent), &resource(Some(&["mcp:basic", "mcp:read", "mcp:write"])));
    assert_eq!(all.as_deref(), Some("mcp:basic mcp:read mcp:write"));
    assert_eq!(initial_scope(None, &resource(None)), None);
    assert_eq!(initial_scope(None, &resource(Some(&[]))), None);
}

#[test]
fn a_step_up_adds_the_challenged_scope_to_what_was_asked_before() {
    let more = challenge(r#"Bearer error="insufficient_scope", scope="mcp:write mcp:basic""#);
    assert_eq!(step_up(Some(&more), Some("mcp:basic"), 0).unwrap(), "mcp:basic mcp:write");
    assert_eq!(step_up(Some(&more), None, 1).unwrap(), "mcp:write mcp:basic");
    let no_error = challenge(r#"Bearer scope="mcp:write""#);
    assert_eq!(step_up(Some(&no_error), Some("mcp:basic"), 0).unwrap(), "mcp:basic mcp:write", "a 403 naming a scope");
}

#[test]
fn step_ups_are_bounded() {
    let more = challenge(r#"Bearer error="insufficient_scope", scope="mcp:admin""#);
    let error = step_up(Some(&more), Some("mcp:admin"), MAX_STEP_UPS).unwrap_err();
    assert_eq!(error, OAuthError::ScopeRefused { scope: Some("mcp:admin".into()), attempts: MAX_STEP_UPS });
    assert!(error.to_string().contains("after 2 authorization(s) asking for scope \"mcp:admin\""), "{error}");
}

#[test]
fn a_403_that_is_not_about_scope_is_not_stepped_up() {
    let other = challenge(r#"Bearer error="invalid_token", scope="mcp:basic""#);
    assert!(step_up(Some(&other), None, 0).is_err());
    let unnamed = challenge(r#"Bearer error="insufficient_scope""#);
    assert_eq!(step_up(Some(&unnamed), None, 0).unwrap_err(), OAuthError::ScopeRefused { scope: None, attempts: 0 });
    assert!(step_up(None, None, 0).is_err());
}
