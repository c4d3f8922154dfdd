use super::*;
use futures_util::FutureExt;
use serde_json::json;

fn elicitation_capable() -> ClientCapabilities {
    ClientCapabilities { elicitation: Some(Default::default()), ..Default::default() }
}

fn start(params: &Value, key: &StateKey) -> Result<Rc<Rounds>, ErrorObject> {
    let text = serde_json::value::to_raw_value(params).unwrap_or_else(|e| panic!("{e}"));
    Rounds::start(Some(key), "tools/call", Some(&text), elicitation_capable(), 1_000).map(Rc::new)
}

#[test]
fn an_unanswered_question_interrupts_the_run_and_is_asked_in_the_result() {
    let key = StateKey::fixed(1);
    let rounds = start(&json!({ "name": "deploy" }), &key).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(rounds.interrupted().now_or_never().is_none(), "nothing asked yet");
    assert!(matches!(
        rounds.ask(None, methods::ELICITATION_CREATE, Some(json!({ "message": "Sure?" }))),
        Asked::Interrupted
    ));
    assert_eq!(rounds.interrupted().now_or_never(), Some(Interrupt::InputRequired));
    let result = rounds.input_required(Some(&key), 1_000).unwrap_or_else(|e| panic!("{e:?}"));
    let questions = result.input_requests.unwrap_or_default();
    assert_eq!(questions.keys().collect::<Vec<_>>(), ["elicitation-0"]);
    assert_eq!(questions["elicitation-0"].method, methods::ELICITATION_CREATE);
    assert!(result.request_state.is_some_and(|s| !s.is_empty()), "every round's state is sealed");
}

#[test]
fn answers_of_this_round_and_of_earlier_rounds_are_returned_in_order() {
    let key = StateKey::fixed(1);
    let params = json!({ "name": "deploy" });
    let first = start(&params, &key).unwrap_or_else(|e| panic!("{e:?}"));
    first.ask(None, methods::ELICITATION_CREATE, None);
    let state = first.input_required(Some(&key), 1_000).unwrap_or_else(|e| panic!("{e:?}")).request_state;

    let mut retry = params.clone();
    retry["requestState"] = json!(state);
    retry["inputResponses"] = json!({ "elicitation-0": { "action": "accept" } });
    let second = start(&retry, &key).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(
        matches!(second.ask(None, methods::ELICITATION_CREATE, None), Asked::Answered(a) if a == json!({ "action": "accept" }))
    );
    assert!(matches!(second.ask(Some("color"), methods::ELICITATION_CREATE, None), Asked::Interrupted));
    let state = second.input_required(Some(&key), 1_000).unwrap_or_else(|e| panic!("{e:?}")).request_state;

    let mut last = params;
    last["requestState"] = json!(state);
    last["inputResponses"] = json!({ "color": { "action": "accept", "content": { "color": "blue" } } });
    let third = start(&last, &key).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(
        matches!(third.ask(None, methods::ELICITATION_CREATE, None), Asked::Answered(_)),
        "round one's answer, from the state"
    );
    assert!(matches!(third.ask(Some("color"), methods::ELICITATION_CREATE, None), Asked::Answered(_)));
    assert!(third.interrupted().now_or_never().is_none());
}

#[test]
fn a_state_of_another_request_or_altered_is_refused() {
    let key = StateKey::fixed(1);
    let first = start(&json!({ "name": "deploy" }), &key).unwrap_or_else(|e| panic!("{e:?}"));
    first.ask(None, methods::ELICITATION_CREATE, None);
    let state =
        first.input_required(Some(&key), 1_000).unwrap_or_else(|e| panic!("{e:?}")).request_state.unwrap_or_default();
    let other = start(&json!({ "name": "destroy", "requestState": state }), &key).err();
    assert_eq!(other.map(|e| e.code), Some(mcp_worker_protocol::ErrorCode::INVALID_PARAMS));
    let altered = start(&json!({ "name": "deploy", "requestState": format!("{state}-TAMPERED") }), &key).err();
    assert_eq!(altered.map(|e| e.code), Some(mcp_worker_protocol::ErrorCode::INVALID_PARAMS));
    let not_a_string = start(&json!({ "name": "deploy", "requestState": 7 }), &key).err();
    assert!(not_a_string.is_some());
}

#[test]
fn asking_for_an_undeclared_capability_fails_the_request_with_32021() {
    let key = StateKey::fixed(1);
    let rounds = start(&json!({ "name": "deploy" }), &key).unwrap_or_else(|e| panic!("{e:?}"));
    rounds.ask(None, methods::SAMPLING_CREATE_MESSAGE, None);
    let Some(Interrupt::Failed(error)) = rounds.interrupted().now_or_never() else { panic!("not failed") };
    assert_eq!(error.code, mcp_worker_protocol::modern::codes::MISSING_REQUIRED_CLIENT_CAPABILITY);
    assert_eq!(error.data, Some(json!({ "requiredCapabilities": { "sampling": {} } })));
    // A failure outranks questions asked alongside it.
    rounds.ask(None, methods::ELICITATION_CREATE, None);
    assert!(matches!(rounds.interrupted().now_or_never(), Some(Interrupt::Failed(_))));
}
