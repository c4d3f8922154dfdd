//! Resources, prompts, completion, logging, sampling, elicitation and roots as we write them are valid against the
//! official MCP 2025-11-25 JSON Schema: every frame as the generic JSON-RPC type and as its specific MCP type, every
//! result as its MCP result type. Both directions are checked, since the host will send what the SDK receives.

#![allow(clippy::disallowed_methods, reason = "tests read JSON with serde_json itself")]

#[path = "support/frames.rs"]
mod frames;
#[path = "support/schema.rs"]
mod schema;

use frames::{assert_notification, assert_request, assert_result, object};
use mcp_worker_protocol::NameMap;
use mcp_worker_protocol::completion::{CompletionArgument, CompletionContext};
use mcp_worker_protocol::jsonrpc::EmptyResult;
use mcp_worker_protocol::roots::Root;
use mcp_worker_protocol::sampling::{IncludeContext, ModelHint, ModelPreferences, ToolChoice};
use mcp_worker_protocol::{
    Annotations, CompleteParams, CompleteResult, Completion, CompletionReference, ContentBlock, CreateMessageParams,
    CreateMessageResult, ElicitAction, ElicitParams, ElicitResult, GetPromptParams, GetPromptResult, Icon,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListRootsResult, LoggingLevel,
    LoggingMessageParams, PaginatedParams, Prompt, PromptArgument, PromptMessage, ReadResourceResult, Resource,
    ResourceContents, ResourceParams, ResourceTemplate, Role, SamplingContent, SamplingMessage, SetLevelParams, Tool,
    methods,
};
use serde_json::json;

const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==";

fn icon() -> Icon {
    Icon { src: "https://example.com/icon.png".into(), mime_type: Some("image/png".into()), sizes: None, theme: None }
}

fn full_resource() -> Resource {
    let mut resource = Resource::new("test://static-text", "static-text");
    resource.title = Some("Static text".into());
    resource.description = Some("A static text resource".into());
    resource.mime_type = Some("text/plain".into());
    resource.size = Some(48);
    resource.annotations =
        Some(Annotations { audience: Some(vec![Role::User]), priority: Some(0.5), last_modified: None });
    resource.icons = Some(vec![icon()]);
    resource
}

#[test]
fn resource_lists_are_valid() {
    let page = ListResourcesResult {
        resources: vec![full_resource(), Resource::new("test://static-binary", "b")],
        next_cursor: Some("o2".into()),
    };
    assert_result(&page, "ListResourcesResult");
    assert_result(&ListResourcesResult::default(), "ListResourcesResult");
    assert_request(methods::RESOURCES_LIST, Some(&PaginatedParams::new(Some("o2".into()))), "ListResourcesRequest");

    let mut template = ResourceTemplate::new("test://template/{id}/data", "data");
    template.title = Some("Data".into());
    template.description = Some("Data by id".into());
    template.mime_type = Some("application/json".into());
    template.icons = Some(vec![icon()]);
    let templates = ListResourceTemplatesResult { resource_templates: vec![template], next_cursor: None };
    assert_result(&templates, "ListResourceTemplatesResult");
    assert_request(methods::RESOURCES_TEMPLATES_LIST, None::<&()>, "ListResourceTemplatesRequest");
}

#[test]
fn reads_subscriptions_and_updates_are_valid() {
    let params = ResourceParams::new("test://static-text");
    assert_request(methods::RESOURCES_READ, Some(&params), "ReadResourceRequest");
    assert_request(methods::RESOURCES_SUBSCRIBE, Some(&params), "SubscribeRequest");
    assert_request(methods::RESOURCES_UNSUBSCRIBE, Some(&params), "UnsubscribeRequest");
    assert_notification(methods::RESOURCES_UPDATED, Some(&params), "ResourceUpdatedNotification");
    assert_notification(methods::RESOURCES_LIST_CHANGED, None::<&()>, "ResourceListChangedNotification");
    assert_result(&EmptyResult {}, "EmptyResult");

    let read = ReadResourceResult::new(vec![
        ResourceContents::text("test://static-text", Some("text/plain"), "hello"),
        ResourceContents::blob("test://static-binary", Some("image/png"), PNG),
        ResourceContents::text("test://bare", None, ""),
    ]);
    assert_result(&read, "ReadResourceResult");
}

