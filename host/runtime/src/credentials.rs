//! Which credentials a server gets: what it declares ([`CredentialDecl`], from its bundle manifest, its config and
//! the `${NAME}` references of its `env`), and the environment its worker gets from the values a
//! [`crate::manager::CredentialSource`] returns. Plaintext values are [`Secret`]s: redacted in `Debug`, wiped on drop.
//! What is missing is reported with descriptions ([`MissingCredentials`]) so a UI can ask for it. A credential is
//! bound to the code it was stored for ([`ServerIdentity`]), never only to a server's name.
//!
//! Where values are kept is not this crate's concern: the encrypted vault (`mcp_worker_vault`) is one source, an
//! application's own store another.

mod declared;
mod env_ref;
mod error;
mod identity;
mod scope;
mod secret;

pub use declared::{resolve_headers, server_declarations, worker_env};
pub use env_ref::{EnvTemplate, env_declarations, header_declarations, is_literal, is_reference_name, parse_env};
pub use error::{CredentialError, CredentialResult};
pub use identity::{IdentityChange, ServerIdentity};
pub use scope::{CredentialDecl, MAX_NAME_LEN, MissingCredentials, check_name, missing, normalize, select};
pub use secret::Secret;
