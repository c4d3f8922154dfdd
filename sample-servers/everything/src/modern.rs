//! The fixtures of the conformance suite's MCP 2026-07-28 server scenarios: multi round-trip requests
//! (`test_input_required_result_*`), a tool that needs a capability, logging by request, triggers of list changes
//! for `subscriptions/listen`, and a tool whose argument is mirrored in an HTTP header (`x-mcp-header`).
//!
//! The questions these tools ask go through the same `Ctx` methods a server of the handshake era uses; only the
//! keys are named, because the suite looks some of them up by name.

use mcp_worker_sdk::protocol::JsonObject;
use mcp_worker_sdk::protocol::members::object;
use mcp_worker_sdk::protocol::methods;
use mcp_worker_sdk::protocol::roots::ListRootsResult;
use mcp_worker_sdk::{
    CreateMessageParams, CreateMessageResult, Ctx, ElicitParams, ElicitResult, Error, GetPromptResult, LoggingLevel,
    NoArgs, PromptDef, PromptMessage, SamplingMessage, Server, ToolDef,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

/// A form of one field of `kind` named `field`.
fn form(message: &str, field: &str, kind: &str) -> ElicitParams {
    let mut properties = JsonObject::new();
    properties.insert(field.into(), object([("type", kind.into())]));
    let mut schema = JsonObject::new();
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), Value::Object(properties));
    schema.insert("required".into(), vec![field].into());
    ElicitParams::form(message, schema)
}

async fn elicit(ctx: &Ctx, key: &str, params: ElicitParams) -> Result<ElicitResult, Error> {
    ctx.request_as(Some(key), methods::ELICITATION_CREATE, Some(&params), None).await
}

async fn sample(ctx: &Ctx, key: &str, text: &str, max_tokens: u64) -> Result<CreateMessageResult, Error> {
    let params = CreateMessageParams::new(vec![SamplingMessage::user(text)], max_tokens);
    ctx.request_as(Some(key), methods::SAMPLING_CREATE_MESSAGE, Some(&params), None).await
}

async fn roots(ctx: &Ctx, key: &str) -> Result<ListRootsResult, Error> {
    ctx.request_as::<Value, _>(Some(key), methods::ROOTS_LIST, None, None).await
}

/// A field of an accepted form, as text.
fn field(result: &ElicitResult, name: &str) -> String {
    match result.content.as_ref().and_then(|c| c.get(name)) {
        Some(Value::String(text)) => text.clone(),
        Some(other) => serde_json::to_string(other).unwrap_or_default(),
        None => "unknown".to_owned(),
    }
}

#[derive(Deserialize, JsonSchema)]
struct RegionArgs {
    /// The region to deploy to; an HTTP client also sends it as the header `Mcp-Param-Region`.
    #[schemars(extend("x-mcp-header" = "Region"))]
    region: String,
}

pub(crate) fn register(server: Server) -> Server {
    let server = input_required_tools(server);
    server
        .tool(
            ToolDef::new("test_missing_capability", |ctx: Ctx, _: NoArgs| async move {
                sample(&ctx, "sample", "Say anything", 10).await.map(|_| "Success")
            })
            .description("Needs sampling: a client that does not declare it gets -32021"),
        )
        .tool(
            ToolDef::new("test_logging_tool", |ctx: Ctx, _: NoArgs| async move {
                ctx.log(LoggingLevel::Info, "test_logging_tool", "Logging evaluated at the requested level");
                "Logging evaluated"
            })
            .description("Logs at info when the request names a log level, and not otherwise")
            .read_only(),
        )
        .tool(
            ToolDef::new("test_streaming_elicitation", |ctx: Ctx, _: NoArgs| async move {
                ctx.progress(50.0, Some(100.0), Some("halfway"));
                "Streamed without asking the client anything"
            })
            .description("Streams progress and a result, never a request to the client")
            .read_only(),
        )
        .tool(
            ToolDef::new("test_trigger_tool_change", |ctx: Ctx, _: NoArgs| async move {
                let handle = ctx.server();
                if !handle.remove_tool("triggered_tool") {
                    let tool = ToolDef::new("triggered_tool", |_: NoArgs| async { "triggered" })
                        .description("Comes and goes with test_trigger_tool_change");
                    handle.add_tool(tool)?;
                }
                Ok::<_, Error>("Mutation triggered")
            })
            .description("Adds or removes a tool, so that listening clients hear the tool list changed"),
        )
        .tool(
            ToolDef::new("test_trigger_prompt_change", |ctx: Ctx, _: NoArgs| async move {
                let handle = ctx.server();
                if !handle.remove_prompt("triggered_prompt") {
                    let prompt = PromptDef::new("triggered_prompt", |_: NoArgs| async { "triggered" })
                        .description("Comes and goes with test_trigger_prompt_change");
                    handle.add_prompt(prompt)?;
                }
                Ok::<_, Error>("Mutation triggered")
            })
            .description("Adds or removes a prompt, so that listening clients hear the prompt list changed"),
        )
        .tool(
            ToolDef::new("test_custom_header", |args: RegionArgs| async move { format!("region: {}", args.region) })
                .description("Echoes its region, which HTTP clients mirror in the Mcp-Param-Region header")
                .read_only(),
        )
        .prompt(
            PromptDef::new("test_input_required_result_prompt", |ctx: Ctx, _: NoArgs| async move {
                let answer =
                    elicit(&ctx, "user_context", form("What context should the prompt use?", "context", "string"))
                        .await?;
                let text = format!("Prompt with context: {}", field(&answer, "context"));
                Ok::<_, Error>(GetPromptResult::new(vec![PromptMessage::user(text)]))
            })
            .description("Asks the client for context before it is given"),
        )
}

