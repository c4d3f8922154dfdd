//! Remote servers over Streamable HTTP (MCP 2025-11-25, "Transports"): each message the host sends is POSTed to the
//! server's endpoint; the server answers with JSON or with a stream of server-sent events that carries the answer
//! and whatever the server sends meanwhile (progress, logs, its own requests); a GET opens the server's own stream.
//!
//! [`exchange`] and [`sse`] are the protocol without I/O (headers, what each answer means, the event stream);
//! `transport` (in the browser) does it with `fetch` and streams. [`oauth`] is the authorization a protected server
//! asks for (OAuth 2.1 as MCP profiles it), also without I/O.

pub mod exchange;
pub mod mirrored;
pub mod oauth;
pub mod sse;
mod tool_headers;
#[cfg(target_arch = "wasm32")]
pub mod transport;
