//! Sampling: a server asks the client's model for a completion (`sampling/createMessage`, server to client).

use crate::JsonObject;
use crate::content::{ContentBlock, Role};
use crate::tools::Tool;
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The content of a sampling message: one block, or several (the spec allows both).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum SamplingContent {
    /// One block (boxed: a block is large and most messages are one short text).
    One(Box<ContentBlock>),
    /// Several blocks.
    Many(Vec<ContentBlock>),
}

/// An array is several blocks, anything else one. Read by hand rather than as serde's untagged enum, which buffers
/// the content and tries each variant in turn through a reader linked for that alone.
impl<'de> Deserialize<'de> for SamplingContent {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let blocks = match Value::deserialize(deserializer)? {
            Value::Array(blocks) => {
                blocks.into_iter().map(ContentBlock::deserialize).collect::<Result<_, _>>().map(Self::Many)
            }
            block => ContentBlock::deserialize(block).map(|block| Self::One(Box::new(block))),
        };
        blocks.map_err(de::Error::custom)
    }
}

impl SamplingContent {
    /// One text block.
    pub fn text_block(text: impl Into<String>) -> Self {
        Self::One(Box::new(ContentBlock::text(text)))
    }

    /// The blocks, one or many.
    pub fn blocks(&self) -> &[ContentBlock] {
        match self {
            Self::One(block) => std::slice::from_ref(&**block),
            Self::Many(blocks) => blocks,
        }
    }

    /// The text of the first text block, if any.
    pub fn text(&self) -> Option<&str> {
        self.blocks().iter().find_map(|block| match block {
            ContentBlock::Text(text) => Some(text.text.as_str()),
            _ => None,
        })
    }
}

/// A message to or from the model. Blocks are text, image and audio (and `tool_use` / `tool_result`, kept as
/// [`ContentBlock::Other`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SamplingMessage {
    /// Who says it.
    pub role: Role,
    /// What is said.
    pub content: SamplingContent,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

impl SamplingMessage {
    /// A text message from the user.
    pub fn user(text: impl Into<String>) -> Self {
        Self { role: Role::User, content: SamplingContent::text_block(text), meta: None }
    }
}

/// A hint about which model to use.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ModelHint {
    /// A full or partial model name, e.g. `claude-3-5-sonnet`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// What the server would like in a model; the client decides.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelPreferences {
    /// Model names to consider, in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hints: Option<Vec<ModelHint>>,
    /// How much cost matters, 0 to 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_priority: Option<f64>,
    /// How much speed matters, 0 to 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_priority: Option<f64>,
    /// How much capability matters, 0 to 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intelligence_priority: Option<f64>,
}

/// Which MCP context the client should add to the prompt (soft-deprecated apart from `none`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum IncludeContext {
    /// No context (the default).
    None,
    /// Context from this server.
    ThisServer,
    /// Context from every server.
    AllServers,
}

/// How the model may use the tools offered with a sampling request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolChoice {
    /// `auto`, `required` or `none`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
}

/// `sampling/createMessage` params.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateMessageParams {
    /// The conversation so far.
    pub messages: Vec<SamplingMessage>,
    /// Model preferences.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_preferences: Option<ModelPreferences>,
    /// A system prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_prompt: Option<String>,
    /// Which MCP context to include.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_context: Option<IncludeContext>,
    /// Sampling temperature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// The most tokens to sample.
    pub max_tokens: u64,
    /// Sequences that stop sampling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_sequences: Option<Vec<String>>,
    /// Provider-specific metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<JsonObject>,
    /// Tools the model may call (the client must have declared `sampling.tools`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<Tool>>,
    /// How the model may use `tools`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_choice: Option<ToolChoice>,
    /// Request metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

impl CreateMessageParams {
    /// A request to continue `messages` with at most `max_tokens` tokens.
    pub fn new(messages: Vec<SamplingMessage>, max_tokens: u64) -> Self {
        Self {
            messages,
            model_preferences: None,
            system_prompt: None,
            include_context: None,
            temperature: None,
            max_tokens,
            stop_sequences: None,
            metadata: None,
            tools: None,
            tool_choice: None,
            meta: None,
        }
    }
}

/// `sampling/createMessage` result: the model's message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateMessageResult {
    /// Who says it (the assistant, normally).
    pub role: Role,
    /// What the model said.
    pub content: SamplingContent,
    /// The model that answered.
    pub model: String,
    /// Why sampling stopped: `endTurn`, `stopSequence`, `maxTokens`, `toolUse` or another reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn content_is_one_block_or_many() {
        let one: CreateMessageResult = crate::json::from_value(
            json!({"role":"assistant","content":{"type":"text","text":"hi"},"model":"m","stopReason":"endTurn"}),
        )
        .unwrap();
        assert_eq!(one.content.text(), Some("hi"));
        let many: SamplingMessage = crate::json::from_value(
            json!({"role":"user","content":[{"type":"image","data":"AA==","mimeType":"image/png"},{"type":"text","text":"t"}]}),
        )
        .unwrap();
        assert_eq!(many.content.blocks().len(), 2);
        assert_eq!(many.content.text(), Some("t"));
        let from_text: SamplingMessage =
            crate::json::from_str(r#"{"role":"user","content":[{"type":"text","text":"a"}]}"#).unwrap();
        assert_eq!(from_text.content.text(), Some("a"));
    }

    #[test]
    fn content_that_is_no_block_says_which_block_is_wrong() {
        let cases = [
            (json!({"role":"user","content":"hello"}), "a content block must be an object"),
            (
                json!({"role":"user","content":[{"type":"text","text":"a"},{"type":"image","data":"x"}]}),
                "image content block: missing field `mimeType`",
            ),
            (json!({"role":"user","content":{"type":"text"}}), "text content block: missing field `text`"),
        ];
        for (message, expected) in cases {
            let error = crate::json::from_value::<SamplingMessage>(message).unwrap_err().to_string();
            assert!(error.contains(expected), "{error}");
        }
        let other: SamplingMessage =
            crate::json::from_value(json!({"role":"assistant","content":{"type":"tool_use","id":"1"}})).unwrap();
        assert!(matches!(other.content.blocks(), [ContentBlock::Other(_)]));
    }

    #[test]
    fn params_use_the_spec_member_names() {
        let params = CreateMessageParams::new(vec![SamplingMessage::user("q")], 100);
        assert_eq!(
            serde_json::to_value(&params).unwrap(),
            json!({"messages":[{"role":"user","content":{"type":"text","text":"q"}}],"maxTokens":100})
        );
    }
}
