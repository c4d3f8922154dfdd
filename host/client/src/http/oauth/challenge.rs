//! `WWW-Authenticate` (RFC 9110 §11.6.1): one or more challenges, each an auth scheme followed by a token68 or by
//! comma-separated `name=value` parameters whose values are tokens or quoted strings. The commas that separate
//! challenges are the same as those between parameters, so a new challenge is recognised by a token that is not
//! followed by `=`. The browser joins several header lines with `, `, which this grammar reads the same way.
//!
//! The parser takes any text, never panics, and skips what it cannot read.

/// One challenge of a `WWW-Authenticate` header.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Challenge {
    /// The auth scheme as written (compare it case-insensitively).
    pub scheme: String,
    /// The parameters, names in lowercase (they are case-insensitive), values unquoted, in order.
    pub params: Vec<(String, String)>,
    /// The token68 that some schemes (Basic, Negotiate) carry instead of parameters.
    pub token68: Option<String>,
}

impl Challenge {
    /// The first value of the parameter `name` (lowercase).
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// What a `Bearer` challenge says (RFC 6750 §3, RFC 9728 §5.1). Empty values count as absent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct BearerChallenge {
    /// Where the server's protected resource metadata is.
    pub resource_metadata: Option<String>,
    /// The scopes the request needs, space-separated.
    pub scope: Option<String>,
    /// The error code: `invalid_token`, `insufficient_scope`, `invalid_request`.
    pub error: Option<String>,
    /// The error in words.
    pub error_description: Option<String>,
}

impl BearerChallenge {
    /// The `Bearer` challenge among those of `header`, if there is one.
    pub fn parse(header: &str) -> Option<Self> {
        let bearer = parse_challenges(header).into_iter().find(|c| c.scheme.eq_ignore_ascii_case("bearer"))?;
        let value = |name: &str| bearer.param(name).map(str::trim).filter(|v| !v.is_empty()).map(str::to_owned);
        Some(Self {
            resource_metadata: value("resource_metadata"),
            scope: value("scope"),
            error: value("error"),
            error_description: value("error_description"),
        })
    }

    /// Whether the server says the token lacks scope (a 403 that a step-up authorization may cure).
    pub fn is_insufficient_scope(&self) -> bool {
        self.error.as_deref() == Some("insufficient_scope")
    }
}

/// Every challenge of a `WWW-Authenticate` header, in order.
pub fn parse_challenges(header: &str) -> Vec<Challenge> {
    let mut reader = Reader { text: header.as_bytes(), at: 0 };
    let mut challenges = Vec::new();
    loop {
        reader.skip_separators();
        if reader.at_end() {
            return challenges;
        }
        let Some(scheme) = reader.token() else {
            reader.skip_unreadable();
            continue;
        };
        let mut challenge = Challenge { scheme, ..Challenge::default() };
        reader.skip_spaces();
        if let Some(token68) = reader.token68() {
            challenge.token68 = Some(token68);
        } else {
            reader.params(&mut challenge.params);
        }
        challenges.push(challenge);
    }
}

/// A cursor over the header's bytes. Every delimiter is ASCII, so slicing at one never splits a UTF-8 character.
struct Reader<'a> {
    text: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn at_end(&self) -> bool {
        self.at >= self.text.len()
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(is_space) {
            self.at += 1;
        }
    }

    fn skip_separators(&mut self) {
        while self.peek().is_some_and(|b| b == b',' || is_space(b)) {
            self.at += 1;
        }
    }

    /// Skips to the next comma, past anything that is not a challenge.
    fn skip_unreadable(&mut self) {
        while self.peek().is_some_and(|b| b != b',') {
            self.at += 1;
        }
    }

    fn token(&mut self) -> Option<String> {
        let start = self.at;
        while self.peek().is_some_and(is_tchar) {
            self.at += 1;
        }
        (self.at > start).then(|| String::from_utf8_lossy(&self.text[start..self.at]).into_owned())
    }

    /// A token68 (`1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`) that ends the challenge (the end,
    /// or a comma). Anything else leaves the cursor where it was.
    fn token68(&mut self) -> Option<String> {
        let start = self.at;
        let mut end = start;
        while self.text.get(end).copied().is_some_and(is_token68_char) {
            end += 1;
        }
        if end == start {
            return None;
        }
        while self.text.get(end) == Some(&b'=') {
            end += 1;
        }
        let mut after = end;
        while self.text.get(after).copied().is_some_and(is_space) {
            after += 1;
        }
        if after < self.text.len() && self.text[after] != b',' {
            return None;
        }
        // `name=` with nothing after it reads as a token68 with padding, which it may well be.
        self.at = after;
        Some(String::from_utf8_lossy(&self.text[start..end]).into_owned())
    }

    /// The parameters of one challenge, up to the token that starts the next challenge.
    fn params(&mut self, params: &mut Vec<(String, String)>) {
        loop {
            self.skip_separators();
            let start = self.at;
            let Some(name) = self.token() else {
                self.skip_unreadable();
                if self.at_end() {
                    return;
                }
                continue;
            };
            self.skip_spaces();
            if self.peek() != Some(b'=') {
                // A token without `=`: the scheme of the next challenge.
                self.at = start;
                return;
            }
            self.at += 1;
            self.skip_spaces();
            let value = if self.peek() == Some(b'"') { self.quoted_string() } else { self.token().unwrap_or_default() };
            params.push((name.to_ascii_lowercase(), value));
            self.skip_spaces();
            if !matches!(self.peek(), None | Some(b',')) {
                self.skip_unreadable();
            }
            if self.at_end() {
                return;
            }
        }
    }

    /// A quoted string from its opening quote: `\x` stands for `x`; an unterminated one runs to the end.
    fn quoted_string(&mut self) -> String {
        self.at += 1;
        let mut value = Vec::new();
        while let Some(byte) = self.peek() {
            self.at += 1;
            match byte {
                b'"' => break,
                b'\\' => {
                    if let Some(escaped) = self.peek() {
                        value.push(escaped);
                        self.at += 1;
                    }
                }
                byte => value.push(byte),
            }
        }
        String::from_utf8_lossy(&value).into_owned()
    }
}

/// Spaces and tabs, and the line breaks of a header folded over several lines (as the spec's examples are).
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r' | b'\n')
}

/// `tchar` of RFC 9110 §5.6.2.
fn is_tchar(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&byte)
}

fn is_token68_char(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"-._~+/".contains(&byte)
}

#[cfg(test)]
#[path = "challenge_tests.rs"]
mod tests;
