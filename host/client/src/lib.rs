#![doc = include_str!("../README.md")]
#![warn(missing_docs)]
// Tests read JSON with serde_json itself, to compare with it.
#![cfg_attr(test, allow(clippy::disallowed_methods))]

pub mod connection;
pub mod elicitation_defaults;
pub mod error;
pub mod http;
pub mod limits;
pub mod liveness;
pub mod next_task;
pub mod sandbox;
pub mod server_requests;
pub mod session;
pub mod started;
pub mod transport;
#[cfg(target_arch = "wasm32")]
pub mod worker;

pub use connection::{Connection, RequestOptions};
pub use error::{Error, Result};
pub use mcp_worker_protocol as protocol;
pub use session::{CallOptions, ClientOptions, MAX_INPUT_ROUNDS, McpClient, Protocol};
pub use transport::Transport;
