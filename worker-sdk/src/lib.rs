#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

#[cfg(all(feature = "talc", target_arch = "wasm32", not(target_feature = "atomics")))]
mod allocator;
mod args;
mod argument_problem;
mod base64;
mod cancel;
mod clock;
mod completion;
mod context;
mod credentials;
mod env;
mod error;
mod field_order;
mod form;
mod handle;
mod input_rounds;
mod pagination;
mod peer;
mod prompt;
mod registry;
mod request_state;
mod resource;
mod result;
mod schema;
mod schema_table;
mod server;
mod session;
mod state;
#[cfg(feature = "testing")]
pub mod testing;
mod tool;
mod uri_template;
#[cfg(target_arch = "wasm32")]
pub mod web;

pub use args::NoArgs;
pub use base64::base64_encode;
pub use cancel::Cancelled;
pub use completion::CompletionRequest;
pub use context::Ctx;
pub use credentials::{Credential, Manifest};
pub use env::Env;
pub use error::{Error, Result};
pub use form::Elicitation;
pub use handle::ServerHandle;
pub use mcp_worker_protocol as protocol;
pub use mcp_worker_protocol::{
    CallToolResult, ContentBlock, CreateMessageParams, CreateMessageResult, ElicitParams, ElicitResult,
    GetPromptResult, LoggingLevel, PromptMessage, ReadResourceResult, ResourceContents, Role, SamplingMessage,
    ToolAnnotations,
};
pub use peer::{
    CLOSE_SSE_STREAM, DETACH_FROM_BYTES, DetachedFrame, DetachedOutbound, KeptFrame, KeptOutbound, Outbound,
    RELATED_REQUEST_META, Sleeper,
};
pub use prompt::{IntoPromptResult, PromptDef, PromptHandler};
pub use resource::{IntoReadResult, ResourceDef, ResourceRequest, ResourceTemplateDef};
pub use result::{IntoCallToolResult, Json, JsonWithText};
#[doc(hidden)]
pub use schema_table::install as __install_prebuilt_schemas;
pub use schemars;
pub use server::{DEFAULT_CLIENT_REQUEST_TIMEOUT_MS, DEFAULT_LIST_TTL_MS, DEFAULT_PAGE_SIZE, Server};
pub use session::{Session, Spawner};
pub use tool::{ToolDef, ToolHandler};

/// Exports a server from a crate built as a `cdylib` for a Web Worker.
///
/// Takes a function `fn(&Env) -> Server`. It generates two functions for the JavaScript side:
/// - `mcp_worker_connect(port, env, options?)`, which the worker bootstrap that ships with the SDK calls once the
///   host has sent its MessagePort; the SDK then serves MCP on that port. `options.sseStreams: true` (from the
///   SDK's `serve.mjs`, which serves the port over Streamable HTTP) enables the hints of [`Ctx::close_sse_stream`],
///   `options.detachStrings: true` (from the bootstrap, when the host's `connect` asks) sends results' large strings
///   beside their frames ([`Session::enable_detached_strings`]), as UTF-8 bytes with `options.detachBytes: true`;
/// - `mcp_worker_manifest()`, which returns the server's [`Manifest`] as JSON (built with an empty environment);
///   `cargo xtask build` writes it to `manifest.json` next to the bundle;
/// - `mcp_worker_schemas()`, which returns the schemas the server makes (built with an empty environment), by type
///   name: a release build embeds them in the bundle with the `prebuilt-schemas` feature.
///
/// The last two are for the build, which calls them in node and then takes them out of the bundle it assembles.
///
/// ```ignore
/// mcp_worker_sdk::export_server!(|_env| Server::new("echo", "1.0.0"));
/// ```
#[macro_export]
#[rustfmt::skip] // rustfmt re-indents the attributes below on every run.
macro_rules! export_server {
    ($factory:expr) => {
        #[cfg(target_arch = "wasm32")]
        #[$crate::web::__private::wasm_bindgen::prelude::wasm_bindgen(wasm_bindgen = $crate::web::__private::wasm_bindgen)]
        #[doc(hidden)]
        pub fn mcp_worker_connect(
            port: $crate::web::__private::web_sys::MessagePort,
            env: $crate::web::__private::wasm_bindgen::JsValue,
            options: $crate::web::__private::wasm_bindgen::JsValue,
        ) {
            $crate::__embed_prebuilt_schemas!();
            $crate::web::connect(port, env, options, $factory);
        }

        #[cfg(target_arch = "wasm32")]
        #[$crate::web::__private::wasm_bindgen::prelude::wasm_bindgen(wasm_bindgen = $crate::web::__private::wasm_bindgen)]
        #[doc(hidden)]
        pub fn mcp_worker_manifest() -> String {
            $crate::__embed_prebuilt_schemas!();
            $crate::web::manifest($factory)
        }

        #[cfg(target_arch = "wasm32")]
        #[$crate::web::__private::wasm_bindgen::prelude::wasm_bindgen(wasm_bindgen = $crate::web::__private::wasm_bindgen)]
        #[doc(hidden)]
        pub fn mcp_worker_schemas() -> String {
            $crate::__embed_prebuilt_schemas!();
            $crate::web::schemas($factory)
        }
    };
}

/// With the `prebuilt-schemas` feature: reads the table of schemas the build made for this crate (in the directory
/// `MCP_WORKER_SCHEMAS_DIR` names, `<package>.json`) into the wasm, and installs it.
#[cfg(feature = "prebuilt-schemas")]
#[doc(hidden)]
#[macro_export]
macro_rules! __embed_prebuilt_schemas {
    () => {
        $crate::__install_prebuilt_schemas(include_str!(concat!(
            env!(
                "MCP_WORKER_SCHEMAS_DIR",
                "the prebuilt-schemas feature reads the schemas the build made from the directory \
                 MCP_WORKER_SCHEMAS_DIR names: build with `mcp-worker build --release --prebuilt-schemas`"
            ),
            "/",
            env!("CARGO_PKG_NAME"),
            ".json"
        )))
    };
}

/// Without the `prebuilt-schemas` feature, schemas are generated: nothing to install.
#[cfg(not(feature = "prebuilt-schemas"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __embed_prebuilt_schemas {
    () => {};
}
