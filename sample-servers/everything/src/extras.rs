//! Tools beyond the conformance fixtures: structured output, cancellation, subscriptions, run-time tools, roots,
//! credentials, and a crash.

use crate::{API_KEY, Shared};
use mcp_worker_sdk::protocol::Resource;
use mcp_worker_sdk::{ContentBlock, Ctx, Json, NoArgs, Server, ToolDef};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::rc::Rc;

#[derive(Deserialize, JsonSchema)]
struct WeatherArgs {
    /// The city.
    city: String,
}

/// A made-up forecast, as structured content.
#[derive(Serialize, JsonSchema)]
struct Weather {
    /// The city asked about.
    city: String,
    /// Degrees Celsius.
    temperature: f64,
    /// A word or two.
    conditions: String,
}

#[derive(Deserialize, JsonSchema)]
struct SlowArgs {
    /// How many steps (each reports progress).
    steps: u32,
    /// Milliseconds per step.
    step_ms: u32,
}

/// Counts how calls of `slow_operation` end: dropped before it is disarmed means cancelled.
struct Outcome {
    shared: Rc<Shared>,
    finished: bool,
}

impl Drop for Outcome {
    fn drop(&mut self) {
        let counter = if self.finished { &self.shared.slow_completed } else { &self.shared.slow_cancelled };
        counter.set(counter.get() + 1);
    }
}

#[derive(Serialize, JsonSchema)]
struct SlowStats {
    started: u32,
    completed: u32,
    cancelled: u32,
}

pub(crate) fn register(server: Server, shared: &Rc<Shared>) -> Server {
    let (slow, stats, watched) = (shared.clone(), shared.clone(), shared.clone());
    server
        .tool(
            ToolDef::new("structured_weather", |args: WeatherArgs| async move {
                Json(Weather { city: args.city, temperature: 21.5, conditions: "sunny".into() })
            })
            .title("Weather")
            .description("A made-up forecast for a city, as structured content with an output schema")
            .read_only()
            .idempotent()
            .open_world(false),
        )
        .tool(
            ToolDef::new("resource_link_content", |_: NoArgs| async {
                let mut link = Resource::new("test://static-text", "Static Text Resource");
                link.mime_type = Some("text/plain".into());
                vec![ContentBlock::text("The static text resource:"), ContentBlock::resource_link(link)]
            })
            .description("Returns a link to test://static-text, which the client can read with resources/read")
            .read_only(),
        )
        .tool(
            ToolDef::new("slow_operation", move |ctx: Ctx, args: SlowArgs| {
                let shared = slow.clone();
                async move {
                    shared.slow_started.set(shared.slow_started.get() + 1);
                    let mut outcome = Outcome { shared, finished: false };
                    for step in 1..=args.steps {
                        ctx.sleep(args.step_ms).await;
                        ctx.progress(f64::from(step), Some(f64::from(args.steps)), Some(&format!("step {step}")));
                    }
                    outcome.finished = true;
                    format!("done after {} steps", args.steps)
                }
            })
            .description("Works for steps × step_ms milliseconds, reporting progress; can be cancelled")
            .read_only(),
        )
        .tool(
            ToolDef::new("slow_operation_stats", move |_: NoArgs| {
                let s = stats.clone();
                async move {
                    Json(SlowStats {
                        started: s.slow_started.get(),
                        completed: s.slow_completed.get(),
                        cancelled: s.slow_cancelled.get(),
                    })
                }
            })
            .description("How many slow_operation calls started, completed, and were cancelled")
            .read_only(),
        )
        .tool(
            ToolDef::new("update_watched_resource", move |ctx: Ctx, _: NoArgs| {
                let shared = watched.clone();
                async move {
                    shared.watched_version.set(shared.watched_version.get() + 1);
                    let notified = ctx.server().resource_updated("test://watched-resource");
                    format!("version {}; subscribers notified: {notified}", shared.watched_version.get())
                }
            })
            .description("Changes test://watched-resource and notifies subscribers")
            .idempotent(),
        )
        .tool(
            ToolDef::new("add_dynamic_tool", |ctx: Ctx, _: NoArgs| async move {
                let tool = ToolDef::new("dynamic_tool", |_: NoArgs| async { "I was added at run time" })
                    .description("A tool added while the server runs")
                    .read_only();
                ctx.server().add_tool(tool).map(|()| "added dynamic_tool")
            })
            .description("Adds the tool dynamic_tool (the client is told the list changed)"),
        )
        .tool(
            ToolDef::new("remove_dynamic_tool", |ctx: Ctx, _: NoArgs| async move {
                if ctx.server().remove_tool("dynamic_tool") {
                    "removed dynamic_tool"
                } else {
                    "dynamic_tool was not there"
                }
            })
            .description("Removes the tool dynamic_tool"),
        )
        .tool(
            ToolDef::new("list_roots", |ctx: Ctx, _: NoArgs| async move {
                ctx.list_roots()
                    .await
                    .map(|r| r.roots.iter().map(|root| root.uri.clone()).collect::<Vec<_>>().join("\n"))
            })
            .description("Lists the client's roots")
            .read_only(),
        )
        .tool(
            ToolDef::new("credential_status", |ctx: Ctx, _: NoArgs| async move {
                match ctx.credential(API_KEY) {
                    Some(value) => format!("{API_KEY} is set ({} characters)", value.chars().count()),
                    None => format!("{API_KEY} is not set"),
                }
            })
            .description("Says whether the optional credential EVERYTHING_API_KEY was provided (never its value)")
            .read_only(),
        )
        .tool(
            ToolDef::new("crash", |_: NoArgs| async { crash() })
                .description("Panics on purpose, to show how a host reports a crashed server")
                .destructive(false),
        )
}

/// What the `crash` tool does: the SDK's panic hook reports it to the host as `fatal`.
#[allow(clippy::panic, reason = "crashing is the point of the tool")]
fn crash() -> String {
    panic!("the crash tool was called")
}
