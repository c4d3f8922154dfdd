use super::*;

fn server(extra: &str) -> AuthorizationServerMetadata {
    let body = format!(
        r#"{{"issuer":"https://auth.example.com","authorization_endpoint":"https://auth.example.com/authorize",
            "token_endpoint":"https://auth.example.com/token","code_challenge_methods_supported":["S256"]{extra}}}"#
    );
    AuthorizationServerMetadata::parse(&body, "https://auth.example.com").unwrap()
}

const CIMD: &str = "https://app.example.com/oauth/client-metadata.json";

#[test]
fn a_configured_client_comes_first() {
    let both = server(
        r#","client_id_metadata_document_supported":true,"registration_endpoint":"https://auth.example.com/register""#,
    );
    assert_eq!(choose_registration(&both, true, Some(CIMD)).unwrap(), Registration::Configured);
}

#[test]
fn a_metadata_document_comes_next_when_the_server_takes_them() {
    let both = server(
        r#","client_id_metadata_document_supported":true,"registration_endpoint":"https://auth.example.com/register""#,
    );
    let Registration::MetadataDocument(client) = choose_registration(&both, false, Some(CIMD)).unwrap() else {
        panic!()
    };
    assert_eq!(client.client_id, CIMD);
    assert_eq!(client.client_secret, None);
    let dynamic = choose_registration(&both, false, None).unwrap();
    assert_eq!(
        dynamic,
        Registration::Dynamic { endpoint: "https://auth.example.com/register".into() },
        "the app has none"
    );
    let without = server(r#","registration_endpoint":"https://auth.example.com/register""#);
    assert!(matches!(choose_registration(&without, false, Some(CIMD)).unwrap(), Registration::Dynamic { .. }));
}

#[test]
fn with_neither_the_error_says_what_to_configure() {
    let error = choose_registration(&server(""), false, Some(CIMD)).unwrap_err();
    assert!(matches!(error, OAuthError::NoRegistration { .. }));
    assert!(error.to_string().contains("configure its client ID"), "{error}");
}

#[test]
fn a_metadata_document_url_must_be_https_with_a_path() {
    let cimd = server(r#","client_id_metadata_document_supported":true"#);
    for bad in [
        "http://app.example.com/client.json",
        "https://app.example.com",
        "https://app.example.com/",
        "https://app.example.com/c.json#x",
    ] {
        assert!(matches!(choose_registration(&cimd, false, Some(bad)), Err(OAuthError::BadUrl { .. })), "{bad}");
    }
}

fn metadata() -> ClientMetadata {
    ClientMetadata {
        client_name: "mcp-worker".into(),
        redirect_uris: vec!["https://app.example.com/oauth/callback".into()],
        client_uri: Some("https://app.example.com".into()),
    }
}

#[test]
fn the_dynamic_registration_asks_for_a_public_code_client() {
    let body: serde_json::Value = serde_json::from_str(&metadata().registration_request().unwrap()).unwrap();
    assert_eq!(
        body,
        serde_json::json!({
            "client_name": "mcp-worker",
            "redirect_uris": ["https://app.example.com/oauth/callback"],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",
            "client_uri": "https://app.example.com",
        })
    );
}

#[test]
fn the_metadata_document_names_its_own_url_as_client_id() {
    let document: serde_json::Value = serde_json::from_str(&metadata().metadata_document(CIMD).unwrap()).unwrap();
    assert_eq!(document["client_id"], CIMD);
    assert_eq!(document["client_name"], "mcp-worker");
    assert_eq!(document["redirect_uris"][0], "https://app.example.com/oauth/callback");
    assert!(metadata().metadata_document("https://app.example.com").is_err());
}

#[test]
fn redirect_uris_must_be_https_or_local() {
    let mut local = metadata();
    local.redirect_uris = vec!["http://localhost:3000/callback".into(), "http://127.0.0.1:3000/callback".into()];
    assert!(local.registration_request().is_ok());
    local.redirect_uris.push("http://app.example.com/callback".into());
    assert!(matches!(local.registration_request(), Err(OAuthError::NotHttps { .. })));
    local.redirect_uris.clear();
    assert!(local.registration_request().is_err());
}

#[test]
fn a_registration_answer_gives_the_client_and_its_secret_if_any() {
    let public =
        parse_registration_response(201, r#"{"client_id":"abc","token_endpoint_auth_method":"none"}"#).unwrap();
    assert_eq!((public.client_id.as_str(), public.client_secret.is_none()), ("abc", true));
    let confidential = parse_registration_response(
        201,
        r#"{"client_id":"abc","client_secret":"s3cret","token_endpoint_auth_method":"client_secret_basic","client_id_issued_at":1}"#,
    )
    .unwrap();
    assert_eq!(confidential.client_secret.as_deref().map(String::as_str), Some("s3cret"));
    assert_eq!(confidential.token_endpoint_auth_method.as_deref(), Some("client_secret_basic"));
    let shown = format!("{confidential:?}");
    assert!(!shown.contains("s3cret") && shown.contains("abc"), "{shown}");
}

#[test]
fn a_refused_or_broken_registration_is_a_clear_error() {
    let refused =
        parse_registration_response(400, r#"{"error":"invalid_redirect_uri","error_description":"not allowed"}"#);
    let error = refused.unwrap_err();
    assert!(matches!(&error, OAuthError::Refused { error, .. } if error == "invalid_redirect_uri"));
    assert!(error.to_string().contains("not allowed") && error.to_string().contains("redirect page"), "{error}");
    assert_eq!(
        parse_registration_response(503, "<html>down</html>").unwrap_err(),
        OAuthError::HttpStatus { endpoint: "registration endpoint", status: 503 }
    );
    assert!(matches!(parse_registration_response(201, r#"{"client_id":""}"#), Err(OAuthError::BadDocument { .. })));
    assert!(matches!(parse_registration_response(201, "nope"), Err(OAuthError::BadDocument { .. })));
}
