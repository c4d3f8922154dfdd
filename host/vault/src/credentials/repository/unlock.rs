//! Turning a [`KeySource`] into the data key: creating a new wrapped key (setup, rotation) and opening the stored
//! one (unlock). Everything here is asynchronous WebCrypto work, done before any IndexedDB transaction opens.

use super::KeySource;
use super::stored::StoredKey;
use crate::credentials::encoding::to_hex;
use crate::credentials::error::{CredentialError, CredentialResult};
use crate::credentials::key::{DataKey, KEY_FORMAT_VERSION, KeyRecord, PBKDF2_ITERATIONS, Unwrapping, random};
use crate::credentials::webcrypto;

/// A fresh random data key, wrapped as `source` says.
pub(super) async fn new_key(source: &KeySource) -> CredentialResult<(StoredKey, DataKey)> {
    let data_key = DataKey::generate()?;
    let stored = match source {
        KeySource::Passphrase(passphrase) => {
            if passphrase.is_empty() {
                return Err(CredentialError::InvalidInput("empty passphrase".into()));
            }
            let salt = random::<16>()?;
            let kek = webcrypto::pbkdf2(passphrase, &salt, PBKDF2_ITERATIONS).await?;
            let unwrapping = Unwrapping::Passphrase { iterations: PBKDF2_ITERATIONS, salt: to_hex(&salt) };
            StoredKey { record: KeyRecord::wrap(unwrapping, &data_key, &kek)?, device_key: None }
        }
        KeySource::AppKey(app_key) => {
            StoredKey { record: KeyRecord::wrap(Unwrapping::AppKey, &data_key, app_key.bytes())?, device_key: None }
        }
        KeySource::Device => {
            let device_key = webcrypto::generate_device_key().await?;
            let aad = KeyRecord::wrap_aad(KEY_FORMAT_VERSION, &Unwrapping::Device, data_key.id());
            let wrapped = webcrypto::device_wrap(&device_key, &data_key, &aad).await?;
            StoredKey {
                record: KeyRecord::assemble(Unwrapping::Device, &data_key, wrapped),
                device_key: Some(device_key),
            }
        }
    };
    Ok((stored, data_key))
}

/// Opens the stored data key with `source`; a passphrase record asking for more than `max_iterations` PBKDF2
/// iterations is refused before any is run.
pub(super) async fn open_key(stored: &StoredKey, source: &KeySource, max_iterations: u32) -> CredentialResult<DataKey> {
    let record = &stored.record;
    if record.mode() != source.mode() {
        return Err(CredentialError::ModeMismatch { stored: record.mode(), given: source.mode() });
    }
    match source {
        KeySource::Passphrase(passphrase) => {
            let (salt, iterations) = record
                .unwrapping
                .pbkdf2(max_iterations)?
                .ok_or_else(|| CredentialError::corrupt("key record", "no PBKDF2 parameters"))?;
            let kek = webcrypto::pbkdf2(passphrase, &salt, iterations).await?;
            record.unwrap(&kek)
        }
        KeySource::AppKey(app_key) => record.unwrap(app_key.bytes()),
        KeySource::Device => {
            let device_key = stored
                .device_key
                .as_ref()
                .ok_or_else(|| CredentialError::corrupt("key record", "the device key is missing"))?;
            webcrypto::device_unwrap(device_key, &record.wrapped_key, &record.aad(), &record.key_id).await
        }
    }
}
