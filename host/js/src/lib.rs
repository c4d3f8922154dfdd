#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

#[cfg(all(feature = "talc", target_arch = "wasm32", not(target_feature = "atomics")))]
mod allocator;
#[cfg(target_arch = "wasm32")]
mod client;
#[cfg(target_arch = "wasm32")]
mod convert;
#[cfg(target_arch = "wasm32")]
mod promise;
#[cfg(all(target_arch = "wasm32", feature = "runtime"))]
mod redaction;
#[cfg(all(target_arch = "wasm32", feature = "runtime"))]
mod runtime;

#[cfg(target_arch = "wasm32")]
pub use client::{JsMcpClient, compile_module_js};
