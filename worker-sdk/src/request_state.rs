//! The `requestState` of an `input_required` result (MCP 2026-07-28, multi round-trip requests): the answers the
//! client gave in earlier rounds, bound to the request they belong to and to a deadline, sealed with HMAC-SHA256
//! under a key only this server knows. The client echoes it untouched; a state that was altered, that belongs to
//! another request, or that is too old is refused, so a client can neither forge an answer nor replay one.
//!
//! Layout: `<hex MAC>.<JSON payload>` (the payload is not secret: it holds what the client itself sent).

use hmac::{Hmac, KeyInit, Mac};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::cell::OnceCell;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// How long a state stays good: long enough for a person to fill in a form.
pub(crate) const STATE_LIFETIME_MS: u64 = 30 * 60 * 1000;

/// The answers of earlier rounds, by input key.
pub(crate) type Answers = BTreeMap<String, Value>;

/// The server's sealing key, drawn at random when the server first needs it (see [`ServerKey`]).
pub(crate) struct StateKey([u8; 32]);

/// The server's [`StateKey`], drawn the first time a state is sealed or opened: most servers never do, and a
/// worker's first random bytes from the browser took about 0.1 ms of every start when the key was drawn at start.
#[derive(Default)]
pub(crate) struct ServerKey(OnceCell<Option<StateKey>>);

impl ServerKey {
    /// The key, drawn now if this is its first use; `None` when the platform has no randomness.
    pub(crate) fn get(&self) -> Option<&StateKey> {
        self.0.get_or_init(StateKey::random).as_ref()
    }

    #[cfg(test)]
    pub(crate) fn fixed(byte: u8) -> Self {
        Self(OnceCell::from(Some(StateKey::fixed(byte))))
    }
}

impl StateKey {
    /// A fresh random key, or `None` when the platform has no randomness (then no state can be sealed).
    pub(crate) fn random() -> Option<Self> {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key).ok()?;
        Some(Self(key))
    }

    #[cfg(test)]
    pub(crate) fn fixed(byte: u8) -> Self {
        Self([byte; 32])
    }

    fn mac(&self, payload: &[u8]) -> Hmac<Sha256> {
        // HMAC takes keys of any length, so this cannot fail.
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&self.0).unwrap_or_else(|_| unreachable!());
        mac.update(payload);
        mac
    }
}

/// Why a `requestState` was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum StateError {
    /// Not of this server, or altered.
    Tampered,
    /// Made for another request (another method, name, URI or arguments).
    OtherRequest,
    /// Older than [`STATE_LIFETIME_MS`].
    Expired,
}

impl std::fmt::Display for StateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Tampered => "requestState was altered or was not issued by this server",
            Self::OtherRequest => "requestState was issued for another request",
            Self::Expired => "requestState has expired; send the request again without it",
        })
    }
}

#[derive(Serialize, Deserialize)]
struct Payload {
    /// The request it belongs to: [`binding`].
    r: String,
    /// When it expires, in milliseconds since the epoch.
    e: u64,
    /// The answers so far.
    a: Answers,
}

/// What a state is bound to: the method and the request's params without `_meta`, `inputResponses` and
/// `requestState` (a digest, so the state does not repeat the arguments).
pub(crate) fn binding(method: &str, params: &Value) -> String {
    // serde_json's maps are ordered, so equal params give equal text whatever order the client wrote them in; the
    // text is written from the params as they are, without copying their arguments. (`serde_json::to_string`
    // rather than `Display`, whose pretty form would be linked too.)
    let salient = match params {
        Value::Object(object) => {
            mcp_worker_protocol::members::text_without(object, &["_meta", "inputResponses", "requestState"])
        }
        other => serde_json::to_string(other).unwrap_or_default(),
    };
    let mut digest = Sha256::new();
    digest.update(method.as_bytes());
    digest.update([0]);
    digest.update(salient.as_bytes());
    hex(&digest.finalize())
}

/// Seals `answers` for the request `binding`, good until `now_ms` + [`STATE_LIFETIME_MS`].
pub(crate) fn seal(key: &StateKey, binding: &str, now_ms: u64, answers: &Answers) -> String {
    let payload = Payload { r: binding.to_owned(), e: now_ms.saturating_add(STATE_LIFETIME_MS), a: answers.clone() };
    let json = serde_json::to_string(&payload).unwrap_or_default();
    let tag = key.mac(json.as_bytes()).finalize().into_bytes();
    format!("{}.{json}", hex(&tag))
}

/// Opens a state this server sealed for the request `binding`, and returns its answers.
pub(crate) fn open(key: &StateKey, binding: &str, now_ms: u64, state: &str) -> Result<Answers, StateError> {
    let (tag, json) = state.split_once('.').ok_or(StateError::Tampered)?;
    let tag = unhex(tag).ok_or(StateError::Tampered)?;
    key.mac(json.as_bytes()).verify_slice(&tag).map_err(|_| StateError::Tampered)?;
    let payload: Payload = mcp_worker_protocol::json::from_str(json).map_err(|_| StateError::Tampered)?;
    if payload.r != binding {
        return Err(StateError::OtherRequest);
    }
    if now_ms > payload.e {
        return Err(StateError::Expired);
    }
    Ok(payload.a)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::with_capacity(bytes.len() * 2), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok()).collect()
}

#[cfg(test)]
#[path = "request_state_tests.rs"]
mod tests;
