//! Resources: listing, templates, reading text and binary, not-found and failures, subscriptions.

use crate::basics::page_through;
use crate::harness::Harness;
use mcp_worker_sdk::{Ctx, NoArgs, ResourceContents, ResourceDef, ResourceTemplateDef, Server, ToolDef};
use serde_json::json;

fn server() -> Server {
    Server::new("resources", "1")
        .page_size(2)
        .resource(
            ResourceDef::new("test://static-text", "static-text", |_| async {
                "This is the content of the static text resource."
            })
            .title("Static text")
            .description("A static text resource")
            .mime_type("text/plain"),
        )
        .resource(
            ResourceDef::new("test://static-binary", "static-binary", |_| async { vec![0_u8, 1, 2, 255] })
                .mime_type("application/octet-stream"),
        )
        .resource(ResourceDef::new("test://watched-resource", "watched", |_| async { "v1" }))
        .resource(ResourceDef::new("test://broken", "broken", |_| async { Err::<String, _>("disk on fire") }))
        .resource(ResourceDef::new("test://two", "two", |req| async move {
            vec![
                ResourceContents::text(req.uri(), Some("text/plain"), "first"),
                ResourceContents::text("test://two/part", None, "second"),
            ]
        }))
        .resource_template(
            ResourceTemplateDef::new("test://template/{id}/data", "data", |req| async move {
                let id = req.var("id").unwrap_or_default().to_owned();
                (id != "missing").then(|| format!(r#"{{"id":"{id}","templateTest":true,"data":"Data for ID: {id}"}}"#))
            })
            .mime_type("application/json")
            .complete_values("id", ["1", "2", "3", "10"]),
        )
        .resource_template(ResourceTemplateDef::new("file://{+path}", "file", |req| async move {
            format!("file at {}", req.var("path").unwrap_or_default())
        }))
        .tool(ToolDef::new("touch", |ctx: Ctx, _: NoArgs| async move {
            ctx.server().resource_updated("test://watched-resource").to_string()
        }))
}

#[test]
fn resources_and_templates_are_listed_with_pages_and_the_capability() {
    let mut h = Harness::new(server());
    let init = h.initialize(json!({}));
    let caps = &init["result"]["capabilities"];
    assert_eq!(caps["resources"], json!({"subscribe": true, "listChanged": true}));
    assert_eq!(caps["completions"], json!({}));
    let uris = page_through(&mut h, "resources/list", "resources", "uri");
    assert_eq!(
        uris,
        ["test://static-text", "test://static-binary", "test://watched-resource", "test://broken", "test://two"]
    );
    let templates = page_through(&mut h, "resources/templates/list", "resourceTemplates", "uriTemplate");
    assert_eq!(templates, ["test://template/{id}/data", "file://{+path}"]);
    let first = h.request(1, "resources/list", json!({}));
    assert_eq!(
        first["result"]["resources"][0],
        json!({"uri":"test://static-text","name":"static-text","title":"Static text",
               "description":"A static text resource","mimeType":"text/plain"})
    );
}

#[test]
fn reads_return_text_binary_and_template_contents() {
    let mut h = Harness::new(server());
    let r = h.request(1, "resources/read", json!({"uri": "test://static-text"}));
    assert_eq!(
        r["result"]["contents"],
        json!([{"uri":"test://static-text","mimeType":"text/plain","text":"This is the content of the static text resource."}])
    );
    let r = h.request(2, "resources/read", json!({"uri": "test://static-binary"}));
    assert_eq!(
        r["result"]["contents"],
        json!([{"uri":"test://static-binary","mimeType":"application/octet-stream","blob":"AAEC/w=="}])
    );
    let r = h.request(3, "resources/read", json!({"uri": "test://template/123/data"}));
    assert_eq!(r["result"]["contents"][0]["uri"], "test://template/123/data");
    assert_eq!(r["result"]["contents"][0]["mimeType"], "application/json");
    assert_eq!(r["result"]["contents"][0]["text"], r#"{"id":"123","templateTest":true,"data":"Data for ID: 123"}"#);
    let r = h.request(4, "resources/read", json!({"uri": "file:///etc/hosts"}));
    assert_eq!(r["result"]["contents"][0]["text"], "file at /etc/hosts");
    let r = h.request(5, "resources/read", json!({"uri": "test://two"}));
    assert_eq!(r["result"]["contents"].as_array().map(Vec::len), Some(2));
}

#[test]
fn a_missing_resource_is_32002_and_a_failing_one_is_32603() {
    let mut h = Harness::new(server());
    for (id, uri) in [(1, "test://nowhere"), (2, "test://template/missing/data"), (3, "test://template/a/b/data")] {
        let r = h.request(id, "resources/read", json!({"uri": uri}));
        assert_eq!(r["error"]["code"], -32002, "{uri}: {r}");
        assert_eq!(r["error"]["data"], json!({"uri": uri}));
    }
    let r = h.request(4, "resources/read", json!({"uri": "test://broken"}));
    assert_eq!(r["error"]["code"], -32603);
    assert!(r["error"]["message"].as_str().unwrap().contains("disk on fire"), "{r}");
    assert_eq!(h.request(5, "resources/read", json!({}))["error"]["code"], -32602);
}

#[test]
fn subscribers_hear_of_updates_until_they_unsubscribe() {
    let mut h = Harness::new(server());
    h.initialize(json!({}));
    let touch = crate::harness::call(10, "touch", json!({}));
    // Not subscribed: no notification.
    assert_eq!(crate::harness::text(&h.one(&touch)), "false");
    let r = h.request(1, "resources/subscribe", json!({"uri": "test://watched-resource"}));
    assert_eq!(r["result"], json!({}));
    let frames = h.exchange(&crate::harness::call(11, "touch", json!({})));
    assert_eq!(frames.len(), 2, "{frames:?}");
    assert_eq!(frames[0]["method"], "notifications/resources/updated");
    assert_eq!(frames[0]["params"], json!({"uri": "test://watched-resource"}));
    assert_eq!(h.request(2, "resources/unsubscribe", json!({"uri": "test://watched-resource"}))["result"], json!({}));
    assert_eq!(crate::harness::text(&h.one(&crate::harness::call(12, "touch", json!({})))), "false");
    // Subscribing to something that does not exist is -32002; a template's URI is fine.
    assert_eq!(h.request(3, "resources/subscribe", json!({"uri": "test://nowhere"}))["error"]["code"], -32002);
    assert_eq!(h.request(4, "resources/subscribe", json!({"uri": "test://template/7/data"}))["result"], json!({}));
}

#[test]
fn template_variables_are_completed() {
    let mut h = Harness::new(server());
    let complete = |value: &str| {
        json!({"ref": {"type": "ref/resource", "uri": "test://template/{id}/data"},
               "argument": {"name": "id", "value": value}})
    };
    let r = h.request(1, "completion/complete", complete("1"));
    assert_eq!(r["result"]["completion"], json!({"values": ["1", "10"], "total": 2, "hasMore": false}));
    let r = h.request(2, "completion/complete", complete(""));
    assert_eq!(r["result"]["completion"]["values"], json!(["1", "2", "3", "10"]));
    // A variable without a completer, and a static resource: nothing to suggest.
    let r = h.request(
        3,
        "completion/complete",
        json!({"ref": {"type": "ref/resource", "uri": "file://{+path}"},
                                                       "argument": {"name": "path", "value": "/"}}),
    );
    assert_eq!(r["result"]["completion"]["values"], json!([]));
    let r = h.request(
        4,
        "completion/complete",
        json!({"ref": {"type": "ref/resource", "uri": "test://nope/{x}"},
                                                       "argument": {"name": "x", "value": ""}}),
    );
    assert_eq!(r["error"]["code"], -32602);
}
