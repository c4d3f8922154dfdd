//! The data key and how it is kept at rest.
//!
//! Every credential is encrypted with one random 256-bit data key. The data key is never stored in the clear: it is
//! stored *wrapped* (AES-256-GCM) by a key-encryption key that comes from the unlock mode: PBKDF2 of a passphrase,
//! a key the application supplies, or a non-extractable WebCrypto device key. The wrapped key doubles as the key
//! check: if it does not open, the key given to `unlock` is wrong; a credential that does not open once the data
//! key did was tampered with. Rotation replaces the data key and the wrapping together.

use super::encoding::{associated_data, from_hex, to_hex};
use super::error::{CredentialError, CredentialResult};
use aes_gcm::aead::{Aead, Generate, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Nonce};
use serde::{Deserialize, Serialize};
use std::fmt;
use zeroize::Zeroizing;

/// Version of the key record's format written now. Version 1 (readable still) did not bind the PBKDF2 salt and
/// iteration count into the wrapping's associated data; version 2 does.
pub(crate) const KEY_FORMAT_VERSION: u32 = 2;

/// PBKDF2-SHA-256 iterations for a passphrase (OWASP's 2023 recommendation). Fewer are refused.
pub const PBKDF2_ITERATIONS: u32 = 600_000;

/// The most PBKDF2-SHA-256 iterations a stored key record may ask for, unless the application raises it
/// (`CredentialsRepository::with_max_pbkdf2_iterations`). The count is read from the database, which anyone with
/// access to the origin can edit: without a bound, a record asking for 2^32-1 iterations would keep the page busy for
/// hours. Ten million is about 17 times the count written today (a few seconds on a slow device).
pub const MAX_PBKDF2_ITERATIONS: u32 = 10_000_000;

/// How the data key is unlocked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum KeyMode {
    /// A passphrase the user types, stretched with PBKDF2-SHA-256.
    Passphrase,
    /// A 256-bit key the application supplies.
    AppKey,
    /// A non-extractable WebCrypto key kept in IndexedDB: no passphrase, bound to this browser profile.
    Device,
}

impl KeyMode {
    /// The mode's name as stored and as reported (`passphrase`, `app_key`, `device`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Passphrase => "passphrase",
            Self::AppKey => "app_key",
            Self::Device => "device",
        }
    }
}

impl fmt::Display for KeyMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Passphrase => "passphrase",
            Self::AppKey => "application key",
            Self::Device => "device key",
        })
    }
}

/// An AES-GCM nonce and ciphertext (with its tag), hex-encoded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Sealed {
    pub(crate) nonce: String,
    pub(crate) ct: String,
}

impl Sealed {
    pub(crate) fn new(nonce: &[u8], ciphertext: &[u8]) -> Self {
        Self { nonce: to_hex(nonce), ct: to_hex(ciphertext) }
    }

    /// The nonce and ciphertext bytes, if both are well-formed.
    pub(crate) fn bytes(&self) -> Option<([u8; 12], Vec<u8>)> {
        let nonce: [u8; 12] = from_hex(&self.nonce)?.try_into().ok()?;
        Some((nonce, from_hex(&self.ct)?))
    }
}

/// How the key-encryption key is obtained, as stored in the key record (written tagged and flattened into it; read
/// through [`KeyRecordIn`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "mode", rename_all = "snake_case")]
pub(crate) enum Unwrapping {
    /// PBKDF2-SHA-256 of the passphrase with this salt and iteration count.
    Passphrase {
        iterations: u32,
        salt: String,
    },
    AppKey,
    /// The device key is stored beside the record (a `CryptoKey` cannot be JSON).
    Device,
}

impl Unwrapping {
    pub(crate) fn mode(&self) -> KeyMode {
        match self {
            Self::Passphrase { .. } => KeyMode::Passphrase,
            Self::AppKey => KeyMode::AppKey,
            Self::Device => KeyMode::Device,
        }
    }

