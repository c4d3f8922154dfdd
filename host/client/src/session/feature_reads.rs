//! A server feature's answer handed on as JSON text rather than read: the JavaScript host gives the page the MCP
//! result as the server sent it, parsed by the engine, so the host carries no reader or writer of each result's
//! types. Its shape is checked as far as a page relies on it (the member that holds the answer, and the cursor of a
//! page), so that a server cannot hand the page a `resources` that is not an array.

use super::McpClient;
use super::features::Feature;
use crate::error::Result;
use mcp_worker_protocol::completion::{CompletionArgument, CompletionContext};
use mcp_worker_protocol::prompts::GetPromptParams;
use mcp_worker_protocol::resources::ResourceParams;
use mcp_worker_protocol::{CompleteParams, CompletionReference, NameMap, PaginatedParams, methods};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// A read of a server feature, for [`McpClient::read_raw`].
#[derive(Debug, Clone)]
pub enum FeatureRead {
    /// One page of `resources/list` (`cursor`: the previous page's `nextCursor`).
    ResourcesPage(Option<String>),
    /// One page of `resources/templates/list`.
    ResourceTemplatesPage(Option<String>),
    /// `resources/read` of a URI.
    Resource(String),
    /// One page of `prompts/list`.
    PromptsPage(Option<String>),
    /// `prompts/get` of a prompt, with its arguments (values are strings, as the spec has them).
    Prompt(String, Option<NameMap<String>>),
    /// `completion/complete` of an argument of a prompt or resource template, given the others (`context`).
    Completion(CompletionReference, CompletionArgument, Option<CompletionContext>),
}

/// What a member of an answer must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Member {
    /// Present, and an array.
    Array(&'static str),
    /// Present, and an object.
    Object(&'static str),
    /// Absent, `null`, or a string (a page's `nextCursor`).
    OptionalString(&'static str),
}

/// A page's cursor to the next one.
const NEXT_CURSOR: Member = Member::OptionalString("nextCursor");

/// How a [`FeatureRead`] is asked, and what its answer must hold.
struct Asked {
    /// The capability it needs.
    feature: Feature,
    method: &'static str,
    params: Map<String, Value>,
    /// Whether MCP 2026-07-28 may answer it `input_required`.
    may_ask: bool,
    /// The members to check.
    members: &'static [Member],
}

impl FeatureRead {
    fn request(&self) -> Result<Asked> {
        use super::modern::params_object;
        let (feature, method, params, may_ask, members): (_, _, _, _, &'static [Member]) = match self {
            Self::ResourcesPage(cursor) => {
                let params = params_object(&PaginatedParams::new(cursor.clone()))?;
                (Feature::Resources, methods::RESOURCES_LIST, params, false, &[Member::Array("resources"), NEXT_CURSOR])
            }
            Self::ResourceTemplatesPage(cursor) => {
                let params = params_object(&PaginatedParams::new(cursor.clone()))?;
                (
                    Feature::Resources,
                    methods::RESOURCES_TEMPLATES_LIST,
                    params,
                    false,
                    &[Member::Array("resourceTemplates"), NEXT_CURSOR],
                )
            }
            Self::Resource(uri) => {
                let params = params_object(&ResourceParams::new(uri))?;
                (Feature::Resources, methods::RESOURCES_READ, params, true, &[Member::Array("contents")])
            }
            Self::PromptsPage(cursor) => {
                let params = params_object(&PaginatedParams::new(cursor.clone()))?;
                (Feature::Prompts, methods::PROMPTS_LIST, params, false, &[Member::Array("prompts"), NEXT_CURSOR])
            }
            Self::Prompt(name, arguments) => {
                let params = params_object(&GetPromptParams::new(name, arguments.clone()))?;
                (Feature::Prompts, methods::PROMPTS_GET, params, true, &[Member::Array("messages")])
            }
            Self::Completion(reference, argument, context) => {
                let (reference, argument, context) = (reference.clone(), argument.clone(), context.clone());
                let params = params_object(&CompleteParams { reference, argument, context, meta: None })?;
                (Feature::Completions, methods::COMPLETION_COMPLETE, params, false, &[Member::Object("completion")])
            }
        };
        Ok(Asked { feature, method, params, may_ask, members })
    }
}

impl McpClient {
    /// Reads a server feature and returns its answer as the server sent it, with the member that holds the answer
    /// checked (`resources`, `resourceTemplates`, `contents`, `prompts` and `messages` arrays, a `completion`
    /// object, and a page's `nextCursor` a string if present): for a caller that hands the answer on as JSON. The
    /// typed methods (`list_resources_page`, `read_resource`, …) read the same answers into Rust values.
    pub async fn read_raw(&self, read: FeatureRead) -> Result<Box<RawValue>> {
        let Asked { feature, method, params, may_ask, members } = read.request()?;
        self.offers(feature)?;
        let raw = if may_ask && self.is_modern() {
            let options = super::CallOptions::default().timeout(Some(self.request_timeout_ms()));
            self.request_with_input(method, params, options).await?
        } else {
            let options = crate::connection::RequestOptions::timeout(self.request_timeout_ms());
            self.connection().request(method, Some(&params), options).await?
        };
        check_members(method, &raw, members).map_err(|message| self.protocol_error(message))?;
        Ok(raw)
    }
}

/// Whether `raw`, the answer to `method`, is an object whose `members` are what they must be; what is wrong if not.
pub(crate) fn check_members(method: &str, raw: &RawValue, members: &[Member]) -> std::result::Result<(), String> {
    // Borrowed: a large answer (a resource's contents) is not copied to be checked.
    let object: NameMap<&RawValue> =
        mcp_worker_protocol::json::from_str(raw.get()).map_err(|e| format!("unreadable {method} result: {e}"))?;
    for &member in members {
        let (name, found) = match member {
            Member::Array(name) | Member::Object(name) | Member::OptionalString(name) => {
                (name, object.get(name).map(|value| value.get()))
            }
        };
        let fits = match (member, found) {
            (Member::Array(_), Some(value)) => value.starts_with('['),
            (Member::Object(_), Some(value)) => value.starts_with('{'),
            (Member::OptionalString(_), Some(value)) => value.starts_with('"') || value == "null",
            (Member::OptionalString(_), None) => true,
            (_, None) => return Err(format!("the {method} result has no `{name}`")),
        };
        if !fits {
            let kind = match member {
                Member::Array(_) => "an array",
                Member::Object(_) => "an object",
                Member::OptionalString(_) => "a string",
            };
            return Err(format!("the {method} result's `{name}` is not {kind}"));
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "feature_reads_tests.rs"]
mod tests;
