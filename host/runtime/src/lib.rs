#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod config;
pub mod credentials;
pub mod listeners;
pub mod manager;
pub mod manifest;
pub mod observation;
pub mod persist;
pub mod registry;
#[cfg(test)]
mod test_support;
pub mod tool_system;

pub use mcp_worker_client as client;
pub use mcp_worker_client::{Error, Result};
pub use mcp_worker_protocol as protocol;
