//! Byte strings in stored records: lowercase hex, so a record stays plain JSON-like data that anyone can inspect
//! (and see that it holds nothing readable), and associated data built from length-prefixed fields, so that no two
//! different (server, name) pairs produce the same bytes.

/// Lowercase hex of `bytes`.
pub(crate) fn to_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
    out
}

/// The bytes of a hex string; `None` for an odd length or a character that is not a hex digit.
pub(crate) fn from_hex(text: &str) -> Option<Vec<u8>> {
    fn digit(c: u8) -> Option<u8> {
        match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            b'A'..=b'F' => Some(c - b'A' + 10),
            _ => None,
        }
    }
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(2) {
        return None;
    }
    bytes.chunks_exact(2).map(|pair| Some(digit(pair[0])? << 4 | digit(pair[1])?)).collect()
}

/// Associated data: a domain label, then each field as a 4-byte big-endian length and its bytes.
pub(crate) fn associated_data(label: &str, fields: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::with_capacity(label.len() + fields.iter().map(|f| f.len() + 4).sum::<usize>());
    out.extend_from_slice(label.as_bytes());
    for field in fields {
        // Lengths above u32::MAX cannot occur for names; saturating keeps this total without a panic path.
        let len = u32::try_from(field.len()).unwrap_or(u32::MAX);
        out.extend_from_slice(&len.to_be_bytes());
        out.extend_from_slice(field);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_rejects_garbage() {
        let bytes = [0u8, 1, 0x7f, 0x80, 0xff];
        assert_eq!(to_hex(&bytes), "00017f80ff");
        assert_eq!(from_hex("00017f80ff").unwrap(), bytes);
        assert_eq!(from_hex("00017F80FF").unwrap(), bytes);
        assert!(from_hex("abc").is_none());
        assert!(from_hex("zz").is_none());
        assert_eq!(from_hex("").unwrap(), Vec::<u8>::new());
    }

    #[test]
    fn fields_cannot_be_shifted_between_each_other() {
        // "ab" + "c" and "a" + "bc" must give different associated data.
        let one = associated_data("l", &[b"ab", b"c"]);
        let two = associated_data("l", &[b"a", b"bc"]);
        assert_ne!(one, two);
        assert_eq!(one, b"l\0\0\0\x02ab\0\0\0\x01c");
    }
}
