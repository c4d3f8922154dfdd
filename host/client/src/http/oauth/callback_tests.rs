use super::*;

fn server(iss_supported: bool) -> AuthorizationServerMetadata {
    let body = serde_json::json!({
        "issuer": "https://auth.example.com",
        "authorization_endpoint": "https://auth.example.com/authorize",
        "token_endpoint": "https://auth.example.com/token",
        "code_challenge_methods_supported": ["S256"],
        "authorization_response_iss_parameter_supported": iss_supported,
    });
    AuthorizationServerMetadata::parse(&body.to_string(), "https://auth.example.com").unwrap()
}

#[test]
fn the_code_comes_back_with_the_state() {
    let code = authorization_code("?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz", "xyz", &server(false)).unwrap();
    assert_eq!(code.as_str(), "SplxlOBeZQQYbYS6WxSbIA");
    let encoded = authorization_code("code=a%2Fb&state=x+y", "x y", &server(false)).unwrap();
    assert_eq!(encoded.as_str(), "a/b");
}

#[test]
fn an_answer_with_another_state_or_none_is_discarded() {
    for query in ["?code=c&state=other", "?code=c", "?error=access_denied"] {
        assert_eq!(authorization_code(query, "xyz", &server(false)).unwrap_err(), OAuthError::StateMismatch, "{query}");
    }
    assert_eq!(authorization_code("?code=c&state=", "", &server(false)).unwrap_err(), OAuthError::StateMismatch);
}

#[test]
fn an_iss_must_be_the_servers_and_present_when_promised() {
    let right = "?code=c&state=s&iss=https%3A%2F%2Fauth.example.com";
    assert!(authorization_code(right, "s", &server(true)).is_ok());
    assert!(authorization_code(right, "s", &server(false)).is_ok());
    let wrong = "?code=c&state=s&iss=https%3A%2F%2Fevil.example.com";
    for promised in [true, false] {
        let error = authorization_code(wrong, "s", &server(promised)).unwrap_err();
        assert!(matches!(&error, OAuthError::IssuerParameterMismatch { found: Some(_), .. }), "{error}");
    }
    let missing = authorization_code("?code=c&state=s", "s", &server(true)).unwrap_err();
    assert!(missing.to_string().contains("lacks the iss"), "{missing}");
}

#[test]
fn an_error_answer_says_what_the_server_said() {
    let error = authorization_code("?error=access_denied&error_description=User+said+no&state=s", "s", &server(false))
        .unwrap_err();
    assert!(matches!(&error, OAuthError::Refused { error, .. } if error == "access_denied"));
    assert!(error.to_string().contains("User said no") && error.to_string().contains("declined"), "{error}");
    let neither = authorization_code("?state=s", "s", &server(false)).unwrap_err();
    assert!(matches!(neither, OAuthError::BadDocument { .. }));
}
