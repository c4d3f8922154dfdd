use super::*;
use serde_json::json;

fn passphrase_unwrapping() -> Unwrapping {
    Unwrapping::Passphrase { iterations: PBKDF2_ITERATIONS, salt: to_hex(&[3; 16]) }
}

#[test]
fn the_wrapped_key_opens_with_the_right_key_only() {
    let data_key = DataKey::generate().unwrap();
    let record = KeyRecord::wrap(Unwrapping::AppKey, &data_key, &[1; 32]).unwrap();
    let opened = record.unwrap(&[1; 32]).unwrap();
    assert_eq!(opened.bytes(), data_key.bytes());
    assert_eq!(opened.id(), data_key.id());
    assert_eq!(record.unwrap(&[2; 32]).unwrap_err(), CredentialError::WrongKey { mode: KeyMode::AppKey });
}

#[test]
fn a_relabelled_key_record_does_not_open() {
    let data_key = DataKey::generate().unwrap();
    let record = KeyRecord::wrap(passphrase_unwrapping(), &data_key, &[1; 32]).unwrap();

    let mut other_id = record.clone();
    other_id.key_id = "0000000000000000".into();
    assert!(matches!(other_id.unwrap(&[1; 32]), Err(CredentialError::WrongKey { .. })));

    let mut other_mode = record.clone();
    other_mode.unwrapping = Unwrapping::AppKey;
    assert!(matches!(other_mode.unwrap(&[1; 32]), Err(CredentialError::WrongKey { .. })));
}

#[test]
fn key_records_round_trip_through_json_and_unknown_versions_are_refused() {
    let data_key = DataKey::generate().unwrap();
    let record = KeyRecord::wrap(passphrase_unwrapping(), &data_key, &[1; 32]).unwrap();
    let value = serde_json::to_value(&record).unwrap();
    assert_eq!(value["mode"], json!("passphrase"));
    assert_eq!(value["iterations"], json!(600_000));
    assert_eq!(KeyRecord::from_json(value.clone()).unwrap(), record);

    let mut newer = value.clone();
    newer["v"] = json!(2);
    assert!(matches!(KeyRecord::from_json(newer), Err(CredentialError::Corrupt { .. })));
    assert!(matches!(KeyRecord::from_json(json!("garbage")), Err(CredentialError::Corrupt { .. })));
}

#[test]
fn weak_or_malformed_kdf_parameters_are_refused() {
    let weak = Unwrapping::Passphrase { iterations: 1_000, salt: to_hex(&[3; 16]) };
    assert!(matches!(weak.pbkdf2(), Err(CredentialError::Corrupt { .. })));
    let short_salt = Unwrapping::Passphrase { iterations: PBKDF2_ITERATIONS, salt: "abcd".into() };
    assert!(matches!(short_salt.pbkdf2(), Err(CredentialError::Corrupt { .. })));
    assert_eq!(passphrase_unwrapping().pbkdf2().unwrap(), Some(([3; 16], PBKDF2_ITERATIONS)));
    assert_eq!(Unwrapping::Device.pbkdf2().unwrap(), None);
}

#[test]
fn data_keys_and_their_ids_are_random() {
    let one = DataKey::generate().unwrap();
    let two = DataKey::generate().unwrap();
    assert_ne!(one.bytes(), two.bytes());
    assert_ne!(one.id(), two.id());
    assert!(!format!("{one:?}").contains(&to_hex(one.bytes())));
}
