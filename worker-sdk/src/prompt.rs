//! Prompts: a plain async function whose argument type lists the prompt's arguments.

use crate::args::{ArgsOnly, WithCtx};
use crate::completion::{self, Completers, CompletionRequest};
use crate::context::Ctx;
use futures_util::future::{FutureExt, LocalBoxFuture};
use mcp_worker_protocol::NameMap;
use mcp_worker_protocol::lifecycle::Icon;
use mcp_worker_protocol::members::object;
use mcp_worker_protocol::{ErrorObject, GetPromptResult, Prompt, PromptArgument, PromptMessage};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::fmt::Display;
use std::future::Future;
use std::rc::Rc;

/// What a prompt function may return: [`GetPromptResult`], `Vec<PromptMessage>`, one [`PromptMessage`], text (one
/// user message), or `Result<T, E>` with `E: Display`, whose `Err` is an internal error (-32603) with its text.
pub trait IntoPromptResult {
    /// Performs the conversion.
    fn into_prompt_result(self) -> Result<GetPromptResult, ErrorObject>;
}

impl IntoPromptResult for GetPromptResult {
    fn into_prompt_result(self) -> Result<GetPromptResult, ErrorObject> {
        Ok(self)
    }
}

impl IntoPromptResult for Vec<PromptMessage> {
    fn into_prompt_result(self) -> Result<GetPromptResult, ErrorObject> {
        Ok(GetPromptResult::new(self))
    }
}

impl IntoPromptResult for PromptMessage {
    fn into_prompt_result(self) -> Result<GetPromptResult, ErrorObject> {
        Ok(GetPromptResult::new(vec![self]))
    }
}

impl IntoPromptResult for String {
    fn into_prompt_result(self) -> Result<GetPromptResult, ErrorObject> {
        Ok(GetPromptResult::new(vec![PromptMessage::user(self)]))
    }
}

impl IntoPromptResult for &'static str {
    fn into_prompt_result(self) -> Result<GetPromptResult, ErrorObject> {
        self.to_owned().into_prompt_result()
    }
}

impl<T: IntoPromptResult, E: Display> IntoPromptResult for Result<T, E> {
    fn into_prompt_result(self) -> Result<GetPromptResult, ErrorObject> {
        match self {
            Ok(value) => value.into_prompt_result(),
            Err(err) => Err(ErrorObject::internal_error(err.to_string())),
        }
    }
}

/// A function that can serve a prompt: `async fn(A) -> R` or `async fn(Ctx, A) -> R`. `A`'s fields are the
/// prompt's arguments (strings: `String`, or `Option<String>` for an optional one); `R` converts with
/// [`IntoPromptResult`].
pub trait PromptHandler<Marker>: 'static {
    /// The argument type.
    type Args: DeserializeOwned + JsonSchema;
    /// What the function returns.
    type Output: IntoPromptResult + 'static;
    /// Builds the prompt.
    fn call(&self, ctx: Ctx, args: Self::Args) -> LocalBoxFuture<'static, Self::Output>;
}

impl<F, A, Fut> PromptHandler<ArgsOnly<A>> for F
where
    F: Fn(A) -> Fut + 'static,
    A: DeserializeOwned + JsonSchema + 'static,
    Fut: Future + 'static,
    Fut::Output: IntoPromptResult,
{
    type Args = A;
    type Output = Fut::Output;
    fn call(&self, _ctx: Ctx, args: A) -> LocalBoxFuture<'static, Fut::Output> {
        self(args).boxed_local()
    }
}

impl<F, A, Fut> PromptHandler<WithCtx<A>> for F
where
    F: Fn(Ctx, A) -> Fut + 'static,
    A: DeserializeOwned + JsonSchema + 'static,
    Fut: Future + 'static,
    Fut::Output: IntoPromptResult,
{
    type Args = A;
    type Output = Fut::Output;
    fn call(&self, ctx: Ctx, args: A) -> LocalBoxFuture<'static, Fut::Output> {
        self(ctx, args).boxed_local()
    }
}

pub(crate) type GetFn =
    Rc<dyn Fn(Ctx, NameMap<String>) -> LocalBoxFuture<'static, Result<GetPromptResult, ErrorObject>>>;

/// A prompt: its definition (name, arguments, metadata), the function that builds it, and its completers.
#[must_use]
pub struct PromptDef {
    pub(crate) definition: Prompt,
    pub(crate) get: GetFn,
    pub(crate) completers: Completers,
}

impl std::fmt::Debug for PromptDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PromptDef").field("definition", &self.definition).finish_non_exhaustive()
    }
}

