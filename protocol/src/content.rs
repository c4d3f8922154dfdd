//! Content blocks: what tools return and prompts carry.

use crate::JsonObject;
use crate::lifecycle::Icon;
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Who a piece of content is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Role {
    /// The human user.
    User,
    /// The model.
    Assistant,
}

/// Display hints on a content block.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations {
    /// Intended audience.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<Vec<Role>>,
    /// Importance from 0 to 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<f64>,
    /// ISO 8601 time of the last change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}

/// Text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextContent {
    /// The text.
    pub text: String,
    /// Display hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

/// An image, base64-encoded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ImageContent {
    /// Base64 data.
    pub data: String,
    /// e.g. `image/png`.
    pub mime_type: String,
    /// Display hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

/// Audio, base64-encoded.
pub type AudioContent = ImageContent;

/// A resource a server can read (also the `resource_link` content block).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    /// The resource URI.
    pub uri: String,
    /// Programmatic name.
    pub name: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// MIME type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Size in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
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

impl Resource {
    /// A resource with a URI and a name.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            annotations: None,
            icons: None,
            meta: None,
        }
    }
}

/// The contents of a resource: text or base64 blob. Contents with both are text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged, try_from = "ContentsWire")]
#[non_exhaustive]
pub enum ResourceContents {
    /// Text contents.
    #[serde(rename_all = "camelCase")]
    Text {
        /// The resource URI.
        uri: String,
        /// MIME type.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// The text.
        text: String,
        /// Extension metadata.
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        meta: Option<JsonObject>,
    },
    /// Binary contents.
    #[serde(rename_all = "camelCase")]
    Blob {
        /// The resource URI.
        uri: String,
        /// MIME type.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// Base64 data.
        blob: String,
        /// Extension metadata.
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        meta: Option<JsonObject>,
    },
}

/// Resource contents as they are read: one struct with both `text` and `blob` optional, rather than serde's untagged
/// reading, which buffers the object and tries each variant in turn (about 10 KB of wasm for this one type).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ContentsWire {
    uri: String,
    #[serde(default)]
    mime_type: Option<String>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    blob: Option<String>,
    #[serde(rename = "_meta", default)]
    meta: Option<JsonObject>,
}

impl TryFrom<ContentsWire> for ResourceContents {
    type Error = &'static str;

    fn try_from(wire: ContentsWire) -> Result<Self, Self::Error> {
        let ContentsWire { uri, mime_type, text, blob, meta } = wire;
        match (text, blob) {
            (Some(text), _) => Ok(Self::Text { uri, mime_type, text, meta }),
            (None, Some(blob)) => Ok(Self::Blob { uri, mime_type, blob, meta }),
            (None, None) => Err("resource contents have neither `text` nor `blob`"),
        }
    }
}

impl ResourceContents {
    /// Text contents.
    pub fn text(uri: impl Into<String>, mime_type: Option<&str>, text: impl Into<String>) -> Self {
        Self::Text { uri: uri.into(), mime_type: mime_type.map(str::to_owned), text: text.into(), meta: None }
    }

    /// Binary contents from base64 data.
    pub fn blob(uri: impl Into<String>, mime_type: Option<&str>, base64: impl Into<String>) -> Self {
        Self::Blob { uri: uri.into(), mime_type: mime_type.map(str::to_owned), blob: base64.into(), meta: None }
    }

    /// The URI of the contents.
    pub fn uri(&self) -> &str {
        match self {
            Self::Text { uri, .. } | Self::Blob { uri, .. } => uri,
        }
    }
}

/// A resource embedded in a result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EmbeddedResource {
    /// The contents.
    pub resource: ResourceContents,
    /// Display hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

/// One block of content. Blocks of a type this crate does not know are kept as [`ContentBlock::Other`], so a
/// result from a newer server is never lost.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type")]
#[non_exhaustive]
pub enum ContentBlock {
    /// `text`.
    #[serde(rename = "text")]
    Text(TextContent),
    /// `image`.
    #[serde(rename = "image")]
    Image(ImageContent),
    /// `audio`.
    #[serde(rename = "audio")]
    Audio(AudioContent),
    /// `resource_link`.
    #[serde(rename = "resource_link")]
    ResourceLink(Resource),
    /// `resource` (embedded).
    #[serde(rename = "resource")]
    Resource(EmbeddedResource),
    /// A block of another type, kept as it came.
    #[serde(untagged)]
    Other(Value),
}

