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
    newer["v"] = json!(3);
    assert!(matches!(KeyRecord::from_json(newer), Err(CredentialError::Corrupt { .. })));
    assert!(matches!(KeyRecord::from_json(json!("garbage")), Err(CredentialError::Corrupt { .. })));
}

#[test]
fn every_mode_reads_back_as_written_and_a_passphrase_record_needs_its_kdf_parameters() {
    let data_key = DataKey::generate().unwrap();
    for unwrapping in [passphrase_unwrapping(), Unwrapping::AppKey, Unwrapping::Device] {
        let record = KeyRecord::wrap(unwrapping, &data_key, &[1; 32]).unwrap();
        let value = serde_json::to_value(&record).unwrap();
        assert_eq!(KeyRecord::from_json(value).unwrap(), record);
    }
    let record = KeyRecord::wrap(passphrase_unwrapping(), &data_key, &[1; 32]).unwrap();
    let value = serde_json::to_value(&record).unwrap();
    for member in ["salt", "iterations", "mode", "wrapped_key"] {
        let mut without = value.clone();
        without.as_object_mut().unwrap().remove(member);
        let err = KeyRecord::from_json(without).unwrap_err();
        assert!(err.to_string().contains(&format!("missing field `{member}`")), "{member}: {err}");
    }
    let mut unknown = value;
    unknown["mode"] = json!("hardware");
    let err = KeyRecord::from_json(unknown).unwrap_err();
    assert!(err.to_string().contains("unknown variant `hardware`"), "{err}");
}

#[test]
fn weak_or_malformed_kdf_parameters_are_refused() {
    let weak = Unwrapping::Passphrase { iterations: 1_000, salt: to_hex(&[3; 16]) };
    assert!(matches!(weak.pbkdf2(MAX_PBKDF2_ITERATIONS), Err(CredentialError::Corrupt { .. })));
    let short_salt = Unwrapping::Passphrase { iterations: PBKDF2_ITERATIONS, salt: "abcd".into() };
    assert!(matches!(short_salt.pbkdf2(MAX_PBKDF2_ITERATIONS), Err(CredentialError::Corrupt { .. })));
    assert_eq!(passphrase_unwrapping().pbkdf2(MAX_PBKDF2_ITERATIONS).unwrap(), Some(([3; 16], PBKDF2_ITERATIONS)));
    assert_eq!(Unwrapping::Device.pbkdf2(MAX_PBKDF2_ITERATIONS).unwrap(), None);
}

#[test]
fn an_iteration_count_above_the_limit_is_refused_before_any_iteration_runs() {
    let tampered = Unwrapping::Passphrase { iterations: u32::MAX, salt: to_hex(&[3; 16]) };
    let err = tampered.pbkdf2(MAX_PBKDF2_ITERATIONS).unwrap_err();
    assert_eq!(err.code(), "CORRUPT");
    assert!(err.to_string().contains("4294967295 PBKDF2 iterations, more than the limit of 10000000"), "{err}");
    let at_limit = Unwrapping::Passphrase { iterations: MAX_PBKDF2_ITERATIONS, salt: to_hex(&[3; 16]) };
    assert!(at_limit.pbkdf2(MAX_PBKDF2_ITERATIONS).unwrap().is_some());
    let raised = Unwrapping::Passphrase { iterations: 20_000_000, salt: to_hex(&[3; 16]) };
    assert!(raised.pbkdf2(MAX_PBKDF2_ITERATIONS).is_err());
    assert!(raised.pbkdf2(20_000_000).unwrap().is_some(), "an application may raise the limit");
}

#[test]
fn an_edited_salt_or_iteration_count_does_not_open_the_key() {
    let data_key = DataKey::generate().unwrap();
    let record = KeyRecord::wrap(passphrase_unwrapping(), &data_key, &[1; 32]).unwrap();
    assert_eq!(record.v, 2);
    assert!(record.unwrap(&[1; 32]).is_ok());
    for edited in [
        Unwrapping::Passphrase { iterations: PBKDF2_ITERATIONS + 1, salt: to_hex(&[3; 16]) },
        Unwrapping::Passphrase { iterations: PBKDF2_ITERATIONS, salt: to_hex(&[4; 16]) },
    ] {
        // Even with the right key-encryption key (as if the edit did not change the derivation): refused.
        let mut bad = record.clone();
        bad.unwrapping = edited;
        let err = bad.unwrap(&[1; 32]).unwrap_err();
        assert_eq!(err, CredentialError::WrongKey { mode: KeyMode::Passphrase });
        assert_eq!(err.to_string(), "wrong passphrase, or an altered key record: it does not open these credentials");
    }
}

#[test]
fn a_key_record_of_the_first_format_still_opens() {
    // Version 1 bound only the mode and the key id; such records, written by earlier versions, stay readable.
    let data_key = DataKey::generate().unwrap();
    let unwrapping = passphrase_unwrapping();
    let aad = KeyRecord::wrap_aad(1, &unwrapping, data_key.id());
    assert_eq!(aad, associated_data("mcp-worker/data-key/v1", &[b"passphrase", data_key.id().as_bytes()]));
    let nonce = [9; 12];
    let wrapped = Aes256Gcm::new((&[1; 32]).into())
        .encrypt(&Nonce::from(nonce), Payload { msg: data_key.bytes(), aad: &aad })
        .unwrap();
    let mut record = KeyRecord::assemble(unwrapping, &data_key, Sealed::new(&nonce, &wrapped));
    record.v = 1;
    let value = serde_json::to_value(&record).unwrap();
    let read = KeyRecord::from_json(value).unwrap();
    assert_eq!(read.unwrap(&[1; 32]).unwrap().bytes(), data_key.bytes());
}

#[test]
fn data_keys_and_their_ids_are_random() {
    let one = DataKey::generate().unwrap();
    let two = DataKey::generate().unwrap();
    assert_ne!(one.bytes(), two.bytes());
    assert_ne!(one.id(), two.id());
    assert!(!format!("{one:?}").contains(&to_hex(one.bytes())));
}
