use super::*;

#[test]
fn base64_matches_rfc_4648_test_vectors() {
    let vectors = [
        ("", ""),
        ("f", "Zg=="),
        ("fo", "Zm8="),
        ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="),
        ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ];
    for (plain, encoded) in vectors {
        assert_eq!(base64(plain.as_bytes()), encoded);
        assert_eq!(base64url(plain.as_bytes()), encoded.trim_end_matches('='));
    }
    assert_eq!(base64(&[0xfb, 0xff]), "+/8=");
    assert_eq!(base64url(&[0xfb, 0xff]), "-_8");
}

#[test]
fn form_encoding_keeps_only_unreserved_bytes_and_turns_spaces_into_plus() {
    assert_eq!(form_encode("AZaz09*-._"), "AZaz09*-._");
    assert_eq!(form_encode("a b:c/d?e&f=g~"), "a+b%3Ac%2Fd%3Fe%26f%3Dg%7E");
    assert_eq!(form_encode("é"), "%C3%A9");
    assert_eq!(form_body(&[("grant_type", "refresh_token"), ("scope", "a b")]), "grant_type=refresh_token&scope=a+b");
}

#[test]
fn form_pairs_decode_what_form_encoding_wrote_and_survive_garbage() {
    let pairs = form_pairs("?code=a%2Bb+c&state=x%3D&empty=&flag&&bad=%zz%4");
    assert_eq!(
        pairs,
        vec![
            ("code".to_owned(), "a+b c".to_owned()),
            ("state".to_owned(), "x=".to_owned()),
            ("empty".to_owned(), String::new()),
            ("flag".to_owned(), String::new()),
            ("bad".to_owned(), "%zz%4".to_owned()),
        ]
    );
    assert_eq!(form_pairs("x=%C3%A9%FF"), vec![("x".to_owned(), "é\u{fffd}".to_owned())]);
    assert!(form_pairs("").is_empty());
}
