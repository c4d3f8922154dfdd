//! Typed tools: a plain async function whose argument type gives the JSON Schema.

use crate::args::{ArgsOnly, WithCtx};
use crate::context::Ctx;
use crate::result::IntoCallToolResult;
use futures_util::future::{FutureExt, LocalBoxFuture};
use mcp_worker_protocol::invalid_arguments::invalid_arguments;
use mcp_worker_protocol::lifecycle::Icon;
use mcp_worker_protocol::members::object;
use mcp_worker_protocol::{CallToolResult, JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use std::future::Future;
use std::rc::Rc;

/// A function that can serve a tool: `async fn(A) -> R` or `async fn(Ctx, A) -> R`, where `A` is the argument
/// type (`Deserialize + JsonSchema`) and `R` converts into a result ([`IntoCallToolResult`]).
///
/// The `Marker` parameter only tells the two shapes apart; it is inferred.
pub trait ToolHandler<Marker>: 'static {
    /// The argument type.
    type Args: DeserializeOwned + JsonSchema;
    /// What the function returns.
    type Output: IntoCallToolResult + 'static;
    /// Runs the tool.
    fn call(&self, ctx: Ctx, args: Self::Args) -> LocalBoxFuture<'static, Self::Output>;
}

impl<F, A, Fut> ToolHandler<ArgsOnly<A>> for F
where
    F: Fn(A) -> Fut + 'static,
    A: DeserializeOwned + JsonSchema + 'static,
    Fut: Future + 'static,
    Fut::Output: IntoCallToolResult,
{
    type Args = A;
    type Output = Fut::Output;
    fn call(&self, _ctx: Ctx, args: A) -> LocalBoxFuture<'static, Fut::Output> {
        self(args).boxed_local()
    }
}

impl<F, A, Fut> ToolHandler<WithCtx<A>> for F
where
    F: Fn(Ctx, A) -> Fut + 'static,
    A: DeserializeOwned + JsonSchema + 'static,
    Fut: Future + 'static,
    Fut::Output: IntoCallToolResult,
{
    type Args = A;
    type Output = Fut::Output;
    fn call(&self, ctx: Ctx, args: A) -> LocalBoxFuture<'static, Fut::Output> {
        self(ctx, args).boxed_local()
    }
}

pub(crate) type ErasedToolHandler = Rc<dyn Fn(Ctx, Option<&RawValue>) -> LocalBoxFuture<'static, CallToolResult>>;

/// A tool: its definition (name, schemas, metadata) and the function that serves it.
#[must_use]
pub struct ToolDef {
    pub(crate) definition: Tool,
    pub(crate) handler: ErasedToolHandler,
}

impl std::fmt::Debug for ToolDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolDef").field("definition", &self.definition).finish_non_exhaustive()
    }
}

impl ToolDef {
    /// A tool named `name` served by `handler`. Its `inputSchema` comes from the handler's argument type; when
    /// the handler returns [`crate::Json`], its `outputSchema` comes from the result type.
    ///
    /// ```
    /// use mcp_worker_sdk::{ToolDef, Json, schemars::JsonSchema};
    /// #[derive(serde::Deserialize, JsonSchema)]
    /// struct Add { a: f64, b: f64 }
    /// #[derive(serde::Serialize, JsonSchema)]
    /// struct Sum { sum: f64 }
    /// let tool = ToolDef::new("add", |args: Add| async move { Json(Sum { sum: args.a + args.b }) })
    ///     .description("Adds two numbers");
    /// assert_eq!(tool.definition().input_schema.to_value()["required"], serde_json::json!(["a", "b"]));
    /// assert_eq!(tool.definition().output_schema.as_ref().unwrap().to_value()["required"], serde_json::json!(["sum"]));
    /// ```
    pub fn new<M, H: ToolHandler<M>>(name: impl Into<String>, handler: H) -> Self {
        let name = name.into();
        let (definition, wrap) = definition(
            name.clone(),
            crate::schema::input_schema::<H::Args>(),
            <H::Output as IntoCallToolResult>::output_schema(),
        );
        let handler = Rc::new(handler);
        let erased: ErasedToolHandler =
            Rc::new(move |ctx: Ctx, raw: Option<&RawValue>| match parse_arguments::<H::Args>(raw) {
                Ok(args) => handler
                    .call(ctx, args)
                    .map(move |output| wrapped_result(output.into_call_tool_result(), wrap))
                    .boxed_local(),
                Err((pointer, message)) => refused(&name, &pointer, &message),
            });
        Self { definition, handler: erased }
    }

