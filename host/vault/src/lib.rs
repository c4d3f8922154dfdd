#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod credentials;
#[cfg(target_arch = "wasm32")]
pub mod state;

pub use credentials::{AppKey, CredentialError, CredentialResult, KeyMode, Secret};
#[cfg(target_arch = "wasm32")]
pub use credentials::{CredentialsRepository, KeySource, Vault};
#[cfg(target_arch = "wasm32")]
pub use state::{Database, Persistence, StateManager};
