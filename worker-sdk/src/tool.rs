//! Typed tools: a plain async function whose argument type gives the JSON Schema.

use crate::context::Ctx;
use crate::result::IntoCallToolResult;
use futures_util::future::{FutureExt, LocalBoxFuture};
use mcp_worker_protocol::{CallToolResult, JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use std::future::Future;
use std::marker::PhantomData;
use std::rc::Rc;

/// Arguments of a tool that takes none: its schema is `{"type":"object","additionalProperties":false}`.
#[derive(Debug, Clone, Copy, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct NoArgs {}

impl JsonSchema for NoArgs {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "NoArgs".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "object", "additionalProperties": false })
    }
}

/// A function that can serve a tool: `async fn(A) -> R` or `async fn(Ctx, A) -> R`, where `A` is the argument
/// type (`Deserialize + JsonSchema`) and `R` converts into a result ([`IntoCallToolResult`]).
///
/// The `Marker` parameter only tells the two shapes apart; it is inferred.
pub trait ToolHandler<Marker>: 'static {
    /// The argument type.
    type Args: DeserializeOwned + JsonSchema;
    /// Runs the tool.
    fn call(&self, ctx: Ctx, args: Self::Args) -> LocalBoxFuture<'static, CallToolResult>;
}

#[doc(hidden)]
#[derive(Debug)]
pub struct ArgsOnly<A>(PhantomData<A>);
#[doc(hidden)]
#[derive(Debug)]
pub struct WithCtx<A>(PhantomData<A>);

impl<F, A, Fut> ToolHandler<ArgsOnly<A>> for F
where
    F: Fn(A) -> Fut + 'static,
    A: DeserializeOwned + JsonSchema + 'static,
    Fut: Future + 'static,
    Fut::Output: IntoCallToolResult,
{
    type Args = A;
    fn call(&self, _ctx: Ctx, args: A) -> LocalBoxFuture<'static, CallToolResult> {
        self(args).map(IntoCallToolResult::into_call_tool_result).boxed_local()
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
    fn call(&self, ctx: Ctx, args: A) -> LocalBoxFuture<'static, CallToolResult> {
        self(ctx, args).map(IntoCallToolResult::into_call_tool_result).boxed_local()
    }
}

type ErasedHandler = Rc<dyn Fn(Ctx, Option<&RawValue>) -> LocalBoxFuture<'static, CallToolResult>>;

/// A tool: its definition (name, schema, metadata) and the function that serves it.
#[must_use]
pub struct ToolDef {
    pub(crate) definition: Tool,
    pub(crate) handler: ErasedHandler,
}

impl std::fmt::Debug for ToolDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolDef").field("definition", &self.definition).finish_non_exhaustive()
    }
}

impl ToolDef {
    /// A tool named `name` served by `handler`; its `inputSchema` comes from the handler's argument type.
    ///
    /// ```
    /// use mcp_worker_sdk::{ToolDef, schemars::JsonSchema};
    /// #[derive(serde::Deserialize, JsonSchema)]
    /// struct Add { a: f64, b: f64 }
    /// let tool = ToolDef::new("add", |args: Add| async move { (args.a + args.b).to_string() })
    ///     .description("Adds two numbers");
    /// assert_eq!(tool.definition().input_schema["required"], serde_json::json!(["a", "b"]));
    /// ```
    pub fn new<M, H: ToolHandler<M>>(name: impl Into<String>, handler: H) -> Self {
        let name = name.into();
        let definition = Tool::new(name.clone(), crate::schema::input_schema::<H::Args>());
        let handler = Rc::new(handler);
        let erased: ErasedHandler =
            Rc::new(move |ctx: Ctx, raw: Option<&RawValue>| match parse_arguments::<H::Args>(raw) {
                Ok(args) => handler.call(ctx, args),
                Err(message) => {
                    let result = CallToolResult::error(format!("Invalid arguments for tool {name}: {message}"));
                    futures_util::future::ready(result).boxed_local()
                }
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

    /// Behaviour hints (read-only, destructive, idempotent, open-world).
    pub fn annotations(mut self, annotations: ToolAnnotations) -> Self {
        self.definition.annotations = Some(annotations);
        self
    }

    /// Marks the tool read-only (`readOnlyHint: true`): it changes nothing, so hosts need not gate it.
    pub fn read_only(mut self) -> Self {
        let mut annotations = self.definition.annotations.take().unwrap_or_default();
        annotations.read_only_hint = Some(true);
        self.definition.annotations = Some(annotations);
        self
    }

    /// Replaces the generated input schema, for tools whose arguments are checked by hand.
    pub fn input_schema(mut self, schema: JsonObject) -> Self {
        self.definition.input_schema = schema;
        self
    }
}

/// Deserializes tool arguments, naming the field at fault when they do not fit.
fn parse_arguments<A: DeserializeOwned>(raw: Option<&RawValue>) -> Result<A, String> {
    let text = raw.map_or("{}", RawValue::get);
    let text = if text == "null" { "{}" } else { text };
    let mut de = serde_json::Deserializer::from_str(text);
    match serde_path_to_error::deserialize::<_, A>(&mut de) {
        Ok(args) => Ok(args),
        Err(err) => {
            let path = err.path().to_string();
            let inner = err.into_inner();
            if path == "." || path.is_empty() { Err(inner.to_string()) } else { Err(format!("at `{path}`: {inner}")) }
        }
    }
}

/// Checks a tool name against the spec's rules (SEP-986): 1-128 characters of `A-Z a-z 0-9 _ - .`.
pub(crate) fn check_tool_name(name: &str) -> Result<(), String> {
    let valid_chars = name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if name.is_empty() || name.len() > 128 || !valid_chars {
        return Err(format!(
            "tool name {name:?} is not valid: use 1-128 characters of A-Z, a-z, 0-9, '_', '-' and '.'"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize, JsonSchema)]
    struct Point {
        #[allow(dead_code)]
        x: f64,
        #[allow(dead_code)]
        label: Option<String>,
    }

    #[test]
    fn argument_errors_name_the_field() {
        let raw = RawValue::from_string(r#"{"x":"nine"}"#.into()).unwrap();
        let err = parse_arguments::<Point>(Some(&raw)).unwrap_err();
        assert!(err.contains("`x`") && err.contains("invalid type"), "{err}");
        let raw = RawValue::from_string(r#"{}"#.into()).unwrap();
        let err = parse_arguments::<Point>(Some(&raw)).unwrap_err();
        assert!(err.contains("missing field `x`"), "{err}");
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
}
