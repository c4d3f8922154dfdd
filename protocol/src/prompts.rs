//! Prompts: listing, arguments, and the messages `prompts/get` returns.

use crate::JsonObject;
use crate::NameMap;
use crate::content::{ContentBlock, Role};
use crate::lifecycle::Icon;
use serde::{Deserialize, Serialize};

/// An argument a prompt accepts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PromptArgument {
    /// Programmatic name.
    pub name: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the argument is for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Whether it must be given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
}

impl PromptArgument {
    /// An argument named `name`.
    pub fn new(name: impl Into<String>, required: bool) -> Self {
        Self { name: name.into(), title: None, description: None, required: Some(required) }
    }
}

/// A prompt or prompt template, as `prompts/list` shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prompt {
    /// Unique name within the server.
    pub name: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the prompt provides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The arguments it takes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Vec<PromptArgument>>,
    /// Icons.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

impl Prompt {
    /// A prompt named `name`, taking no arguments.
    pub fn new(name: impl Into<String>) -> Self {
        Self { name: name.into(), title: None, description: None, arguments: None, icons: None, meta: None }
    }
}

/// `prompts/list` result.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListPromptsResult {
    /// This page of prompts.
    pub prompts: Vec<Prompt>,
    /// The cursor of the next page; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// `prompts/get` params.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GetPromptParams {
    /// The prompt's name.
    pub name: String,
    /// Argument values (always strings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<NameMap<String>>,
    /// Request metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

impl GetPromptParams {
    /// Gets `name` with `arguments`.
    pub fn new(name: impl Into<String>, arguments: Option<NameMap<String>>) -> Self {
        Self { name: name.into(), arguments, meta: None }
    }
}

/// One message of a prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PromptMessage {
    /// Who says it.
    pub role: Role,
    /// What is said: text, an image, audio, a resource link or an embedded resource.
    pub content: ContentBlock,
}

impl PromptMessage {
    /// A message from `role`.
    pub fn new(role: Role, content: ContentBlock) -> Self {
        Self { role, content }
    }

    /// A text message from the user.
    pub fn user(text: impl Into<String>) -> Self {
        Self::new(Role::User, ContentBlock::text(text))
    }

    /// A text message from the assistant.
    pub fn assistant(text: impl Into<String>) -> Self {
        Self::new(Role::Assistant, ContentBlock::text(text))
    }
}

/// `prompts/get` result.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GetPromptResult {
    /// A description of the prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The messages.
    pub messages: Vec<PromptMessage>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

impl GetPromptResult {
    /// A result with these messages.
    pub fn new(messages: Vec<PromptMessage>) -> Self {
        Self { description: None, messages, meta: None }
    }

    /// Sets the description.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn prompts_use_the_spec_member_names() {
        let mut prompt = Prompt::new("p");
        prompt.arguments = Some(vec![PromptArgument::new("arg1", true)]);
        assert_eq!(
            serde_json::to_value(&prompt).unwrap(),
            json!({"name":"p","arguments":[{"name":"arg1","required":true}]})
        );
        let result = GetPromptResult::new(vec![PromptMessage::user("hi")]).with_description("d");
        assert_eq!(
            serde_json::to_value(&result).unwrap(),
            json!({"description":"d","messages":[{"role":"user","content":{"type":"text","text":"hi"}}]})
        );
    }
}
