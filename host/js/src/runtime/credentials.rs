//! `runtime.credentials`: the encrypted vault from JavaScript. Values go in and reach only the servers that declared
//! them; the one way back out is `get`, the application's read of a secret it keeps for itself. Unlocking, or
//! storing a credential, retries the servers that wait for credentials.

use super::convert::{JsFailure, property, to_js};
use super::{Inner, JsRuntime};
use crate::promise::promise;
use js_sys::{Promise, Uint8Array};
use mcp_worker_vault::credentials::{AppKey, CredentialError, KeySource, Secret};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// The runtime's encrypted credentials.
#[wasm_bindgen(js_name = Credentials)]
pub struct JsCredentials {
    pub(crate) inner: Rc<Inner>,
}

impl std::fmt::Debug for JsCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials").finish_non_exhaustive()
    }
}

/// Runs a vault operation in a promise that resolves with what `done` makes of its outcome.
fn vault_promise<T: 'static>(
    inner: &Rc<Inner>,
    operation: impl AsyncFnOnce(&Rc<Inner>) -> Result<T, CredentialError> + 'static,
    done: impl FnOnce(&Rc<Inner>, T) -> Result<JsValue, JsFailure> + 'static,
) -> Promise {
    let inner = inner.clone();
    promise(async move {
        inner.open()?;
        let value = operation(&inner).await.map_err(JsFailure::from)?;
        Ok(done(&inner, value)?)
    })
}

fn nothing<T>(_: &Rc<Inner>, _: T) -> Result<JsValue, JsFailure> {
    Ok(JsValue::UNDEFINED)
}

/// Starts again every server that waits for credentials.
fn retry<T>(inner: &Rc<Inner>, _: T) -> Result<JsValue, JsFailure> {
    inner.runtime.manager().credentials_changed_all();
    Ok(JsValue::UNDEFINED)
}

/// `{passphrase}`, `{appKey}` (32 bytes) or `{device: true}`.
fn key_source(key: &JsValue) -> Result<KeySource, JsFailure> {
    if let Some(passphrase) = property(key, "passphrase") {
        let passphrase = passphrase.as_string().ok_or_else(|| JsFailure::invalid("passphrase must be a string"))?;
        return Ok(KeySource::Passphrase(Secret::new(passphrase)));
    }
    if let Some(bytes) = property(key, "appKey") {
        let bytes = bytes.dyn_into::<Uint8Array>().map_err(|_| JsFailure::invalid("appKey must be a Uint8Array"))?;
        let key = AppKey::from_bytes(&bytes.to_vec()).ok_or_else(|| JsFailure::invalid("appKey must be 32 bytes"))?;
        return Ok(KeySource::AppKey(key));
    }
    if property(key, "device").and_then(|d| d.as_bool()) == Some(true) {
        return Ok(KeySource::Device);
    }
    Err(JsFailure::invalid("a vault key is {passphrase}, {appKey} or {device: true}"))
}

#[wasm_bindgen(js_class = Credentials)]
impl JsCredentials {
    /// How the vault key is kept (`passphrase`, `app_key`, `device`), or `null` before `setup`.
    #[wasm_bindgen(js_name = keyMode, unchecked_return_type = "Promise<KeyMode | null>")]
    pub fn key_mode(&self) -> Promise {
        vault_promise(
            &self.inner,
            async move |inner| inner.vault.repository()?.key_mode().await,
            |_, mode| Ok(mode.map_or(JsValue::NULL, |m| JsValue::from_str(m.as_str()))),
        )
    }

    /// Whether the vault is unlocked.
    #[wasm_bindgen(js_name = isUnlocked)]
    pub fn is_unlocked(&self) -> bool {
        self.inner.vault.repository().is_ok_and(|r| r.is_unlocked())
    }

    /// Sets up the vault key of an empty vault and leaves it unlocked (`ALREADY_SET_UP` if there is one;
    /// `ORPHANED_CREDENTIALS` if credentials are stored without their key, see `wipe`).
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn setup(&self, #[wasm_bindgen(unchecked_param_type = "VaultKey")] key: JsValue) -> Promise {
        match key_source(&key) {
            Ok(source) => {
                vault_promise(&self.inner, async move |inner| inner.vault.repository()?.setup(source).await, retry)
            }
            Err(failure) => Promise::reject(&failure.into_js()),
        }
    }

