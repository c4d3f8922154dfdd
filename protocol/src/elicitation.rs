//! Elicitation: a server asks the user for input through the client (`elicitation/create`, server to client).
//! Form mode only: the server sends a flat JSON Schema and the client shows a form.

use crate::JsonObject;
use serde::{Deserialize, Serialize};

/// `elicitation/create` params in form mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ElicitParams {
    /// `"form"`, or absent (which means form too; older clients know no other mode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// What to tell the user.
    pub message: String,
    /// The form: `{"type":"object","properties":{…},"required":[…]}` with primitive properties only.
    pub requested_schema: JsonObject,
    /// Request metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

impl ElicitParams {
    /// A form request.
    pub fn form(message: impl Into<String>, requested_schema: JsonObject) -> Self {
        Self { mode: None, message: message.into(), requested_schema, meta: None }
    }
}

/// What the user did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ElicitAction {
    /// Submitted the form.
    Accept,
    /// Explicitly declined.
    Decline,
    /// Dismissed without choosing.
    Cancel,
}

impl std::fmt::Display for ElicitAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Accept => "accept",
            Self::Decline => "decline",
            Self::Cancel => "cancel",
        })
    }
}

/// `elicitation/create` result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ElicitResult {
    /// What the user did.
    pub action: ElicitAction,
    /// The form's values, present when the user accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<JsonObject>,
    /// Extension metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn results_read_every_action() {
        let accept: ElicitResult =
            crate::json::from_value(json!({"action":"accept","content":{"username":"ada"}})).unwrap();
        assert_eq!(accept.action, ElicitAction::Accept);
        assert_eq!(accept.content.unwrap()["username"], "ada");
        let decline: ElicitResult = crate::json::from_value(json!({"action":"decline"})).unwrap();
        assert_eq!((decline.action, decline.content), (ElicitAction::Decline, None));
        assert!(crate::json::from_value::<ElicitResult>(json!({"action":"maybe"})).is_err());
    }
}
