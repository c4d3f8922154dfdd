//! A fingerprint of a build's inputs (FNV-1a, 64 bits): enough to tell whether they changed since the last time,
//! with no dependency. Not for anything an attacker chooses.

/// Inputs folded one after another; each ends with a separator, so that `["ab", "c"]` and `["a", "bc"]` differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fingerprint(u64);

impl Default for Fingerprint {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Fingerprint {
    /// Folds in one input.
    pub fn add(&mut self, bytes: &[u8]) -> &mut Self {
        for byte in bytes.iter().chain(&[0xff]) {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
        self
    }

    /// Folds in a file's contents (a missing file counts as empty).
    pub fn add_file(&mut self, path: &std::path::Path) -> &mut Self {
        self.add(&std::fs::read(path).unwrap_or_default())
    }

    /// As 16 hex digits.
    pub fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_told_apart_and_the_same_inputs_agree() {
        let of = |parts: &[&str]| {
            let mut fingerprint = Fingerprint::default();
            parts.iter().for_each(|part| {
                fingerprint.add(part.as_bytes());
            });
            fingerprint.hex()
        };
        assert_eq!(of(&["ab", "c"]), of(&["ab", "c"]));
        assert_ne!(of(&["ab", "c"]), of(&["a", "bc"]));
        assert_ne!(of(&["ab"]), of(&["ac"]));
        assert_eq!(of(&[]).len(), 16);
    }
}
