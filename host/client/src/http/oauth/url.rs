//! Absolute http(s) URLs split the way OAuth discovery needs them (RFC 3986 §3): scheme, host, port, path, query.
//! No URL library: the URLs come from the configuration (as the browser's `URL` wrote them) or from documents a
//! server published, and the questions asked of them are few (same origin? path prefix? https?).

use super::OAuthError;
use mcp_worker_protocol::quoted::quoted;

/// An absolute `http` or `https` URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct HttpUrl {
    /// `http` or `https`.
    pub(super) scheme: &'static str,
    /// The host in lowercase; an IPv6 address keeps its brackets.
    pub(super) host: String,
    /// The port, unless it is the scheme's default (omitted or written out, it is the same URL).
    pub(super) port: Option<u16>,
    /// The path as written: empty or starting with `/`.
    pub(super) path: String,
    /// The query, without its `?`.
    pub(super) query: Option<String>,
    /// Whether the URL has a fragment (`#…`).
    pub(super) has_fragment: bool,
}

impl HttpUrl {
    /// Splits `text`; the error says in words why it is not an absolute http(s) URL.
    pub(super) fn parse(text: &str) -> Result<Self, String> {
        if text.is_empty() {
            return Err("it is empty".to_owned());
        }
        if !text.bytes().all(|b| (0x21..=0x7e).contains(&b)) {
            return Err("it contains spaces or characters outside ASCII".to_owned());
        }
        let Some((scheme, rest)) = text.split_once("://") else {
            return Err("it is not absolute (it should start with https://)".to_owned());
        };
        let scheme = match scheme.to_ascii_lowercase().as_str() {
            "https" => "https",
            "http" => "http",
            _ => return Err(format!("its scheme is {scheme}, not https", scheme = quoted(scheme))),
        };
        let (rest, has_fragment) = match rest.split_once('#') {
            Some((before, _)) => (before, true),
            None => (rest, false),
        };
        let (rest, query) = match rest.split_once('?') {
            Some((before, query)) => (before, Some(query.to_owned())),
            None => (rest, None),
        };
        let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        if authority.contains('@') {
            return Err("it carries a user name or password".to_owned());
        }
        let (host, port) = split_host_port(authority)?;
        let default_port = if scheme == "https" { 443 } else { 80 };
        Ok(Self { scheme, host, port: port.filter(|&p| p != default_port), path: path.to_owned(), query, has_fragment })
    }

    /// `scheme://host[:port]`.
    pub(super) fn origin(&self) -> String {
        match self.port {
            Some(port) => format!("{}://{}:{port}", self.scheme, self.host),
            None => format!("{}://{}", self.scheme, self.host),
        }
    }

    /// The path without one terminating `/` (RFC 8414 §3.1): `""` for the root.
    pub(super) fn trimmed_path(&self) -> &str {
        self.path.strip_suffix('/').unwrap_or(&self.path)
    }

    /// Whether the host is this machine (`localhost`, `127.x.y.z`, `[::1]`), where plain http is tolerated.
    pub(super) fn is_loopback(&self) -> bool {
        self.host == "localhost" || self.host == "[::1]" || is_ipv4_loopback(&self.host)
    }

    /// Whether the URL is https, or http on this machine.
    pub(super) fn is_secure(&self) -> bool {
        self.scheme == "https" || self.is_loopback()
    }

    /// The URL of the well-known document `name` for this URL: the suffix goes between the host and the path
    /// (RFC 8414 §3.1, RFC 9728 §3.1), and the query stays at the end.
    pub(super) fn well_known(&self, name: &str) -> String {
        let query = self.query.as_deref().map(|q| format!("?{q}")).unwrap_or_default();
        format!("{}/.well-known/{name}{}{query}", self.origin(), self.trimmed_path())
    }

    /// Whether `self`, as a resource identifier, covers `target`: the same origin, no fragment, and a path that is
    /// `target`'s or a parent of it (a metadata document at the server's root describes the whole origin). A
    /// resource with a query covers only that exact path and query.
    pub(super) fn covers(&self, target: &Self) -> bool {
        if self.has_fragment || !self.same_origin(target) {
            return false;
        }
        let (base, path) = (self.trimmed_path(), target.trimmed_path());
        match &self.query {
            Some(query) => base == path && target.query.as_ref() == Some(query),
            None => path == base || path.strip_prefix(base).is_some_and(|rest| rest.starts_with('/')),
        }
    }

    /// Whether both are the same URL once scheme and host case, a default port and a terminating `/` are set aside.
    pub(super) fn same_as(&self, other: &Self) -> bool {
        self.same_origin(other)
            && self.trimmed_path() == other.trimmed_path()
            && self.query == other.query
            && self.has_fragment == other.has_fragment
    }

    fn same_origin(&self, other: &Self) -> bool {
        self.scheme == other.scheme && self.host == other.host && self.port == other.port
    }
}

/// Parses `url`, named `what` in the error.
pub(super) fn parse_url(what: &'static str, url: &str) -> Result<HttpUrl, OAuthError> {
    HttpUrl::parse(url).map_err(|reason| OAuthError::BadUrl { what, url: url.to_owned(), reason })
}

/// Parses `url` and requires https (or http on this machine): "All authorization server endpoints MUST be served
/// over HTTPS."
pub(super) fn parse_secure_url(what: &'static str, url: &str) -> Result<HttpUrl, OAuthError> {
    let parsed = parse_url(what, url)?;
    if !parsed.is_secure() {
        return Err(OAuthError::NotHttps { what, url: url.to_owned() });
    }
    Ok(parsed)
}

fn split_host_port(authority: &str) -> Result<(String, Option<u16>), String> {
    let (host, port) = if let Some(rest) = authority.strip_prefix('[') {
        let Some((inside, after)) = rest.split_once(']') else {
            return Err("its IPv6 host has no closing ]".to_owned());
        };
        let port = match after {
            "" => None,
            after => Some(
                after
                    .strip_prefix(':')
                    .ok_or_else(|| format!("{after} follows its IPv6 host", after = quoted(after)))?,
            ),
        };
        (format!("[{}]", inside.to_ascii_lowercase()), port)
    } else {
        match authority.rsplit_once(':') {
            Some((host, port)) => (host.to_ascii_lowercase(), Some(port)),
            None => (authority.to_ascii_lowercase(), None),
        }
    };
    if host.is_empty() || host == "[]" {
        return Err("it has no host".to_owned());
    }
    let port =
        match port {
            None | Some("") => None,
            Some(digits) => {
                Some(digits.parse::<u16>().ok().filter(|_| digits.bytes().all(|b| b.is_ascii_digit())).ok_or_else(
                    || format!("its port {digits} is not a number from 0 to 65535", digits = quoted(digits)),
                )?)
            }
        };
    Ok((host, port))
}

fn is_ipv4_loopback(host: &str) -> bool {
    let parts: Vec<&str> = host.split('.').collect();
    parts.len() == 4 && parts[0] == "127" && parts.iter().all(|part| part.parse::<u8>().is_ok())
}

#[cfg(test)]
#[path = "url_tests.rs"]
mod tests;
