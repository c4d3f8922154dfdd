//! What tools return: every content kind, structured content with its output schema, and tool metadata.

use crate::harness::{Harness, call};
use mcp_worker_sdk::protocol::lifecycle::Icon;
use mcp_worker_sdk::protocol::{Annotations, Resource};
use mcp_worker_sdk::{CallToolResult, ContentBlock, Json, NoArgs, ResourceContents, Role, Server, ToolDef};
use serde_json::json;

const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==";

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Forecast {
    city: String,
    temperature: f64,
    note: Option<String>,
}

fn server() -> Server {
    Server::new("content", "1")
        .tool(ToolDef::new("image", |_: NoArgs| async { ContentBlock::image(PNG, "image/png") }))
        .tool(ToolDef::new("audio", |_: NoArgs| async { ContentBlock::audio("UklGRg==", "audio/wav") }))
        .tool(ToolDef::new("link", |_: NoArgs| async {
            let mut resource = Resource::new("test://static-text", "static-text");
            resource.mime_type = Some("text/plain".into());
            ContentBlock::resource_link(resource)
        }))
        .tool(ToolDef::new("embedded", |_: NoArgs| async {
            vec![
                ContentBlock::embedded(ResourceContents::text("test://e", Some("text/plain"), "embedded text")),
                ContentBlock::embedded(ResourceContents::blob("test://b", Some("image/png"), PNG)),
            ]
        }))
        .tool(ToolDef::new("mixed", |_: NoArgs| async {
            let mut text = ContentBlock::text("for the user");
            if let ContentBlock::Text(t) = &mut text {
                t.annotations =
                    Some(Annotations { audience: Some(vec![Role::User]), priority: Some(1.0), last_modified: None });
            }
            CallToolResult::success(vec![text, ContentBlock::image(PNG, "image/png")])
        }))
        .tool(ToolDef::new("forecast", |_: NoArgs| async {
            Json(Forecast { city: "Paris".into(), temperature: 21.5, note: None })
        }))
        .tool(ToolDef::new("count", |_: NoArgs| async { Json(3_u32) }))
        .tool(ToolDef::new("maybe", |_: NoArgs| async { Err::<Json<Forecast>, _>("no data") }))
        .tool(ToolDef::new("nothing", |_: NoArgs| async {}))
        .tool(
            ToolDef::new("annotated", |_: NoArgs| async { "ok" })
                .title("Annotated")
                .description("Has every piece of metadata")
                .read_only()
                .idempotent()
                .open_world(false)
                .icon(Icon {
                    src: "https://example.com/i.png".into(),
                    mime_type: Some("image/png".into()),
                    sizes: Some(vec!["48x48".into()]),
                    theme: Some("light".into()),
                }),
        )
}

#[test]
fn every_content_kind_reaches_the_client() {
    let mut h = Harness::new(server());
    let r = h.one(&call(1, "image", json!({})));
    assert_eq!(r["result"]["content"], json!([{"type":"image","data":PNG,"mimeType":"image/png"}]));
    let r = h.one(&call(2, "audio", json!({})));
    assert_eq!(r["result"]["content"], json!([{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}]));
    let r = h.one(&call(3, "link", json!({})));
    assert_eq!(
        r["result"]["content"],
        json!([{"type":"resource_link","uri":"test://static-text","name":"static-text","mimeType":"text/plain"}])
    );
    let r = h.one(&call(4, "embedded", json!({})));
    assert_eq!(r["result"]["content"][0]["resource"]["text"], "embedded text");
    assert_eq!(r["result"]["content"][1]["resource"]["blob"], PNG);
    let r = h.one(&call(5, "mixed", json!({})));
    assert_eq!(r["result"]["content"][0]["annotations"], json!({"audience":["user"],"priority":1.0}));
    assert_eq!(r["result"]["content"][1]["type"], "image");
    let r = h.one(&call(6, "nothing", json!({})));
    assert_eq!(r["result"], json!({"content": []}));
}

#[test]
fn structured_results_match_their_output_schema() {
    let mut h = Harness::new(server());
    let tools = h.request(1, "tools/list", json!({}));
    let find = |name: &str| tools["result"]["tools"].as_array().unwrap().iter().find(|t| t["name"] == name).cloned();
    let forecast = find("forecast").unwrap();
    assert_eq!(forecast["outputSchema"]["required"], json!(["city", "temperature"]));
    assert_eq!(forecast["outputSchema"]["properties"]["note"]["type"], json!(["string", "null"]));

    let r = h.one(&call(2, "forecast", json!({})));
    let expected = json!({"city": "Paris", "temperature": 21.5, "note": null});
    assert_eq!(r["result"]["structuredContent"], expected);
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(r["result"]["content"][0]["text"].as_str().unwrap()).unwrap(),
        expected
    );
    assert_valid_against(&forecast["outputSchema"], &r["result"]["structuredContent"]);

    // A number is not an object: it travels as {"result": 3}, and the schema says so.
    let count = find("count").unwrap();
    assert_eq!(count["outputSchema"]["properties"]["result"]["type"], "integer");
    let r = h.one(&call(3, "count", json!({})));
    assert_eq!(r["result"]["structuredContent"], json!({"result": 3}));
    assert_eq!(r["result"]["content"][0]["text"], "3");
    assert_valid_against(&count["outputSchema"], &r["result"]["structuredContent"]);

    // An error result of a structured tool has no structured content.
    assert!(find("maybe").unwrap()["outputSchema"].is_object());
    let r = h.one(&call(4, "maybe", json!({})));
    assert_eq!((r["result"]["isError"].clone(), r["result"].get("structuredContent")), (json!(true), None));
}

fn assert_valid_against(schema: &serde_json::Value, instance: &serde_json::Value) {
    let validator = jsonschema::draft202012::new(schema).unwrap();
    let errors: Vec<String> = validator.iter_errors(instance).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{instance} does not match {schema}: {errors:?}");
}

#[test]
fn tool_metadata_is_listed() {
    let mut h = Harness::new(server());
    let tools = h.request(1, "tools/list", json!({}));
    let annotated = tools["result"]["tools"].as_array().unwrap().iter().find(|t| t["name"] == "annotated").unwrap();
    assert_eq!(annotated["title"], "Annotated");
    assert_eq!(annotated["annotations"], json!({"readOnlyHint": true, "idempotentHint": true, "openWorldHint": false}));
    assert_eq!(annotated["icons"][0]["sizes"], json!(["48x48"]));
}
