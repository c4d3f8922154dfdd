//! Where a server's worker runs, and what it may reach: its own opaque origin (a sandboxed frame without
//! `allow-same-origin`) with a Content-Security-Policy that allows only the network origins it declared.
//!
//! This module is the platform-free part: the policy, the frame's document, and the script every worker starts
//! with. The worker transport (`worker`, wasm32) puts them in the page.

use std::fmt;

/// The script of a server's sandboxed frame: starts the worker and relays the host's control messages
/// (`sandbox/frame.js` without its comment lines).
pub const FRAME_SCRIPT: &str = mcp_worker_protocol::js_without_comment_lines!(include_str!("sandbox/frame.js"));

/// The end of the prelude: imports the server's bootstrap (the constant `entry`, prepended by whoever starts the
/// worker).
const PRELUDE_IMPORT: &str = mcp_worker_protocol::js_without_comment_lines!(include_str!("sandbox/prelude.js"));

/// The first script of a worker the host starts from a script of its own (every sandboxed worker, and a worker on
/// the page's origin whose bundle does not run the guard itself): the worker guard (heartbeat, self-close notice,
/// blocked-request reports), then the server's bootstrap. `entry`, the bootstrap's URL, is defined before it.
///
/// With `wasm`, the URL of the server's wasm, the prelude compiles the wasm the page sends (`{ body }` on the port of
/// the control message `{ mcpWorker: "bundle", port }`: the body of the page's fetch through its HTTP cache, as a
/// stream; the worker fetches the URL itself when `body` is null) while the bootstrap loads and the handshake goes
/// on; the SDK's bootstrap takes that module when `connect` names the same wasm, or none. It runs the text of the
/// bootstrap the page sends on the same port (`{ script }`, a stream fetched through the page's cache) when that is a
/// bundle's one-module entry ([`mcp_worker_protocol::worker_entry`]), and imports `entry` otherwise.
pub fn worker_prelude(wasm: Option<&str>) -> String {
    let wasm = wasm.map_or_else(|| "null".to_owned(), js_string_literal);
    let mark = js_string_literal(mcp_worker_protocol::worker_entry::ONE_MODULE_ENTRY);
    format!(
        "const wasmUrl = {wasm};\nconst ONE_MODULE_ENTRY = {mark};\n{}{PRELUDE_IMPORT}",
        mcp_worker_protocol::worker_guard::WORKER_GUARD
    )
}

/// A JavaScript string literal of `text` (JSON's escaping is JavaScript's, plus the two line separators).
pub(crate) fn js_string_literal(text: &str) -> String {
    serde_json::to_string(text)
        .unwrap_or_else(|_| "\"\"".into())
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

/// The CSP hash source of [`FRAME_SCRIPT`]. A page that sends its own Content-Security-Policy must allow it in
/// `script-src` (the frame's document is `about:srcdoc`, which inherits the page's policy), and `worker-src blob:`.
pub const FRAME_SCRIPT_HASH: &str = "sha256-fbBGXHwRrfbmjyEPS1RHmAMjW6h7ZwjhQiFtyjDhLNs=";

/// Where a server's worker runs.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Isolation {
    /// In its own opaque origin (the default): no access to the page's storage, cookies, DOM or channels, nor to
    /// another server's; network only to the origins of its [`NetworkPolicy`].
    Sandboxed(NetworkPolicy),
    /// On the page's own origin: it can read and write everything the page can (its IndexedDB included) and reach
    /// any origin the page can. Only for servers the app trusts as it trusts its own code.
    PageOrigin,
}

impl Default for Isolation {
    fn default() -> Self {
        Self::Sandboxed(NetworkPolicy::none())
    }
}

impl Isolation {
    /// `"sandbox"` or `"page"`, as status reports show it.
    pub fn label(&self) -> &'static str {
        match self {
            Self::Sandboxed(_) => "sandbox",
            Self::PageOrigin => "page",
        }
    }
}

/// The network origins a sandboxed server may reach; everything else is blocked by the browser.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NetworkPolicy {
    origins: Vec<String>,
}

/// An entry of a network allowlist that is not an origin.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{entry}` is not a network origin: {reason} (expected e.g. `https://api.example.com`, `https://*.example.com` or `http://127.0.0.1:8080`)"
)]
pub struct InvalidOrigin {
    /// The entry as given.
    pub entry: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl NetworkPolicy {
    /// No network at all (the default).
    pub fn none() -> Self {
        Self::default()
    }

    /// The origins in `entries` (`scheme://host[:port]`, a host may start with `*.`), normalised; the first entry
    /// that is not an origin is the error.
    pub fn allow<I, S>(entries: I) -> Result<Self, InvalidOrigin>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut origins = Vec::new();
        for entry in entries {
            let origin = normalise_origin(entry.as_ref())?;
            if !origins.contains(&origin) {
                origins.push(origin);
            }
        }
        Ok(Self { origins })
    }

    /// The allowed origins, normalised.
    pub fn origins(&self) -> &[String] {
        &self.origins
    }

    /// Whether nothing is allowed.
    pub fn is_none(&self) -> bool {
        self.origins.is_empty()
    }
}

impl fmt::Display for NetworkPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.origins.is_empty() { f.write_str("no network") } else { f.write_str(&self.origins.join(" ")) }
    }
}

