//! The browser's WebCrypto, for what must not be done in wasm: PBKDF2 (native code in the browser, many times
//! faster than SHA-256 compiled to wasm) and the device key, a non-extractable AES-GCM `CryptoKey` whose bytes
//! never reach JavaScript or wasm. All of it is asynchronous, so callers run it before they open an IndexedDB
//! transaction (awaiting anything but IndexedDB inside one ends it).

use super::error::{CredentialError, CredentialResult};
use super::key::{DataKey, KeyMode, Sealed, random};
use js_sys::{Array, ArrayBuffer, Object, Reflect, Uint8Array};
use mcp_worker_runtime::credentials::Secret;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{CryptoKey, SubtleCrypto};
use zeroize::Zeroizing;

fn subtle() -> CredentialResult<SubtleCrypto> {
    let crypto = Reflect::get(&js_sys::global(), &JsValue::from_str("crypto"))
        .ok()
        .and_then(|c| c.dyn_into::<web_sys::Crypto>().ok())
        .ok_or_else(|| CredentialError::crypto("WebCrypto", "no crypto object in this context"))?;
    // `crypto.subtle` is undefined outside a secure context (plain http other than localhost).
    let subtle = crypto.subtle();
    if subtle.is_undefined() {
        return Err(CredentialError::crypto("WebCrypto", "crypto.subtle needs a secure context (https)"));
    }
    Ok(subtle)
}

/// Builds `{name, ...}` algorithm parameters.
fn params(entries: &[(&str, JsValue)]) -> CredentialResult<Object> {
    let object = Object::new();
    for (key, value) in entries {
        Reflect::set(&object, &JsValue::from_str(key), value)
            .map_err(|e| CredentialError::crypto("WebCrypto parameters", describe(&e)))?;
    }
    Ok(object)
}

fn usages(list: &[&str]) -> JsValue {
    list.iter().map(|u| JsValue::from_str(u)).collect::<Array>().into()
}

async fn settle(
    operation: &'static str,
    promise: Result<js_sys::Promise, JsValue>,
) -> Result<JsValue, (&'static str, JsValue)> {
    match promise {
        Ok(promise) => JsFuture::from(promise).await.map_err(|e| (operation, e)),
        Err(e) => Err((operation, e)),
    }
}

