use super::*;

fn challenge(header: &str) -> BearerChallenge {
    BearerChallenge::parse(header).unwrap()
}

#[test]
fn resource_metadata_comes_from_the_challenge_when_it_names_a_usable_url() {
    let named = challenge(r#"Bearer resource_metadata="https://mcp.example.com/custom/prm.json""#);
    let urls = protected_resource_metadata_urls("https://mcp.example.com/public/mcp", Some(&named)).unwrap();
    assert_eq!(urls, ["https://mcp.example.com/custom/prm.json"]);
    let unusable = challenge(r#"Bearer resource_metadata="/relative""#);
    let urls = protected_resource_metadata_urls("https://mcp.example.com/mcp", Some(&unusable)).unwrap();
    assert_eq!(urls.len(), 2, "an unusable URL counts as none: {urls:?}");
}

#[test]
fn without_one_the_path_based_well_known_uri_comes_before_the_root_one() {
    let urls = protected_resource_metadata_urls("https://Example.com/public/mcp", None).unwrap();
    assert_eq!(
        urls,
        [
            "https://example.com/.well-known/oauth-protected-resource/public/mcp",
            "https://example.com/.well-known/oauth-protected-resource",
        ]
    );
    let bare = challenge(r#"Bearer scope="x""#);
    let urls = protected_resource_metadata_urls("http://localhost:3000/mcp/", Some(&bare)).unwrap();
    assert_eq!(
        urls,
        [
            "http://localhost:3000/.well-known/oauth-protected-resource/mcp",
            "http://localhost:3000/.well-known/oauth-protected-resource"
        ]
    );
    for root in ["https://example.com", "https://example.com/"] {
        let urls = protected_resource_metadata_urls(root, None).unwrap();
        assert_eq!(urls, ["https://example.com/.well-known/oauth-protected-resource"], "a server at the root has one");
    }
    assert!(matches!(protected_resource_metadata_urls("example.com/mcp", None), Err(OAuthError::BadUrl { .. })));
}

#[test]
fn an_issuer_with_a_path_is_tried_at_three_places_in_the_specs_order() {
    let urls = authorization_server_metadata_urls("https://auth.example.com/tenant1").unwrap();
    assert_eq!(
        urls,
        [
            "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
            "https://auth.example.com/.well-known/openid-configuration/tenant1",
            "https://auth.example.com/tenant1/.well-known/openid-configuration",
        ]
    );
    let with_slash = authorization_server_metadata_urls("https://auth.example.com/tenant1/").unwrap();
    assert_eq!(with_slash, urls, "the terminating slash is removed first (RFC 8414 §3.1)");
}

#[test]
fn an_issuer_without_a_path_is_tried_at_two() {
    for issuer in ["https://auth.example.com", "https://auth.example.com/"] {
        assert_eq!(
            authorization_server_metadata_urls(issuer).unwrap(),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server",
                "https://auth.example.com/.well-known/openid-configuration"
            ]
        );
    }
}

#[test]
fn an_issuer_must_be_https_without_query_or_fragment() {
    assert!(matches!(authorization_server_metadata_urls("http://auth.example.com"), Err(OAuthError::NotHttps { .. })));
    assert!(authorization_server_metadata_urls("http://127.0.0.1:9000").is_ok(), "plain http on this machine");
    assert!(matches!(authorization_server_metadata_urls("https://a.example/?t=1"), Err(OAuthError::BadUrl { .. })));
    assert!(matches!(authorization_server_metadata_urls("https://a.example/#f"), Err(OAuthError::BadUrl { .. })));
}

#[test]
fn only_a_4xx_sends_the_search_to_the_next_url() {
    assert!(worth_trying_next(404) && worth_trying_next(400) && worth_trying_next(401));
    assert!(!worth_trying_next(200) && !worth_trying_next(500) && !worth_trying_next(302));
}

#[test]
fn protected_resource_metadata_for_the_server_is_read_and_its_resource_kept_as_published() {
    let body = r#"{"resource":"https://mcp.example.com","authorization_servers":["https://auth.example.com"],
        "scopes_supported":["files:read"],"bearer_methods_supported":["header"]}"#;
    let metadata = ProtectedResourceMetadata::parse(body, "https://MCP.example.com/mcp").unwrap();
    assert_eq!(metadata.resource, "https://mcp.example.com", "not re-serialized with a trailing slash");
    assert_eq!(metadata.authorization_servers, ["https://auth.example.com"]);
    assert_eq!(metadata.scopes_supported, Some(vec!["files:read".to_owned()]));
}

#[test]
fn protected_resource_metadata_for_another_resource_is_refused() {
    let body = r#"{"resource":"https://evil.example.com/mcp","authorization_servers":["https://auth.example.com"]}"#;
    let error = ProtectedResourceMetadata::parse(body, "http://localhost:3000/mcp").unwrap_err();
    assert!(matches!(error, OAuthError::ResourceMismatch { .. }), "{error}");
    assert!(error.to_string().contains("evil.example.com"), "{error}");
    let sibling = r#"{"resource":"https://mcp.example.com/other","authorization_servers":["https://a.example"]}"#;
    assert!(ProtectedResourceMetadata::parse(sibling, "https://mcp.example.com/mcp").is_err());
    let not_a_url = r#"{"resource":"urn:example:mcp","authorization_servers":["https://a.example"]}"#;
    assert!(ProtectedResourceMetadata::parse(not_a_url, "https://mcp.example.com/mcp").is_err());
}

#[test]
fn protected_resource_metadata_without_a_resource_or_an_authorization_server_is_unusable() {
    let server = "https://mcp.example.com/mcp";
    for body in [r#"{"authorization_servers":["https://a.example"]}"#, "not json", "[]", r#"{"resource":1}"#] {
        assert!(
            matches!(ProtectedResourceMetadata::parse(body, server), Err(OAuthError::BadDocument { .. })),
            "{body}"
        );
    }
    let none = r#"{"resource":"https://mcp.example.com/mcp","authorization_servers":[]}"#;
    let error = ProtectedResourceMetadata::parse(none, server).unwrap_err();
    assert!(error.to_string().contains("names no authorization server"), "{error}");
}

fn as_metadata(issuer: &str, extra: &str) -> String {
    format!(
        r#"{{"issuer":"{issuer}","authorization_endpoint":"{issuer}/authorize","token_endpoint":"{issuer}/token",
            "response_types_supported":["code"]{extra}}}"#
    )
}

