//! What a server offers can change while it runs; the client hears of it.

use crate::harness::{Harness, call, text};
use mcp_worker_sdk::{Ctx, NoArgs, PromptDef, ResourceDef, ResourceTemplateDef, Server, ToolDef};
use serde_json::json;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Name {
    name: String,
}

fn server() -> Server {
    Server::new("dynamic", "1")
        .enable_resources()
        .enable_prompts()
        .tool(ToolDef::new("add_tool", |ctx: Ctx, args: Name| async move {
            let tool = ToolDef::new(args.name, |_: NoArgs| async { "I am new" }).description("Added at run time");
            ctx.server().add_tool(tool).map(|()| "added")
        }))
        .tool(ToolDef::new("remove_tool", |ctx: Ctx, args: Name| async move {
            ctx.server().remove_tool(&args.name).to_string()
        }))
        .tool(ToolDef::new("add_everything", |ctx: Ctx, _: NoArgs| async move {
            let server = ctx.server();
            server.add_resource(ResourceDef::new("dyn://r", "r", |_| async { "r" }))?;
            server.add_resource_template(ResourceTemplateDef::new("dyn://t/{x}", "t", |_| async { "t" }))?;
            server.add_prompt(PromptDef::new("p", |_: NoArgs| async { "p" }))?;
            Ok::<_, mcp_worker_sdk::Error>("added")
        }))
        .tool(ToolDef::new("remove_everything", |ctx: Ctx, _: NoArgs| async move {
            let server = ctx.server();
            let removed = [
                server.remove_resource("dyn://r"),
                server.remove_resource_template("dyn://t/{x}"),
                server.remove_prompt("p"),
            ];
            format!("{removed:?}")
        }))
}

fn methods(frames: &[serde_json::Value]) -> Vec<String> {
    frames.iter().filter_map(|f| f["method"].as_str().map(str::to_owned)).collect()
}

#[test]
fn tools_added_and_removed_at_run_time_are_announced() {
    let mut h = Harness::new(server());
    let init = h.initialize(json!({}));
    let caps = &init["result"]["capabilities"];
    assert_eq!(
        (caps["resources"]["listChanged"].clone(), caps["prompts"]["listChanged"].clone()),
        (json!(true), json!(true))
    );

    let lists_fresh = |h: &mut Harness, id: i64| {
        let listed = h.request(id, "tools/list", json!({}));
        listed["result"]["tools"].as_array().unwrap().iter().any(|t| t["name"] == "fresh")
    };
    // Listed before and after each change: a listing kept from before a change is never answered after it.
    assert!(!lists_fresh(&mut h, 100));
    assert!(!lists_fresh(&mut h, 101));
    let frames = h.exchange(&call(1, "add_tool", json!({"name": "fresh"})));
    assert_eq!(methods(&frames), ["notifications/tools/list_changed"]);
    assert_eq!(text(&frames[1]), "added");
    assert!(lists_fresh(&mut h, 2));
    assert_eq!(text(&h.one(&call(3, "fresh", json!({})))), "I am new");

    // A taken or invalid name is refused, and nothing is announced.
    let r = h.one(&call(4, "add_tool", json!({"name": "fresh"})));
    assert_eq!(r["result"]["isError"], true);
    assert!(text(&r).contains("twice"), "{r}");
    assert_eq!(h.one(&call(5, "add_tool", json!({"name": "no spaces"})))["result"]["isError"], true);

    let frames = h.exchange(&call(6, "remove_tool", json!({"name": "fresh"})));
    assert_eq!(methods(&frames), ["notifications/tools/list_changed"]);
    assert!(!lists_fresh(&mut h, 102));
    assert_eq!(h.one(&call(7, "fresh", json!({})))["error"]["code"], -32602);
    assert_eq!(text(&h.one(&call(8, "remove_tool", json!({"name": "fresh"})))), "false");
}

#[test]
fn resources_templates_and_prompts_added_at_run_time_are_announced() {
    let mut h = Harness::new(server());
    h.initialize(json!({}));
    let frames = h.exchange(&call(1, "add_everything", json!({})));
    assert_eq!(
        methods(&frames),
        [
            "notifications/resources/list_changed",
            "notifications/resources/list_changed",
            "notifications/prompts/list_changed"
        ]
    );
    assert_eq!(h.request(2, "resources/read", json!({"uri": "dyn://t/1"}))["result"]["contents"][0]["text"], "t");
    assert_eq!(h.request(3, "prompts/get", json!({"name": "p"}))["result"]["messages"][0]["content"]["text"], "p");
    let frames = h.exchange(&call(4, "remove_everything", json!({})));
    assert_eq!(methods(&frames).len(), 3);
    assert_eq!(text(&frames[3]), "[true, true, true]");
    assert_eq!(h.request(5, "resources/read", json!({"uri": "dyn://r"}))["error"]["code"], -32002);
}

#[test]
fn nothing_is_announced_before_the_client_is_initialized() {
    let mut h = Harness::new(server());
    let frames = h.exchange(&call(1, "add_tool", json!({"name": "early"})));
    assert_eq!(methods(&frames), Vec::<String>::new());
    assert_eq!(text(&frames[0]), "added");
}

#[test]
fn a_handle_outlives_its_session_harmlessly() {
    let handle = Harness::new(server()).session.server();
    assert_eq!(handle.add_tool(ToolDef::new("x", |_: NoArgs| async {})), Err(mcp_worker_sdk::Error::Closed));
    assert!(!handle.remove_tool("add_tool"));
    assert!(!handle.resource_updated("dyn://r"));
}
