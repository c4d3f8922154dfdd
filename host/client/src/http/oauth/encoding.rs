//! The two encodings OAuth needs, written out rather than pulled in as crates (a few lines each, and the wasm ships
//! to every user): `application/x-www-form-urlencoded` (query strings, token request bodies, the client credentials
//! of RFC 6749 §2.3.1) and base64 (RFC 4648: padded standard for HTTP Basic, unpadded URL-safe for PKCE).

const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_SAFE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Form-encodes one name or value, as the URL standard's urlencoded serializer does: ASCII letters, digits and
/// `*-._` stay, a space becomes `+`, every other byte is `%XX`.
pub(super) fn form_encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for byte in value.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'*' | b'-' | b'.' | b'_' => out.push(char::from(byte)),
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// `name=value&…`, each part form-encoded.
pub(super) fn form_body(pairs: &[(&str, &str)]) -> String {
    let encoded: Vec<String> =
        pairs.iter().map(|(name, value)| format!("{}={}", form_encode(name), form_encode(value))).collect();
    encoded.join("&")
}

/// The pairs of a query string or form body (a leading `?` is skipped): `+` is a space, `%XX` a byte, and a `%`
/// not followed by two hex digits stays as it is. Bytes that are not UTF-8 become U+FFFD.
pub(super) fn form_pairs(query: &str) -> Vec<(String, String)> {
    let query = query.strip_prefix('?').unwrap_or(query);
    query
        .split('&')
        .filter(|part| !part.is_empty())
        .map(|part| {
            let (name, value) = part.split_once('=').unwrap_or((part, ""));
            (form_decode(name), form_decode(value))
        })
        .collect()
}

fn form_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => match (bytes.get(i + 1).and_then(hex_value), bytes.get(i + 2).and_then(hex_value)) {
                (Some(high), Some(low)) => {
                    out.push((high << 4) | low);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            byte => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex_value(digit: &u8) -> Option<u8> {
    char::from(*digit).to_digit(16).and_then(|d| u8::try_from(d).ok())
}

/// Standard base64 with padding.
pub(crate) fn base64(bytes: &[u8]) -> String {
    encode(bytes, STANDARD, true)
}

/// URL-safe base64 without padding (`BASE64URL` of RFC 7636).
pub(super) fn base64url(bytes: &[u8]) -> String {
    encode(bytes, URL_SAFE, false)
}

fn encode(bytes: &[u8], alphabet: &[u8; 64], pad: bool) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], chunk.get(1).copied().unwrap_or(0), chunk.get(2).copied().unwrap_or(0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let sextets = [n >> 18, n >> 12, n >> 6, n];
        for (i, sextet) in sextets.iter().enumerate() {
            if i <= chunk.len() {
                out.push(char::from(alphabet[(sextet & 63) as usize]));
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
#[path = "encoding_tests.rs"]
mod tests;
