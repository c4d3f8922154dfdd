#![doc = include_str!("../README.md")]
#![warn(missing_docs)]
// Tests read JSON with serde_json itself, to compare with it.
#![cfg_attr(test, allow(clippy::disallowed_methods))]

mod builder;
pub mod config;
pub mod credentials;
mod error;
pub mod listeners;
pub mod manager;
pub mod manifest;
#[cfg(test)]
mod modern_frames_tests;
pub mod observation;
pub mod persist;
pub mod registry;
mod status;
#[cfg(test)]
mod test_support;
pub mod tool_system;

pub use builder::{ClientFeatures, Runtime, RuntimeBuilder, check_roots};
pub use error::{Error, Result};
pub use mcp_worker_client as client;
pub use mcp_worker_protocol as protocol;

/// The repository README's Rust examples ("Use it from Rust"), compiled as this crate's doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct RepositoryReadme;
