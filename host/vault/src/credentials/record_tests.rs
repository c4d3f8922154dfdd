use super::*;
use crate::credentials::encoding::{from_hex, to_hex};
use serde_json::json;

fn key() -> DataKey {
    DataKey::generate().unwrap()
}

#[test]
fn a_sealed_credential_opens_where_it_was_stored() {
    let key = key();
    let record = CredentialRecord::seal(&key, "github", "TOKEN", &Secret::new("ghp_secret")).unwrap();
    assert_eq!(record.open(&key, "github", "TOKEN").unwrap().expose(), "ghp_secret");
    assert!(!serde_json::to_string(&record).unwrap().contains("ghp_secret"));
}

#[test]
fn every_write_uses_a_fresh_nonce() {
    let key = key();
    let one = CredentialRecord::seal(&key, "s", "n", &Secret::new("same")).unwrap();
    let two = CredentialRecord::seal(&key, "s", "n", &Secret::new("same")).unwrap();
    assert_ne!(one.sealed.nonce, two.sealed.nonce);
    assert_ne!(one.sealed.ct, two.sealed.ct);
}

#[test]
fn a_record_moved_to_another_server_or_name_does_not_open() {
    let key = key();
    let record = CredentialRecord::seal(&key, "github", "TOKEN", &Secret::new("ghp_secret")).unwrap();
    let tampered = |server: &str, name: &str| CredentialError::Tampered { server: server.into(), name: name.into() };
    assert_eq!(record.open(&key, "gitlab", "TOKEN").unwrap_err(), tampered("gitlab", "TOKEN"));
    assert_eq!(record.open(&key, "github", "OTHER").unwrap_err(), tampered("github", "OTHER"));
    // Shifting bytes between server and name changes the associated data too.
    assert!(record.open(&key, "githubT", "OKEN").is_err());
}

#[test]
fn any_flipped_bit_is_detected() {
    let key = key();
    let record = CredentialRecord::seal(&key, "s", "n", &Secret::new("value")).unwrap();
    let bytes = from_hex(&record.sealed.ct).unwrap();
    for bit in 0..bytes.len() * 8 {
        let mut flipped = bytes.clone();
        flipped[bit / 8] ^= 1 << (bit % 8);
        let mut bad = record.clone();
        bad.sealed.ct = to_hex(&flipped);
        assert!(matches!(bad.open(&key, "s", "n"), Err(CredentialError::Tampered { .. })), "bit {bit}");
    }
    let mut bad_nonce = record.clone();
    bad_nonce.sealed.nonce = "00".repeat(12);
    assert!(matches!(bad_nonce.open(&key, "s", "n"), Err(CredentialError::Tampered { .. })));
}

#[test]
fn another_key_is_reported_as_a_key_change_and_a_forged_key_id_as_tampering() {
    let old = key();
    let new = key();
    let record = CredentialRecord::seal(&old, "s", "n", &Secret::new("value")).unwrap();
    assert_eq!(record.open(&new, "s", "n").unwrap_err(), CredentialError::KeyChanged);
    let mut forged = record.clone();
    forged.key_id = new.id().to_owned();
    assert!(matches!(forged.open(&new, "s", "n"), Err(CredentialError::Tampered { .. })));
}

#[test]
fn stored_records_are_read_strictly() {
    let key = key();
    let record = CredentialRecord::seal(&key, "s", "n", &Secret::new("value")).unwrap();
    let value = serde_json::to_value(&record).unwrap();
    assert_eq!(value["v"], json!(1));
    assert_eq!(CredentialRecord::from_json("s", "n", value.clone()).unwrap(), record);
    let mut newer = value;
    newer["v"] = json!(9);
    assert!(matches!(CredentialRecord::from_json("s", "n", newer), Err(CredentialError::Corrupt { .. })));
    let err = CredentialRecord::from_json("s", "n", json!({"v": 1})).unwrap_err();
    assert!(err.to_string().contains("credential \"n\" of server \"s\""), "{err}");
}

#[test]
fn rotation_reseals_every_record_under_the_new_key() {
    let old = key();
    let new = key();
    let records: Vec<_> = (0..5)
        .map(|i| {
            let (server, name) = (format!("server{i}"), format!("KEY{i}"));
            let record = CredentialRecord::seal(&old, &server, &name, &Secret::new(format!("v{i}"))).unwrap();
            ((server, name), record)
        })
        .collect();
    let resealed = reseal_all(&old, &new, records).unwrap();
    assert_eq!(resealed.len(), 5);
    for (i, ((server, name), record)) in resealed.iter().enumerate() {
        assert_eq!(record.key_id, new.id());
        assert_eq!(record.open(&new, server, name).unwrap().expose(), format!("v{i}"));
        assert_eq!(record.open(&old, server, name).unwrap_err(), CredentialError::KeyChanged);
    }
}

#[test]
fn rotation_stops_at_a_record_that_does_not_open_and_names_it() {
    let old = key();
    let good = CredentialRecord::seal(&old, "a", "K", &Secret::new("1")).unwrap();
    let moved = CredentialRecord::seal(&old, "b", "K", &Secret::new("2")).unwrap();
    let foreign = CredentialRecord::seal(&key(), "c", "K", &Secret::new("3")).unwrap();
    let err =
        reseal_all(&old, &key(), vec![(("a".into(), "K".into()), good.clone()), (("x".into(), "K".into()), moved)])
            .unwrap_err();
    assert_eq!(err, CredentialError::Tampered { server: "x".into(), name: "K".into() });
    let err = reseal_all(&old, &key(), vec![(("a".into(), "K".into()), good), (("c".into(), "K".into()), foreign)])
        .unwrap_err();
    assert_eq!(err, CredentialError::Tampered { server: "c".into(), name: "K".into() });
}
