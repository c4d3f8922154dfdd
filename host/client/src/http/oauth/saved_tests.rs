use super::*;

const URL: &str = "https://mcp.example.com/mcp";

fn saved() -> SavedAuthorization {
    let metadata = r#"{"issuer":"https://auth.example.com","authorization_endpoint":"https://auth.example.com/authorize",
        "token_endpoint":"https://auth.example.com/token","code_challenge_methods_supported":["S256"]}"#;
    let server = AuthorizationServerMetadata::parse(metadata, "https://auth.example.com").unwrap();
    let mut client = ClientRegistration::new("client-1", Some("s3cret".into()));
    client.token_endpoint_auth_method = Some("client_secret_post".into());
    let answer =
        r#"{"access_token":"at-1","token_type":"Bearer","expires_in":60,"refresh_token":"rt-1","scope":"a b"}"#;
    SavedAuthorization {
        server_url: URL.into(),
        resource: URL.into(),
        scope: Some("a".into()),
        server,
        client,
        tokens: Tokens::parse(200, answer, 1_000).unwrap(),
    }
}

#[test]
fn a_saved_authorization_reads_back_whole() {
    let original = saved();
    let text = original.to_json();
    assert_eq!(SavedAuthorization::from_json(&text, URL).unwrap(), original);
    let mut public = original.clone();
    public.client = ClientRegistration::new("public", None);
    public.tokens.refresh_token = None;
    public.tokens.expires_at_ms = None;
    assert_eq!(SavedAuthorization::from_json(&public.to_json(), URL).unwrap(), public);
}

#[test]
fn it_is_used_only_for_the_url_it_was_made_for() {
    let text = saved().to_json();
    let error = SavedAuthorization::from_json(&text, "https://mcp.example.com/other").unwrap_err();
    assert!(error.to_string().contains("made for https://mcp.example.com/mcp"), "{error}");
    assert!(SavedAuthorization::from_json(&text, "https://evil.example/mcp").is_err());
}

#[test]
fn records_of_another_layout_or_broken_ones_are_refused() {
    let text = saved().to_json().replace(r#""version":1"#, r#""version":2"#);
    assert!(SavedAuthorization::from_json(&text, URL).unwrap_err().to_string().contains("layout 2"));
    for broken in ["", "null", "{}", "[1]", r#"{"version":1}"#] {
        assert!(SavedAuthorization::from_json(broken, URL).is_err(), "{broken}");
    }
    let empty = saved().to_json().replace(r#""accessToken":"at-1""#, r#""accessToken":"""#);
    assert!(SavedAuthorization::from_json(&empty, URL).unwrap_err().to_string().contains("no access token"));
}

#[test]
fn debug_never_shows_a_token_or_secret() {
    let shown = format!("{:?}", saved());
    for secret in ["at-1", "rt-1", "s3cret"] {
        assert!(!shown.contains(secret), "{secret} in {shown}");
    }
}
