//! Encrypted credentials: API keys and tokens that servers need, stored in the runtime's IndexedDB database.
//!
//! - Each credential is one record keyed `[server, name]`, encrypted with AES-256-GCM under a random data key, with
//!   a fresh random nonce per write and associated data that binds it to its server, its name, the format version
//!   and the data key's id.
//! - The data key is stored only wrapped, by a passphrase (PBKDF2-SHA-256 in WebCrypto, 600,000 iterations, random
//!   salt), a key the application supplies, or a non-extractable WebCrypto device key ([`KeySource`]).
//! - Plaintext values are [`Secret`]s: redacted in `Debug`, wiped on drop. No error carries a value.
//! - A server receives only what it declared ([`CredentialDecl`]); what is missing is reported with descriptions
//!   ([`MissingCredentials`]) so a UI can ask for it. `${NAME}` references in an imported `mcpServers` config
//!   resolve from the repository.
//!
//! The threat model (what each key mode protects against, and what none can) is in `docs/credentials.md`.

// The pure parts are used by the browser-only repository; natively they are compiled for their tests.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code, reason = "used by the wasm32-only repository"))]

mod declared;
mod encoding;
mod env_ref;
mod error;
mod key;
mod record;
#[cfg(target_arch = "wasm32")]
mod repository;
mod scope;
mod secret;
#[cfg(target_arch = "wasm32")]
mod webcrypto;

// For the JavaScript runtime's vault.
#[cfg(all(target_arch = "wasm32", feature = "runtime"))]
pub(crate) use declared::lookup_outcome;
pub use declared::{server_declarations, worker_env};
pub use env_ref::{EnvTemplate, env_declarations};
pub use error::{CredentialError, CredentialResult};
pub use key::{KeyMode, PBKDF2_ITERATIONS};
#[cfg(target_arch = "wasm32")]
pub use repository::{CredentialsRepository, KeySource};
pub(crate) use scope::normalize as normalize_declarations;
pub use scope::{CredentialDecl, MAX_NAME_LEN, MissingCredentials};
pub use secret::{AppKey, Secret};