    /// The salt and iteration count of a passphrase record, checked: at least [`PBKDF2_ITERATIONS`], at most
    /// `max_iterations`, and a 128-bit salt.
    pub(crate) fn pbkdf2(&self, max_iterations: u32) -> CredentialResult<Option<([u8; 16], u32)>> {
        let Self::Passphrase { iterations, salt } = self else { return Ok(None) };
        if *iterations < PBKDF2_ITERATIONS {
            return Err(CredentialError::corrupt("key record", format!("{iterations} PBKDF2 iterations")));
        }
        if *iterations > max_iterations {
            return Err(CredentialError::corrupt(
                "key record",
                format!(
                    "{iterations} PBKDF2 iterations, more than the limit of {max_iterations} (the record was altered, \
                     or written with a higher limit)"
                ),
            ));
        }
        let salt = from_hex(salt).and_then(|s| <[u8; 16]>::try_from(s).ok());
        let salt = salt.ok_or_else(|| CredentialError::corrupt("key record", "bad salt"))?;
        Ok(Some((salt, *iterations)))
    }
}

/// The key record: which data key is current (`key_id`), how to unwrap it, and the wrapped key itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "KeyRecordIn")]
pub(crate) struct KeyRecord {
    pub(crate) v: u32,
    pub(crate) key_id: String,
    #[serde(flatten)]
    pub(crate) unwrapping: Unwrapping,
    pub(crate) wrapped_key: Sealed,
}

/// A key record as it is read: the members of its [`Unwrapping`] beside the others, as it is written. Reading the
/// tagged and flattened enum itself goes through serde's buffered, type-erased reader (with the credential records
/// and the status socket's options read the same way, that reader was 6.5 KiB of the host package's gzip).
#[derive(Deserialize)]
struct KeyRecordIn {
    v: u32,
    key_id: String,
    mode: KeyMode,
    #[serde(default)]
    iterations: Option<u32>,
    #[serde(default)]
    salt: Option<String>,
    wrapped_key: Sealed,
}

impl TryFrom<KeyRecordIn> for KeyRecord {
    type Error = &'static str;

    fn try_from(record: KeyRecordIn) -> Result<Self, Self::Error> {
        let KeyRecordIn { v, key_id, mode, iterations, salt, wrapped_key } = record;
        let unwrapping = match mode {
            KeyMode::Passphrase => Unwrapping::Passphrase {
                iterations: iterations.ok_or("missing field `iterations`")?,
                salt: salt.ok_or("missing field `salt`")?,
            },
            KeyMode::AppKey => Unwrapping::AppKey,
            KeyMode::Device => Unwrapping::Device,
        };
        Ok(Self { v, key_id, unwrapping, wrapped_key })
    }
}

impl KeyRecord {
    /// Reads a stored key record, refusing formats this version does not know.
    pub(crate) fn from_json(value: serde_json::Value) -> CredentialResult<Self> {
        let record: Self = mcp_worker_protocol::json::from_value(value)
            .map_err(|e| CredentialError::corrupt("key record", e.to_string()))?;
        if !(1..=KEY_FORMAT_VERSION).contains(&record.v) {
            return Err(CredentialError::corrupt("key record", format!("format version {}", record.v)));
        }
        Ok(record)
    }

    pub(crate) fn mode(&self) -> KeyMode {
        self.unwrapping.mode()
    }

    /// What a wrapped key of format `version` is bound to: its mode and key id, so that a key record cannot be
    /// relabelled, and (from version 2) how its key-encryption key is derived, so that an edited salt or iteration
    /// count is refused as tampering rather than derived from.
    pub(crate) fn wrap_aad(version: u32, unwrapping: &Unwrapping, key_id: &str) -> Vec<u8> {
        let mode = unwrapping.mode().as_str().as_bytes();
        if version < 2 {
            return associated_data("mcp-worker/data-key/v1", &[mode, key_id.as_bytes()]);
        }
        let (iterations, salt) = match unwrapping {
            Unwrapping::Passphrase { iterations, salt } => (iterations.to_be_bytes(), salt.as_bytes()),
            Unwrapping::AppKey | Unwrapping::Device => ([0; 4], &[][..]),
        };
        associated_data("mcp-worker/data-key/v2", &[mode, key_id.as_bytes(), &iterations, salt])
    }