#[test]
fn prompt_lists_and_messages_are_valid() {
    let mut argument = PromptArgument::new("arg1", true);
    argument.title = Some("First".into());
    argument.description = Some("The first argument".into());
    let mut prompt = Prompt::new("test_prompt_with_arguments");
    prompt.title = Some("With arguments".into());
    prompt.description = Some("A prompt with arguments".into());
    prompt.arguments = Some(vec![argument, PromptArgument::new("arg2", false)]);
    prompt.icons = Some(vec![icon()]);
    let page = ListPromptsResult { prompts: vec![prompt, Prompt::new("test_simple_prompt")], next_cursor: None };
    assert_result(&page, "ListPromptsResult");
    assert_request(methods::PROMPTS_LIST, None::<&()>, "ListPromptsRequest");
    assert_notification(methods::PROMPTS_LIST_CHANGED, None::<&()>, "PromptListChangedNotification");
    assert_notification(methods::TOOLS_LIST_CHANGED, None::<&()>, "ToolListChangedNotification");

    let arguments = NameMap::from([("arg1", "a".to_owned())]);
    assert_request(methods::PROMPTS_GET, Some(&GetPromptParams::new("p", Some(arguments))), "GetPromptRequest");
    assert_request(methods::PROMPTS_GET, Some(&GetPromptParams::new("p", None)), "GetPromptRequest");

    let result = GetPromptResult::new(vec![
        PromptMessage::user("Here is a resource:"),
        PromptMessage::new(
            Role::User,
            ContentBlock::embedded(ResourceContents::text("test://static-text", Some("text/plain"), "content")),
        ),
        PromptMessage::new(Role::User, ContentBlock::image(PNG, "image/png")),
        PromptMessage::new(Role::Assistant, ContentBlock::audio("UklGRg==", "audio/wav")),
        PromptMessage::new(Role::User, ContentBlock::resource_link(full_resource())),
    ])
    .with_description("Every kind of message");
    assert_result(&result, "GetPromptResult");
}

#[test]
fn completion_is_valid() {
    let prompt = CompleteParams {
        reference: CompletionReference::Prompt { name: "p".into(), title: Some("P".into()) },
        argument: CompletionArgument { name: "arg1".into(), value: "A".into() },
        context: Some(CompletionContext { arguments: Some(NameMap::from([("arg2", "x".to_owned())])) }),
        meta: None,
    };
    assert_request(methods::COMPLETION_COMPLETE, Some(&prompt), "CompleteRequest");
    let resource = CompleteParams {
        reference: CompletionReference::Resource { uri: "test://template/{id}/data".into() },
        argument: CompletionArgument { name: "id".into(), value: "".into() },
        context: None,
        meta: None,
    };
    assert_request(methods::COMPLETION_COMPLETE, Some(&resource), "CompleteRequest");

    let many = Completion::from_all((0..250).map(|i| format!("v{i}")).collect());
    assert_result(&CompleteResult { completion: many, meta: None }, "CompleteResult");
    assert_result(&CompleteResult::default(), "CompleteResult");
}

#[test]
fn logging_is_valid_at_every_level() {
    use LoggingLevel::*;
    for level in [Debug, Info, Notice, Warning, Error, Critical, Alert, Emergency] {
        assert_request(methods::LOGGING_SET_LEVEL, Some(&SetLevelParams::new(level)), "SetLevelRequest");
        for data in [json!("text"), json!({"event": "started", "n": 3}), json!(null)] {
            let message = LoggingMessageParams { level, logger: Some("everything".into()), data, meta: None };
            assert_notification(methods::LOG_MESSAGE, Some(&message), "LoggingMessageNotification");
        }
    }
    let bare = LoggingMessageParams { level: Info, logger: None, data: json!([1, 2]), meta: None };
    assert_notification(methods::LOG_MESSAGE, Some(&bare), "LoggingMessageNotification");
}