fn input_required_tools(server: Server) -> Server {
    server
        .tool(
            ToolDef::new("test_input_required_result_elicitation", |ctx: Ctx, _: NoArgs| async move {
                let answer = elicit(&ctx, "user_name", form("What is your name?", "name", "string")).await?;
                Ok::<_, Error>(format!("Hello, {}!", field(&answer, "name")))
            })
            .description("Asks the user's name (elicitation) before it answers"),
        )
        .tool(
            ToolDef::new("test_input_required_result_sampling", |ctx: Ctx, _: NoArgs| async move {
                let answer = sample(&ctx, "capital_question", "What is the capital of France?", 100).await?;
                Ok::<_, Error>(format!("Sampling result: {}", answer.content.text().unwrap_or_default()))
            })
            .description("Asks the client's model a question (sampling) before it answers"),
        )
        .tool(
            ToolDef::new("test_input_required_result_list_roots", |ctx: Ctx, _: NoArgs| async move {
                let answer = roots(&ctx, "client_roots").await?;
                Ok::<_, Error>(format!("Found {} root(s)", answer.roots.len()))
            })
            .description("Asks the client's roots before it answers"),
        )
        .tool(
            ToolDef::new("test_input_required_result_request_state", |ctx: Ctx, _: NoArgs| async move {
                let answer = elicit(&ctx, "confirm", form("Please confirm", "ok", "boolean")).await?;
                let confirmed = answer.content.as_ref().and_then(|c| c.get("ok")) == Some(&Value::Bool(true));
                Ok::<_, Error>(if confirmed { "state-ok: requestState validated" } else { "not confirmed" })
            })
            .description("Asks for a confirmation; the answer comes back with the sealed requestState"),
        )
        .tool(
            ToolDef::new("test_input_required_result_multiple_inputs", |ctx: Ctx, _: NoArgs| async move {
                let (name, greeting, roots) = futures_util::join!(
                    elicit(&ctx, "user_name", form("What is your name?", "name", "string")),
                    sample(&ctx, "greeting", "Generate a greeting", 50),
                    roots(&ctx, "client_roots"),
                );
                let (name, greeting, roots) = (name?, greeting?, roots?);
                Ok::<_, Error>(format!(
                    "Name: {}; Greeting: {}; Roots: {}",
                    field(&name, "name"),
                    greeting.content.text().unwrap_or_default(),
                    roots.roots.len()
                ))
            })
            .description("Asks for a form, a model's message and the roots at once"),
        )
        .tool(
            ToolDef::new("test_input_required_result_multi_round", |ctx: Ctx, _: NoArgs| async move {
                let name = elicit(&ctx, "step1", form("Step 1: What is your name?", "name", "string")).await?;
                let color =
                    elicit(&ctx, "step2", form("Step 2: What is your favorite color?", "color", "string")).await?;
                Ok::<_, Error>(format!(
                    "Multi-round complete for {} who likes {}",
                    field(&name, "name"),
                    field(&color, "color")
                ))
            })
            .description("Asks two questions, one round after the other"),
        )
        .tool(
            ToolDef::new("test_input_required_result_tampered_state", |ctx: Ctx, _: NoArgs| async move {
                elicit(&ctx, "confirm", form("Please confirm", "ok", "boolean")).await?;
                Ok::<_, Error>("integrity-ok: state verified")
            })
            .description("Asks for a confirmation; an altered requestState is refused"),
        )
        .tool(
            ToolDef::new("test_input_required_result_capabilities", |ctx: Ctx, _: NoArgs| async move {
                let declared = ctx.client_capabilities().unwrap_or_default();
                let mut received = Vec::new();
                if declared.elicitation.is_some() {
                    elicit(&ctx, "elicit_input", form("Enter a value", "value", "string")).await?;
                    received.push("elicitation");
                }
                if declared.sampling.is_some() {
                    sample(&ctx, "sample_input", "Sample request", 50).await?;
                    received.push("sampling");
                }
                Ok::<_, Error>(if received.is_empty() {
                    "No supported capabilities declared".to_owned()
                } else {
                    format!("capabilities-ok: received {}", received.join(", "))
                })
            })
            .description("Asks only for what the client declared it can answer"),
        )
}
