use super::*;
use serde_json::json;

fn answers() -> Answers {
    BTreeMap::from([("input-0".to_owned(), json!({ "action": "accept", "content": { "name": "octocat" } }))])
}

#[test]
fn a_sealed_state_opens_for_its_request() {
    let key = StateKey::fixed(7);
    let bound = binding("tools/call", &json!({ "name": "deploy", "arguments": { "env": "prod" } }));
    let state = seal(&key, &bound, 1_000, &answers());
    assert_eq!(open(&key, &bound, 2_000, &state), Ok(answers()));
}

#[test]
fn the_binding_ignores_meta_answers_and_key_order() {
    let first = binding("tools/call", &json!({ "name": "deploy", "arguments": { "a": 1, "b": 2 } }));
    let retry = binding(
        "tools/call",
        &json!({
            "arguments": { "b": 2, "a": 1 },
            "name": "deploy",
            "_meta": { "io.modelcontextprotocol/protocolVersion": "2026-07-28" },
            "inputResponses": { "input-0": {} },
            "requestState": "x"
        }),
    );
    assert_eq!(first, retry);
}

#[test]
fn an_altered_state_is_refused() {
    let key = StateKey::fixed(7);
    let bound = binding("tools/call", &json!({ "name": "deploy" }));
    let state = seal(&key, &bound, 1_000, &answers());
    let forged = state.replace("octocat", "mallory");
    assert_eq!(open(&key, &bound, 2_000, &forged), Err(StateError::Tampered));
    assert_eq!(open(&key, &bound, 2_000, "not a state"), Err(StateError::Tampered));
    assert_eq!(open(&key, &bound, 2_000, "zz.{}"), Err(StateError::Tampered));
    assert_eq!(open(&key, &bound, 2_000, ""), Err(StateError::Tampered));
}

#[test]
fn a_state_of_another_server_is_refused() {
    let bound = binding("tools/call", &json!({ "name": "deploy" }));
    let state = seal(&StateKey::fixed(7), &bound, 1_000, &answers());
    assert_eq!(open(&StateKey::fixed(8), &bound, 2_000, &state), Err(StateError::Tampered));
}

#[test]
fn a_state_of_another_request_is_refused() {
    let key = StateKey::fixed(7);
    let deploy_prod = binding("tools/call", &json!({ "name": "deploy", "arguments": { "env": "prod" } }));
    let deploy_dev = binding("tools/call", &json!({ "name": "deploy", "arguments": { "env": "dev" } }));
    let prompt = binding("prompts/get", &json!({ "name": "deploy", "arguments": { "env": "prod" } }));
    let state = seal(&key, &deploy_prod, 1_000, &answers());
    assert_eq!(open(&key, &deploy_dev, 2_000, &state), Err(StateError::OtherRequest));
    assert_eq!(open(&key, &prompt, 2_000, &state), Err(StateError::OtherRequest));
}

#[test]
fn an_old_state_is_refused() {
    let key = StateKey::fixed(7);
    let bound = binding("tools/call", &json!({ "name": "deploy" }));
    let state = seal(&key, &bound, 1_000, &answers());
    assert!(open(&key, &bound, 1_000 + STATE_LIFETIME_MS, &state).is_ok());
    assert_eq!(open(&key, &bound, 1_001 + STATE_LIFETIME_MS, &state), Err(StateError::Expired));
}

#[test]
fn random_keys_differ() {
    let bound = binding("tools/call", &json!({ "name": "deploy" }));
    let (Some(a), Some(b)) = (StateKey::random(), StateKey::random()) else { panic!("no randomness") };
    assert_ne!(seal(&a, &bound, 0, &answers()), seal(&b, &bound, 0, &answers()));
}

#[test]
fn a_server_key_is_drawn_at_its_first_use_and_kept() {
    let key = ServerKey::default();
    assert!(key.0.get().is_none(), "no key is drawn before a state is sealed or opened");
    let bound = binding("tools/call", &json!({ "name": "deploy" }));
    let state = seal(key.get().unwrap_or_else(|| panic!("no randomness")), &bound, 0, &answers());
    assert_eq!(open(key.get().unwrap_or_else(|| panic!("no randomness")), &bound, 1, &state), Ok(answers()));
}
