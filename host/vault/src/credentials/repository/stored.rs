//! How credentials and the key record look in IndexedDB: keys `[server, name]`, records as plain objects, and the
//! key record `{record, deviceKey?}` (the device key is a `CryptoKey`, stored by structured clone).

use crate::credentials::error::{CredentialError, CredentialResult};
use crate::credentials::key::KeyRecord;
use crate::credentials::record::CredentialRecord;
use crate::state::database::{from_js, to_js};
use js_sys::{Array, Object, Reflect};
use mcp_worker_protocol::quoted::quoted;
use rexie::KeyRange;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::CryptoKey;

/// The key of the key record in its store.
pub(super) const CURRENT_KEY: &str = "current";

/// The key record as read from the database.
pub(super) struct StoredKey {
    pub(super) record: KeyRecord,
    pub(super) device_key: Option<CryptoKey>,
}

impl StoredKey {
    pub(super) fn from_js(value: &JsValue) -> CredentialResult<Self> {
        let record = Reflect::get(value, &JsValue::from_str("record"))
            .map_err(|_| CredentialError::corrupt("key record", "not an object"))?;
        let record = KeyRecord::from_json(from_js(record).map_err(|e| CredentialError::corrupt("key record", e))?)?;
        let device_key =
            Reflect::get(value, &JsValue::from_str("deviceKey")).ok().and_then(|k| k.dyn_into::<CryptoKey>().ok());
        Ok(Self { record, device_key })
    }

    pub(super) fn to_js(&self) -> CredentialResult<JsValue> {
        let object = Object::new();
        let record = to_js(&self.record).map_err(|e| CredentialError::corrupt("key record", e))?;
        let set = |key: &str, value: &JsValue| {
            Reflect::set(&object, &JsValue::from_str(key), value)
                .map(drop)
                .map_err(|_| CredentialError::corrupt("key record", "cannot build"))
        };
        set("record", &record)?;
        if let Some(device_key) = &self.device_key {
            set("deviceKey", device_key)?;
        }
        Ok(object.into())
    }
}

/// The IndexedDB key of a credential.
pub(super) fn credential_key(server: &str, name: &str) -> JsValue {
    Array::of2(&JsValue::from_str(server), &JsValue::from_str(name)).into()
}

/// Server and name of a credential key; `None` for a key this version never writes.
pub(super) fn parse_credential_key(key: &JsValue) -> Option<(String, String)> {
    let array = key.dyn_ref::<Array>()?;
    if array.length() != 2 {
        return None;
    }
    Some((array.get(0).as_string()?, array.get(1).as_string()?))
}

/// Every key `[server, …]`: arrays sort after strings in IndexedDB, so `[server, []]` is above every
/// `[server, name]`.
pub(super) fn server_range(server: &str) -> CredentialResult<KeyRange> {
    let lower: JsValue = Array::of1(&JsValue::from_str(server)).into();
    let upper: JsValue = Array::of2(&JsValue::from_str(server), &Array::new()).into();
    KeyRange::bound(&lower, &upper, Some(false), Some(true)).map_err(|e| {
        CredentialError::InvalidInput(format!("server name {server} is not a usable key: {e}", server = quoted(server)))
    })
}

/// The id of the data key a stored credential record names, without reading the rest; `None` for a value that is
/// not a record.
pub(super) fn record_key_id(value: &JsValue) -> Option<String> {
    Reflect::get(value, &JsValue::from_str("key_id")).ok()?.as_string()
}

/// A credential record as stored.
pub(super) fn record_to_js(record: &CredentialRecord) -> CredentialResult<JsValue> {
    to_js(record).map_err(|e| CredentialError::crypto("storing a credential", e))
}

/// A stored credential record.
pub(super) fn record_from_js(server: &str, name: &str, value: JsValue) -> CredentialResult<CredentialRecord> {
    let json = from_js(value).map_err(|e| {
        CredentialError::corrupt(
            format!("credential {name} of server {server}", name = quoted(name), server = quoted(server)),
            e,
        )
    })?;
    CredentialRecord::from_json(server, name, json)
}
