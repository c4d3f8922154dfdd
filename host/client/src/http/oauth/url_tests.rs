use super::*;

#[test]
fn a_url_is_split_with_scheme_and_host_lowercased_and_the_default_port_dropped() {
    let url = HttpUrl::parse("HTTPS://MCP.Example.com:443/Public/MCP?x=1#top").unwrap();
    assert_eq!(url.scheme, "https");
    assert_eq!(url.host, "mcp.example.com");
    assert_eq!(url.port, None);
    assert_eq!(url.path, "/Public/MCP", "the path keeps its case");
    assert_eq!(url.query.as_deref(), Some("x=1"));
    assert!(url.has_fragment);
    assert_eq!(url.origin(), "https://mcp.example.com");
    let local = HttpUrl::parse("http://[::1]:8080").unwrap();
    assert_eq!((local.host.as_str(), local.port, local.path.as_str()), ("[::1]", Some(8080), ""));
    assert_eq!(local.origin(), "http://[::1]:8080");
}

#[test]
fn what_is_not_an_absolute_http_url_is_refused_with_a_reason() {
    for (text, reason) in [
        ("", "empty"),
        ("mcp.example.com", "not absolute"),
        ("ftp://x/y", "scheme"),
        ("https://", "no host"),
        ("https://:443/x", "no host"),
        ("https://user:pw@x.example/", "user name"),
        ("https://x.example:99999/", "port"),
        ("https://x.example:+80/", "port"),
        ("https://x.example/a b", "spaces"),
        ("https://ex\u{e4}mple.com/", "ASCII"),
        ("https://[::1/", "closing"),
        ("https://[::1]x/", "follows"),
    ] {
        let error = HttpUrl::parse(text).unwrap_err();
        assert!(error.contains(reason), "{text:?}: {error}");
    }
}

#[test]
fn only_this_machine_may_use_plain_http() {
    for secure in
        ["https://x.example", "http://localhost:3000/cb", "http://127.0.0.1/", "http://127.1.2.3", "http://[::1]:1/"]
    {
        assert!(HttpUrl::parse(secure).unwrap().is_secure(), "{secure}");
    }
    for insecure in
        ["http://x.example", "http://localhost.evil.example", "http://127.0.0.1.evil.example", "http://10.0.0.1"]
    {
        assert!(!HttpUrl::parse(insecure).unwrap().is_secure(), "{insecure}");
    }
    assert!(matches!(parse_secure_url("token endpoint", "http://a.example/t"), Err(OAuthError::NotHttps { .. })));
}

#[test]
fn a_resource_covers_its_own_url_and_those_below_it_on_the_same_origin() {
    let covers =
        |resource: &str, server: &str| HttpUrl::parse(resource).unwrap().covers(&HttpUrl::parse(server).unwrap());
    assert!(covers("https://mcp.example.com/mcp", "https://mcp.example.com/mcp"));
    assert!(covers("HTTPS://MCP.example.com:443/mcp/", "https://mcp.example.com/mcp"));
    assert!(covers("https://mcp.example.com", "https://mcp.example.com/public/mcp"));
    assert!(covers("https://mcp.example.com/", "https://mcp.example.com/public/mcp"));
    assert!(covers("https://mcp.example.com/public", "https://mcp.example.com/public/mcp"));
    assert!(!covers("https://mcp.example.com/pub", "https://mcp.example.com/public/mcp"), "a segment boundary");
    assert!(!covers("https://mcp.example.com/mcp/deeper", "https://mcp.example.com/mcp"));
    assert!(!covers("https://evil.example.com/mcp", "https://mcp.example.com/mcp"));
    assert!(!covers("http://mcp.example.com/mcp", "https://mcp.example.com/mcp"));
    assert!(!covers("https://mcp.example.com:8443/mcp", "https://mcp.example.com/mcp"));
    assert!(!covers("https://mcp.example.com/mcp#fragment", "https://mcp.example.com/mcp"));
    assert!(covers("https://mcp.example.com/mcp?t=1", "https://mcp.example.com/mcp?t=1"));
    assert!(!covers("https://mcp.example.com/mcp?t=1", "https://mcp.example.com/mcp?t=2"));
}

#[test]
fn the_well_known_suffix_goes_between_the_host_and_the_path() {
    let url = HttpUrl::parse("https://example.com/public/mcp/?x=1").unwrap();
    assert_eq!(
        url.well_known("oauth-protected-resource"),
        "https://example.com/.well-known/oauth-protected-resource/public/mcp?x=1"
    );
}