#[test]
fn sampling_is_valid_both_ways() {
    assert_request(
        methods::SAMPLING_CREATE_MESSAGE,
        Some(&CreateMessageParams::new(vec![SamplingMessage::user("Hello")], 100)),
        "CreateMessageRequest",
    );
    let mut full = CreateMessageParams::new(
        vec![
            SamplingMessage::user("What is in this picture?"),
            SamplingMessage {
                role: Role::User,
                content: SamplingContent::Many(vec![
                    ContentBlock::image(PNG, "image/png"),
                    ContentBlock::audio("UklGRg==", "audio/wav"),
                ]),
                meta: None,
            },
        ],
        500,
    );
    full.model_preferences = Some(ModelPreferences {
        hints: Some(vec![ModelHint { name: Some("claude".into()) }]),
        cost_priority: Some(0.2),
        speed_priority: Some(0.5),
        intelligence_priority: Some(0.9),
    });
    full.system_prompt = Some("Be brief.".into());
    full.include_context = Some(IncludeContext::None);
    full.temperature = Some(0.7);
    full.stop_sequences = Some(vec!["\n\n".into()]);
    full.metadata = Some(object(json!({"provider": "x"})));
    full.tools = Some(vec![Tool::new("lookup", object(json!({"type": "object"}))).with_description("Looks up")]);
    full.tool_choice = Some(ToolChoice { mode: Some("auto".into()) });
    assert_request(methods::SAMPLING_CREATE_MESSAGE, Some(&full), "CreateMessageRequest");

    let answer = CreateMessageResult {
        role: Role::Assistant,
        content: SamplingContent::text_block("A red pixel."),
        model: "test-model".into(),
        stop_reason: Some("endTurn".into()),
        meta: None,
    };
    assert_result(&answer, "CreateMessageResult");
}

#[test]
fn elicitation_is_valid_both_ways() {
    let schema = object(json!({
        "type": "object",
        "properties": {
            "username": {"type": "string", "description": "User's response"},
            "email": {"type": "string", "format": "email"},
            "age": {"type": "integer", "minimum": 0},
            "subscribe": {"type": "boolean", "default": true},
            "color": {"type": "string", "enum": ["red", "green"]}
        },
        "required": ["username", "email"]
    }));
    let mut form = ElicitParams::form("Please provide your information", schema);
    assert_request(methods::ELICITATION_CREATE, Some(&form), "ElicitRequest");
    form.mode = Some("form".into());
    assert_request(methods::ELICITATION_CREATE, Some(&form), "ElicitRequest");

    let accept = ElicitResult {
        action: ElicitAction::Accept,
        content: Some(object(json!({"username": "ada", "age": 36, "subscribe": false}))),
        meta: None,
    };
    assert_result(&accept, "ElicitResult");
    for action in [ElicitAction::Decline, ElicitAction::Cancel] {
        assert_result(&ElicitResult { action, content: None, meta: None }, "ElicitResult");
    }
}

#[test]
fn roots_are_valid_both_ways() {
    assert_request(methods::ROOTS_LIST, None::<&()>, "ListRootsRequest");
    assert_notification(methods::ROOTS_LIST_CHANGED, None::<&()>, "RootsListChangedNotification");
    let roots = ListRootsResult {
        roots: vec![
            Root { uri: "file:///home/ada/project".into(), name: Some("project".into()), meta: None },
            Root { uri: "file:///tmp".into(), name: None, meta: None },
        ],
        meta: None,
    };
    assert_result(&roots, "ListRootsResult");
}
