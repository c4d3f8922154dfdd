#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod context;
mod env;
mod pagination;
mod result;
mod schema;
mod server;
mod session;
mod tool;
#[cfg(target_arch = "wasm32")]
pub mod web;

pub use context::Ctx;
pub use env::Env;
pub use mcp_worker_protocol as protocol;
pub use mcp_worker_protocol::{CallToolResult, ContentBlock, ToolAnnotations};
pub use result::{IntoCallToolResult, Json};
pub use schemars;
pub use server::{DEFAULT_PAGE_SIZE, Server};
pub use session::{Outbound, Session, Spawner};
pub use tool::{NoArgs, ToolDef, ToolHandler};

/// Exports a server from a crate built as a `cdylib` for a Web Worker.
///
/// Takes a function `fn(&Env) -> Server`. The worker bootstrap that ships with the SDK calls the exported
/// `mcp_worker_connect` once the host has sent its MessagePort; the SDK then serves MCP on that port.
///
/// ```ignore
/// mcp_worker_sdk::export_server!(|_env| Server::new("echo", "1.0.0"));
/// ```
#[macro_export]
#[rustfmt::skip] // rustfmt re-indents the attribute below on every run.
macro_rules! export_server {
    ($factory:expr) => {
        #[cfg(target_arch = "wasm32")]
        #[$crate::web::__private::wasm_bindgen::prelude::wasm_bindgen(wasm_bindgen = $crate::web::__private::wasm_bindgen)]
        #[doc(hidden)]
        pub fn mcp_worker_connect(
            port: $crate::web::__private::web_sys::MessagePort,
            env: $crate::web::__private::wasm_bindgen::JsValue,
        ) {
            $crate::web::connect(port, env, $factory);
        }
    };
}
