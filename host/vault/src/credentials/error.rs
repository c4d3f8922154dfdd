//! What can go wrong with credentials. No variant carries a secret value: a failed decryption names the record
//! (server and credential name), never its contents, and says "altered or moved", never which byte.

use super::key::KeyMode;
use mcp_worker_protocol::quoted::quoted;
use mcp_worker_runtime::credentials::{self as declarations, IdentityChange, MissingCredentials};
use mcp_worker_runtime::persist::StorageError;

/// A credentials error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CredentialError {
    /// The operation needs the key and the repository is locked.
    #[error("the credentials are locked: unlock them first")]
    Locked,
    /// No key has been set up for this database yet (see `CredentialsRepository::setup`).
    #[error("no key is set up for the credentials yet: set one up first (passphrase, app key or device key)")]
    NotSetUp,
    /// `setup` on a database that already has a key.
    #[error("a key is already set up ({mode}): unlock it, or rotate to change it")]
    AlreadySetUp {
        /// The mode of the existing key.
        mode: KeyMode,
    },
    /// The key given to `unlock` is of another mode than the one set up.
    #[error("the credentials are locked with {stored}, not with {given}")]
    ModeMismatch {
        /// The mode that is set up.
        stored: KeyMode,
        /// The mode that was tried.
        given: KeyMode,
    },
    /// The passphrase, application key or device key does not open the data key, or the key record was altered (its
    /// salt, iteration count, mode or key id are bound to the wrapped key). This is checked against the stored wrapped
    /// key before any credential is touched, so it is never confused with a tampered credential.
    #[error("wrong {mode}, or an altered key record: it does not open these credentials")]
    WrongKey {
        /// The mode whose key was wrong.
        mode: KeyMode,
    },
    /// A credential does not decrypt with the right key: its bytes were altered, or it was copied or moved from
    /// another server or name.
    #[error("credential {name} of server {server} cannot be decrypted: it was altered or moved", name = quoted(.name), server = quoted(.server))]
    Tampered {
        /// The server the record is stored under.
        server: String,
        /// The credential name the record is stored under.
        name: String,
    },
    /// The stored key changed since this repository was unlocked (another tab or instance rotated or wiped it).
    #[error("the credentials key was changed elsewhere (rotated or wiped): unlock again")]
    KeyChanged,
    /// Stored credentials were sealed under a key that is no longer stored: the key record was deleted, or replaced
    /// by another. They can never be read again, so `setup` and `unlock` refuse to pass over them; the way out is
    /// `wipe`, once the user has agreed to lose them.
    #[error(
        "{count} stored credentials were encrypted under a key that is no longer stored (the key record was {}): \
         they cannot be read; wipe the credentials (after the user agrees to lose them) to start again",
        if *key_record_missing { "deleted" } else { "replaced" }
    )]
    Orphaned {
        /// How many credentials cannot be read.
        count: usize,
        /// True when there is no key record at all (else it was replaced by another).
        key_record_missing: bool,
    },
    /// A stored record cannot be read at all (not the shape this version writes).
    #[error("unreadable {what}: {reason}")]
    Corrupt {
        /// Which record.
        what: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A server declared required credentials that are not stored.
    #[error("{0}")]
    Missing(MissingCredentials),
    /// Stored credentials of a server were stored for other code than its config names now: held back until the
    /// application confirms the change (`confirm_identity`).
    #[error("{0}")]
    IdentityChanged(Box<IdentityChange>),
    /// The caller's input is not usable (an empty name, a malformed `${…}` reference, too few iterations).
    #[error("{0}")]
    InvalidInput(String),
    /// The browser's cryptography failed (no `crypto.subtle` outside a secure context, no randomness).
    #[error("{operation} failed: {cause}")]
    Crypto {
        /// What was attempted.
        operation: &'static str,
        /// What the browser reported.
        cause: String,
    },
    /// IndexedDB failed.
    #[error(transparent)]
    Storage(#[from] StorageError),
}

impl CredentialError {
    /// A stable, machine-readable code for the error's kind.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Locked => "LOCKED",
            Self::NotSetUp => "NOT_SET_UP",
            Self::AlreadySetUp { .. } => "ALREADY_SET_UP",
            Self::ModeMismatch { .. } => "MODE_MISMATCH",
            Self::WrongKey { .. } => "WRONG_KEY",
            Self::Tampered { .. } => "TAMPERED",
            Self::KeyChanged => "KEY_CHANGED",
            Self::Orphaned { .. } => "ORPHANED_CREDENTIALS",
            Self::Corrupt { .. } => "CORRUPT",
            Self::Missing(_) => "MISSING_CREDENTIALS",
            Self::IdentityChanged(_) => "IDENTITY_CHANGED",
            Self::InvalidInput(_) => "INVALID_INPUT",
            Self::Crypto { .. } => "CRYPTO",
            Self::Storage(_) => "STORAGE",
        }
    }

    pub(crate) fn crypto(operation: &'static str, cause: impl ToString) -> Self {
        Self::Crypto { operation, cause: cause.to_string() }
    }

    pub(crate) fn corrupt(what: impl Into<String>, reason: impl Into<String>) -> Self {
        Self::Corrupt { what: what.into(), reason: reason.into() }
    }
}

impl From<declarations::CredentialError> for CredentialError {
    fn from(error: declarations::CredentialError) -> Self {
        match error {
            declarations::CredentialError::Missing(missing) => Self::Missing(missing),
            declarations::CredentialError::InvalidInput(message) => Self::InvalidInput(message),
            other => Self::InvalidInput(other.to_string()),
        }
    }
}

/// The result type of credential operations.
pub type CredentialResult<T> = Result<T, CredentialError>;
