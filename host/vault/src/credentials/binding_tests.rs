use super::*;
use mcp_worker_runtime::credentials::Secret;

fn weather() -> ServerIdentity {
    ServerIdentity::bundle("/bundles/weather/bootstrap.js", None)
}

fn elsewhere() -> ServerIdentity {
    ServerIdentity::bundle("https://elsewhere.example/bootstrap.js", None)
}

fn sealed(key: &DataKey, name: &str, value: &str, identity: Option<&ServerIdentity>) -> CredentialRecord {
    CredentialRecord::seal(key, "weather", name, &Secret::new(value), identity).unwrap()
}

#[test]
fn credentials_are_released_only_to_the_code_they_were_stored_for() {
    let key = DataKey::generate().unwrap();
    let api = sealed(&key, "API_KEY", "k", Some(&weather()));
    let region = sealed(&key, "REGION", "eu", Some(&weather()));
    assert!(check_binding("weather", &weather(), &[("API_KEY", &api), ("REGION", &region)]).is_ok());
    assert!(check_binding("weather", &weather(), &[]).is_ok(), "nothing stored, nothing held");

    let change = check_binding("weather", &elsewhere(), &[("API_KEY", &api), ("REGION", &region)]).unwrap_err();
    assert_eq!(change.server, "weather");
    assert_eq!(change.credentials, ["API_KEY", "REGION"]);
    assert_eq!(change.stored_for, Some(weather()));
    assert_eq!(change.current, elsewhere());
    let error = CredentialError::from(change);
    assert_eq!(error.code(), "IDENTITY_CHANGED");
    assert!(error.to_string().contains("held back until the application confirms"), "{error}");
}

#[test]
fn an_unbound_record_is_held_back_from_every_server() {
    let key = DataKey::generate().unwrap();
    let unbound = sealed(&key, "API_KEY", "k", None);
    let bound = sealed(&key, "REGION", "eu", Some(&weather()));
    let change = check_binding("weather", &weather(), &[("API_KEY", &unbound), ("REGION", &bound)]).unwrap_err();
    assert_eq!(change.credentials, ["API_KEY"], "only the unbound one");
    assert_eq!(change.stored_for, None);
}

#[test]
fn confirming_rebinds_every_record_and_keeps_its_value() {
    let key = DataKey::generate().unwrap();
    let records = vec![
        ("API_KEY".to_owned(), sealed(&key, "API_KEY", "k-1", Some(&weather()))),
        ("OLD".to_owned(), sealed(&key, "OLD", "o-1", None)),
    ];
    let rebound = rebind_all(&key, "weather", &elsewhere(), records).unwrap();
    let found: Vec<(&str, &CredentialRecord)> = rebound.iter().map(|(n, r)| (n.as_str(), r)).collect();
    assert!(check_binding("weather", &elsewhere(), &found).is_ok());
    assert!(check_binding("weather", &weather(), &found).is_err(), "and no longer to the old code");
    assert_eq!(rebound[0].1.open(&key, "weather", "API_KEY").unwrap().expose(), "k-1");
    assert_eq!(rebound[1].1.open(&key, "weather", "OLD").unwrap().expose(), "o-1");
}

#[test]
fn a_record_that_does_not_open_stops_a_rebinding() {
    let key = DataKey::generate().unwrap();
    let mut damaged = sealed(&key, "API_KEY", "k-1", Some(&weather()));
    damaged.bound_to = Some(elsewhere().canonical());
    let error = rebind_all(&key, "weather", &elsewhere(), vec![("API_KEY".into(), damaged)]).unwrap_err();
    assert_eq!(error, CredentialError::Tampered { server: "weather".into(), name: "API_KEY".into() });
}