fn failed((operation, error): (&'static str, JsValue)) -> CredentialError {
    CredentialError::crypto(operation, describe(&error))
}

/// The name and message of a JavaScript error (never a value of ours: none is ever put in one).
fn describe(error: &JsValue) -> String {
    match error.dyn_ref::<js_sys::Error>() {
        Some(e) => format!("{}: {}", String::from(e.name()), String::from(e.message())),
        None => error.as_string().unwrap_or_else(|| "unknown error".into()),
    }
}

/// Copies bytes out of a WebCrypto result and zeroes the JavaScript copy.
fn take_bytes(buffer: &JsValue) -> CredentialResult<Zeroizing<Vec<u8>>> {
    let buffer = buffer
        .dyn_ref::<ArrayBuffer>()
        .ok_or_else(|| CredentialError::crypto("WebCrypto", "the result is not an ArrayBuffer"))?;
    let view = Uint8Array::new(buffer);
    let bytes = Zeroizing::new(view.to_vec());
    view.fill(0, 0, view.length());
    Ok(bytes)
}

/// Bytes handed to WebCrypto, zeroed in JavaScript once the call has taken its copy.
struct JsBytes(Uint8Array);

impl JsBytes {
    fn new(bytes: &[u8]) -> Self {
        Self(Uint8Array::from(bytes))
    }
}

impl Drop for JsBytes {
    fn drop(&mut self) {
        self.0.fill(0, 0, self.0.length());
    }
}

/// PBKDF2-SHA-256 of the passphrase: the 256-bit key-encryption key.
pub(crate) async fn pbkdf2(
    passphrase: &Secret,
    salt: &[u8; 16],
    iterations: u32,
) -> CredentialResult<Zeroizing<[u8; 32]>> {
    let subtle = subtle()?;
    let base_key = {
        let raw = JsBytes::new(passphrase.expose().as_bytes());
        let algorithm = params(&[("name", "PBKDF2".into())])?;
        let promise = subtle.import_key_with_object("raw", &raw.0, &algorithm, false, &usages(&["deriveBits"]));
        // WebCrypto copied the bytes when the call returned; `raw` is zeroed at the end of this block.
        settle("importing the passphrase", promise).await.map_err(failed)?
    };
    let base_key: CryptoKey =
        base_key.dyn_into().map_err(|_| CredentialError::crypto("importing the passphrase", "not a CryptoKey"))?;
    let algorithm = params(&[
        ("name", "PBKDF2".into()),
        ("hash", "SHA-256".into()),
        ("salt", Uint8Array::from(&salt[..]).into()),
        ("iterations", iterations.into()),
    ])?;
    let bits = settle("deriving the key (PBKDF2)", subtle.derive_bits_with_object(&algorithm, &base_key, 256))
        .await
        .map_err(failed)?;
    let bytes = take_bytes(&bits)?;
    let key: [u8; 32] = bytes
        .as_slice()
        .try_into()
        .map_err(|_| CredentialError::crypto("deriving the key (PBKDF2)", "not 256 bits"))?;
    Ok(Zeroizing::new(key))
}

/// A new device key: AES-256-GCM, non-extractable, usable only to encrypt and decrypt (the data key).
pub(crate) async fn generate_device_key() -> CredentialResult<CryptoKey> {
    let subtle = subtle()?;
    let algorithm = params(&[("name", "AES-GCM".into()), ("length", 256.into())])?;
    let key = settle(
        "generating the device key",
        subtle.generate_key_with_object(&algorithm, false, &usages(&["encrypt", "decrypt"])),
    )
    .await
    .map_err(failed)?;
    key.dyn_into().map_err(|_| CredentialError::crypto("generating the device key", "not a CryptoKey"))
}

fn gcm_params(nonce: &[u8; 12], aad: &[u8]) -> CredentialResult<Object> {
    params(&[
        ("name", "AES-GCM".into()),
        ("iv", Uint8Array::from(&nonce[..]).into()),
        ("additionalData", Uint8Array::from(aad).into()),
        ("tagLength", 128.into()),
    ])
}

/// Wraps the data key with the device key (AES-GCM, same format as the other modes).
pub(crate) async fn device_wrap(device_key: &CryptoKey, data_key: &DataKey, aad: &[u8]) -> CredentialResult<Sealed> {
    let subtle = subtle()?;
    let nonce = random::<12>()?;
    let algorithm = gcm_params(&nonce, aad)?;
    let wrapped = {
        let plain = JsBytes::new(data_key.bytes());
        let promise = subtle.encrypt_with_object_and_buffer_source(&algorithm, device_key, &plain.0);
        settle("wrapping the data key with the device key", promise).await.map_err(failed)?
    };
    let wrapped = take_bytes(&wrapped)?;
    Ok(Sealed::new(&nonce, &wrapped))
}

/// Unwraps the data key with the device key; a key that does not open it is [`CredentialError::WrongKey`].
pub(crate) async fn device_unwrap(
    device_key: &CryptoKey,
    wrapped: &Sealed,
    aad: &[u8],
    key_id: &str,
) -> CredentialResult<DataKey> {
    let wrong = || CredentialError::WrongKey { mode: KeyMode::Device };
    let subtle = subtle()?;
    let (nonce, ciphertext) =
        wrapped.bytes().ok_or_else(|| CredentialError::corrupt("key record", "bad wrapped key"))?;
    let algorithm = gcm_params(&nonce, aad)?;
    let data = Uint8Array::from(ciphertext.as_slice());
    let promise = subtle.decrypt_with_object_and_buffer_source(&algorithm, device_key, &data);
    // An authentication failure is an `OperationError`; anything else is the browser failing.
    let plain = match settle("unwrapping the data key with the device key", promise).await {
        Ok(plain) => plain,
        Err((_, e)) if e.dyn_ref::<js_sys::Error>().is_some_and(|e| e.name() == "OperationError") => {
            return Err(wrong());
        }
        Err(e) => return Err(failed(e)),
    };
    let plain = take_bytes(&plain)?;
    DataKey::from_unwrapped(&plain, key_id).ok_or_else(wrong)
}