impl ContentBlock {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text(TextContent { text: text.into(), annotations: None, meta: None })
    }

    /// An image block from base64 data.
    pub fn image(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self::Image(ImageContent { data: data.into(), mime_type: mime_type.into(), annotations: None, meta: None })
    }

    /// An audio block from base64 data.
    pub fn audio(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self::Audio(ImageContent { data: data.into(), mime_type: mime_type.into(), annotations: None, meta: None })
    }

    /// A link to a resource the client can read with `resources/read`.
    pub fn resource_link(resource: Resource) -> Self {
        Self::ResourceLink(resource)
    }

    /// A resource embedded with its contents.
    pub fn embedded(contents: ResourceContents) -> Self {
        Self::Resource(EmbeddedResource { resource: contents, annotations: None, meta: None })
    }
}

impl<'de> Deserialize<'de> for ContentBlock {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut value = Value::deserialize(d)?;
        let kind = value.get("type").and_then(Value::as_str).map(str::to_owned);
        let Some(obj) = value.as_object_mut() else {
            return Err(de::Error::custom("a content block must be an object"));
        };
        let known = match kind.as_deref() {
            Some("text" | "image" | "audio" | "resource_link" | "resource") => crate::members::take(obj, "type"),
            _ => None,
        };
        if known.is_none() {
            return Ok(Self::Other(value));
        }
        let parsed = match kind.as_deref() {
            Some("text") => crate::json::from_value(value).map(Self::Text),
            Some("image") => crate::json::from_value(value).map(Self::Image),
            Some("audio") => crate::json::from_value(value).map(Self::Audio),
            Some("resource_link") => crate::json::from_value(value).map(Self::ResourceLink),
            _ => crate::json::from_value(value).map(Self::Resource),
        };
        parsed.map_err(|e| de::Error::custom(format!("{} content block: {e}", kind.unwrap_or_default())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_known_kind_round_trips() {
        let blocks = json!([
            {"type":"text","text":"hi"},
            {"type":"image","data":"AAAA","mimeType":"image/png"},
            {"type":"audio","data":"AAAA","mimeType":"audio/wav"},
            {"type":"resource_link","uri":"test://x","name":"x"},
            {"type":"resource","resource":{"uri":"test://t","text":"t"}},
            {"type":"resource","resource":{"uri":"test://b","blob":"AAAA","mimeType":"application/octet-stream"}},
        ]);
        let parsed: Vec<ContentBlock> = crate::json::from_value(blocks.clone()).unwrap();
        assert!(matches!(parsed[0], ContentBlock::Text(_)));
        assert!(matches!(parsed[1], ContentBlock::Image(_)));
        assert!(matches!(parsed[2], ContentBlock::Audio(_)));
        assert!(matches!(parsed[3], ContentBlock::ResourceLink(_)));
        assert!(matches!(&parsed[4], ContentBlock::Resource(r) if matches!(r.resource, ResourceContents::Text{..})));
        assert!(matches!(&parsed[5], ContentBlock::Resource(r) if matches!(r.resource, ResourceContents::Blob{..})));
        assert_eq!(serde_json::to_value(&parsed).unwrap(), blocks);
    }

    #[test]
    fn an_unknown_kind_is_kept_as_it_came() {
        let block = json!({"type":"hologram","frames":3});
        let parsed: ContentBlock = crate::json::from_value(block.clone()).unwrap();
        assert_eq!(parsed, ContentBlock::Other(block.clone()));
        assert_eq!(serde_json::to_value(&parsed).unwrap(), block);
    }

    #[test]
    fn a_known_kind_with_missing_fields_is_an_error() {
        let err = crate::json::from_value::<ContentBlock>(json!({"type":"image","data":"x"})).unwrap_err();
        assert!(err.to_string().contains("mimeType"), "{err}");
    }
}
