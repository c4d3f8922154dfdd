//! Resources: listing, templates, reading, subscriptions and their notifications.

use crate::JsonObject;
use crate::content::{Annotations, Resource, ResourceContents};
use crate::lifecycle::Icon;
use serde::{Deserialize, Serialize};

/// A family of resources named by an RFC 6570 URI template (`resources/templates/list`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceTemplate {
    /// The URI template, e.g. `file:///logs/{date}.txt`.
    pub uri_template: String,
    /// Programmatic name.
    pub name: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the resources are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The MIME type of every resource the template names, when they share one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Display hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Icons.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

impl ResourceTemplate {
    /// A template with a URI template and a name.
    pub fn new(uri_template: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            uri_template: uri_template.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            annotations: None,
            icons: None,
            meta: None,
        }
    }
}

/// `resources/list` result.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListResourcesResult {
    /// This page of resources.
    pub resources: Vec<Resource>,
    /// The cursor of the next page; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// `resources/templates/list` result.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListResourceTemplatesResult {
    /// This page of templates.
    pub resource_templates: Vec<ResourceTemplate>,
    /// The cursor of the next page; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// Params naming one resource: `resources/read`, `resources/subscribe`, `resources/unsubscribe`, and the
/// `notifications/resources/updated` notification.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResourceParams {
    /// The resource URI.
    pub uri: String,
    /// Request metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

impl ResourceParams {
    /// Params naming `uri`.
    pub fn new(uri: impl Into<String>) -> Self {
        Self { uri: uri.into(), meta: None }
    }
}

/// `resources/read` params.
pub type ReadResourceParams = ResourceParams;
/// `resources/subscribe` and `resources/unsubscribe` params.
pub type SubscribeParams = ResourceParams;
/// `notifications/resources/updated` params.
pub type ResourceUpdatedParams = ResourceParams;

/// `resources/read` result.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ReadResourceResult {
    /// The contents: one entry per resource (a read may return sub-resources too).
    pub contents: Vec<ResourceContents>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

impl ReadResourceResult {
    /// A result with these contents.
    pub fn new(contents: Vec<ResourceContents>) -> Self {
        Self { contents, meta: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn templates_and_reads_use_the_spec_member_names() {
        let mut template = ResourceTemplate::new("test://template/{id}/data", "data");
        template.mime_type = Some("application/json".into());
        let page = ListResourceTemplatesResult { resource_templates: vec![template], next_cursor: Some("c".into()) };
        assert_eq!(
            serde_json::to_value(&page).unwrap(),
            json!({"resourceTemplates":[{"uriTemplate":"test://template/{id}/data","name":"data","mimeType":"application/json"}],"nextCursor":"c"})
        );
        let read = ReadResourceResult::new(vec![ResourceContents::text("test://a", Some("text/plain"), "hi")]);
        assert_eq!(
            serde_json::to_value(&read).unwrap(),
            json!({"contents":[{"uri":"test://a","mimeType":"text/plain","text":"hi"}]})
        );
    }
}
