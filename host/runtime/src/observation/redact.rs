//! Credential values scrubbed from events.
//!
//! A server receives its credentials in its environment, and nothing stops it from echoing one in a log message, a
//! tool result or an error. Events go to UIs and into agents' observation stores, so before an event is kept or
//! delivered, every credential value handed to any server is replaced by `[credential NAME]`.
//!
//! The redactor keeps no copy of a value: only its length and a keyed fingerprint (a polynomial hash under a base
//! drawn at random for each redactor), and it finds a value in a text by fingerprinting every window of that
//! length. So nothing readable stays in memory once the values handed to a server are dropped (and wiped), locked
//! vault or not, and a server that echoes its key after the vault was locked is still scrubbed. (A fingerprint does
//! not hide a short value from whoever reads the page's memory and tries every candidate: that reader could read the
//! key while unlocked anyway. It does keep long keys out of reach.)

use super::scrub::Scrub;
use crate::credentials::{CredentialDecl, Secret, ServerIdentity};
use crate::manager::{CredentialSource, CredentialsNeeded};
use futures_util::future::LocalBoxFuture;
use litemap::LiteMap;
use serde_json::Value;
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

/// Values shorter than this are not scrubbed: replacing every "a" or "42" would wreck the text and hide nothing
/// worth hiding.
pub const MIN_SCRUBBED_LEN: usize = 4;

/// What the redactor keeps of a value: its length in bytes and its fingerprint.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Fingerprint {
    len: usize,
    hash: u64,
}

/// The credential values given to each server, as fingerprints, to scrub from events.
pub struct Redactor {
    /// Odd, random: the base of the polynomial hash.
    base: u64,
    by_server: RefCell<LiteMap<String, Vec<(String, Fingerprint)>>>,
}

impl Default for Redactor {
    fn default() -> Self {
        Self::with_base(random_u64())
    }
}

impl fmt::Debug for Redactor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let servers: Vec<String> = self.by_server.borrow().keys().cloned().collect();
        f.debug_struct("Redactor").field("servers", &servers).finish_non_exhaustive()
    }
}

impl Redactor {
    /// Nothing to scrub yet.
    pub fn new() -> Self {
        Self::default()
    }

    fn with_base(base: u64) -> Self {
        Self { base: base | 1, by_server: RefCell::new(LiteMap::new()) }
    }

    /// Records the credentials `server` was just given (replacing what it was given before). Only fingerprints are
    /// kept; the values are dropped (and wiped) here.
    pub fn set_server(&self, server: &str, values: impl IntoIterator<Item = (String, Secret)>) {
        let kept: Vec<(String, Fingerprint)> = values
            .into_iter()
            .filter(|(_, value)| value.expose().len() >= MIN_SCRUBBED_LEN)
            .map(|(name, value)| {
                let bytes = value.expose().as_bytes();
                (name, Fingerprint { len: bytes.len(), hash: self.hash(bytes) })
            })
            .collect();
        let mut by_server = self.by_server.borrow_mut();
        if kept.is_empty() {
            by_server.remove(server);
        } else {
            by_server.insert(server.to_owned(), kept);
        }
    }

    /// Forgets a server's values (it was removed).
    pub fn forget_server(&self, server: &str) {
        self.by_server.borrow_mut().remove(server);
    }

    /// Whether there is anything to scrub.
    pub fn is_empty(&self) -> bool {
        self.by_server.borrow().is_empty()
    }

    /// Replaces every known value in `text` by `[credential NAME]` (values that overlap in the text are replaced
    /// together, by `[credentials A, B]`).
    pub fn scrub(&self, text: &mut String) {
        let by_server = self.by_server.borrow();
        let mut by_len: LiteMap<usize, Vec<(u64, &str)>> = LiteMap::new();
        for (name, print) in by_server.values().flatten() {
            by_len.entry(print.len).or_default().push((print.hash, name));
        }
        let found = self.find(text.as_bytes(), &by_len);
        if !found.is_empty() {
            *text = replace(text, found);
        }
    }

    /// Scrubs every string and every object key of `value`.
    pub fn scrub_json(&self, value: &mut Value) {
        if !self.is_empty() {
            value.scrub(&|text: &mut String| self.scrub(text));
        }
    }

    /// Scrubs a server's health (its last error).
    pub fn scrub_health(&self, health: &mut crate::manager::ServerHealth) {
        if !self.is_empty() {
            health.scrub(&|text: &mut String| self.scrub(text));
        }
    }

