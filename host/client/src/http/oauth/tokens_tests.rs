use super::*;

const NOW: u64 = 1_700_000_000_000;

#[test]
fn a_token_answer_is_read_with_its_expiry() {
    let body = r#"{"access_token":"2YotnFZFEjr1zCsicMWpAA","token_type":"bearer","expires_in":3600,
        "refresh_token":"tGzv3JOkF0XG5Qx2TlKWIA","scope":"files:read","example_parameter":"example_value"}"#;
    let tokens = Tokens::parse(200, body, NOW).unwrap();
    assert_eq!(tokens.access_token.as_str(), "2YotnFZFEjr1zCsicMWpAA");
    assert_eq!(tokens.refresh_token.as_deref().map(String::as_str), Some("tGzv3JOkF0XG5Qx2TlKWIA"));
    assert_eq!(tokens.expires_at_ms, Some(NOW + 3_600_000));
    assert_eq!(tokens.scope.as_deref(), Some("files:read"));
    assert_eq!(tokens.authorization_header().as_str(), "Bearer 2YotnFZFEjr1zCsicMWpAA");
}

#[test]
fn the_token_type_must_be_bearer_in_any_case() {
    for kind in ["Bearer", "BEARER", "bearer"] {
        let body = format!(r#"{{"access_token":"a","token_type":"{kind}"}}"#);
        assert!(Tokens::parse(200, &body, NOW).is_ok(), "{kind}");
    }
    let dpop = Tokens::parse(200, r#"{"access_token":"a","token_type":"DPoP"}"#, NOW).unwrap_err();
    assert_eq!(dpop, OAuthError::UnsupportedTokenType { token_type: "DPoP".into() });
    let untyped = Tokens::parse(200, r#"{"access_token":"a"}"#, NOW).unwrap_err();
    assert!(untyped.to_string().contains("token_type"), "{untyped}");
    let empty = Tokens::parse(200, r#"{"access_token":"","token_type":"Bearer"}"#, NOW).unwrap_err();
    assert!(empty.to_string().contains("access_token"), "{empty}");
}

#[test]
fn expires_in_may_be_a_string_and_may_be_absent() {
    let text = Tokens::parse(200, r#"{"access_token":"a","token_type":"Bearer","expires_in":"60"}"#, NOW).unwrap();
    assert_eq!(text.expires_at_ms, Some(NOW + 60_000));
    let float = Tokens::parse(200, r#"{"access_token":"a","token_type":"Bearer","expires_in":59.9}"#, NOW).unwrap();
    assert_eq!(float.expires_at_ms, Some(NOW + 59_000));
    let none = Tokens::parse(200, r#"{"access_token":"a","token_type":"Bearer","expires_in":null}"#, NOW).unwrap();
    assert_eq!(none.expires_at_ms, None);
    assert!(!none.needs_refresh(u64::MAX, u64::MAX), "an unknown lifetime is never refreshed ahead");
    let huge =
        Tokens::parse(200, r#"{"access_token":"a","token_type":"Bearer","expires_in":18446744073709551615}"#, NOW)
            .unwrap();
    assert_eq!(huge.expires_at_ms, Some(u64::MAX), "saturates");
}

#[test]
fn a_token_needs_refresh_within_the_margin_of_its_expiry() {
    let tokens = Tokens::parse(200, r#"{"access_token":"a","token_type":"Bearer","expires_in":3600}"#, NOW).unwrap();
    let expiry = NOW + 3_600_000;
    assert!(!tokens.needs_refresh(NOW, 60_000));
    assert!(!tokens.needs_refresh(expiry - 60_001, 60_000));
    assert!(tokens.needs_refresh(expiry - 60_000, 60_000));
    assert!(tokens.needs_refresh(expiry + 1, 0), "an expired token");
}

#[test]
fn an_oauth_error_answer_is_a_clear_error() {
    let body = r#"{"error":"invalid_grant","error_description":"The refresh token\u0007 has expired"}"#;
    let error = Tokens::parse(400, body, NOW).unwrap_err();
    assert!(error.requires_sign_in());
    let text = error.to_string();
    assert!(text.contains("token endpoint refused: invalid_grant (The refresh token has expired)"), "{text}");
    assert!(text.contains("authorize again"), "{text}");
    let client = Tokens::parse(401, r#"{"error":"invalid_client"}"#, NOW).unwrap_err();
    assert!(!client.requires_sign_in() && client.to_string().contains("client ID and secret"), "{client}");
    assert_eq!(
        Tokens::parse(502, "Bad gateway", NOW).unwrap_err(),
        OAuthError::HttpStatus { endpoint: "token endpoint", status: 502 }
    );
    assert!(matches!(Tokens::parse(200, "<html>", NOW), Err(OAuthError::BadDocument { .. })));
    let long = format!(r#"{{"error":"x","error_description":"{}"}}"#, "d".repeat(1000));
    let OAuthError::Refused { description: Some(description), .. } = Tokens::parse(400, &long, NOW).unwrap_err() else {
        panic!()
    };
    assert_eq!(description.chars().count(), 301, "300 characters and an ellipsis");
}

#[test]
fn a_refresh_keeps_the_old_refresh_token_and_scope_unless_replaced() {
    let first = r#"{"access_token":"a1","token_type":"Bearer","refresh_token":"r1","scope":"s1"}"#;
    let first = Tokens::parse(200, first, NOW).unwrap();
    let bare = Tokens::parse(200, r#"{"access_token":"a2","token_type":"Bearer"}"#, NOW).unwrap().after_refresh(&first);
    assert_eq!((bare.access_token.as_str(), bare.refresh_token.as_deref().map(String::as_str)), ("a2", Some("r1")));
    assert_eq!(bare.scope.as_deref(), Some("s1"));
    let rotated = r#"{"access_token":"a3","token_type":"Bearer","refresh_token":"r2","scope":"s2"}"#;
    let rotated = Tokens::parse(200, rotated, NOW).unwrap().after_refresh(&first);
    assert_eq!(
        (rotated.refresh_token.as_deref().map(String::as_str), rotated.scope.as_deref()),
        (Some("r2"), Some("s2"))
    );
}

#[test]
fn tokens_never_show_in_debug() {
    let body = r#"{"access_token":"acc3ss","token_type":"Bearer","refresh_token":"r3fresh","scope":"s"}"#;
    let shown = format!("{:?}", Tokens::parse(200, body, NOW).unwrap());
    assert!(!shown.contains("acc3ss") && !shown.contains("r3fresh") && shown.contains("redacted"), "{shown}");
}
