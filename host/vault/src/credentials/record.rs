//! One credential at rest: AES-256-GCM ciphertext of the value under the data key, with a fresh random 96-bit nonce
//! per write. The record does not contain its server or name: those are its IndexedDB key, and they are bound into
//! the associated data together with the format version, the data key's id and (from format 2) the identity of the
//! code it was stored for ([`ServerIdentity`], kept in the clear so that it can be checked while locked). A record
//! copied or moved to another server or name, given another identity, or left over from another key, fails to
//! decrypt.

use super::encoding::associated_data;
use super::error::{CredentialError, CredentialResult};
use super::key::{DataKey, Sealed, random};
use aes_gcm::Nonce;
use aes_gcm::aead::{Aead, Payload};
use mcp_worker_protocol::quoted::quoted;
use mcp_worker_runtime::credentials::{Secret, ServerIdentity};
use serde::{Deserialize, Serialize};

/// Version of the credential record's format written now; part of the associated data. Version 1 (readable still)
/// had no identity: its records are released to no server until the application confirms one.
pub(crate) const RECORD_FORMAT_VERSION: u32 = 2;

/// A stored credential.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "CredentialRecordIn")]
pub(crate) struct CredentialRecord {
    pub(crate) v: u32,
    /// The id of the data key that sealed it (also in the associated data, so it cannot be changed unnoticed).
    pub(crate) key_id: String,
    /// The identity of the code it was stored for ([`ServerIdentity::canonical`]), also in the associated data;
    /// absent when it was stored before it could be bound (format 1, or before the server was configured).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) bound_to: Option<String>,
    #[serde(flatten)]
    pub(crate) sealed: Sealed,
}

/// A stored credential as it is read: its [`Sealed`] members beside the others, as it is written flattened. Reading
/// through `flatten` goes through serde's buffered, type-erased reader (with the key record and the status socket's
/// options read the same way, that reader was 6.5 KiB of the host package's gzip).
#[derive(Deserialize)]
struct CredentialRecordIn {
    v: u32,
    key_id: String,
    #[serde(default)]
    bound_to: Option<String>,
    nonce: String,
    ct: String,
}

impl From<CredentialRecordIn> for CredentialRecord {
    fn from(record: CredentialRecordIn) -> Self {
        let CredentialRecordIn { v, key_id, bound_to, nonce, ct } = record;
        Self { v, key_id, bound_to, sealed: Sealed { nonce, ct } }
    }
}

/// What a credential's ciphertext is bound to.
pub(crate) fn credential_aad(version: u32, key_id: &str, server: &str, name: &str, bound_to: Option<&str>) -> Vec<u8> {
    let version_bytes = version.to_be_bytes();
    let mut fields: Vec<&[u8]> = vec![&version_bytes, key_id.as_bytes(), server.as_bytes(), name.as_bytes()];
    if version >= 2 {
        // A canonical identity is never empty, so an empty field can only mean "bound to nothing".
        fields.push(bound_to.unwrap_or_default().as_bytes());
    }
    associated_data("mcp-worker/credential", &fields)
}

impl CredentialRecord {
    /// Encrypts `value` as the credential `name` of `server`, bound to `identity` (to nothing when `None`: such a
    /// record is released to no server until an identity is confirmed).
    pub(crate) fn seal(
        key: &DataKey,
        server: &str,
        name: &str,
        value: &Secret,
        identity: Option<&ServerIdentity>,
    ) -> CredentialResult<Self> {
        let nonce = random::<12>()?;
        let bound_to = identity.map(ServerIdentity::canonical);
        let aad = credential_aad(RECORD_FORMAT_VERSION, key.id(), server, name, bound_to.as_deref());
        let ciphertext = key
            .cipher()
            .encrypt(&Nonce::from(nonce), Payload { msg: value.expose().as_bytes(), aad: &aad })
            .map_err(|_| CredentialError::crypto("encrypting a credential", "AES-GCM refused"))?;
        let sealed = Sealed::new(&nonce, &ciphertext);
        Ok(Self { v: RECORD_FORMAT_VERSION, key_id: key.id().to_owned(), bound_to, sealed })
    }

    /// Reads a stored record (as JSON), refusing shapes and versions this version does not write.
    pub(crate) fn from_json(server: &str, name: &str, value: serde_json::Value) -> CredentialResult<Self> {
        let what = || format!("credential {name} of server {server}", name = quoted(name), server = quoted(server));
        let record: Self = mcp_worker_protocol::json::from_value(value)
            .map_err(|e| CredentialError::corrupt(what(), e.to_string()))?;
        if !(1..=RECORD_FORMAT_VERSION).contains(&record.v) {
            return Err(CredentialError::corrupt(what(), format!("format version {}", record.v)));
        }
        if record.v == 1 && record.bound_to.is_some() {
            // Format 1 does not authenticate an identity: one added to such a record would be believed.
            return Err(CredentialError::corrupt(what(), "an identity on a record of format 1"));
        }
        Ok(record)
    }

    /// The identity the record says it was stored for: `None` when it is bound to nothing (or names no identity this
    /// version writes, which decryption would refuse anyway). Readable while locked; authenticated when opened.
    pub(crate) fn identity(&self) -> Option<ServerIdentity> {
        self.bound_to.as_deref().and_then(ServerIdentity::from_canonical)
    }

    /// Decrypts the record found under (`server`, `name`).
    ///
    /// A record sealed under another data key is [`CredentialError::KeyChanged`] when its key id says so; anything
    /// that fails authentication (altered bytes, another location, a forged key id) is
    /// [`CredentialError::Tampered`].
    pub(crate) fn open(&self, key: &DataKey, server: &str, name: &str) -> CredentialResult<Secret> {
        let tampered = || CredentialError::Tampered { server: server.to_owned(), name: name.to_owned() };
        if self.key_id != key.id() {
            return Err(CredentialError::KeyChanged);
        }
        let (nonce, ciphertext) = self.sealed.bytes().ok_or_else(tampered)?;
        let aad = credential_aad(self.v, &self.key_id, server, name, self.bound_to.as_deref());
        let plain = key
            .cipher()
            .decrypt(&Nonce::from(nonce), Payload { msg: &ciphertext, aad: &aad })
            .map_err(|_| tampered())?;
        // A value that authenticated but is not text was not written by us: treat as tampered, and wipe it.
        Secret::from_utf8(plain).ok_or_else(tampered)
    }
}

/// Re-encrypts every record under a new data key (rotation), keeping what each is bound to. All records are
/// decrypted with `old` first; the first one that does not open stops the plan, naming the record, and nothing is
/// written. Each plaintext lives only between its decryption and its re-encryption.
pub(crate) fn reseal_all(
    old: &DataKey,
    new: &DataKey,
    records: Vec<((String, String), CredentialRecord)>,
) -> CredentialResult<Vec<((String, String), CredentialRecord)>> {
    records
        .into_iter()
        .map(|((server, name), record)| {
            let value = record.open(old, &server, &name).map_err(|e| match e {
                // Under the key we hold, a record with another key id cannot be explained by a rotation.
                CredentialError::KeyChanged => CredentialError::Tampered { server: server.clone(), name: name.clone() },
                other => other,
            })?;
            let resealed = CredentialRecord::seal(new, &server, &name, &value, record.identity().as_ref())?;
            Ok(((server, name), resealed))
        })
        .collect()
}

#[cfg(test)]
#[path = "record_tests.rs"]
mod tests;
