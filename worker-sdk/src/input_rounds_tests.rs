use super::*;
use futures_util::FutureExt;
use serde_json::json;

fn elicitation_capable() -> ClientCapabilities {
    ClientCapabilities { elicitation: Some(Default::default()), ..Default::default() }
}

fn start(params: &Value, key: &Rc<ServerKey>) -> Rc<Rounds> {
    let text = serde_json::value::to_raw_value(params).unwrap_or_else(|e| panic!("{e}"));
    Rc::new(Rounds::start(key.clone(), "tools/call", Some(&text), elicitation_capable()))
}

/// The error that fails a run.
fn failure(rounds: &Rounds) -> Option<ErrorObject> {
    match rounds.interrupt.borrow().clone() {
        Some(Interrupt::Failed(error)) => Some(error),
        _ => None,
    }
}

#[test]
fn an_unanswered_question_interrupts_the_run_and_is_asked_in_the_result() {
    let key = Rc::new(ServerKey::fixed(1));
    let rounds = start(&json!({ "name": "deploy" }), &key);
    assert!(rounds.interrupted().now_or_never().is_none(), "nothing asked yet");
    assert!(matches!(
        rounds.ask(1_000, None, methods::ELICITATION_CREATE, Some(json!({ "message": "Sure?" }))),
        Asked::Interrupted
    ));
    assert_eq!(rounds.interrupted().now_or_never(), Some(Interrupt::InputRequired));
    let result = rounds.input_required(1_000).unwrap_or_else(|e| panic!("{e:?}"));
    let questions = result.input_requests.unwrap_or_default();
    assert_eq!(questions.keys().collect::<Vec<_>>(), ["elicitation-0"]);
    assert_eq!(questions["elicitation-0"].method, methods::ELICITATION_CREATE);
    assert!(result.request_state.is_some_and(|s| !s.is_empty()), "every round's state is sealed");
}

#[test]
fn answers_of_this_round_and_of_earlier_rounds_are_returned_in_order() {
    let key = Rc::new(ServerKey::fixed(1));
    let params = json!({ "name": "deploy" });
    let first = start(&params, &key);
    first.ask(1_000, None, methods::ELICITATION_CREATE, None);
    let state = first.input_required(1_000).unwrap_or_else(|e| panic!("{e:?}")).request_state;

    let mut retry = params.clone();
    retry["requestState"] = json!(state);
    retry["inputResponses"] = json!({ "elicitation-0": { "action": "accept" } });
    let second = start(&retry, &key);
    assert!(
        matches!(second.ask(1_000, None, methods::ELICITATION_CREATE, None), Asked::Answered(a) if a == json!({ "action": "accept" }))
    );
    assert!(matches!(second.ask(1_000, Some("color"), methods::ELICITATION_CREATE, None), Asked::Interrupted));
    let state = second.input_required(1_000).unwrap_or_else(|e| panic!("{e:?}")).request_state;

    let mut last = params;
    last["requestState"] = json!(state);
    last["inputResponses"] = json!({ "color": { "action": "accept", "content": { "color": "blue" } } });
    let third = start(&last, &key);
    assert!(
        matches!(third.ask(1_000, None, methods::ELICITATION_CREATE, None), Asked::Answered(_)),
        "round one's answer, from the state"
    );
    assert!(matches!(third.ask(1_000, Some("color"), methods::ELICITATION_CREATE, None), Asked::Answered(_)));
    assert!(third.interrupted().now_or_never().is_none());
}

#[test]
fn a_state_of_another_request_or_altered_is_refused_at_the_first_question() {
    let key = Rc::new(ServerKey::fixed(1));
    let first = start(&json!({ "name": "deploy" }), &key);
    first.ask(1_000, None, methods::ELICITATION_CREATE, None);
    let state = first.input_required(1_000).unwrap_or_else(|e| panic!("{e:?}")).request_state.unwrap_or_default();
    let refused = |params: Value| {
        let rounds = start(&params, &key);
        assert!(failure(&rounds).is_none(), "nothing is read before the handler asks");
        assert!(matches!(rounds.ask(1_000, None, methods::ELICITATION_CREATE, None), Asked::Interrupted));
        failure(&rounds).map(|e| (e.code, e.message))
    };
    let invalid = mcp_worker_protocol::ErrorCode::INVALID_PARAMS;
    let other = refused(json!({ "name": "destroy", "requestState": state }));
    assert_eq!(other, Some((invalid, "requestState was issued for another request".into())));
    let altered = refused(json!({ "name": "deploy", "requestState": format!("{state}-TAMPERED") }));
    assert_eq!(altered, Some((invalid, "requestState was altered or was not issued by this server".into())));
    let not_a_string = refused(json!({ "name": "deploy", "requestState": 7 }));
    assert_eq!(not_a_string, Some((invalid, "requestState must be a string".into())));
    let not_an_object = refused(json!({ "name": "deploy", "inputResponses": [] }));
    assert_eq!(not_an_object, Some((invalid, "inputResponses must be an object".into())));
    let expired = start(&json!({ "name": "deploy", "requestState": state }), &key);
    expired.ask(1_000 + request_state::STATE_LIFETIME_MS + 1, None, methods::ELICITATION_CREATE, None);
    assert_eq!(failure(&expired).map(|e| e.code), Some(invalid));
}

#[test]
fn asking_for_an_undeclared_capability_fails_the_request_with_32021() {
    let key = Rc::new(ServerKey::fixed(1));
    let rounds = start(&json!({ "name": "deploy" }), &key);
    rounds.ask(1_000, None, methods::SAMPLING_CREATE_MESSAGE, None);
    let Some(Interrupt::Failed(error)) = rounds.interrupted().now_or_never() else { panic!("not failed") };
    assert_eq!(error.code, mcp_worker_protocol::modern::codes::MISSING_REQUIRED_CLIENT_CAPABILITY);
    assert_eq!(error.data, Some(json!({ "requiredCapabilities": { "sampling": {} } })));
    // A failure outranks questions asked alongside it.
    rounds.ask(1_000, None, methods::ELICITATION_CREATE, None);
    assert!(matches!(rounds.interrupted().now_or_never(), Some(Interrupt::Failed(_))));
}
