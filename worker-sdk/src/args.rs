//! The arguments of tool and prompt functions: [`NoArgs`] for functions that take none, and the markers that tell
//! `fn(A)` from `fn(Ctx, A)` apart so that both shapes can implement one handler trait.

use schemars::JsonSchema;
use std::marker::PhantomData;

/// Arguments of a tool or prompt that takes none: its schema is `{"type":"object","additionalProperties":false}`.
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

/// Marks a handler that takes only its arguments: `fn(A)`.
#[doc(hidden)]
#[derive(Debug)]
pub struct ArgsOnly<A>(PhantomData<A>);

/// Marks a handler that takes its context and its arguments: `fn(Ctx, A)`.
#[doc(hidden)]
#[derive(Debug)]
pub struct WithCtx<A>(PhantomData<A>);
