//! Resources, prompts, completion and the log level against the `everything` sample server, and what a server
//! that does not offer them answers.

use super::super::tests::pipe;
use super::*;
use mcp_worker_protocol::content::ResourceContents;
use mcp_worker_sdk::Env;

fn everything() -> super::super::tests::Pipe {
    pipe(everything_server::server(&Env::default()))
}

#[test]
fn resources_are_listed_read_as_text_and_binary_and_subscribed() {
    let mut p = everything();
    let client = p.client();
    let resources = p.pool.run_until(client.list_resources()).unwrap();
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert!(uris.contains(&"test://static-text") && uris.contains(&"test://static-binary"), "{uris:?}");
    let page = p.pool.run_until(client.list_resources_page(None)).unwrap();
    assert_eq!(page.resources.len(), resources.len(), "one page: {:?}", page.next_cursor);

    let templates = p.pool.run_until(client.list_resource_templates()).unwrap();
    assert_eq!(templates[0].uri_template, "test://template/{id}/data");

    let text = p.pool.run_until(client.read_resource("test://template/7/data")).unwrap();
    match &text.contents[..] {
        [ResourceContents::Text { text, .. }] => assert!(text.contains("Data for ID: 7"), "{text}"),
        other => panic!("expected one text: {other:?}"),
    }
    let binary = p.pool.run_until(client.read_resource("test://static-binary")).unwrap();
    assert!(matches!(&binary.contents[..], [ResourceContents::Blob { .. }]), "{binary:?}");

    let missing = p.pool.run_until(client.read_resource("test://nothing-here")).unwrap_err();
    assert_eq!(missing.code(), "RPC_ERROR", "{missing}");

    assert!(client.offers_resource_subscriptions());
    p.pool.run_until(client.subscribe_resource("test://watched-resource")).unwrap();
    p.pool.run_until(client.unsubscribe_resource("test://watched-resource")).unwrap();
}

#[test]
fn prompts_are_listed_and_got_with_arguments_and_arguments_complete() {
    let mut p = everything();
    let client = p.client();
    let prompts = p.pool.run_until(client.list_prompts()).unwrap();
    let with_args = prompts.iter().find(|p| p.name == "test_prompt_with_arguments").expect("listed");
    let names: Vec<&str> = with_args.arguments.iter().flatten().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["arg1", "arg2"]);

    let arguments = mcp_worker_protocol::NameMap::from([
        ("arg1".to_owned(), "one".to_owned()),
        ("arg2".to_owned(), "two".to_owned()),
    ]);
    let got = p.pool.run_until(client.get_prompt("test_prompt_with_arguments", Some(arguments))).unwrap();
    let text = serde_json::to_string(&got.messages).unwrap();
    assert!(text.contains("one") && text.contains("two"), "{text}");

    let reference = CompletionReference::Prompt { name: "test_prompt_with_arguments".into(), title: None };
    let argument = CompletionArgument { name: "arg1".into(), value: "par".into() };
    let completed = p.pool.run_until(client.complete(reference, argument, None)).unwrap();
    assert_eq!(completed.completion.values, ["paris", "park", "party"]);
    let reference = CompletionReference::Resource { uri: "test://template/{id}/data".into() };
    let argument = CompletionArgument { name: "id".into(), value: String::new() };
    let completed = p.pool.run_until(client.complete(reference, argument, None)).unwrap();
    assert_eq!(completed.completion.values, ["1", "2", "3"]);

    p.pool.run_until(client.set_logging_level(LoggingLevel::Warning)).unwrap();
}

#[test]
fn a_server_without_a_capability_is_not_asked_and_the_error_names_it() {
    let mut p = pipe(echo_server::server(&Env::default()));
    let client = p.client();
    let error = p.pool.run_until(client.list_prompts()).unwrap_err();
    assert_eq!(error.code(), "UNSUPPORTED");
    assert_eq!(error.to_string(), "server echo does not offer prompts (it declared no `prompts` capability)");
    let error = p.pool.run_until(client.read_resource("test://x")).unwrap_err();
    assert!(error.to_string().contains("does not offer resources"), "{error}");
    assert!(!client.offers_resource_subscriptions());
}
