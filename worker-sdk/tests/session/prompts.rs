//! Prompts: listing with arguments, getting with argument checks, every message kind, and completion.

use crate::basics::page_through;
use crate::harness::Harness;
use mcp_worker_sdk::{
    ContentBlock, Ctx, GetPromptResult, NoArgs, PromptDef, PromptMessage, ResourceContents, Role, Server,
};
use serde_json::json;

const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==";

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct TwoArgs {
    /// First test argument
    arg1: String,
    /// Second test argument
    arg2: Option<String>,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Greeting {
    name: String,
    style: Option<String>,
}

fn server() -> Server {
    Server::new("prompts", "1")
        .page_size(3)
        .prompt(
            PromptDef::new("simple", |_: NoArgs| async { "This is a simple test prompt." })
                .description("A simple test prompt with no arguments"),
        )
        .prompt(PromptDef::new("with_arguments", |args: TwoArgs| async move {
            format!("Prompt with arguments: arg1='{}', arg2='{}'", args.arg1, args.arg2.unwrap_or_default())
        }))
        .prompt(PromptDef::new("every_kind", |_: NoArgs| async {
            GetPromptResult::new(vec![
                PromptMessage::user("Here is a resource:"),
                PromptMessage::new(
                    Role::User,
                    ContentBlock::embedded(ResourceContents::text("test://static-text", Some("text/plain"), "content")),
                ),
                PromptMessage::new(Role::User, ContentBlock::image(PNG, "image/png")),
                PromptMessage::assistant("Noted."),
            ])
            .with_description("Every kind of message")
        }))
        .prompt(PromptDef::new("broken", |_ctx: Ctx, _: NoArgs| async { Err::<String, _>("template missing") }))
        .prompt(
            PromptDef::new("greeting", |args: Greeting| async move {
                format!("Hello {} ({})", args.name, args.style.unwrap_or_default())
            })
            .title("Greeting")
            .complete_values("name", ["Alice", "Bob", "Charlie"])
            .complete("style", |request| async move {
                // Suggestions may depend on the other arguments.
                match request.context.get("name").map(String::as_str) {
                    Some("Bob") => vec!["formal".to_owned()],
                    _ => vec!["friendly".to_owned(), "formal".to_owned(), "casual".to_owned()],
                }
            }),
        )
}

#[test]
fn prompts_are_listed_with_their_arguments() {
    let mut h = Harness::new(server());
    let init = h.initialize(json!({}));
    assert_eq!(init["result"]["capabilities"]["prompts"], json!({"listChanged": true}));
    assert_eq!(init["result"]["capabilities"]["completions"], json!({}));
    let names = page_through(&mut h, "prompts/list", "prompts", "name");
    assert_eq!(names, ["simple", "with_arguments", "every_kind", "broken", "greeting"]);
    let r = h.request(1, "prompts/list", json!({}));
    assert_eq!(
        r["result"]["prompts"][0],
        json!({"name":"simple","description":"A simple test prompt with no arguments"})
    );
    assert_eq!(
        r["result"]["prompts"][1]["arguments"],
        json!([{"name":"arg1","description":"First test argument","required":true},
               {"name":"arg2","description":"Second test argument","required":false}])
    );
}

#[test]
fn prompts_are_got_with_their_arguments() {
    let mut h = Harness::new(server());
    let r = h.request(1, "prompts/get", json!({"name": "simple"}));
    assert_eq!(
        r["result"]["messages"],
        json!([{"role":"user","content":{"type":"text","text":"This is a simple test prompt."}}])
    );
    let r = h.request(2, "prompts/get", json!({"name": "with_arguments", "arguments": {"arg1": "a", "arg2": "b"}}));
    assert_eq!(r["result"]["messages"][0]["content"]["text"], "Prompt with arguments: arg1='a', arg2='b'");
    let r = h.request(3, "prompts/get", json!({"name": "with_arguments", "arguments": {"arg1": "a", "arg9": "z"}}));
    assert_eq!(r["result"]["messages"][0]["content"]["text"], "Prompt with arguments: arg1='a', arg2=''");
    let r = h.request(4, "prompts/get", json!({"name": "every_kind"}));
    let kinds: Vec<&str> =
        r["result"]["messages"].as_array().unwrap().iter().map(|m| m["content"]["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["text", "resource", "image", "text"]);
    assert_eq!(r["result"]["messages"][3]["role"], "assistant");
    assert_eq!(r["result"]["description"], "Every kind of message");
}

#[test]
fn missing_arguments_unknown_prompts_and_failures_are_errors() {
    let mut h = Harness::new(server());
    let r = h.request(1, "prompts/get", json!({"name": "with_arguments", "arguments": {"arg2": "b"}}));
    assert_eq!(r["error"]["code"], -32602);
    assert!(r["error"]["message"].as_str().unwrap().contains("`arg1`"), "{r}");
    let r = h.request(2, "prompts/get", json!({"name": "with_arguments"}));
    assert_eq!(r["error"]["code"], -32602);
    let r = h.request(3, "prompts/get", json!({"name": "nope"}));
    assert_eq!(r["error"]["code"], -32602);
    assert!(r["error"]["message"].as_str().unwrap().contains("nope"));
    let r = h.request(4, "prompts/get", json!({"name": "broken"}));
    assert_eq!(r["error"]["code"], -32603);
    assert!(r["error"]["message"].as_str().unwrap().contains("template missing"));
    let r = h.request(5, "prompts/get", json!({"name": "simple", "arguments": {"surprise": "x"}}));
    assert_eq!(
        r["result"]["messages"][0]["content"]["text"], "This is a simple test prompt.",
        "extras are ignored: {r}"
    );
    assert_eq!(
        h.request(6, "prompts/get", json!({"name": "with_arguments", "arguments": {"arg1": 1}}))["error"]["code"],
        -32602
    );
}

#[test]
fn prompt_arguments_are_completed_with_context() {
    let mut h = Harness::new(server());
    let complete = |id: i64, h: &mut Harness, argument: &str, value: &str, context: serde_json::Value| {
        h.request(
            id,
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "greeting"},
                  "argument": {"name": argument, "value": value}, "context": {"arguments": context}}),
        )
    };
    let r = complete(1, &mut h, "name", "a", json!({}));
    assert_eq!(r["result"]["completion"]["values"], json!(["Alice"]));
    let r = complete(2, &mut h, "style", "", json!({"name": "Bob"}));
    assert_eq!(r["result"]["completion"]["values"], json!(["formal"]));
    let r = complete(3, &mut h, "style", "", json!({}));
    assert_eq!(r["result"]["completion"]["total"], 3);
    let r = h.request(
        4,
        "completion/complete",
        json!({"ref": {"type": "ref/prompt", "name": "nope"},
                                                       "argument": {"name": "x", "value": ""}}),
    );
    assert_eq!(r["error"]["code"], -32602);
    let r = h.request(
        5,
        "completion/complete",
        json!({"ref": {"type": "ref/other"}, "argument": {"name": "x", "value": ""}}),
    );
    assert_eq!(r["error"]["code"], -32602);
}

