use super::*;
use crate::credentials::encoding::{from_hex, to_hex};
use serde_json::json;

fn key() -> DataKey {
    DataKey::generate().unwrap()
}

fn bundle() -> ServerIdentity {
    ServerIdentity::bundle("/bundles/github/bootstrap.js", None)
}

/// A record bound to [`bundle`] (the identity does not matter to most tests).
fn seal(key: &DataKey, server: &str, name: &str, value: &Secret) -> CredentialResult<CredentialRecord> {
    CredentialRecord::seal(key, server, name, value, Some(&bundle()))
}

#[test]
fn a_sealed_credential_opens_where_it_was_stored() {
    let key = key();
    let record = seal(&key, "github", "TOKEN", &Secret::new("ghp_secret")).unwrap();
    assert_eq!(record.open(&key, "github", "TOKEN").unwrap().expose(), "ghp_secret");
    assert!(!serde_json::to_string(&record).unwrap().contains("ghp_secret"));
}

#[test]
fn every_write_uses_a_fresh_nonce() {
    let key = key();
    let one = seal(&key, "s", "n", &Secret::new("same")).unwrap();
    let two = seal(&key, "s", "n", &Secret::new("same")).unwrap();
    assert_ne!(one.sealed.nonce, two.sealed.nonce);
    assert_ne!(one.sealed.ct, two.sealed.ct);
}

#[test]
fn a_record_moved_to_another_server_or_name_does_not_open() {
    let key = key();
    let record = seal(&key, "github", "TOKEN", &Secret::new("ghp_secret")).unwrap();
    let tampered = |server: &str, name: &str| CredentialError::Tampered { server: server.into(), name: name.into() };
    assert_eq!(record.open(&key, "gitlab", "TOKEN").unwrap_err(), tampered("gitlab", "TOKEN"));
    assert_eq!(record.open(&key, "github", "OTHER").unwrap_err(), tampered("github", "OTHER"));
    // Shifting bytes between server and name changes the associated data too.
    assert!(record.open(&key, "githubT", "OKEN").is_err());
}

#[test]
fn any_flipped_bit_is_detected() {
    let key = key();
    let record = seal(&key, "s", "n", &Secret::new("value")).unwrap();
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
    let record = seal(&old, "s", "n", &Secret::new("value")).unwrap();
    assert_eq!(record.open(&new, "s", "n").unwrap_err(), CredentialError::KeyChanged);
    let mut forged = record.clone();
    forged.key_id = new.id().to_owned();
    assert!(matches!(forged.open(&new, "s", "n"), Err(CredentialError::Tampered { .. })));
}

#[test]
fn stored_records_are_read_strictly() {
    let key = key();
    let record = seal(&key, "s", "n", &Secret::new("value")).unwrap();
    let value = serde_json::to_value(&record).unwrap();
    assert_eq!(value["v"], json!(2));
    assert_eq!(value["bound_to"], json!(bundle().canonical()));
    assert_eq!(CredentialRecord::from_json("s", "n", value.clone()).unwrap(), record);
    let mut newer = value;
    newer["v"] = json!(9);
    assert!(matches!(CredentialRecord::from_json("s", "n", newer), Err(CredentialError::Corrupt { .. })));
    let err = CredentialRecord::from_json("s", "n", json!({"v": 1})).unwrap_err();
    assert!(err.to_string().contains("credential \"n\" of server \"s\""), "{err}");
}

#[test]
fn a_record_read_back_has_its_ciphertext_members_beside_the_others() {
    let key = key();
    let record = seal(&key, "s", "n", &Secret::new("value")).unwrap();
    let value = serde_json::to_value(&record).unwrap();
    assert!(value["nonce"].is_string() && value["ct"].is_string(), "{value}");
    let read = CredentialRecord::from_json("s", "n", value.clone()).unwrap();
    assert_eq!(read.open(&key, "s", "n").unwrap().expose(), "value");
    for member in ["nonce", "ct", "key_id", "v"] {
        let mut without = value.clone();
        without.as_object_mut().unwrap().remove(member);
        let err = CredentialRecord::from_json("s", "n", without).unwrap_err();
        assert!(err.to_string().contains(&format!("missing field `{member}`")), "{member}: {err}");
    }
}