    /// The definition `tools/list` shows.
    pub fn definition(&self) -> &Tool {
        &self.definition
    }

    /// What the tool does, for the model.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.definition.description = Some(description.into());
        self
    }

    /// A display name.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.definition.title = Some(title.into());
        self
    }

    /// An icon for display (repeat for several sizes or themes).
    pub fn icon(mut self, icon: Icon) -> Self {
        self.definition.icons.get_or_insert_with(Vec::new).push(icon);
        self
    }

    /// Behaviour hints (read-only, destructive, idempotent, open-world), replacing any set before.
    pub fn annotations(mut self, annotations: ToolAnnotations) -> Self {
        self.definition.annotations = Some(annotations);
        self
    }

    fn hint(mut self, set: impl FnOnce(&mut ToolAnnotations)) -> Self {
        set(self.definition.annotations.get_or_insert_with(ToolAnnotations::default));
        self
    }

    /// Marks the tool read-only (`readOnlyHint: true`): it changes nothing, so hosts need not gate it.
    pub fn read_only(self) -> Self {
        self.hint(|a| a.read_only_hint = Some(true))
    }

    /// Says whether the tool may destroy or overwrite things (`destructiveHint`; the spec assumes it may).
    pub fn destructive(self, destructive: bool) -> Self {
        self.hint(|a| a.destructive_hint = Some(destructive))
    }

    /// Marks the tool idempotent (`idempotentHint: true`): calling it again with the same arguments changes
    /// nothing more.
    pub fn idempotent(self) -> Self {
        self.hint(|a| a.idempotent_hint = Some(true))
    }

    /// Says whether the tool reaches an open world of external entities (`openWorldHint`; the spec assumes it
    /// does).
    pub fn open_world(self, open_world: bool) -> Self {
        self.hint(|a| a.open_world_hint = Some(open_world))
    }

    /// Extension metadata (`_meta`).
    pub fn meta(mut self, meta: JsonObject) -> Self {
        self.definition.meta = Some(meta);
        self
    }

    /// Replaces the generated input schema, for tools whose arguments are checked by hand.
    pub fn input_schema(mut self, schema: JsonObject) -> Self {
        self.definition.input_schema = schema.into();
        self
    }
}

/// A tool's definition from its schemas, and whether its `structuredContent` travels wrapped: it must be an
/// object, so other values travel as `{"result": value}`. Apart from [`ToolDef::new`], which is compiled once per
/// tool, as is all that follows.
#[inline(never)]
fn definition(name: String, input_schema: JsonObject, output_schema: Option<JsonObject>) -> (Tool, bool) {
    let mut definition = Tool::new(name, input_schema);
    let mut wrap = false;
    if let Some(schema) = output_schema {
        wrap = !crate::schema::is_object_schema(&schema);
        definition.output_schema = Some(if wrap { wrapped_schema(schema) } else { schema }.into());
    }
    (definition, wrap)
}

/// `result`, its `structuredContent` wrapped when `wrap` says so (see [`definition`]).
#[inline(never)]
fn wrapped_result(mut result: CallToolResult, wrap: bool) -> CallToolResult {
    if wrap && let Some(value) = result.structured_content.take() {
        result.structured_content = Some(object([("result", value)]));
    }
    result
}

/// The answer to arguments that do not fit the tool's type: a tool error naming where and why.
#[inline(never)]
fn refused(name: &str, pointer: &str, message: &str) -> LocalBoxFuture<'static, CallToolResult> {
    let message = invalid_arguments(name, [(pointer, message)]);
    futures_util::future::ready(CallToolResult::error(message)).boxed_local()
}

