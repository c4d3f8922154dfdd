//! Feature reads as JSON text against the `everything` sample server, and the shape checks of their answers.

use super::super::tests::pipe;
use super::*;
use mcp_worker_sdk::Env;

fn raw(text: &str) -> Box<RawValue> {
    RawValue::from_string(text.to_owned()).unwrap()
}

const PAGE: [Member; 2] = [Member::Array("resources"), Member::OptionalString("nextCursor")];

#[test]
fn an_answer_passes_when_its_members_are_what_a_page_relies_on() {
    assert_eq!(check_members("resources/list", &raw(r#"{"resources":[]}"#), &PAGE), Ok(()));
    let page = r#"{ "resources" : [ {"uri":"a"} ], "nextCursor": "2", "_meta": {} }"#;
    assert_eq!(check_members("resources/list", &raw(page), &PAGE), Ok(()));
    assert_eq!(check_members("resources/list", &raw(r#"{"resources":[],"nextCursor":null}"#), &PAGE), Ok(()));
    let completion = [Member::Object("completion"); 2];
    assert_eq!(check_members("completion/complete", &raw(r#"{"completion":{"values":[]}}"#), &completion), Ok(()));
}

#[test]
fn an_answer_without_its_member_or_of_another_shape_is_refused_with_what_is_wrong() {
    let check = |text: &str| check_members("resources/list", &raw(text), &PAGE).unwrap_err();
    assert_eq!(check(r#"{"items":[]}"#), "the resources/list result has no `resources`");
    assert_eq!(check(r#"{"resources":{"0":{}}}"#), "the resources/list result's `resources` is not an array");
    assert_eq!(check(r#"{"resources":[],"nextCursor":7}"#), "the resources/list result's `nextCursor` is not a string");
    assert!(check("[1,2]").starts_with("unreadable resources/list result: invalid type: sequence"), "{}", check("[1]"));
    let completion = [Member::Object("completion"); 2];
    let error = check_members("completion/complete", &raw(r#"{"completion":["a"]}"#), &completion).unwrap_err();
    assert_eq!(error, "the completion/complete result's `completion` is not an object");
}

#[test]
fn every_feature_is_read_as_the_server_sent_it() {
    let mut p = pipe(everything_server::server(&Env::default()));
    let client = p.client();
    let mut read = |read: FeatureRead| -> Value {
        let answer = p.pool.run_until(client.read_raw(read)).unwrap();
        serde_json::from_str(answer.get()).unwrap()
    };
    let listed = read(FeatureRead::ResourcesPage(None));
    assert!(listed["resources"].as_array().unwrap().iter().any(|r| r["uri"] == "test://static-text"), "{listed}");
    let templates = read(FeatureRead::ResourceTemplatesPage(None));
    assert_eq!(templates["resourceTemplates"][0]["uriTemplate"], "test://template/{id}/data");
    let text = read(FeatureRead::Resource("test://template/7/data".into()));
    assert!(text["contents"][0]["text"].as_str().unwrap().contains("Data for ID: 7"), "{text}");
    let prompts = read(FeatureRead::PromptsPage(None));
    assert!(prompts["prompts"].as_array().unwrap().iter().any(|p| p["name"] == "test_simple_prompt"), "{prompts}");
    let arguments = NameMap::from([("arg1", "one".to_owned()), ("arg2", "two".to_owned())]);
    let got = read(FeatureRead::Prompt("test_prompt_with_arguments".into(), Some(arguments)));
    let messages = serde_json::to_string(&got["messages"]).unwrap();
    assert!(messages.contains("one") && messages.contains("two"), "{messages}");
    let reference = CompletionReference::Prompt { name: "test_prompt_with_arguments".into(), title: None };
    let argument = CompletionArgument { name: "arg1".into(), value: "par".into() };
    let completed = read(FeatureRead::Completion(reference, argument, None));
    assert_eq!(completed["completion"]["values"], serde_json::json!(["paris", "park", "party"]));
}

#[test]
fn a_read_of_a_feature_the_server_does_not_offer_asks_nothing() {
    let mut p = pipe(echo_server::server(&Env::default()));
    let client = p.client();
    let error = p.pool.run_until(client.read_raw(FeatureRead::PromptsPage(None))).unwrap_err();
    assert_eq!(error.to_string(), "server echo does not offer prompts (it declared no `prompts` capability)");
    let missing = p.pool.run_until(client.read_raw(FeatureRead::Resource("test://x".into()))).unwrap_err();
    assert_eq!(missing.code(), "UNSUPPORTED", "{missing}");
}