#[test]
fn rotation_reseals_every_record_under_the_new_key() {
    let old = key();
    let new = key();
    let records: Vec<_> = (0..5)
        .map(|i| {
            let (server, name) = (format!("server{i}"), format!("KEY{i}"));
            let record = seal(&old, &server, &name, &Secret::new(format!("v{i}"))).unwrap();
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
    let good = seal(&old, "a", "K", &Secret::new("1")).unwrap();
    let moved = seal(&old, "b", "K", &Secret::new("2")).unwrap();
    let foreign = seal(&key(), "c", "K", &Secret::new("3")).unwrap();
    let err =
        reseal_all(&old, &key(), vec![(("a".into(), "K".into()), good.clone()), (("x".into(), "K".into()), moved)])
            .unwrap_err();
    assert_eq!(err, CredentialError::Tampered { server: "x".into(), name: "K".into() });
    let err = reseal_all(&old, &key(), vec![(("a".into(), "K".into()), good), (("c".into(), "K".into()), foreign)])
        .unwrap_err();
    assert_eq!(err, CredentialError::Tampered { server: "c".into(), name: "K".into() });
}

#[test]
fn the_identity_is_bound_into_the_encryption() {
    let key = key();
    let record = seal(&key, "github", "TOKEN", &Secret::new("ghp_secret")).unwrap();
    assert_eq!(record.identity(), Some(bundle()));
    let other = ServerIdentity::bundle("https://elsewhere.example/bootstrap.js", None);
    for edited in [Some(other.canonical()), None, Some("garbage".into())] {
        let mut moved = record.clone();
        moved.bound_to = edited;
        assert!(matches!(moved.open(&key, "github", "TOKEN"), Err(CredentialError::Tampered { .. })));
    }
    let unbound = CredentialRecord::seal(&key, "github", "TOKEN", &Secret::new("v"), None).unwrap();
    assert_eq!((unbound.bound_to.as_ref(), unbound.identity()), (None, None));
    assert!(!serde_json::to_value(&unbound).unwrap().as_object().unwrap().contains_key("bound_to"));
    assert_eq!(unbound.open(&key, "github", "TOKEN").unwrap().expose(), "v");
    let mut claimed = unbound;
    claimed.bound_to = Some(bundle().canonical());
    assert!(claimed.open(&key, "github", "TOKEN").is_err(), "an identity cannot be added to an unbound record");
}

#[test]
fn records_of_the_first_format_still_open_and_are_bound_to_nothing() {
    // As version 1 wrote them: no identity, associated data without one.
    let key = key();
    let nonce = [5; 12];
    let aad = credential_aad(1, key.id(), "github", "TOKEN", None);
    assert_eq!(
        aad,
        associated_data("mcp-worker/credential", &[&1u32.to_be_bytes(), key.id().as_bytes(), b"github", b"TOKEN"])
    );
    let ct = key.cipher().encrypt(&Nonce::from(nonce), Payload { msg: b"ghp_old", aad: &aad }).unwrap();
    let stored = json!({"v": 1, "key_id": key.id(), "nonce": to_hex(&nonce), "ct": to_hex(&ct)});
    let record = CredentialRecord::from_json("github", "TOKEN", stored.clone()).unwrap();
    assert_eq!(record.open(&key, "github", "TOKEN").unwrap().expose(), "ghp_old");
    assert_eq!(record.identity(), None, "released to no server until one is confirmed");

    // An identity added to a record of the first format would not be authenticated: refused.
    let mut claimed = stored.clone();
    claimed["bound_to"] = json!(bundle().canonical());
    assert!(matches!(CredentialRecord::from_json("github", "TOKEN", claimed), Err(CredentialError::Corrupt { .. })));
    // A record of format 2 relabelled as format 1 does not open.
    let mut current = serde_json::to_value(seal(&key, "github", "TOKEN", &Secret::new("v")).unwrap()).unwrap();
    current["v"] = json!(1);
    current.as_object_mut().unwrap().remove("bound_to");
    let downgraded = CredentialRecord::from_json("github", "TOKEN", current).unwrap();
    assert!(matches!(downgraded.open(&key, "github", "TOKEN"), Err(CredentialError::Tampered { .. })));
}

#[test]
fn rotation_keeps_what_each_record_is_bound_to() {
    let (old, new) = (key(), key());
    let bound = seal(&old, "a", "K", &Secret::new("1")).unwrap();
    let unbound = CredentialRecord::seal(&old, "a", "L", &Secret::new("2"), None).unwrap();
    let resealed =
        reseal_all(&old, &new, vec![(("a".into(), "K".into()), bound), (("a".into(), "L".into()), unbound)]).unwrap();
    assert_eq!(resealed[0].1.identity(), Some(bundle()));
    assert_eq!(resealed[1].1.identity(), None);
    assert_eq!(resealed[1].1.v, RECORD_FORMAT_VERSION);
}
