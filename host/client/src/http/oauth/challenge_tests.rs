use super::*;

#[test]
fn the_specs_401_example_gives_the_metadata_url_and_the_scope() {
    let header = "Bearer resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource\",\r\n                         scope=\"files:read\"";
    let challenge = BearerChallenge::parse(header).unwrap();
    assert_eq!(
        challenge.resource_metadata.as_deref(),
        Some("https://mcp.example.com/.well-known/oauth-protected-resource")
    );
    assert_eq!(challenge.scope.as_deref(), Some("files:read"));
    assert_eq!(challenge.error, None);
    assert!(!challenge.is_insufficient_scope());
}

#[test]
fn the_specs_403_example_is_an_insufficient_scope() {
    let header = r#"Bearer error="insufficient_scope", scope="files:read files:write user:profile", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", error_description="Additional file write permission required""#;
    let challenge = BearerChallenge::parse(header).unwrap();
    assert!(challenge.is_insufficient_scope());
    assert_eq!(challenge.scope.as_deref(), Some("files:read files:write user:profile"));
    assert_eq!(challenge.error_description.as_deref(), Some("Additional file write permission required"));
}

#[test]
fn rfc_6750_example_with_a_realm_and_an_error() {
    let header = r#"Bearer realm="example", error="invalid_token", error_description="The access token expired""#;
    let challenge = BearerChallenge::parse(header).unwrap();
    assert_eq!(challenge.error.as_deref(), Some("invalid_token"));
    assert_eq!(challenge.error_description.as_deref(), Some("The access token expired"));
    assert_eq!(challenge.resource_metadata, None);
}

#[test]
fn several_challenges_are_told_apart_and_the_bearer_one_is_picked() {
    let header = r#"Newauth realm="apps", type=1, title="Login to \"apps\"", Basic realm="simple", bearer Scope=a , error = invalid_token"#;
    let all = parse_challenges(header);
    let schemes: Vec<&str> = all.iter().map(|c| c.scheme.as_str()).collect();
    assert_eq!(schemes, ["Newauth", "Basic", "bearer"]);
    assert_eq!(all[0].param("title"), Some(r#"Login to "apps""#), "escapes are undone");
    assert_eq!(all[0].param("type"), Some("1"));
    let bearer = BearerChallenge::parse(header).unwrap();
    assert_eq!(bearer.scope.as_deref(), Some("a"), "names are case-insensitive, values are tokens too");
    assert_eq!(bearer.error.as_deref(), Some("invalid_token"), "spaces around = are allowed");
}

#[test]
fn token68_challenges_and_bare_schemes_are_skipped_over() {
    let header = r#"Negotiate abc/+123==, Basic, Bearer scope="x""#;
    let all = parse_challenges(header);
    assert_eq!(all[0].token68.as_deref(), Some("abc/+123=="));
    assert_eq!(all[1], Challenge { scheme: "Basic".into(), ..Challenge::default() });
    assert_eq!(BearerChallenge::parse(header).unwrap().scope.as_deref(), Some("x"));
    assert_eq!(BearerChallenge::parse("Bearer").unwrap(), BearerChallenge::default());
}

#[test]
fn a_header_without_a_bearer_challenge_or_with_empty_values_gives_nothing() {
    assert_eq!(BearerChallenge::parse(r#"Basic realm="x""#), None);
    assert_eq!(BearerChallenge::parse(""), None);
    let empty = BearerChallenge::parse(r#"Bearer scope="", resource_metadata="  ""#).unwrap();
    assert_eq!((empty.scope, empty.resource_metadata), (None, None));
    let first = BearerChallenge::parse(r#"Bearer scope="a", scope="b""#).unwrap();
    assert_eq!(first.scope.as_deref(), Some("a"), "a repeated parameter counts once");
}

#[test]
fn garbage_never_panics_and_an_unterminated_quote_runs_to_the_end() {
    let unterminated = BearerChallenge::parse(r#"Bearer scope="a b"#).unwrap();
    assert_eq!(unterminated.scope.as_deref(), Some("a b"));
    let samples = [
        "",
        ",",
        ",,,",
        "=",
        "\"",
        "\\",
        "Bearer ==",
        "Bearer =x",
        "Bearer x=\"\\",
        "Bearer x=, y",
        "Bearer ,=,=,",
        "é Bearer",
        "Bearer scope=\"é\\é\"",
        "\u{0}\u{7f}",
        "Bearer realm=\"a\"garbage, scope=b",
        "Basic ===,",
    ];
    for sample in samples {
        let _ = parse_challenges(sample);
        let _ = BearerChallenge::parse(sample);
    }
    let valid = r#"Basic abc==, Bearer resource_metadata="https://x/\"y", scope="a b", error=insufficient_scope"#;
    for end in 0..=valid.len() {
        if valid.is_char_boundary(end) {
            let _ = BearerChallenge::parse(&valid[..end]);
        }
    }
    // Pseudo-random bytes from the header's own alphabet, reproducibly.
    let alphabet = b"Bearer scope=\"\\, \t=a\"";
    let mut seed: u32 = 12345;
    for _ in 0..2000 {
        let text: String = (0..24)
            .map(|_| {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                char::from(alphabet[(seed >> 16) as usize % alphabet.len()])
            })
            .collect();
        let _ = BearerChallenge::parse(&text);
    }
    let recovered = BearerChallenge::parse(r#"Bearer realm="a"garbage, scope=b"#).unwrap();
    assert_eq!(recovered.scope.as_deref(), Some("b"), "unreadable text is skipped up to the next comma");
}