#[test]
fn long_completions_are_cut_to_a_hundred() {
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct One {
        #[allow(dead_code)]
        n: String,
    }
    let values: Vec<String> = (0..250).map(|i| format!("v{i}")).collect();
    let server = Server::new("p", "1").prompt(PromptDef::new("p", |_: One| async { "" }).complete_values("n", values));
    let mut h = Harness::new(server);
    let r = h.request(
        1,
        "completion/complete",
        json!({"ref": {"type": "ref/prompt", "name": "p"},
                                                       "argument": {"name": "n", "value": "v"}}),
    );
    assert_eq!(r["result"]["completion"]["values"].as_array().map(Vec::len), Some(100));
    assert_eq!(
        (r["result"]["completion"]["total"].clone(), r["result"]["completion"]["hasMore"].clone()),
        (json!(250), json!(true))
    );
}

#[test]
fn prompt_and_resource_handlers_report_progress_against_the_callers_token() {
    use mcp_worker_sdk::ResourceDef;
    let server = Server::new("progress", "1")
        .prompt(PromptDef::new("slow", |ctx: Ctx, _: NoArgs| async move {
            ctx.progress(1.0, Some(1.0), Some("drafted"));
            "done"
        }))
        .resource(ResourceDef::new("test://slow", "slow", |request| async move {
            request.ctx().progress(1.0, None, None);
            "read"
        }));
    let mut h = Harness::new(server);
    let frames = h.exchange(&crate::harness::request(
        1,
        "prompts/get",
        json!({"name": "slow", "_meta": {"progressToken": "prompt-1"}}),
    ));
    assert_eq!(frames.len(), 2, "{frames:?}");
    assert_eq!(
        frames[0]["params"],
        json!({"progressToken": "prompt-1", "progress": 1.0, "total": 1.0, "message": "drafted"})
    );
    assert_eq!(frames[1]["id"], 1);
    let frames = h.exchange(&crate::harness::request(
        2,
        "resources/read",
        json!({"uri": "test://slow", "_meta": {"progressToken": 9}}),
    ));
    assert_eq!(frames.len(), 2, "{frames:?}");
    assert_eq!(frames[0]["params"], json!({"progressToken": 9, "progress": 1.0}));
    assert_eq!(frames[1]["id"], 2);
    // Without a token, neither reports.
    assert_eq!(h.exchange(&crate::harness::request(3, "prompts/get", json!({"name": "slow"}))).len(), 1);
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Tone {
    Formal,
    Casual,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Toned {
    tone: Tone,
}

#[test]
fn arguments_that_do_not_read_as_the_type_are_named_by_pointer_in_the_hosts_words() {
    let server = Server::new("prompts", "1").prompt(PromptDef::new("toned", |args: Toned| async move {
        match args.tone {
            Tone::Formal => "Good day.",
            Tone::Casual => "Hi!",
        }
    }));
    let mut h = Harness::new(server);
    let r = h.request(1, "prompts/get", json!({"name": "toned", "arguments": {"tone": "loud"}}));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert_eq!(
        r["error"]["message"],
        "Invalid arguments for prompt toned: /tone: must be one of [\"formal\",\"casual\"], got string \"loud\"",
    );
    assert_eq!(r["error"]["data"], json!({"prompt": "toned", "path": "/tone"}));
    let r = h.request(2, "prompts/get", json!({"name": "toned", "arguments": {"tone": "casual"}}));
    assert_eq!(r["result"]["messages"][0]["content"]["text"], "Hi!", "{r}");
}
