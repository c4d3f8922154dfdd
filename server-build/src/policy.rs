//! The Content-Security-Policy of the console's pages, for every server that serves the console: `cargo xtask demo`
//! and `mcp-worker dev`, so that a server author meets the policy a deployed console has.

/// The marker before the sandboxed frame script's CSP hash in `host/client/src/sandbox.rs`.
pub const FRAME_HASH_MARKER: &str = "pub const FRAME_SCRIPT_HASH: &str = \"";
/// The marker before the OAuth redirect page's CSP hash in `host/js/oauth-popup.mjs`.
pub const CALLBACK_HASH_MARKER: &str = "export const callbackScriptHash = \"";

/// The quoted text that follows `marker` in `source` (a hash constant of a source file), or `""`.
pub fn hash_after<'a>(source: &'a str, marker: &str) -> &'a str {
    source.split_once(marker).and_then(|(_, rest)| rest.split_once('"')).map_or("", |(hash, _)| hash)
}

/// The policy of the console and bench pages: scripts and workers from the site only (plus the servers' sandboxed
/// frames, whose script is allowed by `frame_hash`, their blob: workers, and the OAuth redirect page's one inline
/// script, by `callback_hash`), network to any http(s)/ws(s) origin (remote MCP servers), images and audio of results
/// inline (`data:`, `blob:`), no plugins, no framing by other sites.
pub fn console_page_policy(frame_hash: &str, callback_hash: &str) -> String {
    format!(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' '{frame_hash}' '{callback_hash}'; \
         style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; media-src 'self' data: blob:; \
         worker-src 'self' blob:; connect-src 'self' http: https: ws: wss:; \
         object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_is_read_after_its_marker() {
        let source = "/// doc\npub const FRAME_SCRIPT_HASH: &str = \"sha256-abc=\";\n";
        assert_eq!(hash_after(source, FRAME_HASH_MARKER), "sha256-abc=");
        assert_eq!(hash_after("nothing here", FRAME_HASH_MARKER), "");
        let policy = console_page_policy("sha256-a", "sha256-b");
        assert!(policy.contains("script-src 'self' 'wasm-unsafe-eval' 'sha256-a' 'sha256-b';"), "{policy}");
    }
}
