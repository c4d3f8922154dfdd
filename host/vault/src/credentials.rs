//! Encrypted credentials: API keys and tokens that servers need, stored in the runtime's IndexedDB database.
//!
//! - Each credential is one record keyed `[server, name]`, encrypted with AES-256-GCM under a random data key, with
//!   a fresh random nonce per write and associated data that binds it to its server, its name, the format version,
//!   the data key's id and the identity of the code it was stored for: it is released only to that code.
//! - The data key is stored only wrapped, by a passphrase (PBKDF2-SHA-256 in WebCrypto, 600,000 iterations, random
//!   salt), a key the application supplies, or a non-extractable WebCrypto device key (`KeySource`).
//! - Plaintext values are [`Secret`]s: redacted in `Debug`, wiped on drop. No error carries a value.
//! - A server receives only what it declared; what is missing is reported with descriptions so a UI can ask for it.
//!   `${NAME}` references in an imported `mcpServers` config resolve from the repository.
//!
//! The threat model (what each key mode protects against, and what none can) is in `docs/credentials.md`.

// The pure parts are used by the browser-only repository; natively they are compiled for their tests.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code, reason = "used by the wasm32-only repository"))]

mod app_key;
mod binding;
mod encoding;
mod error;
mod inventory;
mod key;
mod lookup;
mod record;
#[cfg(target_arch = "wasm32")]
mod repository;
#[cfg(target_arch = "wasm32")]
mod vault;
#[cfg(target_arch = "wasm32")]
mod webcrypto;

pub use app_key::AppKey;
pub use error::{CredentialError, CredentialResult};
pub use key::{KeyMode, MAX_PBKDF2_ITERATIONS, PBKDF2_ITERATIONS};
pub use lookup::lookup_outcome;
pub use mcp_worker_runtime::credentials::{CredentialDecl, IdentityChange, MissingCredentials, Secret, ServerIdentity};
#[cfg(target_arch = "wasm32")]
pub use repository::{CredentialsRepository, KeySource};
#[cfg(target_arch = "wasm32")]
pub use vault::Vault;
