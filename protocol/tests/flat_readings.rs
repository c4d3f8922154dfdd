//! Types read through one flat struct rather than serde's untagged or internally tagged reading: each reads every
//! variant, and says what is wrong with an object that is none of them.

#![allow(clippy::disallowed_methods, reason = "tests read JSON with serde_json itself")]

use mcp_worker_protocol::completion::CompletionReference;
use mcp_worker_protocol::content::ResourceContents;
use serde_json::json;

fn contents(value: serde_json::Value) -> Result<ResourceContents, String> {
    serde_json::from_value(value).map_err(|e| e.to_string())
}

fn reference(value: serde_json::Value) -> Result<CompletionReference, String> {
    serde_json::from_value(value).map_err(|e| e.to_string())
}

#[test]
fn resource_contents_are_text_or_blob() {
    let text = contents(json!({"uri": "file:///a", "mimeType": "text/plain", "text": "hi", "_meta": {"k": 1}}));
    let mut expected = ResourceContents::text("file:///a", Some("text/plain"), "hi");
    if let ResourceContents::Text { meta, .. } = &mut expected {
        *meta = Some(json!({"k": 1}).as_object().cloned().unwrap());
    }
    assert_eq!(text, Ok(expected));
    assert_eq!(contents(json!({"uri": "u", "blob": "AA=="})), Ok(ResourceContents::blob("u", None, "AA==")));
    assert_eq!(
        contents(json!({"uri": "u", "text": "t", "blob": "AA==", "extra": true})),
        Ok(ResourceContents::text("u", None, "t")),
        "text wins, unknown members are ignored"
    );
}

#[test]
fn resource_contents_without_text_or_blob_say_so() {
    let error = contents(json!({"uri": "u"})).unwrap_err();
    assert!(error.contains("neither `text` nor `blob`"), "{error}");
    let error = contents(json!({"text": "t"})).unwrap_err();
    assert!(error.contains("missing field `uri`"), "{error}");
}

#[test]
fn resource_contents_write_as_before() {
    let written = serde_json::to_value(ResourceContents::blob("u", Some("image/png"), "AA==")).unwrap();
    assert_eq!(written, json!({"uri": "u", "mimeType": "image/png", "blob": "AA=="}));
}

#[test]
fn completion_references_read_by_type() {
    assert_eq!(
        reference(json!({"type": "ref/prompt", "name": "p", "title": "P"})),
        Ok(CompletionReference::Prompt { name: "p".into(), title: Some("P".into()) })
    );
    assert_eq!(
        reference(json!({"type": "ref/resource", "uri": "file:///{path}"})),
        Ok(CompletionReference::Resource { uri: "file:///{path}".into() })
    );
    let written = serde_json::to_value(CompletionReference::Resource { uri: "x".into() }).unwrap();
    assert_eq!(written, json!({"type": "ref/resource", "uri": "x"}));
}

#[test]
fn a_completion_reference_of_no_known_shape_says_what_is_wrong() {
    let error = reference(json!({"type": "ref/tool", "name": "t"})).unwrap_err();
    assert!(error.contains("unknown reference type `ref/tool`"), "{error}");
    let error = reference(json!({"type": "ref/prompt"})).unwrap_err();
    assert!(error.contains("has no `name`"), "{error}");
    let error = reference(json!({"type": "ref/resource", "name": "n"})).unwrap_err();
    assert!(error.contains("has no `uri`"), "{error}");
    let error = reference(json!({"name": "n"})).unwrap_err();
    assert!(error.contains("missing field `type`"), "{error}");
}
