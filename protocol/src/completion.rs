//! Argument completion (`completion/complete`) for prompt arguments and resource-template variables.

use crate::JsonObject;
use crate::NameMap;
use serde::{Deserialize, Serialize};

/// The most values one completion may return (the spec's limit).
pub const MAX_COMPLETION_VALUES: usize = 100;

/// What is being completed: an argument of a prompt, or a variable of a resource template.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", try_from = "ReferenceWire")]
#[non_exhaustive]
pub enum CompletionReference {
    /// `ref/prompt`: an argument of the prompt `name`.
    #[serde(rename = "ref/prompt")]
    Prompt {
        /// The prompt's name.
        name: String,
        /// Its display name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
    },
    /// `ref/resource`: a variable of the resource template `uri`.
    #[serde(rename = "ref/resource")]
    Resource {
        /// The URI template.
        uri: String,
    },
}

/// A reference as it is read: one struct, rather than serde's internally tagged reading, which buffers the object
/// before it knows the variant (about 5 KB of wasm for this one type).
#[derive(Deserialize)]
struct ReferenceWire {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    uri: Option<String>,
}

impl TryFrom<ReferenceWire> for CompletionReference {
    type Error = String;

    fn try_from(wire: ReferenceWire) -> Result<Self, Self::Error> {
        let ReferenceWire { kind, name, title, uri } = wire;
        match (kind.as_str(), name, uri) {
            ("ref/prompt", Some(name), _) => Ok(Self::Prompt { name, title }),
            ("ref/prompt", None, _) => Err("a `ref/prompt` reference has no `name`".into()),
            ("ref/resource", _, Some(uri)) => Ok(Self::Resource { uri }),
            ("ref/resource", _, None) => Err("a `ref/resource` reference has no `uri`".into()),
            (other, _, _) => Err(format!("unknown reference type `{other}`: expected `ref/prompt` or `ref/resource`")),
        }
    }
}

/// The argument being completed and what has been typed so far.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompletionArgument {
    /// The argument's (or variable's) name.
    pub name: String,
    /// The partial value.
    pub value: String,
}

/// Values of the other arguments, already resolved.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CompletionContext {
    /// Previously-resolved arguments or template variables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<NameMap<String>>,
}

/// `completion/complete` params.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompleteParams {
    /// What is being completed.
    #[serde(rename = "ref")]
    pub reference: CompletionReference,
    /// The argument and its partial value.
    pub argument: CompletionArgument,
    /// The other arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<CompletionContext>,
    /// Request metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

/// The suggestions.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Completion {
    /// At most [`MAX_COMPLETION_VALUES`] values.
    pub values: Vec<String>,
    /// How many values there are in all (may exceed `values.len()`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// Whether there are more values than those sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub has_more: Option<bool>,
}

impl Completion {
    /// A completion of every value in `all`, cut to [`MAX_COMPLETION_VALUES`] with `total` and `hasMore` saying so.
    pub fn from_all(mut all: Vec<String>) -> Self {
        let total = all.len();
        all.truncate(MAX_COMPLETION_VALUES);
        Self { values: all, total: Some(total as u64), has_more: Some(total > MAX_COMPLETION_VALUES) }
    }
}

/// `completion/complete` result.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CompleteResult {
    /// The suggestions.
    pub completion: Completion,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn references_are_tagged_by_type() {
        let params: CompleteParams = crate::json::from_value(json!({
            "ref": {"type": "ref/resource", "uri": "test://template/{id}/data"},
            "argument": {"name": "id", "value": "1"},
            "context": {"arguments": {"other": "x"}}
        }))
        .unwrap();
        assert_eq!(params.reference, CompletionReference::Resource { uri: "test://template/{id}/data".into() });
        let prompt = CompletionReference::Prompt { name: "p".into(), title: None };
        assert_eq!(serde_json::to_value(&prompt).unwrap(), json!({"type": "ref/prompt", "name": "p"}));
        assert!(crate::json::from_value::<CompletionReference>(json!({"type": "ref/other", "name": "p"})).is_err());
    }

    #[test]
    fn long_lists_are_cut_to_the_spec_limit() {
        let completion = Completion::from_all((0..150).map(|i| i.to_string()).collect());
        assert_eq!(completion.values.len(), MAX_COMPLETION_VALUES);
        assert_eq!((completion.total, completion.has_more), (Some(150), Some(true)));
        let short = Completion::from_all(vec!["a".into()]);
        assert_eq!((short.total, short.has_more), (Some(1), Some(false)));
    }
}
