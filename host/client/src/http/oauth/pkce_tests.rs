use super::*;

/// RFC 7636 Appendix B: the octets, the verifier they make, and its S256 challenge.
const APPENDIX_B_OCTETS: [u8; 32] = [
    116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77, 105, 214, 191, 240,
    91, 88, 5, 88, 83, 132, 141, 121,
];
const APPENDIX_B_VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const APPENDIX_B_CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

#[test]
fn rfc_7636_appendix_b_vector() {
    let pkce = Pkce::from_random(&APPENDIX_B_OCTETS).unwrap();
    assert_eq!(pkce.verifier(), APPENDIX_B_VERIFIER);
    assert_eq!(pkce.challenge(), APPENDIX_B_CHALLENGE);
    assert_eq!(s256_challenge(APPENDIX_B_VERIFIER), APPENDIX_B_CHALLENGE);
    assert_eq!(Pkce::from_verifier(APPENDIX_B_VERIFIER), Some(pkce));
}

#[test]
fn a_verifier_is_43_to_128_unreserved_characters() {
    assert_eq!(Pkce::from_random(&[7; 32]).unwrap().verifier().len(), 43);
    assert_eq!(Pkce::from_random(&[7; 96]).unwrap().verifier().len(), 128);
    assert_eq!(Pkce::from_random(&[7; 500]).unwrap().verifier().len(), 128, "extra bytes are not used");
    let error = Pkce::from_random(&[7; 31]).unwrap_err();
    assert_eq!(error, OAuthError::NotEnoughRandomness { needed: 32, got: 31 });
    let verifier = Pkce::from_random(&[0xff; 64]).unwrap();
    assert!(verifier.verifier().bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~".contains(&b)));
    assert_eq!(Pkce::from_verifier(&"a".repeat(42)), None);
    assert_eq!(Pkce::from_verifier(&"a".repeat(129)), None);
    assert_eq!(Pkce::from_verifier(&format!("{}+", "a".repeat(42))), None);
    assert!(Pkce::from_verifier(&format!("{}~._-", "a".repeat(40))).is_some());
}

#[test]
fn the_verifier_never_shows_in_debug() {
    let shown = format!("{:?}", Pkce::from_random(&APPENDIX_B_OCTETS).unwrap());
    assert!(!shown.contains(APPENDIX_B_VERIFIER), "{shown}");
    assert!(shown.contains(APPENDIX_B_CHALLENGE), "{shown}");
}

#[test]
fn a_state_is_at_least_128_random_bits() {
    assert_eq!(state_from_random(&[0; 16]).unwrap(), "AAAAAAAAAAAAAAAAAAAAAA");
    assert_ne!(state_from_random(&[1; 16]).unwrap(), state_from_random(&[2; 16]).unwrap());
    assert!(matches!(state_from_random(&[0; 15]), Err(OAuthError::NotEnoughRandomness { needed: 16, got: 15 })));
}