fn normalise_origin(entry: &str) -> Result<String, InvalidOrigin> {
    let invalid = |reason| InvalidOrigin { entry: entry.to_owned(), reason };
    let trimmed = entry.trim();
    let (scheme, rest) = trimmed.split_once("://").ok_or_else(|| invalid("it has no scheme"))?;
    let scheme = scheme.to_ascii_lowercase();
    if !matches!(scheme.as_str(), "https" | "http" | "wss" | "ws") {
        return Err(invalid("only http, https, ws and wss are network origins"));
    }
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    if rest.contains(['/', '?', '#', '@']) {
        return Err(invalid("an origin has no path, query, fragment or user"));
    }
    let (host, port) = split_port(rest).ok_or_else(|| invalid("its port is not a number from 1 to 65535"))?;
    let host = host.to_ascii_lowercase();
    let bare = host.strip_prefix("*.").unwrap_or(&host);
    let valid_host = if let Some(v6) = bare.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        !host.starts_with("*.") && !v6.is_empty() && v6.chars().all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.')
    } else {
        !bare.is_empty()
            && bare
                .split('.')
                .all(|label| !label.is_empty() && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
    };
    if !valid_host {
        return Err(invalid("its host is not a domain name or an IP address"));
    }
    Ok(match port {
        Some(port) => format!("{scheme}://{host}:{port}"),
        None => format!("{scheme}://{host}"),
    })
}

/// `host[:port]` → host and port; `None` when the port is not valid.
fn split_port(rest: &str) -> Option<(&str, Option<u16>)> {
    let colon = if rest.starts_with('[') { rest.find("]:").map(|i| i + 1) } else { rest.rfind(':') };
    match colon {
        None => Some((rest, None)),
        Some(i) => {
            let port: u16 = rest[i + 1..].parse().ok().filter(|p| *p > 0)?;
            Some((&rest[..i], Some(port)))
        }
    }
}

/// A request the browser blocked because the server's network policy does not allow it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct BlockedRequest {
    /// The server.
    pub server: String,
    /// The origin it tried to reach (never the path: it may carry secrets).
    pub origin: String,
    /// The CSP directive that blocked it (`connect-src` for fetch, XHR and WebSockets).
    pub directive: String,
}

impl BlockedRequest {
    /// A report of `server` being blocked from `origin` by `directive`.
    pub fn new(server: impl Into<String>, origin: impl Into<String>, directive: impl Into<String>) -> Self {
        Self { server: server.into(), origin: origin.into(), directive: directive.into() }
    }
}

/// What the sandboxed frame of one server allows: its bundle's scripts, its wasm, the policy's origins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FramePolicy<'a> {
    /// The absolute URL of the worker's entry script (the bundle's `bootstrap.js`); scripts in its directory load.
    pub entry_url: &'a str,
    /// The absolute URL of the server's wasm, when the worker fetches it itself.
    pub wasm_url: Option<&'a str>,
    /// The origins the server declared.
    pub network: &'a NetworkPolicy,
}

impl FramePolicy<'_> {
    /// The frame's Content-Security-Policy. Its workers inherit it: `connect-src` is the server's network.
    pub fn content_security_policy(&self) -> String {
        let scripts = csp_url(directory_of(self.entry_url));
        let mut connect: Vec<String> = self.wasm_url.map(csp_url).into_iter().collect();
        connect.extend(self.network.origins().iter().cloned());
        let connect = if connect.is_empty() { "'none'".to_owned() } else { connect.join(" ") };
        format!(
            "default-src 'none'; script-src '{FRAME_SCRIPT_HASH}' 'wasm-unsafe-eval' blob: {scripts}; \
             worker-src blob:; connect-src {connect}; base-uri 'none'; form-action 'none'"
        )
    }

    /// The frame's whole document (`srcdoc`): the policy first, then the frame script.
    pub fn document(&self) -> String {
        frame_document(&self.content_security_policy())
    }
}

/// The policy of a spare frame, made before the server it will run is known: the frame script, and scripts and
/// connections anywhere on the web. The host's first message to the frame adds the server's own policy
/// ([`FramePolicy::content_security_policy`]) before the worker exists; the browser enforces both, so the worker
/// can do only what the server's policy allows.
pub fn spare_frame_policy() -> String {
    format!(
        "default-src 'none'; script-src '{FRAME_SCRIPT_HASH}' 'wasm-unsafe-eval' blob: http: https:; worker-src blob:; \
         connect-src http: https: ws: wss:; base-uri 'none'; form-action 'none'"
    )
}

/// The document of a spare frame (`srcdoc`): [`spare_frame_policy`], then the frame script.
pub fn spare_frame_document() -> String {
    frame_document(&spare_frame_policy())
}

fn frame_document(policy: &str) -> String {
    format!(
        "<!doctype html><meta http-equiv=\"Content-Security-Policy\" content=\"{}\"><script>{FRAME_SCRIPT}</script>",
        escape_attribute(policy)
    )
}

/// `https://host/a/b/bootstrap.js` → `https://host/a/b/`.
fn directory_of(url: &str) -> &str {
    let path_start = url.find("://").map_or(0, |i| i + 3);
    match url[path_start..].rfind('/') {
        Some(i) => &url[..path_start + i + 1],
        None => url,
    }
}

/// A URL as a CSP source expression: the characters that end or split a source (`;`, `,`, whitespace, quotes)
/// percent-encoded (CSP matches paths after percent-decoding, so the meaning is kept).
fn csp_url(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    for c in url.chars() {
        match c {
            ';' | ',' | '\'' | '"' | '<' | '>' | '&' | '\\' => out.push_str(&format!("%{:02X}", c as u32)),
            c if c.is_whitespace() || c.is_control() => {
                let mut buf = [0; 4];
                for byte in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("%{byte:02X}"));
                }
            }
            c => out.push(c),
        }
    }
    out
}

fn escape_attribute(text: &str) -> String {
    text.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
#[path = "sandbox_tests.rs"]
mod tests;