#[test]
fn authorization_server_metadata_with_pkce_s256_is_read() {
    let body = as_metadata(
        "https://auth.example.com/tenant1",
        r#","code_challenge_methods_supported":["plain","S256"],"registration_endpoint":"https://auth.example.com/register",
           "client_id_metadata_document_supported":true,"token_endpoint_auth_methods_supported":["none"],
           "grant_types_supported":["authorization_code","refresh_token"],"scopes_supported":["openid"]"#,
    );
    let metadata = AuthorizationServerMetadata::parse(&body, "https://auth.example.com/tenant1").unwrap();
    assert_eq!(metadata.token_endpoint, "https://auth.example.com/tenant1/token");
    assert_eq!(metadata.registration_endpoint.as_deref(), Some("https://auth.example.com/register"));
    assert!(metadata.client_id_metadata_document_supported);
    assert!(!metadata.authorization_response_iss_parameter_supported);
    assert_eq!(metadata.token_endpoint_auth_methods_supported, Some(vec!["none".to_owned()]));
}

#[test]
fn authorization_server_metadata_for_another_issuer_is_refused() {
    let body = as_metadata("https://evil.example.com", r#","code_challenge_methods_supported":["S256"]"#);
    let error = AuthorizationServerMetadata::parse(&body, "http://localhost:9000").unwrap_err();
    assert!(matches!(error, OAuthError::IssuerMismatch { .. }), "{error}");
    let tenant = as_metadata("https://auth.example.com/tenant2", r#","code_challenge_methods_supported":["S256"]"#);
    assert!(AuthorizationServerMetadata::parse(&tenant, "https://auth.example.com/tenant1").is_err());
    let slash = as_metadata("https://auth.example.com", r#","code_challenge_methods_supported":["S256"]"#);
    assert!(AuthorizationServerMetadata::parse(&slash, "https://Auth.example.com/").is_ok(), "the same URL");
}

#[test]
fn an_authorization_server_without_pkce_s256_is_refused() {
    for extra in [
        "",
        r#","code_challenge_methods_supported":[]"#,
        r#","code_challenge_methods_supported":["plain"]"#,
        r#","code_challenge_methods_supported":["s256"]"#,
    ] {
        let body = as_metadata("https://auth.example.com", extra);
        let error = AuthorizationServerMetadata::parse(&body, "https://auth.example.com").unwrap_err();
        assert!(matches!(error, OAuthError::PkceUnsupported { .. }), "{extra}: {error}");
        assert!(error.to_string().contains("S256"), "{error}");
    }
}

#[test]
fn authorization_server_endpoints_must_be_https_and_present() {
    let issuer = "https://auth.example.com";
    let plain = r#"{"issuer":"https://auth.example.com","authorization_endpoint":"http://auth.example.com/authorize",
        "token_endpoint":"https://auth.example.com/token","code_challenge_methods_supported":["S256"]}"#;
    assert!(matches!(AuthorizationServerMetadata::parse(plain, issuer), Err(OAuthError::NotHttps { .. })));
    let registration = as_metadata(
        issuer,
        r#","code_challenge_methods_supported":["S256"],"registration_endpoint":"http://a.example/r""#,
    );
    assert!(matches!(AuthorizationServerMetadata::parse(&registration, issuer), Err(OAuthError::NotHttps { .. })));
    let no_token = r#"{"issuer":"https://auth.example.com","authorization_endpoint":"https://auth.example.com/a",
        "code_challenge_methods_supported":["S256"]}"#;
    let error = AuthorizationServerMetadata::parse(no_token, issuer).unwrap_err();
    assert!(error.to_string().contains("token_endpoint"), "{error}");
    let fragment = r#"{"issuer":"https://auth.example.com","authorization_endpoint":"https://auth.example.com/a#x",
        "token_endpoint":"https://auth.example.com/token","code_challenge_methods_supported":["S256"]}"#;
    assert!(matches!(AuthorizationServerMetadata::parse(fragment, issuer), Err(OAuthError::BadUrl { .. })));
    let local = as_metadata("http://localhost:9000", r#","code_challenge_methods_supported":["S256"]"#);
    assert!(AuthorizationServerMetadata::parse(&local, "http://localhost:9000").is_ok());
}

#[test]
fn an_authorization_server_without_the_code_grant_is_refused() {
    let body = as_metadata(
        "https://a.example",
        r#","code_challenge_methods_supported":["S256"],"grant_types_supported":["client_credentials"]"#,
    );
    assert!(matches!(
        AuthorizationServerMetadata::parse(&body, "https://a.example"),
        Err(OAuthError::GrantUnsupported { .. })
    ));
}
