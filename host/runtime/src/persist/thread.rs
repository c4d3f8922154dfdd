//! A thread's configuration as ART keeps it (`ThreadConfig`): which tools the agent may use in that thread. Other
//! fields ART stores (`providerConfig`, `historyLimit`, `systemPrompt`, …) are kept as they are, untouched. This is
//! the stored list; matching a tool against it (entries such as `mcp__github__*`) is the registry's job.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

/// A thread's configuration.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ThreadConfig {
    /// Registry names of the tools enabled in this thread, in the order they were enabled.
    #[serde(default)]
    pub enabled_tools: Vec<String>,
    /// Every other field, kept for whoever wrote it.
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// Read as an object whose `enabledTools` is taken out, rather than through serde's `flatten`, whose buffered,
/// type-erased reader would be linked for this one type.
impl<'de> Deserialize<'de> for ThreadConfig {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut other = Map::deserialize(deserializer)?;
        let enabled_tools = match other.remove("enabledTools") {
            None => Vec::new(),
            Some(tools) => {
                Vec::deserialize(tools).map_err(|e| serde::de::Error::custom(format_args!("enabledTools: {e}")))?
            }
        };
        Ok(Self { enabled_tools, other })
    }
}

impl ThreadConfig {
    /// A configuration with these tools enabled.
    pub fn with_tools<S: AsRef<str>>(tools: &[S]) -> Self {
        let mut config = Self::default();
        config.enable(tools);
        config
    }

    /// Enables tools; those already enabled stay where they are.
    pub fn enable<S: AsRef<str>>(&mut self, tools: &[S]) {
        for tool in tools {
            let tool = tool.as_ref();
            if !self.lists(tool) {
                self.enabled_tools.push(tool.to_owned());
            }
        }
    }

    /// Disables tools.
    pub fn disable<S: AsRef<str>>(&mut self, tools: &[S]) {
        self.enabled_tools.retain(|t| !tools.iter().any(|d| d.as_ref() == t));
    }

    /// Whether the list has exactly this entry.
    pub fn lists(&self, tool: &str) -> bool {
        self.enabled_tools.iter().any(|t| t == tool)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn enabling_and_disabling_keep_order_and_uniqueness() {
        let mut config = ThreadConfig::with_tools(&["mcp__a__x", "mcp__b__y"]);
        config.enable(&["mcp__a__x", "mcp__c__z"]);
        assert_eq!(config.enabled_tools, ["mcp__a__x", "mcp__b__y", "mcp__c__z"]);
        config.disable(&["mcp__b__y", "never-enabled"]);
        assert_eq!(config.enabled_tools, ["mcp__a__x", "mcp__c__z"]);
        assert!(config.lists("mcp__c__z"));
        assert!(!config.lists("mcp__b__y"));
    }

    #[test]
    fn art_thread_configs_keep_their_other_fields() {
        let art = json!({
            "providerConfig": {"providerName": "openai", "modelId": "gpt"},
            "enabledTools": ["calculator"],
            "historyLimit": 20
        });
        let mut config: ThreadConfig = mcp_worker_protocol::json::from_value(art).unwrap();
        config.enable(&["mcp__echo__echo"]);
        let back = serde_json::to_value(&config).unwrap();
        assert_eq!(back["enabledTools"], json!(["calculator", "mcp__echo__echo"]));
        assert_eq!(back["historyLimit"], json!(20));
        assert_eq!(back["providerConfig"]["modelId"], json!("gpt"));
        let empty: ThreadConfig = mcp_worker_protocol::json::from_value(json!({})).unwrap();
        assert!(empty.enabled_tools.is_empty());
        let from_text: ThreadConfig = mcp_worker_protocol::json::from_str(r#"{"enabledTools":["a"],"x":1}"#).unwrap();
        assert_eq!(
            (from_text.enabled_tools, from_text.other),
            (vec!["a".to_owned()], json!({"x": 1}).as_object().cloned().unwrap())
        );
    }

    #[test]
    fn a_config_that_is_not_an_object_or_lists_tools_oddly_is_refused() {
        for bad in [
            json!([]),
            json!("x"),
            json!({"enabledTools": "a"}),
            json!({"enabledTools": [1]}),
            json!({"enabledTools": null}),
        ] {
            assert!(mcp_worker_protocol::json::from_value::<ThreadConfig>(bad.clone()).is_err(), "{bad}");
        }
        let err = mcp_worker_protocol::json::from_value::<ThreadConfig>(json!({"enabledTools": [1]})).unwrap_err();
        assert!(err.to_string().starts_with("enabledTools: invalid type: integer `1`"), "{err}");
    }
}
