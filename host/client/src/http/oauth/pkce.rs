//! PKCE (RFC 7636) with S256, the only method MCP allows, and the `state` of an authorization. The randomness comes
//! from the caller (in the browser, `crypto.getRandomValues`), so that everything here is deterministic and testable.

use std::fmt;

use sha2::{Digest, Sha256};
use zeroize::Zeroizing;

use super::OAuthError;
use super::encoding::base64url;

/// The `code_challenge_method` sent.
pub const METHOD: &str = "S256";
/// How many random bytes make a verifier: 32 give 43 characters, the shortest RFC 7636 allows (256 bits).
pub const VERIFIER_RANDOM_BYTES: usize = 32;
/// How many random bytes make a state (128 bits).
pub const STATE_RANDOM_BYTES: usize = 16;

/// A code verifier and its S256 challenge. The verifier is a secret until the code is traded: it is zeroed when
/// dropped and never shown by `Debug`.
#[derive(Clone, PartialEq, Eq)]
pub struct Pkce {
    verifier: Zeroizing<String>,
    challenge: String,
}

impl Pkce {
    /// A verifier made of `random` (BASE64URL of the bytes: 32 to 96 of them give the 43 to 128 characters
    /// RFC 7636 §4.1 allows) and its challenge.
    pub fn from_random(random: &[u8]) -> Result<Self, OAuthError> {
        if random.len() < VERIFIER_RANDOM_BYTES {
            return Err(OAuthError::NotEnoughRandomness { needed: VERIFIER_RANDOM_BYTES, got: random.len() });
        }
        let random = random.get(..96).unwrap_or(random);
        Ok(Self::from_valid_verifier(Zeroizing::new(base64url(random))))
    }

    /// The pair for a verifier made elsewhere, if it is 43 to 128 characters of `A-Z a-z 0-9 - . _ ~`
    /// (RFC 7636 §4.1).
    pub fn from_verifier(verifier: &str) -> Option<Self> {
        let valid = (43..=128).contains(&verifier.len())
            && verifier.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~".contains(&b));
        valid.then(|| Self::from_valid_verifier(Zeroizing::new(verifier.to_owned())))
    }

    fn from_valid_verifier(verifier: Zeroizing<String>) -> Self {
        let challenge = s256_challenge(&verifier);
        Self { verifier, challenge }
    }

    /// The verifier: sent with the code to the token endpoint, nowhere else.
    pub fn verifier(&self) -> &str {
        &self.verifier
    }

    /// The challenge: sent in the authorization URL.
    pub fn challenge(&self) -> &str {
        &self.challenge
    }
}

impl fmt::Debug for Pkce {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pkce").field("verifier", &"<redacted>").field("challenge", &self.challenge).finish()
    }
}

/// `BASE64URL(SHA256(ASCII(verifier)))`, the S256 challenge of RFC 7636 §4.2.
pub fn s256_challenge(verifier: &str) -> String {
    base64url(&Sha256::digest(verifier.as_bytes()))
}

/// A `state` made of `random` (at least 16 bytes), which the redirect must bring back unchanged.
pub fn state_from_random(random: &[u8]) -> Result<String, OAuthError> {
    if random.len() < STATE_RANDOM_BYTES {
        return Err(OAuthError::NotEnoughRandomness { needed: STATE_RANDOM_BYTES, got: random.len() });
    }
    Ok(base64url(random))
}

#[cfg(test)]
#[path = "pkce_tests.rs"]
mod tests;