    /// The associated data of this record's wrapped key.
    pub(crate) fn aad(&self) -> Vec<u8> {
        Self::wrap_aad(self.v, &self.unwrapping, &self.key_id)
    }

    /// Wraps `data_key` with a 256-bit key-encryption key held in memory (passphrase and application-key modes).
    pub(crate) fn wrap(unwrapping: Unwrapping, data_key: &DataKey, kek: &[u8; 32]) -> CredentialResult<Self> {
        let aad = Self::wrap_aad(KEY_FORMAT_VERSION, &unwrapping, data_key.id());
        let nonce = random::<12>()?;
        let cipher = Aes256Gcm::new(kek.into());
        let wrapped = cipher
            .encrypt(&Nonce::from(nonce), Payload { msg: data_key.bytes(), aad: &aad })
            .map_err(|_| CredentialError::crypto("wrapping the data key", "AES-GCM refused"))?;
        Ok(Self::assemble(unwrapping, data_key, Sealed::new(&nonce, &wrapped)))
    }

    /// A record around a key wrapped elsewhere (by the device key, in WebCrypto).
    pub(crate) fn assemble(unwrapping: Unwrapping, data_key: &DataKey, wrapped_key: Sealed) -> Self {
        Self { v: KEY_FORMAT_VERSION, key_id: data_key.id().to_owned(), unwrapping, wrapped_key }
    }

    /// Opens the wrapped key with a key-encryption key held in memory. A wrong key, or a record whose mode, key id,
    /// salt, iteration count or bytes were changed, is [`CredentialError::WrongKey`].
    pub(crate) fn unwrap(&self, kek: &[u8; 32]) -> CredentialResult<DataKey> {
        let wrong = || CredentialError::WrongKey { mode: self.mode() };
        let (nonce, wrapped) =
            self.wrapped_key.bytes().ok_or_else(|| CredentialError::corrupt("key record", "bad wrapped key"))?;
        let cipher = Aes256Gcm::new(kek.into());
        let aad = self.aad();
        let plain = Zeroizing::new(
            cipher.decrypt(&Nonce::from(nonce), Payload { msg: &wrapped, aad: &aad }).map_err(|_| wrong())?,
        );
        DataKey::from_unwrapped(&plain, &self.key_id).ok_or_else(wrong)
    }
}

/// The data key, unwrapped, in memory while the repository is unlocked. Its bytes are wiped when it is dropped.
pub(crate) struct DataKey {
    bytes: Zeroizing<[u8; 32]>,
    cipher: Aes256Gcm,
    id: String,
}

impl DataKey {
    /// A fresh random data key with a fresh random id.
    pub(crate) fn generate() -> CredentialResult<Self> {
        let bytes = Zeroizing::new(random::<32>()?);
        let id = super::encoding::to_hex(&random::<8>()?);
        Ok(Self::from_parts(bytes, id))
    }

    /// The data key from unwrapped bytes (which must be exactly 256 bits).
    pub(crate) fn from_unwrapped(plain: &[u8], id: &str) -> Option<Self> {
        let bytes: [u8; 32] = plain.try_into().ok()?;
        Some(Self::from_parts(Zeroizing::new(bytes), id.to_owned()))
    }

    fn from_parts(bytes: Zeroizing<[u8; 32]>, id: String) -> Self {
        // By reference: no unwiped copy of the key on the stack.
        let cipher = Aes256Gcm::new((&*bytes).into());
        Self { bytes, cipher, id }
    }

    pub(crate) fn id(&self) -> &str {
        &self.id
    }

    pub(crate) fn bytes(&self) -> &[u8; 32] {
        &self.bytes
    }

    pub(crate) fn cipher(&self) -> &Aes256Gcm {
        &self.cipher
    }
}

impl fmt::Debug for DataKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DataKey").field("id", &self.id).finish_non_exhaustive()
    }
}

/// `N` random bytes from the platform (the browser's `crypto.getRandomValues`, the OS natively).
pub(crate) fn random<const N: usize>() -> CredentialResult<[u8; N]> {
    <[u8; N]>::try_generate().map_err(|e| CredentialError::crypto("drawing random bytes", e))
}

#[cfg(test)]
#[path = "key_tests.rs"]
mod tests;
