//! What the site's server says about what it serves, and to whom it answers: a Content-Security-Policy on pages,
//! `nosniff` on everything, CORS on files so sandboxed servers (opaque origins) can load their bundles, and a
//! `Host` check against DNS rebinding.

/// The client crate's source, which holds the CSP hash of the sandboxed frame's script (checked by its tests).
const SANDBOX_SOURCE: &str = include_str!("../../../host/client/src/sandbox.rs");

/// The hash source pages must allow in `script-src` so that servers' sandboxed frames can run.
pub(crate) fn frame_script_hash() -> &'static str {
    let marker = "pub const FRAME_SCRIPT_HASH: &str = \"";
    SANDBOX_SOURCE.split_once(marker).and_then(|(_, rest)| rest.split_once('"')).map_or("", |(hash, _)| hash)
}

/// The Content-Security-Policy of the console and bench pages: scripts and workers from the site only (plus the
/// servers' sandboxed frames and their blob: workers), network to any http(s)/ws(s) origin (remote MCP servers),
/// images and audio of results inline (`data:`, `blob:`), no plugins, no framing by other sites.
pub(crate) fn page_policy() -> String {
    format!(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' '{}'; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data: blob:; media-src 'self' data: blob:; worker-src 'self' blob:; \
         connect-src 'self' http: https: ws: wss:; \
         object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        frame_script_hash()
    )
}

/// The headers every file gets, by Content-Type. The pages the end-to-end tests write into the site (`e2e-*.html`)
/// stand in for an application's own page, whose policy is the application's: they get none.
pub(crate) fn for_file(path: &std::path::Path, content_type: &str) -> Vec<(&'static str, String)> {
    let mut headers = vec![
        ("Content-Type", content_type.to_owned()),
        // Sandboxed servers load their bundles from an opaque origin: cross-origin, so with CORS.
        ("Access-Control-Allow-Origin", "*".to_owned()),
    ];
    let test_page = path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("e2e-"));
    if content_type.starts_with("text/html") && !test_page {
        headers.push(("Content-Security-Policy", page_policy()));
    }
    headers
}

/// Whether a request head's `Host` names this server as the browser reached it on 127.0.0.1: `127.0.0.1`,
/// `localhost` or `[::1]`, with the port. A page on another name that resolves here (DNS rebinding) is refused.
pub(crate) fn host_allowed(head: &str, port: u16) -> bool {
    let host = head.lines().skip(1).find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.trim().eq_ignore_ascii_case("host").then(|| value.trim().to_ascii_lowercase())
    });
    let Some(host) = host else { return false };
    ["127.0.0.1", "localhost", "[::1]"].iter().any(|name| host == format!("{name}:{port}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn the_frame_hash_is_read_from_the_client() {
        let hash = frame_script_hash();
        assert!(hash.starts_with("sha256-") && hash.len() == 51, "{hash}");
        assert!(page_policy().contains(&format!("'{hash}'")));
    }

    #[test]
    fn pages_get_a_policy_and_every_file_nosniff_and_cors() {
        let page = for_file(Path::new("index.html"), "text/html; charset=utf-8");
        assert!(
            page.iter()
                .any(|(name, value)| *name == "Content-Security-Policy" && value.contains("frame-ancestors 'none'"))
        );
        let test_page = for_file(Path::new("e2e-blank.html"), "text/html; charset=utf-8");
        assert!(!test_page.iter().any(|(name, _)| *name == "Content-Security-Policy"));
        let script = for_file(Path::new("server.js"), "text/javascript; charset=utf-8");
        assert!(!script.iter().any(|(name, _)| *name == "Content-Security-Policy"));
        assert!(script.iter().any(|(name, value)| *name == "Access-Control-Allow-Origin" && value == "*"));
    }

    #[test]
    fn only_loopback_names_with_the_port_are_answered() {
        let head = |host: &str| format!("GET / HTTP/1.1\r\nHost: {host}\r\nAccept: */*\r\n");
        assert!(host_allowed(&head("127.0.0.1:8080"), 8080));
        assert!(host_allowed(&head("localhost:8080"), 8080));
        assert!(host_allowed(&head("LOCALHOST:8080"), 8080));
        assert!(host_allowed(&head("[::1]:8080"), 8080));
        assert!(!host_allowed(&head("attacker.example:8080"), 8080));
        assert!(!host_allowed(&head("127.0.0.1.attacker.example:8080"), 8080));
        assert!(!host_allowed(&head("127.0.0.1:9090"), 8080));
        assert!(!host_allowed(&head("127.0.0.1"), 8080));
        assert!(!host_allowed("GET / HTTP/1.1\r\nAccept: */*\r\n", 8080));
    }
}
