#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod client;
pub mod config;
pub mod connection;
pub mod credentials;
pub mod error;
#[cfg(target_arch = "wasm32")]
pub mod js_api;
pub mod json_schema;
pub mod listeners;
pub mod manager;
pub mod manifest;
pub mod observation;
pub mod registry;
pub mod server_requests;
pub mod state;
#[cfg(test)]
mod test_support;
pub mod tool_system;
#[cfg(target_arch = "wasm32")]
pub mod worker;

pub use client::{CallOptions, ClientOptions, McpClient, Transport};
pub use connection::{Connection, RequestOptions};
pub use error::{Error, Result};
pub use mcp_worker_protocol as protocol;
