//! Values that must not leak: a credential's plaintext and an application-supplied key. Both redact themselves in
//! `Debug`, have no `Display` or `Serialize`, and wipe their memory when dropped.

use std::fmt;
use zeroize::{Zeroize, Zeroizing};

/// A secret value (an API key, a token, a passphrase).
///
/// It prints as `Secret(<redacted>)`, cannot be serialized by accident, and its bytes are overwritten when it is
/// dropped. Copies made outside Rust (a JavaScript string, the `env` handed to a worker) are out of its reach.
#[derive(Clone, Default)]
pub struct Secret(Zeroizing<String>);

impl Secret {
    /// Wraps a value. The `String` moves in, so no unwiped copy stays behind in Rust memory.
    pub fn new(value: impl Into<String>) -> Self {
        Self(Zeroizing::new(value.into()))
    }

    /// Takes the plaintext out of decrypted bytes; the bytes are wiped whether or not they are UTF-8.
    pub fn from_utf8(mut bytes: Vec<u8>) -> Option<Self> {
        match std::str::from_utf8(&bytes) {
            Ok(_) => String::from_utf8(bytes).ok().map(Self::new),
            Err(_) => {
                bytes.zeroize();
                None
            }
        }
    }

    /// The plaintext. Call this only where the value is really needed (to encrypt it, or to hand it to the server
    /// that declared it).
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Appends text; the caller reserves the capacity first, so that no reallocation leaves a copy behind.
    pub(crate) fn push_str(&mut self, text: &str) {
        self.0.push_str(text);
    }

    /// Whether the value is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl From<String> for Secret {
    fn from(value: String) -> Self {
        Self::new(value)
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Self {
        Self::new(value)
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(<redacted>)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_output_never_shows_the_value() {
        let secret = Secret::new("sk-live-1234");
        assert_eq!(format!("{secret:?}"), "Secret(<redacted>)");
        assert_eq!(format!("{:?}", Some(&secret)), "Some(Secret(<redacted>))");
        assert_eq!(secret.expose(), "sk-live-1234");
    }

    #[test]
    fn decrypted_bytes_that_are_not_text_are_refused() {
        assert_eq!(Secret::from_utf8(b"token".to_vec()).unwrap().expose(), "token");
        assert!(Secret::from_utf8(vec![0xff, 0xfe]).is_none());
    }
}