impl PromptDef {
    /// A prompt named `name` built by `handler`. Its arguments are the fields of the handler's argument type, in
    /// declaration order, with their doc comments as descriptions; an `Option` field is an optional argument.
    /// `prompts/get` answers -32602 when a required argument is missing. Values of arguments the prompt does not
    /// declare are ignored, even by a type that refuses unknown fields ([`crate::NoArgs`]): a client may send more
    /// than a prompt takes.
    ///
    /// ```
    /// use mcp_worker_sdk::{PromptDef, schemars::JsonSchema};
    /// #[derive(serde::Deserialize, JsonSchema)]
    /// struct Review {
    ///     /// The code to review.
    ///     code: String,
    ///     /// What to focus on.
    ///     focus: Option<String>,
    /// }
    /// let prompt = PromptDef::new("review", |args: Review| async move {
    ///     format!("Review this code, focusing on {}:\n{}", args.focus.as_deref().unwrap_or("bugs"), args.code)
    /// });
    /// let arguments = prompt.definition().arguments.clone().unwrap();
    /// assert_eq!((arguments[0].name.as_str(), arguments[0].required), ("code", Some(true)));
    /// assert_eq!((arguments[1].name.as_str(), arguments[1].required), ("focus", Some(false)));
    /// ```
    pub fn new<M, H: PromptHandler<M>>(name: impl Into<String>, handler: H) -> Self {
        let name = name.into();
        let arguments = prompt_arguments::<H::Args>();
        let declared: Option<Vec<String>> =
            refuses_unknown_fields::<H::Args>().then(|| arguments.iter().map(|a| a.name.clone()).collect());
        let mut definition = Prompt::new(name.clone());
        let required: Vec<String> =
            arguments.iter().filter(|a| a.required == Some(true)).map(|a| a.name.clone()).collect();
        definition.arguments = (!arguments.is_empty()).then_some(arguments);
        let handler = Rc::new(handler);
        let get: GetFn = Rc::new(move |ctx: Ctx, values: NameMap<String>| {
            let read = checked_arguments(&name, declared.as_deref(), &required, values).and_then(|object| {
                crate::argument_problem::read::<H::Args>(&serde_json::to_string(&object).unwrap_or_default())
                    .map_err(|(pointer, message)| invalid_arguments(&name, &pointer, &message))
            });
            match read {
                Ok(args) => handler.call(ctx, args).map(IntoPromptResult::into_prompt_result).boxed_local(),
                Err(error) => futures_util::future::ready(Err(error)).boxed_local(),
            }
        });
        Self { definition, get, completers: Completers::default() }
    }

    /// The definition `prompts/list` shows.
    pub fn definition(&self) -> &Prompt {
        &self.definition
    }

    /// What the prompt provides.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.definition.description = Some(description.into());
        self
    }

    /// A display name.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.definition.title = Some(title.into());
        self
    }

    /// An icon for display.
    pub fn icon(mut self, icon: Icon) -> Self {
        self.definition.icons.get_or_insert_with(Vec::new).push(icon);
        self
    }

    /// Suggests values for the argument `name` with an async function (`completion/complete`).
    pub fn complete<F, Fut>(mut self, name: impl Into<String>, complete: F) -> Self
    where
        F: Fn(CompletionRequest) -> Fut + 'static,
        Fut: Future<Output = Vec<String>> + 'static,
    {
        self.completers.set(name.into(), completion::completer(complete));
        self
    }

    /// Suggests, for the argument `name`, the listed values that start with what was typed (ignoring case).
    pub fn complete_values<S: Into<String>>(
        mut self,
        name: impl Into<String>,
        values: impl IntoIterator<Item = S>,
    ) -> Self {
        self.completers.set(name.into(), completion::from_values(values.into_iter().map(Into::into).collect()));
        self
    }
}

/// Whether `A`'s schema forbids properties it does not list (`"additionalProperties": false`).
fn refuses_unknown_fields<A: JsonSchema>() -> bool {
    crate::schema::input_schema::<A>().get("additionalProperties") == Some(&Value::Bool(false))
}

/// The arguments of a prompt whose argument type is `A`: names in declaration order, descriptions and
/// requiredness from `A`'s schema.
fn prompt_arguments<A: DeserializeOwned + JsonSchema>() -> Vec<PromptArgument> {
    let schema = crate::schema::input_schema::<A>();
    let Some(Value::Object(properties)) = schema.get("properties") else { return Vec::new() };
    let required: Vec<&str> = match schema.get("required") {
        Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let mut names = crate::field_order::field_names::<A>().unwrap_or_default();
    names.retain(|n| properties.contains_key(n));
    for name in properties.keys() {
        if !names.contains(name) {
            names.push(name.clone());
        }
    }
    names
        .into_iter()
        .map(|name| {
            let property = &properties[&name];
            let mut argument = PromptArgument::new(name.as_str(), required.contains(&name.as_str()));
            argument.title = property.get("title").and_then(Value::as_str).map(str::to_owned);
            argument.description = property.get("description").and_then(Value::as_str).map(str::to_owned);
            argument
        })
        .collect()
}

/// A prompt's arguments as the object its type is read from: those it does not declare dropped when it refuses
/// unknown fields (`declared`), and an error when one it requires is missing. Compiled once, not once per prompt.
#[inline(never)]
fn checked_arguments(
    name: &str,
    declared: Option<&[String]>,
    required: &[String],
    mut values: NameMap<String>,
) -> Result<Value, ErrorObject> {
    if let Some(declared) = declared {
        values.retain(|k, _| declared.iter().any(|d| d == k));
    }
    if let Some(missing) = required.iter().find(|r| !values.contains_key(r)) {
        return Err(ErrorObject::invalid_params(format!("Missing required argument `{missing}` for prompt {name}"))
            .with_data(object([("prompt", name.into()), ("argument", missing.as_str().into())])));
    }
    let mut object = serde_json::Map::new();
    for (key, value) in values {
        object.insert(key, Value::String(value));
    }
    Ok(Value::Object(object))
}

/// The error for arguments that do not read as the prompt's type: what is wrong, and the JSON pointer of the
/// argument at fault (empty for the arguments as a whole).
#[inline(never)]
fn invalid_arguments(name: &str, pointer: &str, message: &str) -> ErrorObject {
    let at = if pointer.is_empty() { String::new() } else { format!("{pointer}: ") };
    ErrorObject::invalid_params(format!("Invalid arguments for prompt {name}: {at}{message}"))
        .with_data(object([("prompt", name.into()), ("path", pointer.into())]))
}
