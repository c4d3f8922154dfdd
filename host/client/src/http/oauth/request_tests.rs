use super::*;
use crate::http::oauth::encoding::form_pairs;

fn server(extra: &str) -> AuthorizationServerMetadata {
    let body = format!(
        r#"{{"issuer":"https://auth.example.com","authorization_endpoint":"https://auth.example.com/authorize",
            "token_endpoint":"https://auth.example.com/token","code_challenge_methods_supported":["S256"]{extra}}}"#
    );
    AuthorizationServerMetadata::parse(&body, "https://auth.example.com").unwrap()
}

fn pkce() -> Pkce {
    Pkce::from_verifier("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk").unwrap()
}

fn query_of(url: &str) -> Vec<(String, String)> {
    form_pairs(url.split_once('?').unwrap().1)
}

fn pair(name: &str, value: &str) -> (String, String) {
    (name.to_owned(), value.to_owned())
}

#[test]
fn the_authorization_url_carries_pkce_state_scope_and_resource() {
    let (server, pkce) = (server(""), pkce());
    let request = AuthorizationRequest {
        server: &server,
        client_id: "https://app.example.com/oauth/client.json",
        redirect_uri: "https://app.example.com/oauth/callback",
        pkce: &pkce,
        state: "st4te",
        scope: Some("files:read files:write"),
        resource: "https://mcp.example.com",
    };
    let url = request.url().unwrap();
    assert!(
        url.starts_with("https://auth.example.com/authorize?response_type=code&client_id=https%3A%2F%2Fapp"),
        "{url}"
    );
    assert!(url.ends_with("&resource=https%3A%2F%2Fmcp.example.com"), "the spec's example encoding: {url}");
    assert_eq!(
        query_of(&url),
        [
            pair("response_type", "code"),
            pair("client_id", "https://app.example.com/oauth/client.json"),
            pair("redirect_uri", "https://app.example.com/oauth/callback"),
            pair("code_challenge", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"),
            pair("code_challenge_method", "S256"),
            pair("state", "st4te"),
            pair("scope", "files:read files:write"),
            pair("resource", "https://mcp.example.com"),
        ]
    );
    assert!(!url.contains("dBjftJeZ4CVP"), "the verifier stays home");
}

#[test]
fn without_a_scope_the_parameter_is_omitted_and_an_endpoint_query_is_kept() {
    let (server, pkce) = (server(""), pkce());
    let mut with_query = server.clone();
    with_query.authorization_endpoint = "https://auth.example.com/authorize?tenant=a".into();
    let request = |server: &AuthorizationServerMetadata| {
        AuthorizationRequest {
            server,
            client_id: "c",
            redirect_uri: "http://localhost:3000/cb",
            pkce: &pkce,
            state: "s",
            scope: Some(" "),
            resource: "https://mcp.example.com/mcp",
        }
        .url()
        .unwrap()
    };
    let url = request(&server);
    assert!(!query_of(&url).iter().any(|(name, _)| name == "scope"), "{url}");
    let url = request(&with_query);
    assert!(url.starts_with("https://auth.example.com/authorize?tenant=a&response_type=code&"), "{url}");
}

#[test]
fn a_redirect_uri_must_be_https_or_local() {
    let (server, pkce) = (server(""), pkce());
    let request = AuthorizationRequest {
        server: &server,
        client_id: "c",
        redirect_uri: "http://app.example.com/cb",
        pkce: &pkce,
        state: "s",
        scope: None,
        resource: "https://mcp.example.com",
    };
    assert!(matches!(request.url(), Err(OAuthError::NotHttps { .. })));
}

#[test]
fn a_public_client_trades_its_code_with_the_verifier_and_its_id_in_the_body() {
    let (server, pkce) = (server(""), pkce());
    let client = ClientRegistration::new("my client", None);
    let grant = Grant::AuthorizationCode { code: "c0de", redirect_uri: "https://app.example.com/cb", pkce: &pkce };
    let request = token_request(&server, &client, grant, "https://mcp.example.com/mcp").unwrap();
    assert_eq!(request.url, "https://auth.example.com/token");
    assert_eq!(request.authorization, None);
    assert_eq!(
        form_pairs(&request.body),
        [
            pair("grant_type", "authorization_code"),
            pair("code", "c0de"),
            pair("redirect_uri", "https://app.example.com/cb"),
            pair("code_verifier", "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            pair("resource", "https://mcp.example.com/mcp"),
            pair("client_id", "my client"),
        ]
    );
    assert_eq!(request.headers(), [("Content-Type", FORM_CONTENT_TYPE), ("Accept", "application/json")]);
}

#[test]
fn a_refresh_carries_the_refresh_token_and_the_resource() {
    let server = server(r#","token_endpoint_auth_methods_supported":["client_secret_post"]"#);
    let client = ClientRegistration::new("id", Some("secret".into()));
    let request = token_request(&server, &client, Grant::RefreshToken("r1"), "https://mcp.example.com").unwrap();
    assert_eq!(
        form_pairs(&request.body),
        [
            pair("grant_type", "refresh_token"),
            pair("refresh_token", "r1"),
            pair("resource", "https://mcp.example.com"),
            pair("client_id", "id"),
            pair("client_secret", "secret"),
        ]
    );
}

#[test]
fn client_secret_basic_form_encodes_before_base64_as_rfc_6749_says() {
    let client = ClientRegistration::new("s6BhdRkqt3", Some("7Fjfp0ZBr1KtDRbnfVdmIw".into()));
    let request = token_request(&server(""), &client, Grant::RefreshToken("r"), "https://mcp.example.com").unwrap();
    let authorization = request.authorization.as_deref().map(String::as_str);
    assert_eq!(authorization, Some("Basic czZCaGRSa3F0Mzo3RmpmcDBaQnIxS3REUmJuZlZkbUl3"), "RFC 6749 §2.3.1's example");
    assert!(!request.body.contains("client_secret") && !request.body.contains("client_id"));
    assert_eq!(request.headers()[2], ("Authorization", "Basic czZCaGRSa3F0Mzo3RmpmcDBaQnIxS3REUmJuZlZkbUl3"));
    let odd = ClientRegistration::new("a:b c", Some("p@ss/wörd".into()));
    let header = basic_authorization(&odd.client_id, "p@ss/wörd");
    assert_eq!(header.as_str(), format!("Basic {}", base64(b"a%3Ab+c:p%40ss%2Fw%C3%B6rd")));
    let shown = format!("{request:?}");
    assert!(!shown.contains("czZCaGRS") && !shown.contains("grant_type"), "{shown}");
}

#[test]
fn the_client_authentication_follows_the_registration_then_the_server() {
    let secret = |method: Option<&str>| {
        let mut client = ClientRegistration::new("id", Some("s".into()));
        client.token_endpoint_auth_method = method.map(str::to_owned);
        client
    };
    let list = |methods: &[&str]| methods.iter().map(|m| (*m).to_owned()).collect::<Vec<_>>();
    let public = ClientRegistration::new("id", None);
    assert_eq!(client_auth(&public, Some(&list(&["client_secret_basic"]))), ClientAuth::None);
    assert_eq!(client_auth(&secret(None), None), ClientAuth::SecretBasic, "RFC 8414's default");
    assert_eq!(client_auth(&secret(None), Some(&list(&["client_secret_post"]))), ClientAuth::SecretPost);
    assert_eq!(
        client_auth(&secret(None), Some(&list(&["client_secret_post", "client_secret_basic"]))),
        ClientAuth::SecretBasic
    );
    assert_eq!(client_auth(&secret(None), Some(&list(&["none"]))), ClientAuth::None);
    assert_eq!(client_auth(&secret(Some("client_secret_post")), None), ClientAuth::SecretPost, "the registration said");
    assert_eq!(client_auth(&secret(Some("none")), None), ClientAuth::None);
    assert_eq!(
        client_auth(&secret(Some("private_key_jwt")), Some(&list(&["client_secret_post"]))),
        ClientAuth::SecretPost
    );
}

#[test]
fn a_refresh_token_never_shows_in_debug() {
    assert_eq!(format!("{:?}", Grant::RefreshToken("r3fresh")), "RefreshToken(<redacted>)");
}
