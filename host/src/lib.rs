#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod client;
pub mod connection;
pub mod credentials;
pub mod error;
#[cfg(target_arch = "wasm32")]
pub mod js_api;
pub mod state;
#[cfg(target_arch = "wasm32")]
pub mod worker;
pub mod config;
pub mod listeners;
pub mod registry;
pub mod json_schema;
pub mod observation;
pub mod tool_system;
pub mod server_requests;
pub mod manager;
#[cfg(test)]
mod test_support;

pub use client::{CallOptions, ClientOptions, McpClient, Transport};
pub use connection::{Connection, RequestOptions};
pub use error::{Error, Result};
pub use mcp_worker_protocol as protocol;
