//! The prompts of the conformance suite's `prompts-*` scenarios.

use crate::fixtures::PNG;
use mcp_worker_sdk::{ContentBlock, GetPromptResult, NoArgs, PromptDef, PromptMessage, ResourceContents, Role, Server};
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct EmbeddedArgs {
    /// URI of the resource to embed
    resource_uri: String,
}

#[derive(Deserialize, JsonSchema)]
struct PromptArgs {
    /// First test argument
    arg1: String,
    /// Second test argument
    arg2: Option<String>,
}

pub(crate) fn register(server: Server) -> Server {
    server
        .prompt(
            PromptDef::new("test_simple_prompt", |_: NoArgs| async {
                GetPromptResult::new(vec![PromptMessage::user("This is a simple test prompt.")])
                    .with_description("A simple test prompt")
            })
            .description("A simple test prompt with no arguments"),
        )
        .prompt(
            PromptDef::new("test_prompt_with_arguments", |args: PromptArgs| async move {
                let text =
                    format!("Prompt with arguments: arg1='{}', arg2='{}'", args.arg1, args.arg2.unwrap_or_default());
                GetPromptResult::new(vec![PromptMessage::user(text)]).with_description("A prompt with arguments")
            })
            .description("A test prompt that accepts arguments")
            .complete_values("arg1", ["paris", "park", "party", "test", "testing"])
            .complete_values("arg2", ["formal", "casual", "friendly"]),
        )
        .prompt(
            PromptDef::new("test_prompt_with_embedded_resource", |args: EmbeddedArgs| async move {
                let resource = ResourceContents::text(
                    args.resource_uri,
                    Some("text/plain"),
                    "Embedded resource content for testing.",
                );
                GetPromptResult::new(vec![
                    PromptMessage::new(Role::User, ContentBlock::embedded(resource)),
                    PromptMessage::user("Please process the embedded resource above."),
                ])
                .with_description("A prompt with an embedded resource")
            })
            .description("A test prompt that includes an embedded resource"),
        )
        .prompt(
            PromptDef::new("test_prompt_with_image", |_: NoArgs| async {
                GetPromptResult::new(vec![
                    PromptMessage::user("Here is an image:"),
                    PromptMessage::new(Role::User, ContentBlock::image(PNG, "image/png")),
                ])
                .with_description("A prompt with an image")
            })
            .description("A test prompt that includes an image"),
        )
}
