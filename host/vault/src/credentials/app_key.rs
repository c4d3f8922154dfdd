//! The key an application supplies itself (key mode "application key").

use std::fmt;
use zeroize::Zeroizing;

/// A 256-bit key supplied by the application (key mode "application key"), for apps that keep their key elsewhere:
/// behind a login, derived from a passkey (WebAuthn PRF), or in a native shell.
#[derive(Clone)]
pub struct AppKey(Zeroizing<[u8; 32]>);

impl AppKey {
    /// Exactly 32 bytes; anything else is refused (a short key would be a weak key).
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        let array: [u8; 32] = bytes.try_into().ok()?;
        Some(Self(Zeroizing::new(array)))
    }

    pub(crate) fn bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl fmt::Debug for AppKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AppKey(<redacted>)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn app_keys_must_be_256_bits_and_never_shown() {
        assert!(AppKey::from_bytes(&[0; 31]).is_none());
        assert!(AppKey::from_bytes(&[0; 33]).is_none());
        let key = AppKey::from_bytes(&[7; 32]).unwrap();
        assert_eq!(key.bytes(), &[7; 32]);
        assert!(!format!("{key:?}").contains('7'));
    }
}