    /// Unlocks the vault (`WRONG_KEY` for a wrong passphrase or key, or an altered key record;
    /// `ORPHANED_CREDENTIALS` when the key record was deleted or replaced, see `wipe`) and retries the servers
    /// waiting for it.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn unlock(&self, #[wasm_bindgen(unchecked_param_type = "VaultKey")] key: JsValue) -> Promise {
        match key_source(&key) {
            Ok(source) => {
                vault_promise(&self.inner, async move |inner| inner.vault.repository()?.unlock(source).await, retry)
            }
            Err(failure) => Promise::reject(&failure.into_js()),
        }
    }

    /// Drops the key from memory. Running servers keep what they were given; new starts wait for an unlock.
    pub fn lock(&self) {
        if let Ok(repository) = self.inner.vault.repository() {
            repository.lock();
        }
    }

    /// Replaces the key (re-encrypting every credential in one transaction); the vault must be unlocked.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn rotate(&self, #[wasm_bindgen(unchecked_param_type = "VaultKey")] key: JsValue) -> Promise {
        match key_source(&key) {
            Ok(source) => {
                vault_promise(&self.inner, async move |inner| inner.vault.repository()?.rotate(source).await, nothing)
            }
            Err(failure) => Promise::reject(&failure.into_js()),
        }
    }

    /// Stores a credential of a server (the vault must be unlocked) and retries the servers waiting for
    /// credentials. It is bound to the code the server's config names now (its bundle's URL): a config rewritten to
    /// name other code does not get it until `confirmCredentialIdentity`. Stored for a server that is not
    /// configured yet, it is bound to nothing, and released only once an identity is confirmed.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn set(&self, server: String, name: String, value: String) -> Promise {
        let value = Secret::new(value);
        let identity = self.inner.runtime.manager().config(&server).map(|config| config.transport.identity());
        vault_promise(
            &self.inner,
            async move |inner| {
                let repository = inner.vault.repository()?;
                match identity {
                    Some(identity) => repository.set_for(&server, &identity, &name, &value).await,
                    None => repository.set(&server, &name, &value).await,
                }
            },
            retry,
        )
    }

    /// The application's own read of a stored value, or `null` when none is stored (the vault must be unlocked):
    /// for secrets the application uses itself, such as the key of the model endpoint it calls, kept under a scope
    /// that names no server (the console keeps its model's key under `"@console"`). It reads any scope, so it is
    /// for the application's code only; servers get their credentials when they start, never through this.
    #[wasm_bindgen(unchecked_return_type = "Promise<string | null>")]
    pub fn get(&self, server: String, name: String) -> Promise {
        vault_promise(
            &self.inner,
            async move |inner| inner.vault.repository()?.get(&server, &name).await,
            |_, value| Ok(value.map_or(JsValue::NULL, |secret| JsValue::from_str(secret.expose()))),
        )
    }

    /// Deletes a credential (works while locked).
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn delete(&self, server: String, name: String) -> Promise {
        vault_promise(&self.inner, async move |inner| inner.vault.repository()?.delete(&server, &name).await, nothing)
    }

    /// The names of a server's stored credentials that the stored key can read (never values; works while locked).
    #[wasm_bindgen(unchecked_return_type = "Promise<string[]>")]
    pub fn names(&self, server: String) -> Promise {
        vault_promise(
            &self.inner,
            async move |inner| inner.vault.repository()?.names(&server).await,
            |_, names| to_js(&names),
        )
    }

    /// The servers that have credentials stored (works while locked).
    #[wasm_bindgen(unchecked_return_type = "Promise<string[]>")]
    pub fn servers(&self) -> Promise {
        vault_promise(
            &self.inner,
            async move |inner| inner.vault.repository()?.servers().await,
            |_, names| to_js(&names),
        )
    }

    /// The required credentials a configured server declares (in its bundle manifest, fetched now, its config and
    /// its `env` references) that are not stored (works while locked): what to ask the user for.
    #[wasm_bindgen(unchecked_return_type = "Promise<CredentialDeclaration[]>")]
    pub fn missing(&self, server: String) -> Promise {
        vault_promise(
            &self.inner,
            async move |inner| {
                // What the server's next start asks for: its manifest's, its config's and its env's references.
                let declared = inner
                    .runtime
                    .declared_credentials(&server)
                    .await
                    .map_err(|e| CredentialError::InvalidInput(e.to_string()))?;
                inner.vault.repository()?.missing(&server, &declared).await
            },
            |_, missing| to_js(&missing.map(|m| m.missing).unwrap_or_default()),
        )
    }

    /// Deletes every credential and the key, and locks: the way out when `setup` or `unlock` reject with
    /// `ORPHANED_CREDENTIALS` (the key record was deleted or replaced, and what it sealed can never be read again).
    /// Nothing calls it on its own: ask the user first, since the credentials are lost.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn wipe(&self) -> Promise {
        vault_promise(&self.inner, async move |inner| inner.vault.repository()?.wipe().await, nothing)
    }
}

#[wasm_bindgen(js_class = McpRuntime)]
impl JsRuntime {
    /// Binds the credentials stored for `server` to the code its config names now, and starts it again if it was
    /// waiting: the answer to a `credentialsRequired` event with an `identityChange`, once the user agreed that
    /// the server's new code may have them. Rejects with `NEEDS_CREDENTIALS` while the vault is locked.
    #[wasm_bindgen(js_name = confirmCredentialIdentity, unchecked_return_type = "Promise<void>")]
    pub fn confirm_credential_identity(&self, server: String) -> Promise {
        let inner = self.inner.clone();
        promise(async move {
            inner.open()?;
            inner.runtime.confirm_credential_identity(&server).await.map_err(JsFailure::from)?;
            Ok(JsValue::UNDEFINED)
        })
    }
}
