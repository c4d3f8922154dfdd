//! The SDK's session, driven natively through an in-memory transport: every MCP method a server answers, every
//! error path, notifications and requests to the client. Every frame the session writes is checked against the
//! official MCP 2025-11-25 schema (tests/support/harness.rs).

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
#![allow(clippy::disallowed_methods, reason = "tests read JSON with serde_json itself")]

#[path = "support/harness.rs"]
mod harness;
#[path = "support/schema.rs"]
mod schema;

#[path = "session/basics.rs"]
mod basics;
#[path = "session/client_requests.rs"]
mod client_requests;
#[path = "session/content.rs"]
mod content;
#[path = "session/context.rs"]
mod context;
#[path = "session/detached.rs"]
mod detached;
#[path = "session/dynamic.rs"]
mod dynamic;
#[path = "session/modern.rs"]
mod modern;
#[path = "session/prompts.rs"]
mod prompts;
#[path = "session/resources.rs"]
mod resources;