    /// Every window of `bytes` whose length and fingerprint are a value's, on character boundaries.
    fn find<'a>(&self, bytes: &[u8], by_len: &LiteMap<usize, Vec<(u64, &'a str)>>) -> Vec<(usize, usize, &'a str)> {
        let mut found = Vec::new();
        for (&len, prints) in by_len.iter().take_while(|(len, _)| **len <= bytes.len()) {
            // base^(len-1): what the leaving byte was multiplied by.
            let top = (1..len).fold(1u64, |power, _| power.wrapping_mul(self.base));
            let mut hash = self.hash(&bytes[..len]);
            for start in 0..=bytes.len() - len {
                if start > 0 {
                    let leaving = u64::from(bytes[start - 1]).wrapping_mul(top);
                    hash = hash
                        .wrapping_sub(leaving)
                        .wrapping_mul(self.base)
                        .wrapping_add(u64::from(bytes[start + len - 1]));
                }
                if let Some((_, name)) = prints.iter().find(|(print, _)| *print == hash) {
                    found.push((start, start + len, *name));
                }
            }
        }
        found
    }

    fn hash(&self, bytes: &[u8]) -> u64 {
        bytes.iter().fold(0u64, |hash, byte| hash.wrapping_mul(self.base).wrapping_add(u64::from(*byte)))
    }
}

/// `text` with the `found` ranges replaced by the names of what they hold; overlapping ranges are merged.
fn replace(text: &str, mut found: Vec<(usize, usize, &str)>) -> String {
    found.sort_unstable_by_key(|(start, end, _)| (*start, std::cmp::Reverse(*end)));
    let mut merged: Vec<(usize, usize, Vec<&str>)> = Vec::new();
    for (start, end, name) in found {
        match merged.last_mut() {
            Some((_, last_end, names)) if start < *last_end => {
                *last_end = (*last_end).max(end);
                names.push(name);
            }
            _ => merged.push((start, end, vec![name])),
        }
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (start, end, mut names) in merged {
        // A window that is not on character boundaries is a fingerprint collision, not a value: it stays.
        let (Some(before), Some(_)) = (text.get(at..start), text.get(start..end)) else { continue };
        out.push_str(before);
        names.sort_unstable();
        names.dedup();
        match names.as_slice() {
            [one] => out.push_str(&format!("[credential {one}]")),
            many => out.push_str(&format!("[credentials {}]", many.join(", "))),
        }
        at = end;
    }
    out.push_str(text.get(at..).unwrap_or_default());
    out
}

/// 64 random bits for a redactor's base: the browser's `Math.random` (the base needs to be unpredictable to
/// servers, not secret from the page), the process's random hasher keys natively.
fn random_u64() -> u64 {
    #[cfg(target_arch = "wasm32")]
    {
        let half = || (js_sys::Math::random() * f64::from(u32::MAX)) as u64;
        (half() << 32) ^ half()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::hash::BuildHasher;
        std::collections::hash_map::RandomState::new().hash_one(0u8)
    }
}

/// A credential source that tells the redactor what each server was given.
pub struct RedactingCredentials {
    source: Rc<dyn CredentialSource>,
    redactor: Rc<Redactor>,
}

impl fmt::Debug for RedactingCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedactingCredentials").field("redactor", &self.redactor).finish_non_exhaustive()
    }
}

impl RedactingCredentials {
    /// Wraps `source`; values it hands out are scrubbed by `redactor` from then on.
    pub fn new(source: Rc<dyn CredentialSource>, redactor: Rc<Redactor>) -> Self {
        Self { source, redactor }
    }
}

impl CredentialSource for RedactingCredentials {
    fn credentials(
        &self,
        server: &str,
        identity: &ServerIdentity,
        declared: &[CredentialDecl],
    ) -> LocalBoxFuture<'static, Result<Vec<(String, Secret)>, CredentialsNeeded>> {
        let values = self.source.credentials(server, identity, declared);
        let redactor = self.redactor.clone();
        let server = server.to_owned();
        Box::pin(async move {
            let values = values.await?;
            redactor.set_server(&server, values.iter().cloned());
            Ok(values)
        })
    }

    fn confirm_identity(&self, server: &str, identity: &ServerIdentity) -> LocalBoxFuture<'static, Result<(), String>> {
        self.source.confirm_identity(server, identity)
    }

    fn forget_server(&self, server: &str) -> LocalBoxFuture<'static, Result<(), String>> {
        self.source.forget_server(server)
    }

    fn saved_authorization(&self, server: &str, identity: &ServerIdentity) -> LocalBoxFuture<'static, Option<Secret>> {
        self.source.saved_authorization(server, identity)
    }

    fn save_authorization(
        &self,
        server: &str,
        identity: &ServerIdentity,
        record: Option<Secret>,
    ) -> LocalBoxFuture<'static, Result<(), String>> {
        self.source.save_authorization(server, identity, record)
    }
}

#[cfg(test)]
#[path = "redact_tests.rs"]
mod tests;