fn wrapped_schema(mut schema: JsonObject) -> JsonObject {
    // `$defs` stay at the root so that `#/$defs/...` references still resolve.
    let defs = mcp_worker_protocol::members::take(&mut schema, "$defs");
    let schema = serde_json::Value::Object(schema);
    let mut wrapped = object([
        ("type", "object".into()),
        ("properties", object([("result", schema)])),
        ("required", vec!["result"].into()),
    ]);
    if let (Some(defs), Some(root)) = (defs, wrapped.as_object_mut()) {
        root.insert("$defs".into(), defs);
    }
    match wrapped {
        serde_json::Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

/// Deserializes tool arguments (absent or `null` ones read as `{}`); when they do not fit, the JSON pointer of the
/// value at fault and what is wrong with it ([`crate::argument_problem::read`]).
fn parse_arguments<A: DeserializeOwned>(raw: Option<&RawValue>) -> Result<A, (String, String)> {
    let text = raw.map_or("{}", RawValue::get);
    crate::argument_problem::read(if text == "null" { "{}" } else { text })
}

/// Checks a tool name against the spec's rules (SEP-986): 1-128 characters of `A-Z a-z 0-9 _ - .`.
pub(crate) fn check_tool_name(name: &str) -> Result<(), String> {
    let valid_chars = name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if name.is_empty() || name.len() > 128 || !valid_chars {
        return Err("use 1-128 characters of A-Z, a-z, 0-9, '_', '-' and '.'".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Json, NoArgs};
    use serde_json::json;

    #[derive(Debug, serde::Deserialize, JsonSchema)]
    struct Point {
        #[allow(dead_code)]
        x: f64,
        #[allow(dead_code)]
        label: Option<String>,
    }

    #[test]
    fn argument_errors_name_the_field_by_its_pointer_without_a_text_position() {
        let raw = RawValue::from_string(r#"{"label": "a", "x":"nine"}"#.into()).unwrap();
        let (pointer, message) = parse_arguments::<Point>(Some(&raw)).unwrap_err();
        assert_eq!((pointer.as_str(), message.as_str()), ("/x", "expected number, got string \"nine\""));
        let raw = RawValue::from_string(r#"{}"#.into()).unwrap();
        let (pointer, message) = parse_arguments::<Point>(Some(&raw)).unwrap_err();
        assert_eq!((pointer.as_str(), message.as_str()), ("", "missing required property \"x\""));
    }

    #[test]
    fn absent_or_null_arguments_read_as_an_empty_object() {
        assert!(parse_arguments::<NoArgs>(None).is_ok());
        let null = RawValue::from_string("null".into()).unwrap();
        assert!(parse_arguments::<NoArgs>(Some(&null)).is_ok());
        let extra = RawValue::from_string(r#"{"x":1}"#.into()).unwrap();
        assert!(parse_arguments::<NoArgs>(Some(&extra)).is_err());
    }

    #[test]
    fn tool_names_follow_the_spec() {
        for ok in ["getUser", "DATA_EXPORT_v2", "admin.tools.list", "a"] {
            assert!(check_tool_name(ok).is_ok(), "{ok}");
        }
        for bad in ["", "has space", "comma,name", "ü", &"x".repeat(129)] {
            assert!(check_tool_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn metadata_builders_fill_the_definition() {
        let tool = ToolDef::new("t", |_: NoArgs| async {})
            .title("T")
            .icon(Icon { src: "data:image/png;base64,AA==".into(), mime_type: None, sizes: None, theme: None })
            .destructive(false)
            .idempotent()
            .open_world(false);
        let annotations = tool.definition().annotations.clone().unwrap();
        assert_eq!(
            (annotations.destructive_hint, annotations.idempotent_hint, annotations.open_world_hint),
            (Some(false), Some(true), Some(false))
        );
        assert_eq!(tool.definition().title.as_deref(), Some("T"));
        assert_eq!(tool.definition().icons.as_ref().map(Vec::len), Some(1));
        assert!(tool.definition().output_schema.is_none(), "plain results declare no output schema");
    }

    #[test]
    fn a_non_object_output_is_wrapped_in_the_schema() {
        let tool = ToolDef::new("n", |_: NoArgs| async { Json(vec![1_u8, 2]) });
        let schema = tool.definition().output_schema.as_ref().unwrap().to_value();
        assert_eq!(schema["type"], json!("object"));
        assert_eq!(schema["required"], json!(["result"]));
        assert_eq!(schema["properties"]["result"]["type"], json!("array"));
    }
}
